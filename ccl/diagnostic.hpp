#pragma once
// Diagnostics with a place: every error the generator reports names
// `path:line:column`, shows the offending line and a caret under the column.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace opuntia::ccl {

/// A 1-based position in a named input. `line == 0` means "the whole file".
struct source_location {
  std::string path;
  std::size_t line = 0;
  std::size_t column = 0;

  friend bool operator==(const source_location&, const source_location&) = default;
};

/// One error: where, what, and the text of the line it points into.
struct diagnostic {
  source_location where;
  std::string message;
  std::string line_text;  // the source line without its end-of-line characters
};

/// Whether `a` comes before `b` in reading order: by path, then line, then column.
bool earlier_place(const source_location& a, const source_location& b);
/// Puts `diagnostics` in reading order of their places (earlier_place), keeping the order of
/// those at one place: what a person fixes top to bottom.
void sort_by_place(std::vector<diagnostic>& diagnostics);

/// "path:line:column: error: message\n<line>\n<caret>\n" (the last two only when a line is known).
std::string format_diagnostic(const diagnostic& d);
std::string format_diagnostics(const std::vector<diagnostic>& ds);

/// An error about a whole file or directory (no line): "path: error: message".
diagnostic whole_file_error(std::string path, std::string message);

/// An error at `where`; the line's text is filled in later from the inputs.
diagnostic error_at(source_location where, std::string message);

/// Thrown by every generator stage; carries one or more diagnostics.
class input_error : public std::runtime_error {
public:
  explicit input_error(std::vector<diagnostic> diagnostics);
  explicit input_error(diagnostic d);
  const std::vector<diagnostic>& diagnostics() const noexcept { return diagnostics_; }

private:
  std::vector<diagnostic> diagnostics_;
};

/// Collects diagnostics of a pass that reports every error it finds, not just the first.
class diagnostic_sink {
public:
  void add(diagnostic d) { diagnostics_.push_back(std::move(d)); }
  bool empty() const noexcept { return diagnostics_.empty(); }
  std::size_t size() const noexcept { return diagnostics_.size(); }
  /// Throws input_error with everything collected, if anything was.
  void throw_if_any();

private:
  std::vector<diagnostic> diagnostics_;
};

/// Up to `limit` names from `candidates` closest to `name` by edit distance
/// (case-insensitive), best first; only names reasonably close are returned.
std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

/// "; did you mean 'a' or 'b'?" or "" when nothing is close.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);
/// "; did you mean 'a' or 'b'?" for `names` as they are, or "" when there are none.
std::string did_you_mean_text(const std::vector<std::string>& names);
/// "; did you mean 'a' or 'b'?" where names in `candidates` are close to `name`, else
/// "; known: a, b, c" (the first 40 and how many more): a misspelling gets its correction, a
/// name nothing like any gets the list to choose from.
std::string did_you_mean_or_known(std::string_view name, const std::vector<std::string>& candidates);

/// "a, b, c" — for "expected one of" messages.
std::string join_names(const std::vector<std::string>& names, std::string_view separator = ", ");

}  // namespace opuntia::ccl
