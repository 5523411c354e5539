#include "ccl/diagnostic.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <tuple>
#include <utility>
#include <fmt/format.h>

namespace opuntia::ccl {

namespace {

/// Whether `code` shows as a blank or not at all, or turns the text around it: the no-break and
/// other Unicode spaces, zero-width characters, the byte-order mark and the bidirectional
/// controls. Pasted from a web page into a name (`WaveToy<U+00A0>IOASCII`), they made a message
/// that looked wrong ("unknown thorn 'WaveToy'; did you mean 'WaveToy'?").
bool invisible(char32_t code) {
  return code == 0xA0 || code == 0xAD || code == 0x061C || code == 0x115F || code == 0x1160 || code == 0x1680 ||
         (code >= 0x2000 && code <= 0x200F) || (code >= 0x2028 && code <= 0x202F) ||
         (code >= 0x205F && code <= 0x206F) || code == 0x3000 || code == 0x3164 || code == 0xFEFF || code == 0xFFA0 ||
         (code >= 0xE0000 && code <= 0xE007F);  // the Hangul fillers; the tag characters
}

/// The length of the UTF-8 character at `text[i]` when it is safe to print, else 0: ASCII
/// controls, bytes that are not UTF-8, overlong forms, the C1 controls (U+0080 to U+009F, a
/// terminal's CSI among them) and the invisible characters are not.
std::size_t printable_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char first = byte(i);
  if (first < 0x80) return first >= 0x20 && first != 0x7f ? 1 : 0;
  std::size_t length = 0;
  char32_t code = 0;
  if ((first & 0xE0) == 0xC0) {
    length = 2;
    code = first & 0x1F;
  } else if ((first & 0xF0) == 0xE0) {
    length = 3;
    code = first & 0x0F;
  } else if ((first & 0xF8) == 0xF0) {
    length = 4;
    code = first & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  if (code < smallest[length] || surrogate || code > 0x10FFFF || code < 0xA0 || invisible(code)) return 0;
  return length;
}

/// How many cells of a terminal the printable character of `length` bytes at `text[i]` takes: 2
/// for the East Asian wide and full-width ones (CJK, Hangul, full-width forms, emoji), else 1,
/// so that a caret after them stands under the column it means.
std::size_t cells(std::string_view text, std::size_t i, std::size_t length) {
  if (length < 3) return 1;
  char32_t code = static_cast<unsigned char>(text[i]) & (length == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  constexpr std::pair<char32_t, char32_t> wide[] = {
      {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
      {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F}, {0xFF00, 0xFF60},
      {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD}};
  return std::any_of(std::begin(wide), std::end(wide),
                     [&](const auto& range) { return code >= range.first && code <= range.second; })
             ? 2
             : 1;
}

/// `text` as it is safe to send to a terminal: tabs kept, every byte printable_length() refuses
/// written as \xNN. With `caret`, also the padding that puts a caret under byte `column` (1-based):
/// a tab under a tab, as many blanks as each character or escape takes on screen.
std::string shown(std::string_view text, std::size_t column = 0, std::string* caret = nullptr) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = printable_length(text, i);
    std::string piece;
    if (text[i] == '\t') {
      piece = "\t";
    } else if (length > 0) {
      piece = std::string(text.substr(i, length));
    } else {
      piece = fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
    }
    if (caret != nullptr && i + 1 < column) {
      *caret += piece == "\t" ? std::string("\t") : std::string(length > 0 ? cells(text, i, length) : piece.size(), ' ');
    }
    out += piece;
    i += length > 0 ? length : 1;
  }
  if (caret != nullptr && column > text.size() + 1) caret->append(column - 1 - text.size(), ' ');
  return out;
}

}  // namespace

bool earlier_place(const source_location& a, const source_location& b) {
  return std::tie(a.path, a.line, a.column) < std::tie(b.path, b.line, b.column);
}

void sort_by_place(std::vector<diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const diagnostic& a, const diagnostic& b) { return earlier_place(a.where, b.where); });
}

std::string format_diagnostic(const diagnostic& d) {
  std::string out;
  if (d.where.line == 0) {
    out = fmt::format("{}: error: {}\n", d.where.path, shown(d.message));
    return out;
  }
  out = fmt::format("{}:{}:{}: error: {}\n", d.where.path, d.where.line, d.where.column, shown(d.message));
  if (!d.line_text.empty() || d.where.column == 1) {
    // Bytes of a bad file are escaped, not sent to the terminal; the caret follows what is shown.
    std::string caret;
    out += shown(d.line_text, d.where.column, &caret);
    out += '\n';
    out += caret + "^\n";
  }
  return out;
}

std::string format_diagnostics(const std::vector<diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) out += format_diagnostic(d);
  return out;
}

namespace {
std::string first_message(const std::vector<diagnostic>& ds) {
  return ds.empty() ? std::string("generator error") : format_diagnostic(ds.front());
}
}  // namespace

input_error::input_error(std::vector<diagnostic> diagnostics)
    : std::runtime_error(first_message(diagnostics)), diagnostics_(std::move(diagnostics)) {}

input_error::input_error(diagnostic d) : input_error(std::vector<diagnostic>{std::move(d)}) {}

diagnostic whole_file_error(std::string path, std::string message) {
  diagnostic d;
  d.where.path = std::move(path);
  d.message = std::move(message);
  return d;
}

diagnostic error_at(source_location where, std::string message) {
  diagnostic d;
  d.where = std::move(where);
  d.message = std::move(message);
  return d;
}

void diagnostic_sink::throw_if_any() {
  if (!diagnostics_.empty()) throw input_error(std::move(diagnostics_));
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}
}  // namespace

std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t limit) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  // Allow roughly one edit per three characters: close enough to be a typo. A name every one of
  // whose characters must change is no typo of the candidate ('on' is not 'off' mistyped).
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 3);
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(name, candidate);
    if (d <= threshold && d < name.size()) scored.emplace_back(d, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& [d, candidate] : scored) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
  return out;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  return did_you_mean_text(nearest_names(name, candidates));
}

std::string did_you_mean_text(const std::vector<std::string>& near) {
  if (near.empty()) return {};
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i) {
    if (i > 0) out += i + 1 == near.size() ? " or " : ", ";
    out += "'" + near[i] + "'";
  }
  return out + "?";
}

std::string did_you_mean_or_known(std::string_view name, const std::vector<std::string>& candidates) {
  auto near = did_you_mean(name, candidates);
  if (!near.empty() || candidates.empty()) return near;
  constexpr std::size_t shown = 40;
  if (candidates.size() <= shown) return "; known: " + join_names(candidates);
  const std::vector<std::string> first(candidates.begin(), candidates.begin() + shown);
  return "; known: " + join_names(first) + " and " + std::to_string(candidates.size() - shown) + " more";
}

std::string join_names(const std::vector<std::string>& names, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

}  // namespace opuntia::ccl
