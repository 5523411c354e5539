#include "generator/file_io.hpp"

#include <algorithm>
#include <map>
#include <system_error>

#include "ccl/file_io.hpp"

namespace opuntia::gen {

namespace fs = std::filesystem;

thorn_sources read_thorn(const fs::path& dir_path) {
  const fs::path dir = dir_path.lexically_normal();
  if (!fs::is_directory(dir)) {
    throw input_error(whole_file_error(dir.generic_string(), "is not a thorn directory"));
  }
  thorn_sources t;
  t.dir = dir.generic_string();
  t.name = (dir.filename().empty() ? dir.parent_path() : dir).filename().string();
  t.interface_ccl = read_source(dir / "interface.ccl");
  const auto empty = [&](const char* name) { return source_file{(dir / name).generic_string(), ""}; };
  t.param_ccl = read_optional_source(dir / "param.ccl").value_or(empty("param.ccl"));
  t.schedule_ccl = read_optional_source(dir / "schedule.ccl").value_or(empty("schedule.ccl"));
  t.cakernel_ccl = read_optional_source(dir / "cakernel.ccl");
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const auto relative = fs::relative(it->path(), dir).generic_string();
    t.present_files.push_back(relative);
    std::error_code size_error;
    if (fs::file_size(it->path(), size_error) <= thorn_sources::max_embedded_file_size && !size_error) {
      // Only for embedding; a body the thorn needs and cannot be read is reported where it is used.
      if (auto text = read_if_possible(it->path())) t.file_texts.emplace(relative, std::move(*text));
    }
  }
  std::sort(t.present_files.begin(), t.present_files.end());
  return t;
}

std::map<std::string, source_file> read_templates(const fs::path& dir) {
  if (!fs::is_directory(dir)) {
    throw input_error(whole_file_error(dir.generic_string(), "is not a templates directory"));
  }
  std::map<std::string, source_file> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    out.emplace(fs::relative(entry.path(), dir).generic_string(), read_source(entry.path()));
  }
  return out;
}

write_summary write_outputs(const fs::path& out_dir, const std::vector<generated_file>& files) {
  write_summary summary;
  std::vector<std::pair<fs::path, std::string>> changed;
  for (const auto& f : files) {
    const fs::path path = out_dir / f.path;
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
  write_files_atomically(changed);
  summary.written = changed.size();
  return summary;
}

void write_new_folder(const fs::path& folder, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code error;
  if (fs::exists(folder, error) || fs::is_symlink(folder, error)) {
    throw std::runtime_error(folder.string() + " exists already: choose another name or folder (nothing was written)");
  }
  const fs::path parent = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
  if (!fs::is_directory(parent, error)) {
    throw std::runtime_error(parent.string() + " is not a folder (nothing was written)");
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
