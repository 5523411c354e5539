#pragma once
// cakernel.ccl: kernel descriptors (docs/SYNTAX.md). Both the paper's CCTK_KERNEL* keywords and the
// shipped CaCUDA CCTK_CUDA_KERNEL* ones, case-insensitively.
//
//   CCTK_KERNEL <name> [KEY=value ...]
//   {
//     CCTK_KERNEL_VARIABLE [key=value ...] { v1, v2 } ["description"]
//     CCTK_KERNEL_PARAMETER [key=value ...] { p1 } ["description"]
//   } ["description"]
#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar::cakernel {

struct kw_kernel : sor<keyword<TAO_PEGTL_ISTRING("CCTK_CUDA_KERNEL")>, keyword<TAO_PEGTL_ISTRING("CCTK_KERNEL")>> {};
struct kw_variable : sor<keyword<TAO_PEGTL_ISTRING("CCTK_CUDA_KERNEL_VARIABLE")>,
                         keyword<TAO_PEGTL_ISTRING("CCTK_KERNEL_VARIABLE")>> {};
struct kw_parameter : sor<keyword<TAO_PEGTL_ISTRING("CCTK_CUDA_KERNEL_PARAMETER")>,
                          keyword<TAO_PEGTL_ISTRING("CCTK_KERNEL_PARAMETER")>> {};


// { v1, v2 v3 }: commas optional.
struct list_name : name {};
struct list_close : one<'}'> {};
struct name_list : seq<brace_open, star<ws, sor<one<','>, list_name>>, ws, must<list_close>> {};
struct description : quoted {};
struct optional_description : opt<ws, description> {};

struct variable_decl : if_must<kw_variable, options, ws, name_list, optional_description> {};
struct parameter_decl : if_must<kw_parameter, options, ws, name_list, optional_description> {};

struct kernel_name : name {};
struct kernel_close : one<'}'> {};
struct kernel_body : seq<brace_open, star<ws, sor<variable_decl, parameter_decl>>, ws, must<kernel_close>> {};
struct kernel : if_must<kw_kernel, ws, kernel_name, options, ws, kernel_body, optional_description> {};

struct end_of_descriptors : eof {};
struct file : seq<ws, star<kernel, ws>, must<end_of_descriptors>> {};

}  // namespace opuntia::ccl::grammar::cakernel

namespace opuntia::ccl::grammar {
template <> inline constexpr const char* error_message<cakernel::list_close> =
    "expected a name, ',' or '}' to close the list opened at {open}";
template <> inline constexpr const char* error_message<cakernel::name_list> =
    "expected KEY=value or '{' to begin the list of names";
template <> inline constexpr const char* error_message<cakernel::kernel_name> = "expected the kernel's name";
template <> inline constexpr const char* error_message<cakernel::kernel_body> =
    "expected KEY=value or '{' to begin the kernel";
template <> inline constexpr const char* error_message<cakernel::kernel_close> =
    "expected CCTK_KERNEL_VARIABLE, CCTK_KERNEL_PARAMETER or '}' to close the kernel opened at {open}";
template <> inline constexpr const char* error_message<cakernel::end_of_descriptors> =
    "expected CCTK_KERNEL (or CCTK_CUDA_KERNEL) to begin a kernel descriptor";
}  // namespace opuntia::ccl::grammar
