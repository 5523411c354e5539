#pragma once
// How `opuntia --describe` shows a thorn's parameters: as text for a terminal, or as a Markdown
// section (a heading and a table), of which `opuntia --describe-all --format markdown` makes the
// page docs/parameters.md. Both are written from the same description, which
// parameter_registry::describe fills from the compiled bindings (param.ccl, through opuntia-gen).
//
//   thorn_description heat{"HeatEquation", "heatequation", {{"alpha", "REAL", "restricted", "1.0", ...}}};
//   std::cout << format_description(heat, description_format::markdown);
#include <string>
#include <vector>

namespace opuntia {

enum class description_format { text, markdown };

/// One range of a parameter, as param.ccl writes it: `(0:*` and `positive`.
struct range_description {
  std::string spec;
  std::string comment;
};

/// One parameter, in words.
struct parameter_description {
  std::string name;         // "coeffs[3]" for an array
  std::string type;         // INT, REAL, KEYWORD, STRING, BOOLEAN
  std::string access;       // private, restricted, global; empty for a shared one
  std::string shared;       // "uses driver::xmin", "extends driver::xmin"; empty for a declared one
  std::string default_value;  // as written; quoted for KEYWORD and STRING; empty for a shared one
  std::string steerable;    // always, recover; empty: never
  std::string description;
  std::vector<range_description> ranges;
};

struct thorn_description {
  std::string name;
  std::string implementation;
  std::vector<parameter_description> parameters;
};

/// One thorn's parameters: text (`opuntia --describe`) or a Markdown section headed `## <thorn>`.
std::string format_description(const thorn_description& thorn, description_format format);

/// Every thorn's, in order: the text ones one after the other, the Markdown ones as one page
/// under a title and a note on how to read it (docs/parameters.md).
std::string format_descriptions(const std::vector<thorn_description>& thorns, description_format format);

}  // namespace opuntia
