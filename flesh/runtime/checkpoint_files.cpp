#include "flesh/runtime/checkpoint_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>

namespace opuntia {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view prefix = "checkpoint.it";
}  // namespace

fs::path checkpoint_path(const fs::path& dir, int iteration, std::string_view extension) {
  return dir / fmt::format("{}{}{}", prefix, iteration, extension);
}

std::vector<checkpoint_file> checkpoints_in(const fs::path& dir, std::string_view extension) {
  std::vector<checkpoint_file> out;
  std::error_code error;
  for (fs::directory_iterator entry(dir, error), end; !error && entry != end; entry.increment(error)) {
    const auto name = entry->path().filename().string();
    const std::string_view text(name);
    if (!text.starts_with(prefix) || !text.ends_with(extension) || text.size() <= prefix.size() + extension.size()) {
      continue;
    }
    const auto digits = text.substr(prefix.size(), text.size() - prefix.size() - extension.size());
    checkpoint_file found;
    const auto [end_of_number, failed] = std::from_chars(digits.data(), digits.data() + digits.size(), found.iteration);
    // Digits only, as checkpoint_path() writes them: "it08" or "it+8" is someone else's file.
    if (failed != std::errc() || end_of_number != digits.data() + digits.size() || digits.front() == '-' ||
        (digits.size() > 1 && digits.front() == '0')) {
      continue;
    }
    std::error_code not_regular;
    if (!entry->is_regular_file(not_regular)) continue;
    found.path = entry->path();
    out.push_back(std::move(found));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.iteration < b.iteration; });
  return out;
}

std::vector<fs::path> remove_old_checkpoints(const fs::path& dir, std::string_view extension, int written, int keep) {
  std::vector<checkpoint_file> older;
  for (auto& c : checkpoints_in(dir, extension)) {
    if (c.iteration < written) older.push_back(std::move(c));
  }
  const auto kept_older = static_cast<std::size_t>(std::max(0, keep - 1));
  std::vector<fs::path> removed;
  for (std::size_t i = 0; i + kept_older < older.size(); ++i) {
    std::error_code error;
    if (fs::remove(older[i].path, error)) removed.push_back(older[i].path);
  }
  return removed;
}

}  // namespace opuntia
