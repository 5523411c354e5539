#pragma once
// The syntax tree of templates/deps.ccl: nested template groups and templates.
#include <string>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

/// A 1-based line and column of a file.
struct text_place {
  std::size_t line = 0;
  std::size_t column = 0;
  friend bool operator==(const text_place&, const text_place&) = default;
};

/// A `schedule { "..." }` string: its unquoted text, located at its opening quote, and the
/// place in the file of each byte of the text, then of the closing quote (`places.size() ==
/// text.size() + 1`). An escape (`\n`, `\"`) is the place of its backslash. Errors found in the
/// text (or in what it renders to) point at what was written.
struct schedule_string_syntax : located_text {
  std::vector<text_place> places;
};

/// `CCTK_KERNEL_TEMPLATE <name> key=value ... { triggers{..} schedule{..} include{..} } ["desc"]`
struct template_syntax {
  located_text name;  // may contain `$suffix`, e.g. 3dblock$comp
  std::vector<key_value> keys;
  std::vector<located_text> triggers;
  std::vector<located_text> includes;
  std::vector<schedule_string_syntax> schedules;
  std::string description;
};

/// `CCTK_KERNEL_TEMPLATE_GROUP <name> { templates and groups } ["desc"]`
struct template_group_syntax {
  located_text name;
  std::vector<template_syntax> templates;
  std::vector<template_group_syntax> groups;
  std::string description;
};

struct deps_file {
  std::string path;
  std::vector<template_group_syntax> groups;
};

}  // namespace opuntia::ccl
