#include "flesh/parameters/parameter_description.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace opuntia {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// Line breaks and tabs as blanks: a table cell is one line.
std::string one_line(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') continue;
    out += s[i] == '\n' || s[i] == '\r' || s[i] == '\t' ? ' ' : s[i];
  }
  return out;
}

/// Text that Markdown shows as written in a table cell: a backslash before every character that
/// could start emphasis, code, a link, HTML or an entity, or end the cell. An underscore inside a
/// word (`wave_number_x`) stays as it is: there it starts nothing.
std::string markdown_text(std::string_view s) {
  const std::string line = one_line(s);
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    const bool inside_word = i > 0 && i + 1 < line.size() && is_word_char(line[i - 1]) && is_word_char(line[i + 1]);
    if (std::string_view("\\`*[]<>|&~").find(c) != std::string_view::npos || (c == '_' && !inside_word)) out += '\\';
    out += c;
  }
  return out;
}

/// `s` as a code span in a table cell: fenced by more backticks than it holds in a row, and its
/// `|` escaped (a table ends a cell at any `|`, even in code).
std::string markdown_code(std::string_view s) {
  const std::string line = one_line(s);
  std::size_t longest = 0, run = 0;
  std::string escaped;
  for (const char c : line) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !line.empty() && (line.front() == '`' || line.back() == '`');
  return pad ? fence + " " + escaped + " " + fence : fence + escaped + fence;
}

std::string text_description(const thorn_description& thorn) {
  std::string out = fmt::format("{} (implementation {})\n", thorn.name, thorn.implementation);
  for (const auto& p : thorn.parameters) {
    out += fmt::format("  {}  {}  ", p.name, p.type);
    out += p.shared.empty() ? fmt::format("{}  default {}", p.access, p.default_value) : p.shared;
    if (!p.steerable.empty()) out += "  steerable " + p.steerable;
    out += "\n";
    if (!p.description.empty()) out += "    " + p.description + "\n";
    for (const auto& r : p.ranges) out += "    range: " + (r.comment.empty() ? r.spec : r.spec + "  " + r.comment) + "\n";
  }
  if (thorn.parameters.empty()) out += "  (no parameters)\n";
  return out;
}

/// "uses driver::xmin" -> "uses `driver::xmin`"; the name alone, as code, for `as`.
std::string shared_name(const parameter_description& p) { return p.shared.substr(p.shared.find(' ') + 1); }

std::string markdown_ranges(const parameter_description& p) {
  if (p.ranges.empty()) return p.shared.empty() ? "any" : "as " + markdown_code(shared_name(p));
  std::string out;
  for (const auto& r : p.ranges) {
    if (!out.empty()) out += "<br>";
    const std::string spec = r.spec.empty() ? "any" : markdown_code(r.spec);
    out += r.comment.empty() ? spec : spec + " " + markdown_text(r.comment);
  }
  return out;
}

std::string markdown_description(const thorn_description& thorn) {
  std::string out = fmt::format("## {}\n\nImplementation {}.", thorn.name, markdown_code(thorn.implementation));
  if (thorn.parameters.empty()) return out + " No parameters.\n";
  out += "\n\n| parameter | type | default | range | description |\n|---|---|---|---|---|\n";
  for (const auto& p : thorn.parameters) {
    std::string type = p.type + ", ";
    type += p.shared.empty() ? p.access : p.shared.substr(0, p.shared.find(' ')) + " " + markdown_code(shared_name(p));
    if (!p.steerable.empty()) type += ", steerable " + p.steerable;
    const std::string default_value = p.shared.empty() ? markdown_code(p.default_value) : "as " + markdown_code(shared_name(p));
    out += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_code(p.name), type, default_value, markdown_ranges(p),
                       markdown_text(p.description));
  }
  return out;
}

constexpr std::string_view markdown_page_head =
    "# Thorn parameters\n"
    "\n"
    "Every parameter of every thorn of this build of `opuntia`, as `opuntia --describe THORN` prints\n"
    "them: this page is `opuntia --describe-all --format markdown`, written from the thorns' `param.ccl`\n"
    "files as the build compiled them. A parameter file sets a parameter of an active thorn as\n"
    "`Thorn::name` or `implementation::name`, in any case (docs/parfile-reference.md).\n"
    "\n"
    "How to read a range (param.ccl's syntax): for INT and REAL, `lo:hi` holds both ends, `(` or `)`\n"
    "leaves an end out, `*` or nothing is unbounded, and `lo:hi:step` (INT) holds lo and every step-th\n"
    "integer above it; a value must lie in one of the ranges. A KEYWORD value is one of the words, in\n"
    "any case. A STRING value contains a match of one of the patterns (POSIX extended regular\n"
    "expressions). A BOOLEAN is yes, no, true, false, 1 or 0. A parameter with no range takes any value\n"
    "of its type. A run that recovers from a checkpoint may change only the parameters marked\n"
    "`steerable recover` (or `always`); the others keep the checkpointed run's values.\n";

}  // namespace

std::string format_description(const thorn_description& thorn, description_format format) {
  return format == description_format::markdown ? markdown_description(thorn) : text_description(thorn);
}

std::string format_descriptions(const std::vector<thorn_description>& thorns, description_format format) {
  std::string out = format == description_format::markdown ? std::string(markdown_page_head) : std::string();
  for (const auto& thorn : thorns) {
    if (!out.empty()) out += "\n";
    out += format_description(thorn, format);
  }
  return out;
}

}  // namespace opuntia
