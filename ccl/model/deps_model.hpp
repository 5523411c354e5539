#pragma once
// The syntax tree of templates/deps.ccl: nested template groups and templates.
#include <string>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

/// `CCTK_KERNEL_TEMPLATE <name> key=value ... { triggers{..} schedule{..} include{..} } ["desc"]`
struct template_syntax {
  located_text name;  // may contain `$suffix`, e.g. 3dblock$comp
  std::vector<key_value> keys;
  std::vector<located_text> triggers;
  std::vector<located_text> includes;
  std::vector<located_text> schedules;  // unquoted schedule.ccl text, located at its opening quote
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
