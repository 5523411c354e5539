#pragma once
// Every file a person wrote is read here (bounded, without a byte-order mark), and every result
// is written here (whole, through a temporary file and a rename), for the generator and the flesh.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccl/source_file.hpp"

namespace opuntia::ccl {

/// The largest input read: CCL files, templates, parameter files and kernel bodies are far
/// smaller, and a file that grows while it is read must not be read until memory runs out.
inline constexpr std::size_t max_input_size = std::size_t{64} << 20;

/// Reads a file, without the UTF-8 byte-order mark it may begin with (columns are counted as an
/// editor shows them); throws input_error "path: error: cannot read file: <reason>" when it cannot,
/// "path: error: file is larger than 64 MiB, the limit for an input file" when it is too large,
/// "path: error: is not a regular file (it is a FIFO)" for anything but a regular file (after
/// symbolic links) or a folder: a FIFO would block for ever, a device may never end.
source_file read_source(const std::filesystem::path& path);
/// As read_source, but nullopt when the file does not exist (a link to a missing file is an
/// error: "path: error: is a link to a missing file").
std::optional<source_file> read_optional_source(const std::filesystem::path& path);

/// The text of `path` when it can be read (a regular file), else nothing: for reads that only
/// help (line texts of diagnostics, outputs compared before they are rewritten).
std::optional<std::string> read_if_possible(const std::filesystem::path& path);

/// Fills the missing line text of each diagnostic from its file on disk, when it can be read
/// (diagnostics made at run time point into CCL files the program no longer holds).
void fill_line_texts_from_disk(std::vector<diagnostic>& diagnostics);

/// Writes `text` to `path` atomically: a temporary file in the same directory, then a rename.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

/// Writes every (path, text) or none: each goes to a temporary file beside its target first,
/// and only when all are written are they renamed into place. On a failure the temporaries and
/// the folders made for them are removed, the files already there are left as they were, and
/// input_error says "path: error: cannot write file: <reason>".
void write_files_atomically(const std::vector<std::pair<std::filesystem::path, std::string>>& files);

/// Removes from `folder` the temporaries that writes of this host left when their process ended
/// before renaming them (an opuntia-gen interrupted by Ctrl-C, a process killed): those whose
/// writer no longer runs, written more than a minute ago. Another host's, or a running
/// process's, are left alone.
void remove_stale_temporaries(const std::filesystem::path& folder);

/// Adds `text` to the end of the existing file `path`, all of it or nothing: when a write fails
/// (a full disk, a file size limit), the file is cut back to the length it had, and input_error
/// says "path: error: cannot write file: <reason>". For output that grows by whole records.
void append_whole(const std::filesystem::path& path, const std::string& text);

}  // namespace opuntia::ccl
