// The names the generated code cannot declare (generator/semantic/reserved_names.hpp).
#include "generator/semantic/reserved_names.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include <fmt/format.h>

namespace opuntia::gen {
namespace {

bool among(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Whether `name` is a type of C's libraries, of CUDA (its vector types, dim3) or of OpenCL C
/// (its unsigned scalars, vector, image and event types).
bool type_name_of_kernels(std::string_view name) {
  if (among(name, {"size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "max_align_t", "int8_t", "int16_t", "int32_t",
                   "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uchar", "ushort", "uint", "ulong", "dim3",
                   "sampler_t", "event_t", "queue_t", "clk_event_t", "reserve_id_t", "ndrange_t"})) {
    return true;
  }
  if (name.starts_with("image") && name.ends_with("_t")) return true;
  // char2 ... double16: the scalar's name, then a width
  const auto digits = name.find_first_of("0123456789");
  if (digits == std::string_view::npos || digits == 0) return false;
  const auto scalar = name.substr(0, digits), width = name.substr(digits);
  return among(scalar, {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong",
                        "float", "double", "half"}) &&
         among(width, {"1", "2", "3", "4", "8", "16"});
}

}  // namespace

/// Whether `name` is a C++ keyword: the bindings and every backend's kernels declare parameters
/// and grid functions by their names, so such a name does not compile.
bool cpp_keyword(std::string_view name) {
  static constexpr std::string_view keywords[] = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
  return std::find(std::begin(keywords), std::end(keywords), name) != std::end(keywords);
}

/// Whether `name` is one of OpenCL C's own keywords beyond C's (address spaces, access
/// qualifiers, its half type): only the OpenCL kernels declare names so, those a kernel lists.
bool opencl_keyword(std::string_view name) {
  static constexpr std::string_view keywords[] = {"global", "local",     "constant", "kernel", "read_only",
                                                  "write_only", "read_write", "uniform", "pipe", "half", "restrict"};
  return std::find(std::begin(keywords), std::end(keywords), name) != std::end(keywords);
}

/// Why the generated code cannot declare a group, grid function or parameter named `name` (the
/// bindings and every backend's kernels declare them by their names), or nothing. Besides C++'s
/// keywords: the names C++ keeps for its compilers, the prefixes of the flesh's and the
/// templates' own names, and the C library's and OpenCL C's object-like macros, which would
/// replace the name wherever it is declared (each found by compiling HeatEquation's generated
/// kernels, every variant of every backend, with a grid function of that name).
std::optional<std::string> reserved_for_declarations(std::string_view name) {
  if (cpp_keyword(name)) return "a C++ keyword";
  if (name.find("__") != std::string_view::npos ||
      (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1])) != 0)) {
    return "reserved to C++ compilers (a double underscore, or an underscore and a capital letter first)";
  }
  for (const std::string_view prefix : {"CCTK_", "CAKERNEL_", "cakernel_", "OPUNTIA_"}) {
    if (name.starts_with(prefix)) {
      return fmt::format("named with {}, the prefix of the flesh's and the generated code's own names", prefix);
    }
  }
  if (among(name, {"NULL", "EOF", "NAN", "INFINITY", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "MAXFLOAT", "errno",
                   "stdin", "stdout", "stderr", "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX"}) ||
      name.starts_with("M_") || name.starts_with("FLT_") || name.starts_with("DBL_") || name.starts_with("CLK_") ||
      (name.starts_with("cl_") && name.find('_', 3) != std::string_view::npos &&
       among(name.substr(3, name.find('_', 3) - 3), {"khr", "ext", "nv", "amd", "intel", "clang", "arm", "APPLE"}))) {
    return "a macro of the C library or of OpenCL C";
  }
  return std::nullopt;
}

/// Why a kernel cannot list grid function `name` beyond reserved_for_declarations, or nothing:
/// the names its body has beside its variables, and those each backend's kernels use after
/// declaring them.
std::optional<std::string> reserved_in_kernels(std::string_view name) {
  if (opencl_keyword(name)) return "an OpenCL C keyword";
  if (name == "params") return "the name a kernel body reads its parameters by (params.<name>)";
  if (among(name, {"gi", "gj", "gk"})) return "a kernel body's index of its point";
  if (name == "arrays") return "the name of the generated kernels' arrays";
  if (among(name, {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"})) return "a CUDA built-in variable";
  if (among(name, {"min", "max", "barrier", "mem_fence", "get_global_id", "get_local_id", "get_group_id",
                   "get_num_groups", "get_local_size", "get_global_size", "get_work_dim", "get_global_offset"})) {
    return "a function the generated CUDA or OpenCL kernels call";
  }
  if (type_name_of_kernels(name)) return "a type name of C, CUDA or OpenCL C";
  return std::nullopt;
}

bool is_letter_identifier(std::string_view name) {
  return !name.empty() && std::isalpha(static_cast<unsigned char>(name.front())) != 0 &&
         std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

std::optional<std::string> reserved_thorn_name(std::string_view name) {
  if (!is_letter_identifier(name)) return "not a thorn name: letters, digits and underscores, beginning with a letter";
  if (const auto reason = reserved_for_declarations(name)) return reason;
  // The thorn's C++ namespace, opuntia::thorns::<name>, would hide these from its own code: the
  // namespaces the bindings and host routines qualify names with, and the flesh's names a new
  // thorn's routines use unqualified (found by compiling `new-thorn`'s thorn under each name).
  if (among(name, {"std", "fmt", "opuntia", "thorns", "ccl", "routine_context", "grid_layout", "collective_error",
                   "thorn_binding", "kernel_call"})) {
    return "the name of a namespace or type that its C++ namespace, opuntia::thorns::" + std::string(name) +
           ", would hide from the thorn's own code";
  }
  return std::nullopt;
}

}  // namespace opuntia::gen
