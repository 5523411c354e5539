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
  std::string text;  // the bytes as read: CRLF kept, so columns match what an editor shows

  /// Line `line` (1-based) without its "\n" or "\r\n"; empty if out of range.
  std::string line_text(std::size_t line) const;

  /// A diagnostic at 1-based line/column of this file, with the line's text filled in.
  diagnostic error_at(std::size_t line, std::size_t column, std::string message) const;

  /// A diagnostic at a byte offset of this file.
  diagnostic error_at_offset(std::size_t offset, std::string message) const;

  /// The 1-based line and column of a byte offset.
  source_location location_of(std::size_t offset) const;
};

/// Fills in the line text of each diagnostic that has none, from whichever of `files` it points
/// into (diagnostics made away from their file, by a semantic pass, carry only a place).
void fill_line_texts(std::vector<diagnostic>& diagnostics, const std::vector<const source_file*>& files);

/// A diagnostic at `where`, taking the line's text from `file` when the paths agree.
diagnostic error_at(const source_file& file, const source_location& where, std::string message);

}  // namespace opuntia::ccl
