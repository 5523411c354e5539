#pragma once
// The syntax tree of a cakernel.ccl file, as written (keys are interpreted by the semantic pass).
#include <string>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::ccl {

/// `CCTK_KERNEL_VARIABLE [key=value ...] { v1, v2 } ["description"]`
/// or `CCTK_KERNEL_PARAMETER ...` (also spelled with CCTK_CUDA_).
struct kernel_name_list {
  source_location where;  // of the keyword
  std::vector<key_value> keys;
  std::vector<located_text> names;
  std::string description;
};

/// `CCTK_KERNEL <name> [KEY=value ...] { ... }`
struct kernel_descriptor_syntax {
  located_text name;
  std::string keyword;  // as spelled: CCTK_KERNEL or CCTK_CUDA_KERNEL
  std::vector<key_value> keys;
  std::vector<kernel_name_list> variables;
  std::vector<kernel_name_list> parameters;
  std::string description;  // optional string after the closing brace
};

struct cakernel_file {
  std::string path;
  std::vector<kernel_descriptor_syntax> kernels;
};

}  // namespace opuntia::ccl
