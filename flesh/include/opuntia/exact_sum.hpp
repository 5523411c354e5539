#pragma once
// A sum of doubles that is exact, so that it does not depend on the order of the terms: the same
// field gives the same bits on 1 rank or on 8, however the grid is split. Every finite double is
// an integer multiple of 2^-1074 below 2^1024, so a fixed-point integer of 2098 bits (and some
// headroom for carries) holds any sum of them exactly; it is rounded to the nearest double, ties
// to even, only when read. This is the "long accumulator" of Kulisch, kept in 32-bit digits in
// 64-bit signed limbs so that an addition needs no carry propagation (the limbs are normalised
// every 2^30 additions and before they are combined or read).
//
//   opuntia::exact_sum sum;
//   for (double x : values) sum.add(x);
//   // across ranks: MPI_Allreduce(sum.limbs().data(), ..., MPI_INT64_T, MPI_SUM) after normalize()
//   double total = sum.value();
#include <array>
#include <cstdint>
#include <span>

#include "opuntia/exact_sum_layout.hpp"

namespace opuntia {

class exact_sum {
public:
  /// 32-bit digits from 2^-1074 to past 2^1024 with 64 bits of headroom (exact_sum_layout.hpp).
  static constexpr int digit_bits = exact_sum_layout::digit_bits;
  static constexpr int digits = exact_sum_layout::digits;

  void add(double x);
  /// Adds every term of `other`, as if its terms had been added here.
  void merge(const exact_sum& other);
  /// The sum rounded to the nearest double (ties to even); +-inf past the range of a double, NaN
  /// when a term was NaN or both infinities were added.
  double value() const;

  /// Carries every limb into the next, so that each holds a digit in [0, 2^32) and the top one
  /// the sign. After it, limb-wise integer sums of several accumulators (MPI_SUM over ranks of
  /// up to 2^31) are exact, and normalize() of the result is the sum of them all.
  void normalize();
  /// The limbs, for moving an accumulator between ranks: the non-finite flags travel in the last
  /// three (counts of NaN, +inf and -inf terms), which sum as the digits do.
  std::span<std::int64_t> limbs() { return limbs_; }
  std::span<const std::int64_t> limbs() const { return limbs_; }
  /// Adds the terms of an accumulator given as limbs in the layout of limbs() (exact_sum_layout):
  /// each digit limb may hold any int64, normalised or not (a device's partial sums, which
  /// defer every carry); the top digit limb, which holds the sign, and the three counts are
  /// added as they are. Exact, as merge() is. Throws std::invalid_argument for a wrong length.
  void add_limbs(std::span<const std::int64_t> limbs);

private:
  static constexpr int nan_count = exact_sum_layout::nan_count;
  static constexpr int plus_infinity_count = exact_sum_layout::plus_infinity_count;
  static constexpr int minus_infinity_count = exact_sum_layout::minus_infinity_count;
  std::array<std::int64_t, exact_sum_layout::limbs> limbs_{};
  std::uint32_t additions_since_normalized_ = 0;
};

}  // namespace opuntia
