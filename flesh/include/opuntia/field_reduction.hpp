#pragma once
// One rank's part of the reductions of a real grid function over a box: what
// routine_context::statistics() combines over the ranks. The host adds points one by one; a
// device backend fills the same fields from its own pass over the box (kernel_runtime::
// reduce_on_device), and both give the same bits: sums are exact, and minimum and maximum use
// a total order in which -0 lies below +0, so that no order of the points can change them.
//
//   opuntia::field_reduction r;
//   for (double x : values) r.add(x);
//   r.sum.value();  // exact, rounded once
#include <bit>
#include <cstdint>
#include <limits>

#include "opuntia/exact_sum.hpp"

namespace opuntia {

struct field_reduction {
  exact_sum sum;      // of the values
  exact_sum squares;  // of value * value, each product rounded to a double
  // Of the values that are not NaN (NaN is counted in `nans` and makes the sums NaN); with none,
  // the identities: +inf, -inf and 0.
  double minimum = std::numeric_limits<double>::infinity();
  double maximum = -std::numeric_limits<double>::infinity();
  double max_abs = 0;
  std::uint64_t points = 0;  // NaN ones included
  std::uint64_t nans = 0;

  void add(double value);
  /// As if every point of `other` had been added here.
  void merge(const field_reduction& other);
};

/// A double's place in the total order of the values that are not NaN, as an unsigned integer:
/// -inf < ... < -0 < +0 < ... < +inf, ordered as doubles are where they are not both zeros.
inline std::uint64_t ordered_key(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}
/// The double ordered_key() maps to `key`.
inline double from_ordered_key(std::uint64_t key) {
  return std::bit_cast<double>(key >> 63 ? key & ~(std::uint64_t{1} << 63) : ~key);
}

}  // namespace opuntia
