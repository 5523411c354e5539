#include "ccl/source_file.hpp"

#include <algorithm>

namespace opuntia::ccl {

const std::vector<std::size_t>& source_file::line_starts() const {
  if (line_starts_cache.empty() || line_starts_cache_size != text.size()) {
    line_starts_cache.assign(1, 0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') line_starts_cache.push_back(i + 1);
    }
    line_starts_cache_size = text.size();
  }
  return line_starts_cache;
}

std::string source_file::line_text(std::size_t line) const {
  const auto& starts = line_starts();
  if (line == 0 || line > starts.size()) return {};
  const std::size_t begin = starts[line - 1];
  std::size_t end = line < starts.size() ? starts[line] - 1 : text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

source_location source_file::location_of(std::size_t offset) const {
  if (!written_at.empty()) return written_at[std::min(offset, written_at.size() - 1)];
  offset = std::min(offset, text.size());
  const auto& starts = line_starts();
  const auto line = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
  return source_location{path, line, offset - starts[line - 1] + 1};
}

source_location source_file::place_of(std::size_t line, std::size_t column) const {
  if (written_at.empty() || line == 0) return source_location{path, line, column};
  const auto& starts = line_starts();
  const std::size_t offset = line <= starts.size() ? starts[line - 1] : text.size();
  return location_of(offset + (column > 0 ? column - 1 : 0));
}

diagnostic source_file::error_at(std::size_t line, std::size_t column, std::string message) const {
  const auto where = place_of(line, column);
  return diagnostic{where, std::move(message), written_at.empty() ? line_text(line) : std::string()};
}

diagnostic source_file::error_at_offset(std::size_t offset, std::string message) const {
  const auto where = location_of(offset);
  return diagnostic{where, std::move(message), written_at.empty() ? line_text(where.line) : std::string()};
}

void fill_line_texts(std::vector<diagnostic>& diagnostics, const std::vector<const source_file*>& files) {
  for (auto& d : diagnostics) {
    if (!d.line_text.empty() || d.where.line == 0) continue;
    for (const auto* f : files) {
      if (f->path == d.where.path) {
        d.line_text = f->line_text(d.where.line);
        break;
      }
    }
  }
}

diagnostic error_at(const source_file& file, const source_location& where, std::string message) {
  diagnostic d{where, std::move(message), {}};
  if (where.path == file.path) d.line_text = file.line_text(where.line);
  return d;
}

}  // namespace opuntia::ccl
