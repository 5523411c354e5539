#pragma once
// An input text with its name: what every parser reads and every diagnostic points into.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/diagnostic.hpp"

namespace opuntia::ccl {

struct source_file {
  std::string path;  // as shown in diagnostics
  std::string text;  // the bytes as read (CRLF kept, a bare CR made LF), so columns match what an editor shows
  /// Where each byte of `text`, and its end, was written, for a text made from another file's
  /// (a deps.ccl schedule string, its escapes undone and its directives rendered); empty for a
  /// file read as it is. Every place this file gives, to a diagnostic or to what a parser
  /// records, is then the place in the file the person wrote.
  std::vector<source_location> written_at = {};

  /// Line `line` (1-based) without its "\n" or "\r\n"; empty if out of range.
  std::string line_text(std::size_t line) const;

  /// Where 1-based `line` and `column` of `text` were written: here, or as `written_at` says.
  source_location place_of(std::size_t line, std::size_t column) const;

  /// A diagnostic at 1-based line/column of this file, with the line's text filled in (left to
  /// fill_line_texts where the place is in another file).
  diagnostic error_at(std::size_t line, std::size_t column, std::string message) const;

  /// A diagnostic at a byte offset of `text`, as error_at.
  diagnostic error_at_offset(std::size_t offset, std::string message) const;

  /// The place of a byte offset (as place_of).
  source_location location_of(std::size_t offset) const;

  /// The offset of each line's first byte, made at the first lookup (and again if `text` has
  /// grown or shrunk since): each diagnostic then finds its line by a binary search, where a scan
  /// from the top made 60,000 errors in one parameter file take 15 s (O(errors x bytes)).
  mutable std::vector<std::size_t> line_starts_cache = {};
  mutable std::size_t line_starts_cache_size = 0;

 private:
  const std::vector<std::size_t>& line_starts() const;
};

/// Fills in the line text of each diagnostic that has none, from whichever of `files` it points
/// into (diagnostics made away from their file, by a semantic pass, carry only a place).
void fill_line_texts(std::vector<diagnostic>& diagnostics, const std::vector<const source_file*>& files);

/// A diagnostic at `where`, taking the line's text from `file` when the paths agree.
diagnostic error_at(const source_file& file, const source_location& where, std::string message);

}  // namespace opuntia::ccl
