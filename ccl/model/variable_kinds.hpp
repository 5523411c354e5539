#pragma once
// What interface.ccl and cakernel.ccl say about a variable, as enums: opuntia-gen reads them into
// its model and writes them into the bindings (opuntia/binding.hpp), where the flesh and the
// kernel runtimes compare them. Header-only, so generated code needs no library for them.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace opuntia::ccl {

/// A variable's Cactus data type, as interface.ccl names it (with the CCTK_ prefix).
enum class data_type {
  cctk_real, cctk_int, cctk_complex, cctk_char, cctk_byte, cctk_string,
  cctk_int1, cctk_int2, cctk_int4, cctk_int8,
  cctk_real4, cctk_real8, cctk_real16,
  cctk_complex8, cctk_complex16, cctk_complex32,
  cctk_pointer, cctk_pointer_to_const
};

inline constexpr std::array<std::string_view, 18> data_type_names{
    "CCTK_REAL",  "CCTK_INT",   "CCTK_COMPLEX", "CCTK_CHAR",     "CCTK_BYTE",      "CCTK_STRING",
    "CCTK_INT1",  "CCTK_INT2",  "CCTK_INT4",    "CCTK_INT8",     "CCTK_REAL4",     "CCTK_REAL8",
    "CCTK_REAL16", "CCTK_COMPLEX8", "CCTK_COMPLEX16", "CCTK_COMPLEX32", "CCTK_POINTER", "CCTK_POINTER_TO_CONST"};

/// `TYPE=` of a group: a grid function, a distributed array or one value.
enum class group_type { gf, array, scalar };

inline constexpr std::array<std::string_view, 3> group_type_names{"GF", "ARRAY", "SCALAR"};

/// How a kernel uses a variable (cakernel.ccl `intent=`).
enum class kernel_intent { in, out, inout, separateinout };

inline constexpr std::array<std::string_view, 4> kernel_intent_names{"in", "out", "inout", "separateinout"};

/// Where a group's points sit along one direction (CENTERING={vcc}, one letter per direction):
/// on the grid's vertices (v), or at the centres of its cells, half a step above (c).
enum class centering { vertex, cell };

inline constexpr std::array<std::string_view, 2> centering_letters{"v", "c"};

/// A group's centering along x, y and z; `{vvv}` unless interface.ccl says otherwise.
using centerings = std::array<centering, 3>;
inline constexpr centerings vertex_centred{centering::vertex, centering::vertex, centering::vertex};

/// The offset of a variable's point i from vertex i along one direction, in grid steps:
/// 0 for a vertex, 0.5 for a cell.
constexpr double centering_offset(centering c) { return c == centering::cell ? 0.5 : 0.0; }

/// The name interface.ccl or cakernel.ccl writes: name_of(data_type::cctk_int) == "CCTK_INT".
constexpr std::string_view name_of(data_type t) { return data_type_names[static_cast<std::size_t>(t)]; }
constexpr std::string_view name_of(group_type t) { return group_type_names[static_cast<std::size_t>(t)]; }
constexpr std::string_view name_of(kernel_intent i) { return kernel_intent_names[static_cast<std::size_t>(i)]; }
constexpr std::string_view name_of(centering c) { return centering_letters[static_cast<std::size_t>(c)]; }

/// The enum a name (as name_of writes it) stands for; nullopt for any other text.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> enum_named(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace opuntia::ccl
