#pragma once
// The syntax tree of a Cactus interface.ccl file.
#include <string>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

enum class access_level { public_access, protected_access, private_access };

/// `CCTK_REAL <group>[[N]] TYPE=GF DIM=3 TIMELEVELS=n ... ["desc"] [{ v1 v2 } ["desc"]]`
/// Without braces the group holds one variable named like the group.
struct variable_group_syntax {
  source_location where;      // of the data type
  access_level access = access_level::private_access;
  std::string data_type;      // normalised: REAL, INT, COMPLEX, CHAR, BYTE, INT4, REAL8, POINTER, ...
  located_text name;
  std::string vector_size;    // the N of `name[N]`, empty when not a vector group
  std::vector<key_value> options;  // TYPE, DIM, TIMELEVELS, SIZE, GHOSTSIZE, TAGS, ... as written
  std::vector<located_text> variables;
  bool has_variable_list = false;
  std::string description;
};

/// Aliased functions and include statements: kept so nothing real is rejected.
struct interface_function_syntax {
  source_location where;
  std::string kind;        // "function" (declaration), "requires", "uses", "provides"
  std::string name;
  std::string return_type; // for declarations
  std::string arguments;   // the text between the parentheses, for declarations
  std::string provider;    // PROVIDES FUNCTION a WITH <provider>
  std::string language;    // PROVIDES ... LANGUAGE <language>
};

struct interface_include_syntax {
  source_location where;
  std::string kind;   // "uses" or "includes"; with SOURCE/HEADER when given
  std::string file;
  std::string target; // `INCLUDES: a.h IN b.h` -> b.h
};

struct interface_file {
  std::string path;
  located_text implements;
  std::vector<located_text> inherits;
  std::vector<located_text> friends;
  std::vector<variable_group_syntax> groups;
  std::vector<interface_function_syntax> functions;
  std::vector<interface_include_syntax> includes;
};

}  // namespace opuntia::ccl
