#pragma once
// The on-disk cache of programs built at run time (CaKernel::cache_dir; used by the OpenCL
// backend). A program's key is a hash of everything that decides its binary: source, build
// options, platform, device and driver version. Entries are written under a temporary name and
// renamed into place, so that many processes starting at once (MPI ranks) neither race nor
// read a half-written file; an entry whose header or checksum does not match is ignored and
// rebuilt. A folder the cache creates is tagged with CACHEDIR.TAG (the Cache Directory Tagging
// Specification), and clearing removes only the cache's own entries.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace opuntia::thorns::CaKernel {

/// What a program binary depends on.
struct program_identity {
  std::string source;
  std::string options;
  std::string platform;
  std::string device;
  std::string driver_version;
};

class program_cache {
 public:
  /// `dir` empty: default_dir().
  explicit program_cache(std::filesystem::path dir);

  /// `$XDG_CACHE_HOME/opuntia`, or `~/.cache/opuntia` (`./.opuntia-cache` without a home).
  static std::filesystem::path default_dir();

  /// 16 hex digits, the same for the same identity on every run and machine.
  static std::string key(const program_identity& identity);

  const std::filesystem::path& dir() const { return dir_; }
  /// Where the binary of `key` lives: `<dir>/<key>.clbin`.
  std::filesystem::path path_of(const std::string& key) const;

  /// The stored binary of `key`; nullopt when absent, unreadable, truncated or corrupted.
  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  /// Stores `binary` atomically (temporary file, then rename). Failure to write is not an error
  /// for the run (the program is already built): returns false.
  bool store(const std::string& key, const std::vector<unsigned char>& binary) const;

  struct build_failure_files {
    std::filesystem::path source;  // <dir>/build-errors/<label>.cl
    std::filesystem::path log;     // <dir>/build-errors/<label>.log
  };
  /// Keeps a failed build's full source and log for the user to read, in a folder of the
  /// cache's own (so that clear() removes them too); throws std::runtime_error when it cannot.
  build_failure_files store_build_failure(const std::string& label, const std::string& source,
                                          const std::string& log) const;

  struct clear_summary {
    std::size_t removed = 0;  // entries (and temporaries left by a crash) deleted
    std::size_t kept = 0;     // other files and folders, left alone
    bool is_cache = false;    // the folder bears the cache's tag, or held entries
  };
  /// Removes what the cache wrote and nothing else: files named as entries (or their
  /// temporaries) that begin with the entry header. Other files, and folders, are kept, so a
  /// cache_dir that names a folder of the user's (".") loses nothing of theirs.
  clear_summary clear() const;

 private:
  std::filesystem::path dir_;
};

}  // namespace opuntia::thorns::CaKernel
