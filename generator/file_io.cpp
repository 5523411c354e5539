#include "generator/file_io.hpp"

#include <algorithm>
#include <map>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <unistd.h>

namespace opuntia::gen {

namespace fs = std::filesystem;

std::optional<source_file> read_optional_source(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return source_file{path.generic_string(), text.str()};
}

source_file read_source(const fs::path& path) {
  if (fs::is_directory(path)) {
    throw generator_error(whole_file_error(path.generic_string(), "is a directory, not a file"));
  }
  auto file = read_optional_source(path);
  if (!file) throw generator_error(whole_file_error(path.generic_string(), "cannot read file"));
  return std::move(*file);
}

thorn_sources read_thorn(const fs::path& dir_path) {
  const fs::path dir = dir_path.lexically_normal();
  if (!fs::is_directory(dir)) {
    throw generator_error(whole_file_error(dir.generic_string(), "is not a thorn directory"));
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
      if (auto file = read_optional_source(it->path())) t.file_texts.emplace(relative, std::move(file->text));
    }
  }
  std::sort(t.present_files.begin(), t.present_files.end());
  return t;
}

std::map<std::string, source_file> read_templates(const fs::path& dir) {
  if (!fs::is_directory(dir)) {
    throw generator_error(whole_file_error(dir.generic_string(), "is not a templates directory"));
  }
  std::map<std::string, source_file> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    out.emplace(fs::relative(entry.path(), dir).generic_string(), read_source(entry.path()));
  }
  return out;
}

void fill_line_texts_from_disk(std::vector<diagnostic>& diagnostics) {
  std::map<std::string, source_file> read;  // each file named by a diagnostic without a line, once
  for (const auto& d : diagnostics) {
    if (!d.line_text.empty() || d.where.line == 0 || read.count(d.where.path)) continue;
    if (auto file = read_optional_source(d.where.path)) read.emplace(d.where.path, std::move(*file));
  }
  std::vector<const source_file*> files;
  for (const auto& [_, file] : read) files.push_back(&file);
  fill_line_texts(diagnostics, files);
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  if (!path.parent_path().empty()) fs::create_directories(path.parent_path());
  const fs::path temporary = path.parent_path() / fmt::format(".{}.tmp{}", path.filename().string(), ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw generator_error(whole_file_error(path.generic_string(), "cannot write file"));
    }
  }
  fs::rename(temporary, path);
}

write_summary write_outputs(const fs::path& out_dir, const std::vector<generated_file>& files) {
  write_summary summary;
  for (const auto& f : files) {
    const fs::path path = out_dir / f.path;
    if (const auto existing = read_optional_source(path)) {
      if (!f.replace) {
        ++summary.kept;
        continue;
      }
      if (existing->text == f.text) {
        ++summary.unchanged;
        continue;
      }
    }
    write_file_atomically(path, f.text);
    ++summary.written;
  }
  return summary;
}

}  // namespace opuntia::gen
