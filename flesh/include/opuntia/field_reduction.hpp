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
  // Negative: every bit flipped; otherwise the sign bit set. Without a branch, so that a loop
  // over a row vectorises (field_reduction::add_row).
  const auto negative = static_cast<std::uint64_t>(static_cast<std::int64_t>(bits) >> 63);
  return bits ^ (negative | (std::uint64_t{1} << 63));
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
  /// Adds the `count` points of a row, values[n] as point first_index + n: the same as add() for
  /// each, in one pass over the row where no sums are asked for and its points are all finite
  /// (a host reduction of the extremes point by point took 12 ns a point).
  template <typename T>
  void add_row(const T* values, std::size_t count, std::uint64_t first_index);
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

template <typename T>
void field_reduction::add_row(const T* values, std::size_t count, std::uint64_t first_index) {
  // The extremes of a finite row as keys of the total order (ordered_key): the same minimum and
  // maximum, to the bit, as add() in any order, and no branch a point.
  std::uint64_t low = ordered_key(minimum), high = ordered_key(maximum);
  double largest = max_abs;
  bool finite = !with_sums;
  for (std::size_t n = 0; !with_sums && n < count; ++n) {
    const double value = static_cast<double>(values[n]);
    finite &= std::isfinite(value);
    const std::uint64_t key = ordered_key(value);
    low = key < low ? key : low;
    high = key > high ? key : high;
    largest = std::fabs(value) > largest ? std::fabs(value) : largest;
  }
  if (!finite) {  // sums, or a NaN or infinity to place: point by point
    for (std::size_t n = 0; n < count; ++n) add(static_cast<double>(values[n]), first_index + n);
    return;
  }
  points += count;
  minimum = from_ordered_key(low);
  maximum = from_ordered_key(high);
  max_abs = largest;
}

/// The index of local point (i, j, k) of `box` among its points, x fastest from 0: what
/// field_reduction::add is given for it, on the host and on a device alike.
inline std::uint64_t box_index(const index_range& box, int i, int j, int k) {
  const auto size_x = static_cast<std::uint64_t>(box.end[0] - box.begin[0]);
  const auto size_y = static_cast<std::uint64_t>(box.end[1] - box.begin[1]);
  const auto along = [&](int d, int at) { return static_cast<std::uint64_t>(at - box.begin[d]); };
  return along(0, i) + size_x * (along(1, j) + size_y * along(2, k));
}

/// The rows of `box` shared out over the OpenMP threads, `add_row(reduction, j, k)` adding row
/// (j, k)'s points to a thread's reduction, and the threads' reductions merged (exact, so their
/// order is no matter). `with_sums` false: the extremes and counts alone.
template <typename AddRow>
field_reduction reduce_box_by_rows(const index_range& box, bool with_sums, AddRow add_row) {
  field_reduction total;
  total.with_sums = with_sums;
#pragma omp parallel
  {
    field_reduction thread;
    thread.with_sums = with_sums;
#pragma omp for collapse(2) schedule(static) nowait
    for (int k = box.begin[2]; k < box.end[2]; ++k) {
      for (int j = box.begin[1]; j < box.end[1]; ++j) add_row(thread, j, k);
    }
#pragma omp critical(opuntia_reduce_box_points)
    total.merge(thread);
  }
  return total;
}

/// f(i, j, k) over every point of `box`: the host's reduction of a field, point (i, j, k)
/// indexed box_index(). `with_sums` false: the extremes and counts alone
/// (field_reduction::with_sums).
template <typename PointValue>
field_reduction reduce_box_points(const index_range& box, PointValue f, bool with_sums = true) {
  return reduce_box_by_rows(box, with_sums, [&](field_reduction& reduction, int j, int k) {
    std::uint64_t index = box_index(box, box.begin[0], j, k);
    for (int i = box.begin[0]; i < box.end[0]; ++i) reduction.add(f(i, j, k), index++);
  });
}

/// The same reduction of an array's points over `box`, a row at a time (field_reduction::
/// add_row): `row_of(j, k)` is the address of point (box.begin[0], j, k), the row's points
/// following it.
template <typename RowOf>
field_reduction reduce_box_rows(const index_range& box, RowOf row_of, bool with_sums = true) {
  const auto width = static_cast<std::size_t>(std::max(box.end[0] - box.begin[0], 0));
  return reduce_box_by_rows(box, with_sums, [&](field_reduction& reduction, int j, int k) {
    reduction.add_row(row_of(j, k), width, box_index(box, box.begin[0], j, k));
  });
}

}  // namespace opuntia
