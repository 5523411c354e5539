#pragma once
// The generator's only contact with the file system: reading inputs, writing outputs atomically.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "generator/generate.hpp"
#include "generator/source_file.hpp"

namespace opuntia::gen {

/// Reads a file; throws generator_error "path: error: cannot read ..." when it cannot.
source_file read_source(const std::filesystem::path& path);
std::optional<source_file> read_optional_source(const std::filesystem::path& path);

/// Reads interface/param/schedule/cakernel.ccl of a thorn directory.
thorn_sources read_thorn(const std::filesystem::path& dir);

/// Every file under `dir`, keyed by its path relative to `dir` with '/' separators.
std::map<std::string, source_file> read_templates(const std::filesystem::path& dir);

struct write_summary {
  std::size_t written = 0;
  std::size_t unchanged = 0;
  std::size_t kept = 0;  // replace=no outputs that already existed
};

/// Writes each file under `out_dir` through a temporary name and a rename, skipping files whose
/// content is unchanged (so builds do not redo work) and existing replace=no files.
write_summary write_outputs(const std::filesystem::path& out_dir, const std::vector<generated_file>& files);

/// Fills the missing line text of each diagnostic from its file on disk, when it can be read
/// (diagnostics made at run time point into CCL files the program no longer holds).
void fill_line_texts_from_disk(std::vector<diagnostic>& diagnostics);

/// Writes `text` to `path` atomically: a temporary file in the same directory, then a rename.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace opuntia::gen
