#pragma once
// One rank's part of the reductions of a real grid function over a box: what
// routine_context::statistics() combines over the ranks. The host adds points one by one; a
// device backend fills the same fields from its own pass over the box (kernel_runtime::
// reduce_on_device), and both give the same bits: sums are exact, and minimum and maximum use
// a total order in which -0 lies below +0, so that no order of the points can change them.
//
//   opuntia::field_reduction r;
//   for (std::uint64_t n = 0; n < values.size(); ++n) r.add(values[n], n);
//   r.sum.value();       // exact, rounded once
//   r.first_non_finite;  // the smallest n of a NaN or an infinity (no_point: none)
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "opuntia/exact_sum.hpp"
#include "opuntia/grid.hpp"

namespace opuntia {

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
  std::uint64_t infinities = 0;  // +inf and -inf points
  /// The smallest index (as add() was given it) of a NaN or infinite point; no_point where none
  /// is. A box's points are indexed x fastest from 0 (box_index), so that the smallest is the
  /// first in global index order too, wherever the box lies.
  std::uint64_t first_non_finite = no_point;
  static constexpr std::uint64_t no_point = std::numeric_limits<std::uint64_t>::max();
  /// false: sum and squares are left empty (routine_context::reduction_figures::extremes), the
  /// exact sums being most of the cost of a reduction on the host.
  bool with_sums = true;

  /// Adds the point `index`; indices only order the non-finite points, and may come in any order.
  void add(double value, std::uint64_t index);
  /// As if every point of `other` had been added here.
  void merge(const field_reduction& other);
};

// Inline: the host's reductions call it for every point of a field.
inline void field_reduction::add(double value, std::uint64_t index) {
  ++points;
  if (!std::isfinite(value)) [[unlikely]] {
    first_non_finite = std::min(first_non_finite, index);
    if (std::isnan(value)) {
      ++nans;
      if (with_sums) {
        sum.add(value);
        squares.add(value);
      }
      return;
    }
    ++infinities;
  }
  if (ordered_key(value) < ordered_key(minimum)) minimum = value;
  if (ordered_key(value) > ordered_key(maximum)) maximum = value;
  // Non-negative doubles order as their bits: a plain comparison, as |value| is never -0.
  if (const double magnitude = std::fabs(value); magnitude > max_abs) max_abs = magnitude;
  if (!with_sums) return;
  sum.add(value);
  squares.add(value * value);
}

/// The index of local point (i, j, k) of `box` among its points, x fastest from 0: what
/// field_reduction::add is given for it, on the host and on a device alike.
inline std::uint64_t box_index(const index_range& box, int i, int j, int k) {
  const auto size_x = static_cast<std::uint64_t>(box.end[0] - box.begin[0]);
  const auto size_y = static_cast<std::uint64_t>(box.end[1] - box.begin[1]);
  const auto along = [&](int d, int at) { return static_cast<std::uint64_t>(at - box.begin[d]); };
  return along(0, i) + size_x * (along(1, j) + size_y * along(2, k));
}

/// f(i, j, k) over every point of `box`, added up by the OpenMP threads (exact, so their order
/// is no matter): the host's reduction of a field, point (i, j, k) indexed box_index().
/// `with_sums` false: the extremes and counts alone (field_reduction::with_sums).
template <typename PointValue>
field_reduction reduce_box_points(const index_range& box, PointValue f, bool with_sums = true) {
  field_reduction total;
  total.with_sums = with_sums;
#pragma omp parallel
  {
    field_reduction thread;
    thread.with_sums = with_sums;
#pragma omp for collapse(2) schedule(static) nowait
    for (int k = box.begin[2]; k < box.end[2]; ++k) {
      for (int j = box.begin[1]; j < box.end[1]; ++j) {
        std::uint64_t index = box_index(box, box.begin[0], j, k);
        for (int i = box.begin[0]; i < box.end[0]; ++i) thread.add(f(i, j, k), index++);
      }
    }
#pragma omp critical(opuntia_reduce_box_points)
    total.merge(thread);
  }
  return total;
}

}  // namespace opuntia
