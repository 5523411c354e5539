#pragma once
// The syntax tree of a Cactus param.ccl file.
#include <optional>
#include <string>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

enum class param_section { private_section, restricted_section, global_section, shares_section };

/// One line of a range block: `1:100 :: "comment"`, `"a", "b" :: "..."`, `".*" :: "..."`.
struct param_range_syntax {
  source_location where;
  std::string spec;          // as written, trimmed: "1:*", "(0:1]", "\"a\", \"b\"", "*"
  std::vector<located_text> words;  // for KEYWORD/STRING: each quoted or bare word, unquoted
  std::string comment;       // the string after "::", unquoted
};

/// `[USES|EXTENDS] INT|REAL|KEYWORD|STRING|BOOLEAN name[[len]] "desc" [AS alias] [STEERABLE=...]
///  [{ ranges }] [default]`
struct param_syntax {
  source_location where;     // of the first word of the declaration
  param_section section = param_section::private_section;
  std::string shared_from;   // the implementation of the enclosing `shares:` section
  std::string qualifier;     // "", "uses" or "extends" (lower case)
  std::string type;          // INT, REAL, KEYWORD, STRING, BOOLEAN (upper case, CCTK_ stripped)
  located_text name;
  std::string array_size;    // the len of `name[len]`, empty otherwise
  std::string description;
  std::string alias;         // AS alias
  std::vector<key_value> options;   // STEERABLE=..., ACCUMULATOR=..., ACCUMULATOR-BASE=...
  std::vector<param_range_syntax> ranges;
  bool has_range_block = false;
  std::optional<located_text> default_value;  // unquoted; absent for USES/EXTENDS without one
};

struct param_file {
  std::string path;
  std::vector<param_syntax> parameters;
};

}  // namespace opuntia::ccl
