#pragma once
// The names the generated code cannot declare: a thorn's, a group's, a grid function's or a
// parameter's, and what a kernel lists. Each rule was found by compiling generated code (see
// reserved_names.cpp); check_thorn refuses such names at their places, new-thorn before writing.
#include <optional>
#include <string>
#include <string_view>

namespace opuntia::gen {

/// Whether `name` is a C++ keyword.
bool cpp_keyword(std::string_view name);
/// Whether `name` is one of OpenCL C's own keywords beyond C's.
bool opencl_keyword(std::string_view name);
/// Why a group, grid function or parameter cannot be named `name`, or nothing.
std::optional<std::string> reserved_for_declarations(std::string_view name);
/// Why a kernel cannot list grid function `name` (beyond reserved_for_declarations), or nothing.
std::optional<std::string> reserved_in_kernels(std::string_view name);
/// Whether `name` is letters, digits and underscores, beginning with a letter: what new-thorn
/// takes for a thorn's and a kernel's name.
bool is_letter_identifier(std::string_view name);
/// Why a thorn cannot be named `name` (its folder's name: its C++ namespace and file names), as a
/// phrase after "'X' is ", or nothing.
std::optional<std::string> reserved_thorn_name(std::string_view name);

}  // namespace opuntia::gen
