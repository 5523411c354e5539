#pragma once
// The generator's contact with the file system: a thorn's files, the templates, the outputs.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ccl/file_io.hpp"
#include "generator/generate.hpp"

namespace opuntia::gen {

/// Reads interface/param/schedule/cakernel.ccl of a thorn directory.
thorn_sources read_thorn(const std::filesystem::path& dir);

/// Every file under `dir`, keyed by its path relative to `dir` with '/' separators.
std::map<std::string, source_file> read_templates(const std::filesystem::path& dir);

struct write_summary {
  std::size_t written = 0;
  std::size_t unchanged = 0;
  std::size_t kept = 0;  // replace=no outputs that already existed
};

/// Writes each file under `out_dir`, all or none (see write_files_atomically), skipping files whose
/// content is unchanged (so builds do not redo work) and existing replace=no files.
write_summary write_outputs(const std::filesystem::path& out_dir, const std::vector<generated_file>& files);

/// Creates `folder`, which must not exist, holding `files` (paths relative to it, '/' separated):
/// written into a hidden sibling folder first and renamed into place, so that a failure leaves
/// nothing behind. Throws std::runtime_error naming the folder.
void write_new_folder(const std::filesystem::path& folder,
                      const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace opuntia::gen
