#include "generator/file_io.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "ccl/file_io.hpp"
#include "ccl/model/common.hpp"

namespace opuntia::gen {

namespace fs = std::filesystem;

namespace {

/// "a FIFO", "a socket", ... for "is not a regular file (it is ...)".
std::string kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    default: return "not a file";
  }
}

/// Whether `path` (canonical) is `root` (canonical) or under it.
bool is_within(const fs::path& path, const fs::path& root) {
  const auto relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

/// Walks the files under a folder, following links (to folders too, but never into a folder that
/// holds the one being walked, so that a link to a folder above cannot loop). Paths are given as
/// under the folder, links unresolved: `src/X.kernel` stays `src/X.kernel` when it is a link to
/// `../bodies/X.kernel`, and a linked folder's files are listed under both names.
struct folder_walk {
  /// Called with each path (as under the walked folder) and its relative name, for a regular file.
  std::function<void(const fs::path&, const std::string&)> on_file;
  /// Called with each path that cannot be walked or is not a regular file, and why.
  std::function<void(const fs::path&, const std::string&, const std::string&)> on_problem;
  /// Whether a link to `target` (canonical) is followed; else on_problem is told so.
  std::function<std::optional<std::string>(const fs::path& target)> refuse_link = [](const fs::path&) {
    return std::optional<std::string>{};
  };
  std::vector<fs::path> walking;  // the real folders being walked, outermost first

  void folder(const fs::path& path, const std::string& relative) {
    std::error_code ec;
    const auto real = fs::canonical(path, ec);
    if (!ec && std::find(walking.begin(), walking.end(), real) != walking.end()) return;
    walking.push_back(real);
    fs::directory_iterator it(path, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const auto name = it->path().filename().string();
      entry(it->path(), relative.empty() ? name : relative + "/" + name);
    }
    if (ec) on_problem(path, relative, "cannot read folder: " + ec.message());
    walking.pop_back();
  }

  void entry(const fs::path& path, const std::string& relative) {
    std::error_code ec;
    const bool link = fs::is_symlink(path, ec);
    const auto status = fs::status(path, ec);
    if (link && status.type() == fs::file_type::not_found) {
      on_problem(path, relative, "is a link to a missing file");
      return;
    }
    if (ec) {
      on_problem(path, relative, "cannot be read: " + ec.message());
      return;
    }
    if (link) {
      const auto target = fs::canonical(path, ec);
      if (ec) {
        on_problem(path, relative, "cannot be read: " + ec.message());
        return;
      }
      if (auto why = refuse_link(target)) {
        on_problem(path, relative, *why);
        return;
      }
    }
    if (fs::is_directory(status)) {
      folder(path, relative);
    } else if (fs::is_regular_file(status)) {
      on_file(path, relative);
    } else {
      on_problem(path, relative, "is not a regular file (it is " + kind_of(status.type()) + ")");
    }
  }
};

}  // namespace

fs::path normal_folder(const fs::path& given) {
  if (given.empty()) throw input_error(whole_file_error("opuntia-gen", "an empty path was given for a folder"));
  fs::path folder = given.lexically_normal();
  // `T/` (and `./T/.`, which lexically_normal makes `T/`) names the folder T.
  while (folder.has_relative_path() && folder.filename().empty()) folder = folder.parent_path();
  return folder;
}

std::string thorn_name(const fs::path& dir) {
  const auto last = dir.filename();
  if (!last.empty() && last != "." && last != "..") return last.string();
  std::error_code ec;
  const auto real = fs::weakly_canonical(dir, ec);
  return (ec ? dir : real).filename().string();
}

fs::path parent_folder(const fs::path& dir) {
  const auto parent = (dir / "..").lexically_normal();
  return normal_folder(parent.empty() ? fs::path(".") : parent);
}

thorn_sources read_thorn(const fs::path& dir_path) {
  const fs::path dir = normal_folder(dir_path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (fs::exists(dir, ec)) throw input_error(whole_file_error(dir.generic_string(), "is a file, not a thorn directory"));
    // A misspelt folder: the nearest of its would-be siblings.
    std::vector<std::string> siblings;
    for (const auto& entry : fs::directory_iterator(parent_folder(dir), ec)) {
      if (entry.is_directory(ec)) siblings.push_back(entry.path().filename().string());
    }
    throw input_error(whole_file_error(dir.generic_string(), "no such thorn directory" +
                                                                 did_you_mean(dir.filename().string(), siblings)));
  }
  thorn_sources t;
  t.dir = dir.generic_string();
  t.name = thorn_name(dir);
  if (!fs::exists(dir / "interface.ccl", ec) && !fs::is_symlink(dir / "interface.ccl", ec)) {
    throw input_error(whole_file_error((dir / "interface.ccl").generic_string(),
                                       "missing: every thorn has an interface.ccl, with at least its implements: line"));
  }
  t.interface_ccl = read_source(dir / "interface.ccl");
  const auto empty = [&](const char* name) { return source_file{(dir / name).generic_string(), ""}; };
  t.param_ccl = read_optional_source(dir / "param.ccl").value_or(empty("param.ccl"));
  t.schedule_ccl = read_optional_source(dir / "schedule.ccl").value_or(empty("schedule.ccl"));
  t.cakernel_ccl = read_optional_source(dir / "cakernel.ccl");

  auto& problems = t.unusable_files;
  const auto real_dir = fs::canonical(dir, ec);
  folder_walk walk;
  walk.on_file = [&](const fs::path& path, const std::string& relative) {
    t.present_files.push_back(relative);
    std::error_code size_error;
    if (fs::file_size(path, size_error) > thorn_sources::max_embedded_file_size || size_error) return;
    // Only for embedding; a body the thorn needs and cannot be read is reported where it is used.
    try {
      t.file_texts.emplace(relative, read_source(path).text);
    } catch (const input_error& e) {
      auto why = e.diagnostics().front().message;
      if (why.starts_with("cannot read file: ")) why.replace(0, 18, "cannot be read: ");
      problems[relative] = why;
    }
  };
  walk.on_problem = [&](const fs::path&, const std::string& relative, std::string why) {
    if (why.starts_with("cannot read folder: ")) why.replace(0, 20, "cannot be read: ");
    problems[relative] = why;
  };
  // A link may point anywhere inside the thorn (src/X.kernel -> ../bodies/X.kernel, a linked
  // src/); a body outside it is not the thorn's, and its build would not see it change.
  walk.refuse_link = [&](const fs::path& target) -> std::optional<std::string> {
    if (is_within(target, real_dir)) return std::nullopt;
    return fmt::format("is a link pointing outside thorn {} (to {})", t.dir, target.generic_string());
  };
  walk.folder(dir, "");
  std::sort(t.present_files.begin(), t.present_files.end());
  return t;
}

std::map<std::string, source_file> read_templates(const fs::path& dir_path) {
  const fs::path dir = normal_folder(dir_path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw input_error(whole_file_error(dir.generic_string(), "is not a templates directory"));
  }
  std::map<std::string, source_file> out;
  std::vector<diagnostic> problems;
  folder_walk walk;
  walk.on_file = [&](const fs::path& path, const std::string& relative) {
    try {
      out.emplace(relative, read_source(path));
    } catch (const input_error& e) {
      problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  };
  walk.on_problem = [&](const fs::path& path, const std::string&, const std::string& why) {
    problems.push_back(whole_file_error(path.generic_string(), why));
  };
  walk.folder(dir, "");
  if (!problems.empty()) throw input_error(problems);
  return out;
}

write_summary write_outputs(const fs::path& out_dir, const std::vector<generated_file>& files, const fs::path& stamp) {
  write_summary summary;
  std::vector<std::pair<fs::path, std::string>> changed;
  std::set<fs::path> folders;  // each once: what an interrupted generation left in them goes
  for (const auto& f : files) {
    const fs::path path = out_dir / f.path;
    if (folders.insert(path.parent_path()).second) remove_stale_temporaries(path.parent_path());
    if (const auto existing = read_if_possible(path)) {
      if (!f.replace) {
        ++summary.kept;
        continue;
      }
      if (*existing == f.text) {
        ++summary.unchanged;
        continue;
      }
    }
    changed.emplace_back(path, f.text);
  }
  summary.written = changed.size();
  // Renamed last, so that the stamp is never older than an output.
  if (!stamp.empty()) changed.emplace_back(stamp, "");
  write_files_atomically(changed);
  return summary;
}

void write_new_folder(const fs::path& folder, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code error;
  if (fs::exists(folder, error) || fs::is_symlink(folder, error)) {
    throw std::runtime_error(folder.string() + " exists already: choose another name or folder (nothing was written)");
  }
  const fs::path parent = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
  if (!fs::exists(parent, error)) throw std::runtime_error(parent.string() + " does not exist (nothing was written)");
  if (!fs::is_directory(parent, error)) {
    throw std::runtime_error(parent.string() + " is not a folder (nothing was written)");
  }
  // A thorn's folder is its name, and thorn names are case-insensitive: a folder that differs
  // only in case would be the same thorn twice.
  for (const auto& entry : fs::directory_iterator(parent, error)) {
    const auto name = entry.path().filename().string();
    if (ccl::iequals(name, folder.filename().string())) {
      throw std::runtime_error((parent / name).string() + " exists already, and names differing only in case are one " +
                               "thorn: choose another name or folder (nothing was written)");
    }
  }
  std::string hidden = ".";
  hidden += folder.filename().string();
  hidden += ".new";
  const fs::path staging = parent / hidden;
  fs::remove_all(staging, error);  // what an interrupted run left
  try {
    std::vector<std::pair<fs::path, std::string>> staged;
    for (const auto& [path, text] : files) {
      fs::create_directories((staging / path).parent_path());
      staged.emplace_back(staging / path, text);
    }
    write_files_atomically(staged);
    fs::rename(staging, folder);
  } catch (...) {
    fs::remove_all(staging, error);
    throw;
  }
}

}  // namespace opuntia::gen
