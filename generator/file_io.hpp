#pragma once
// The generator's contact with the file system: a thorn's files, the templates, the outputs.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ccl/file_io.hpp"
#include "generator/generate.hpp"

namespace opuntia::gen {

/// A folder named on the command line as diagnostics show it: `./T/.` and `T/` are `T`; `.`
/// stays `.` (thorn_name finds its name). Throws input_error when `given` is empty.
std::filesystem::path normal_folder(const std::filesystem::path& given);

/// The name of the thorn in `dir` (a normal_folder): its last component, or that of its real
/// path for `.` and `..`.
std::string thorn_name(const std::filesystem::path& dir);

/// The folder holding the thorn `dir` (a normal_folder), whose other folders are its siblings.
std::filesystem::path parent_folder(const std::filesystem::path& dir);

/// Reads interface/param/schedule/cakernel.ccl of a thorn directory, and lists (and reads, up
/// to max_embedded_file_size) every regular file under it, through links that stay inside it.
/// Every file or folder found there that cannot serve as a kernel body goes, with why, to
/// thorn_sources::unusable_files.
thorn_sources read_thorn(const std::filesystem::path& dir);

/// Every file under `dir`, keyed by its path relative to `dir` with '/' separators; links are
/// followed. A folder or file that cannot be read is an input_error naming it.
std::map<std::string, source_file> read_templates(const std::filesystem::path& dir);

struct write_summary {
  std::size_t written = 0;
  std::size_t unchanged = 0;
  std::size_t kept = 0;  // replace=no outputs that already existed
};

/// Writes each file under `out_dir`, all or none (see write_files_atomically), skipping files whose
/// content is unchanged (so builds do not redo work) and existing replace=no files. A `stamp`,
/// when given, is written empty in the same all-or-nothing batch, after the outputs: a stamp that
/// cannot be written leaves every output as it was.
write_summary write_outputs(const std::filesystem::path& out_dir, const std::vector<generated_file>& files,
                            const std::filesystem::path& stamp = {});

/// Creates `folder`, which must not exist, holding `files` (paths relative to it, '/' separated):
/// written into a hidden sibling folder first and renamed into place, so that a failure leaves
/// nothing behind. Throws std::runtime_error naming the folder.
void write_new_folder(const std::filesystem::path& folder,
                      const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace opuntia::gen
