#include "program_cache.hpp"

#include "ccl/file_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace opuntia::thorns::CaKernel {
namespace fs = std::filesystem;
namespace {

// A file holds this header line, then the binary: `<magic> <key> <size> <checksum>\n`.
constexpr const char* magic = "opuntia-opencl-program-1";

std::uint64_t fnv1a(const std::string& bytes, std::uint64_t hash = 14695981039346656037ull) {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

std::string as_text(const std::vector<unsigned char>& binary) { return std::string(binary.begin(), binary.end()); }

/// The Cache Directory Tagging Specification's tag (https://bford.info/cachedir/): backup tools
/// skip a folder that has it, and clear() knows the folder for one that the cache made.
constexpr const char* tag_name = "CACHEDIR.TAG";
constexpr const char* build_errors_folder = "build-errors";
constexpr const char* tag_text =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by opuntia (CaKernel::cache_dir).\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n";

/// `<key>.clbin`: an entry's name (path_of).
bool is_entry_name(std::string_view name) {
  constexpr std::string_view suffix = ".clbin";
  return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
}

/// `.<entry name>.tmp<host>.<pid>.<n>`: the temporary ccl::write_file_atomically writes an entry to,
/// which a crash can leave behind.
bool is_temporary_name(std::string_view name) {
  if (name.empty() || name.front() != '.') return false;
  const auto tmp = name.find(".tmp", 1);
  return tmp != std::string_view::npos && is_entry_name(name.substr(1, tmp - 1));
}

/// Creates `dir` tagged as a cache when it does not exist; one that was there before (say
/// cache_dir = ".") is left untagged, since the tag would hide the user's files from backups.
void make_tagged_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) return;
  fs::create_directories(dir);
  ccl::write_file_atomically(dir / tag_name, tag_text);
}

/// Whether the file begins with the entry header's magic: the cache wrote it.
bool starts_with_magic(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string expected = std::string(magic) + ' ';
  std::string head(expected.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in.gcount() == static_cast<std::streamsize>(head.size()) && head == expected;
}


}  // namespace

program_cache::program_cache(fs::path dir) : dir_(dir.empty() ? default_dir() : std::move(dir)) {}

fs::path program_cache::default_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') return fs::path(xdg) / "opuntia";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return fs::path(home) / ".cache" / "opuntia";
  return fs::path(".opuntia-cache");
}

std::string program_cache::key(const program_identity& identity) {
  // Each part ends in a NUL so that moving text from one part to the next changes the key.
  std::uint64_t hash = 14695981039346656037ull;
  for (const auto* part :
       {&identity.source, &identity.options, &identity.platform, &identity.device, &identity.driver_version}) {
    hash = fnv1a(*part + '\0', hash);
  }
  return fmt::format("{:016x}", hash);
}

fs::path program_cache::path_of(const std::string& key) const { return dir_ / (key + ".clbin"); }

std::optional<std::vector<unsigned char>> program_cache::load(const std::string& key) const {
  std::ifstream in(path_of(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string header;
  if (!std::getline(in, header)) return std::nullopt;
  std::istringstream fields(header);
  std::string file_magic, file_key;
  std::size_t size = 0;
  std::uint64_t checksum = 0;
  if (!(fields >> file_magic >> file_key >> size >> std::hex >> checksum)) return std::nullopt;
  if (file_magic != magic || file_key != key) return std::nullopt;
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (body.size() != size || fnv1a(body) != checksum) return std::nullopt;
  return std::vector<unsigned char>(body.begin(), body.end());
}

bool program_cache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
  const std::string body = as_text(binary);
  try {
    // A folder the cache makes itself is tagged as a cache; one that was there before (say
    // cache_dir = ".") is not, since the tag would hide the user's files from backups.
    make_tagged_dir(dir_);
    ccl::write_file_atomically(path_of(key),
                               fmt::format("{} {} {} {:016x}\n", magic, key, body.size(), fnv1a(body)) + body);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

program_cache::build_failure_files program_cache::store_build_failure(const std::string& label,
                                                                       const std::string& source,
                                                                       const std::string& log) const {
  make_tagged_dir(dir_);
  const fs::path folder = dir_ / build_errors_folder;
  make_tagged_dir(folder);
  build_failure_files files{folder / (label + ".cl"), folder / (label + ".log")};
  ccl::write_file_atomically(files.source, source);
  ccl::write_file_atomically(files.log, log);
  return files;
}

program_cache::clear_summary program_cache::clear() const {
  clear_summary summary;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return summary;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const auto name = entry.path().filename().string();
    if (name == tag_name) continue;
    std::error_code ignored;
    if (name == build_errors_folder && entry.is_directory(ignored) && fs::exists(entry.path() / tag_name, ignored)) {
      // The folder of failed builds' sources and logs, which store_build_failure made: its .cl
      // and .log files, then its tag and the folder if nothing of anyone else's is in it.
      bool only_tag_left = true;
      for (const auto& report : fs::directory_iterator(entry.path(), ignored)) {
        const auto ext = report.path().extension();
        if (report.is_regular_file(ignored) && (ext == ".cl" || ext == ".log") && fs::remove(report.path(), ignored)) {
          ++summary.removed;
        } else if (report.path().filename() != tag_name) {
          only_tag_left = false;
        }
      }
      if (only_tag_left) {
        fs::remove(entry.path() / tag_name, ignored);
        fs::remove(entry.path(), ignored);
      } else {
        ++summary.kept;
      }
      continue;
    }
    const bool ours = entry.is_regular_file(ignored) && (is_entry_name(name) || is_temporary_name(name)) &&
                      starts_with_magic(entry.path());
    if (!ours) {
      ++summary.kept;
      continue;
    }
    if (fs::remove(entry.path(), ignored)) ++summary.removed;
  }
  summary.is_cache = summary.removed > 0 || fs::exists(dir_ / tag_name, ec);
  return summary;
}

}  // namespace opuntia::thorns::CaKernel
