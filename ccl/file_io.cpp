#include "ccl/file_io.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <map>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <signal.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace opuntia::ccl {

namespace fs = std::filesystem;

namespace {

/// A carriage return not followed by a line feed ends a line (classic Mac OS files): it becomes a
/// line feed, one byte for one, so that columns stay what an editor shows. Without this, a file
/// whose lines all end in a bare CR is one line, and the comment that usually opens it swallows
/// the rest: the file would read as nothing, without a word.
void end_bare_carriage_return_lines(std::string& text) {
  for (std::size_t i = text.find('\r'); i != std::string::npos; i = text.find('\r', i + 1)) {
    if (i + 1 == text.size() || text[i + 1] != '\n') text[i] = '\n';
  }
}

/// The text of a file, or why it could not be read.
struct read_result {
  std::optional<std::string> text;
  int error = 0;           // errno of the failed call
  bool too_large = false;  // more than max_input_size bytes
  bool is_directory = false;
  const char* not_regular = nullptr;  // what the path is when it is not a regular file: "a FIFO", ...
};

/// Closes a file descriptor on every way out.
struct file_descriptor {
  int fd;
  ~file_descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

/// What a file that is neither regular nor a folder is, for "is not a regular file (...)".
const char* kind_of_special_file(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

/// Reads at most max_input_size bytes, in a loop (a file may grow while it is read). Only a
/// regular file, after symbolic links, is read: a FIFO would block the open or the reads for
/// ever, and a device such as /dev/zero never ends. A leading byte-order mark is dropped.
read_result read_bounded(const fs::path& path) {
  read_result result;
  // O_NONBLOCK: opening a FIFO without it waits for a writer; it changes nothing for a regular file.
  const file_descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  struct stat info {};
  if (file.fd < 0 || ::fstat(file.fd, &info) != 0) {
    result.error = errno;
    return result;
  }
  if (S_ISDIR(info.st_mode)) {
    result.is_directory = true;
    return result;
  }
  if (!S_ISREG(info.st_mode)) {
    result.not_regular = kind_of_special_file(info.st_mode);
    return result;
  }
  if (static_cast<std::uintmax_t>(info.st_size) > max_input_size) {
    result.too_large = true;
    return result;
  }
  std::string text;
  text.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t count = ::read(file.fd, buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) {
      result.error = errno;
      return result;
    }
    if (count == 0) break;
    if (text.size() + static_cast<std::size_t>(count) > max_input_size) {
      result.too_large = true;
      return result;
    }
    text.append(buffer, static_cast<std::size_t>(count));
  }
  // A UTF-8 byte-order mark is no part of the text: editors hide it, so columns count after it.
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  end_bare_carriage_return_lines(text);
  result.text = std::move(text);
  return result;
}

}  // namespace

std::optional<std::string> read_if_possible(const fs::path& path) { return read_bounded(path).text; }

std::optional<source_file> read_optional_source(const fs::path& path) {
  auto result = read_bounded(path);
  const auto shown = path.generic_string();
  if (result.text) return source_file{shown, std::move(*result.text)};
  if (result.error == ENOENT) {
    // A dangling link is a mistake to show, not an absent optional file.
    std::error_code ignored;
    if (fs::is_symlink(path, ignored)) throw input_error(whole_file_error(shown, "is a link to a missing file"));
    return std::nullopt;
  }
  if (result.is_directory) throw input_error(whole_file_error(shown, "is a directory, not a file"));
  if (result.not_regular) {
    throw input_error(whole_file_error(shown, fmt::format("is not a regular file (it is {})", result.not_regular)));
  }
  if (result.too_large) {
    throw input_error(whole_file_error(
        shown, fmt::format("file is larger than {} MiB, the limit for an input file", max_input_size >> 20)));
  }
  throw input_error(
      whole_file_error(shown, "cannot read file: " + std::generic_category().message(result.error)));
}

source_file read_source(const fs::path& path) {
  auto file = read_optional_source(path);
  if (!file) {
    throw input_error(
        whole_file_error(path.generic_string(), "cannot read file: " + std::generic_category().message(ENOENT)));
  }
  return std::move(*file);
}

void fill_line_texts_from_disk(std::vector<diagnostic>& diagnostics) {
  std::map<std::string, source_file> read;  // each file named by a diagnostic without a line, once
  for (const auto& d : diagnostics) {
    if (!d.line_text.empty() || d.where.line == 0 || read.count(d.where.path)) continue;
    if (auto text = read_if_possible(d.where.path)) read.emplace(d.where.path, source_file{d.where.path, std::move(*text)});
  }
  std::vector<const source_file*> files;
  for (const auto& [_, file] : read) files.push_back(&file);
  fill_line_texts(diagnostics, files);
}

namespace {

[[noreturn]] void cannot_write(const fs::path& path, int error) {
  throw input_error(
      whole_file_error(path.generic_string(), "cannot write file: " + std::generic_category().message(error)));
}

/// This host's name, as the temporaries carry it: a folder that several hosts share (a cache in
/// a home folder) holds others' too, whose processes this host cannot see.
const std::string& host_name() {
  static const std::string name = [] {
    char buffer[256] = {};
    ::gethostname(buffer, sizeof buffer - 1);
    return std::string(buffer);
  }();
  return name;
}

/// The process that wrote `name` where it is a temporary of this host (".NAME.tmp<host>.<pid>.<n>",
/// the pid and n numbers), else 0.
pid_t temporary_writer(const std::string& name) {
  const std::string mark = ".tmp" + host_name() + ".";
  const auto at = name.rfind(mark);
  if (name.size() < 2 || name.front() != '.' || at == std::string::npos || at == 0) return 0;
  const auto numbers = name.substr(at + mark.size());
  const auto dot = numbers.find('.');
  const auto is_number = [](std::string_view text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (dot == std::string::npos || dot > 9 || !is_number(std::string_view(numbers).substr(0, dot)) ||
      !is_number(std::string_view(numbers).substr(dot + 1))) {
    return 0;
  }
  return static_cast<pid_t>(std::stol(numbers.substr(0, dot)));
}

/// The files and folders a write has made so far, so that a failure can take them back.
struct staging {
  struct staged_file {
    fs::path target;
    fs::path temporary;
  };
  std::vector<staged_file> files;
  std::vector<fs::path> created_folders;  // outermost first

  /// Removes every temporary not yet renamed, then the folders made for them if left empty.
  void discard(std::size_t first_file = 0) {
    std::error_code ignored;
    for (std::size_t i = first_file; i < files.size(); ++i) fs::remove(files[i].temporary, ignored);
    for (auto it = created_folders.rbegin(); it != created_folders.rend(); ++it) {
      if (fs::is_empty(*it, ignored)) fs::remove(*it, ignored);
    }
  }

  /// Makes the folders above `path` that are missing, remembering each.
  void make_folders(const fs::path& path) {
    fs::path folder;
    for (const auto& part : path.parent_path()) {
      folder /= part;
      std::error_code ec;
      const auto status = fs::status(folder, ec);
      if (fs::is_directory(status)) continue;
      if (fs::exists(status)) cannot_write(path, ENOTDIR);  // a file stands where a folder must go
      if (!fs::create_directory(folder, ec) && ec) cannot_write(path, ec.value());
      created_folders.push_back(folder);
    }
  }

  /// Writes `text` to a temporary file beside `path`; nothing is at `path` yet.
  void stage(const fs::path& path, const std::string& text) {
    make_folders(path);
    std::error_code ec;
    if (fs::is_directory(path, ec)) cannot_write(path, EISDIR);
    // A name no other process or thread uses at the same time (MPI ranks, OpenCL program caches).
    static std::atomic<unsigned> counter{0};
    const fs::path temporary = path.parent_path() / fmt::format(".{}.tmp{}.{}.{}", path.filename().string(),
                                                                host_name(), ::getpid(), counter++);
    file_descriptor out{::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)};
    if (out.fd < 0) cannot_write(path, errno);
    files.push_back({path, temporary});
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t count = ::write(out.fd, text.data() + done, text.size() - done);
      if (count < 0 && errno == EINTR) continue;
      if (count < 0) cannot_write(path, errno);
      done += static_cast<std::size_t>(count);
    }
    // Some file systems report a failed write only when the file is closed.
    const int fd = std::exchange(out.fd, -1);
    if (::close(fd) != 0) cannot_write(path, errno);
  }

  /// Renames every temporary over its target. The checks of stage() leave little that can fail
  /// here; if a rename does, the temporaries left are removed.
  void commit() {
    for (std::size_t i = 0; i < files.size(); ++i) {
      std::error_code ec;
      fs::rename(files[i].temporary, files[i].target, ec);
      if (ec) {
        discard(i);
        cannot_write(files[i].target, ec.value());
      }
    }
  }
};

}  // namespace

void remove_stale_temporaries(const fs::path& folder) {
  // A write renames its temporaries within moments; one older than this whose writer is gone is
  // a leftover. The age guards against a writer this host cannot see that has its name (another
  // container sharing the host name and the folder).
  constexpr auto stale_after = std::chrono::minutes(1);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const pid_t writer = temporary_writer(entry.path().filename().string());
    // kill(pid, 0) fails with ESRCH only where no such process runs (EPERM: one runs, not ours).
    if (writer <= 0 || writer == ::getpid() || ::kill(writer, 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    const auto written = fs::last_write_time(entry.path(), ignored);
    if (ignored || fs::file_time_type::clock::now() - written < stale_after) continue;
    fs::remove(entry.path(), ignored);
  }
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  write_files_atomically({{path, text}});
}

void write_files_atomically(const std::vector<std::pair<fs::path, std::string>>& files) {
  staging staged;
  try {
    for (const auto& [path, text] : files) staged.stage(path, text);
  } catch (...) {
    staged.discard();
    throw;
  }
  staged.commit();
}

void append_whole(const fs::path& path, const std::string& text) {
  file_descriptor out{::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC)};
  if (out.fd < 0) cannot_write(path, errno);
  struct stat before {};
  if (::fstat(out.fd, &before) != 0) cannot_write(path, errno);
  const auto take_back = [&](int error) {
    if (out.fd >= 0) {
      (void)::ftruncate(out.fd, before.st_size);
    } else {
      (void)::truncate(path.c_str(), before.st_size);
    }
    cannot_write(path, error);
  };
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t count = ::write(out.fd, text.data() + done, text.size() - done);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) take_back(errno);
    done += static_cast<std::size_t>(count);
  }
  // Some file systems report a failed write only when the file is closed.
  if (::close(std::exchange(out.fd, -1)) != 0) take_back(errno);
}

}  // namespace opuntia::ccl
