#pragma once
// One pass of a field reduction on a device (backend::reduce_box): what is asked, and the words
// the device answers with, laid out alike for every backend so that one piece of host code
// (device_reduction.cpp) turns them into a field_reduction. C++17: CUDA translation units
// include it, and OpenCL programs get the layout as -D options.
#include <array>
#include <cstddef>
#include <cstdint>

#include "opuntia/exact_sum_layout.hpp"
#include "opuntia/grid.hpp"

namespace opuntia::thorns::CaKernel {

/// Points [first, first + count) of `box`, x fastest, of a device array of `extent` points
/// (x fastest) of `element_size` bytes: a double, or a float (fp32 builds).
struct reduction_pass {
  const void* array = nullptr;  // device memory as allocate() returned it (a cl_mem on OpenCL)
  std::array<int, 3> extent{};
  index_range box;
  std::size_t element_size = 0;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

/// The words of a pass, each an unsigned 64-bit integer. Two accumulators, the values' and
/// their squares' (value * value rounded to a double), each made of the sums of the exact_sum
/// digits (exact_sum_layout.hpp) of its positive terms, then of its negative terms, then the
/// counts of its NaN, +inf and -inf terms. Then the minimum and maximum of the values that are
/// not NaN as ordered_key()s (opuntia/field_reduction.hpp), the largest |value|'s bits, and the
/// smallest index in the box (x fastest from 0, as field_reduction::add is given it) of a NaN or
/// infinite value: the counts of those are the values accumulator's.
///
/// A device adds digits into these words and never carries: a pass of at most
/// most_points_per_pass points adds less than 2^30 * 2^32 into any word, so each stays below
/// 2^62 and the host takes positive minus negative as an int64 limb (exact_sum::add_limbs).
namespace reduction_words {
inline constexpr int digits = exact_sum_layout::digits;
// Within an accumulator.
inline constexpr int positive = 0;
inline constexpr int negative = digits;
inline constexpr int nan_count = 2 * digits;
inline constexpr int plus_infinity_count = 2 * digits + 1;
inline constexpr int minus_infinity_count = 2 * digits + 2;
inline constexpr int accumulator = 2 * digits + 3;
// The pass's words.
inline constexpr int values = 0;
inline constexpr int squares = accumulator;
inline constexpr int minimum = 2 * accumulator;
inline constexpr int maximum = minimum + 1;
inline constexpr int max_abs = minimum + 2;
inline constexpr int first_non_finite = minimum + 3;
inline constexpr int count = minimum + 4;
/// Where minimum and maximum start: the keys of +inf and -inf; first_non_finite: no point
/// (field_reduction::no_point). Every other word starts at 0.
inline constexpr std::uint64_t minimum_identity = 0xfff0000000000000ULL;
inline constexpr std::uint64_t maximum_identity = 0x000fffffffffffffULL;
inline constexpr std::uint64_t first_non_finite_identity = ~0ULL;
inline constexpr std::uint64_t most_points_per_pass = std::uint64_t{1} << 30;
}  // namespace reduction_words

using reduction_result = std::array<std::uint64_t, reduction_words::count>;

}  // namespace opuntia::thorns::CaKernel
