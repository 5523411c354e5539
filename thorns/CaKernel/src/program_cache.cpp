#include "program_cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
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

/// A name no other process or thread uses at the same time.
fs::path temporary_for(const fs::path& path) {
  static std::atomic<unsigned> counter{0};
  return path.parent_path() / fmt::format(".{}.tmp{}.{}", path.filename().string(), ::getpid(), counter++);
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
    write_atomically(path_of(key), fmt::format("{} {} {} {:016x}\n", magic, key, body.size(), fnv1a(body)) + body);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::size_t program_cache::clear() const {
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return 0;
  std::size_t removed = 0;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    std::error_code ignored;
    if (fs::remove_all(entry.path(), ignored) > 0) ++removed;
  }
  return removed;
}

void write_atomically(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (!path.parent_path().empty()) fs::create_directories(path.parent_path(), ec);
  const fs::path temporary = temporary_for(path);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      fs::remove(temporary, ec);
      throw std::runtime_error(fmt::format("{}: cannot write file", path.string()));
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw std::runtime_error(fmt::format("{}: cannot write file", path.string()));
  }
}

}  // namespace opuntia::thorns::CaKernel
