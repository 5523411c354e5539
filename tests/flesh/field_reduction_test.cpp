// field_reduction (flesh/runtime/field_reduction.cpp): one rank's part of a field's reductions,
// which must not depend on the order of the points, signed zeros and NaN included.
#include "opuntia/field_reduction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace opuntia {
namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

/// `values`, point n indexed `first + n`.
field_reduction reduction_of(const std::vector<double>& values, std::uint64_t first = 0) {
  field_reduction r;
  for (const double x : values) r.add(x, first++);
  return r;
}

constexpr double inf = std::numeric_limits<double>::infinity();

TEST(field_reduction, an_empty_one_holds_the_identities) {
  const field_reduction r;
  EXPECT_EQ(r.minimum, inf);
  EXPECT_EQ(r.maximum, -inf);
  EXPECT_EQ(bits(r.max_abs), bits(0.0));
  EXPECT_EQ(r.points, 0u);
  EXPECT_EQ(r.sum.value(), 0.0);
  EXPECT_EQ(r.first_non_finite, field_reduction::no_point);
}

TEST(field_reduction, sums_squares_and_extremes) {
  const auto r = reduction_of({1e300, 1.0, -1e300, -2.5, 3.0});
  EXPECT_EQ(r.sum.value(), 1.5);      // the cancellation loses nothing
  EXPECT_EQ(r.squares.value(), inf);  // (+-1e300)^2 overflows: +inf terms
  EXPECT_EQ(r.minimum, -1e300);
  EXPECT_EQ(r.maximum, 1e300);
  EXPECT_EQ(r.max_abs, 1e300);
  EXPECT_EQ(r.points, 5u);
  EXPECT_EQ(r.nans, 0u);
  const auto small = reduction_of({3.0, -4.0});
  EXPECT_EQ(small.squares.value(), 25.0);
}

TEST(field_reduction, minus_zero_lies_below_plus_zero_in_any_order) {
  for (const auto& values : {std::vector<double>{0.0, -0.0}, std::vector<double>{-0.0, 0.0}}) {
    const auto r = reduction_of(values);
    EXPECT_EQ(bits(r.minimum), bits(-0.0));
    EXPECT_EQ(bits(r.maximum), bits(0.0));
    EXPECT_EQ(bits(r.max_abs), bits(0.0));
  }
}

TEST(field_reduction, nan_is_counted_and_kept_out_of_the_extremes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto r = reduction_of({nan, 2.0, -inf, nan});
  EXPECT_EQ(r.nans, 2u);
  EXPECT_EQ(r.infinities, 1u);
  EXPECT_EQ(r.first_non_finite, 0u);
  EXPECT_EQ(r.points, 4u);
  EXPECT_TRUE(std::isnan(r.sum.value()));
  EXPECT_TRUE(std::isnan(r.squares.value()));
  EXPECT_EQ(r.minimum, -inf);
  EXPECT_EQ(r.maximum, 2.0);
  EXPECT_EQ(r.max_abs, inf);
}

TEST(field_reduction, the_first_non_finite_point_is_the_smallest_index_in_any_order) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  field_reduction r;
  r.add(1.0, 3);
  r.add(nan, 40);
  r.add(-inf, 12);
  r.add(2.0, 5);
  EXPECT_EQ(r.first_non_finite, 12u);
  EXPECT_EQ(r.nans, 1u);
  EXPECT_EQ(r.infinities, 1u);
  // Merged: the smaller of the two, whichever side it is on.
  auto merged = reduction_of({1.0, inf}, 100);
  merged.merge(r);
  EXPECT_EQ(merged.first_non_finite, 12u);
  EXPECT_EQ(merged.infinities, 2u);
  r.merge(reduction_of({nan}, 7));
  EXPECT_EQ(r.first_non_finite, 7u);
  EXPECT_EQ(reduction_of({1.0, -0.0, 1e308}).first_non_finite, field_reduction::no_point);
}

TEST(field_reduction, reduce_box_points_indexes_the_box_x_fastest) {
  // A 3x4x5 box at (2, 1, 7) with infinities at (4, 1, 7) and (3, 2, 8), NaN at (2, 4, 11).
  const index_range box{{2, 1, 7}, {5, 5, 12}};
  const auto f = [](int i, int j, int k) {
    if ((i == 4 && j == 1 && k == 7) || (i == 3 && j == 2 && k == 8)) return inf;
    if (i == 2 && j == 4 && k == 11) return std::numeric_limits<double>::quiet_NaN();
    return 1.0;
  };
  const auto r = reduce_box_points(box, f);
  EXPECT_EQ(r.points, 60u);
  EXPECT_EQ(r.nans, 1u);
  EXPECT_EQ(r.infinities, 2u);
  EXPECT_EQ(r.first_non_finite, 2u);
  EXPECT_EQ(box_index(box, 4, 1, 7), 2u);
  EXPECT_EQ(box_index(box, 3, 2, 8), 1u + 3u * (1u + 4u * 1u));
  EXPECT_EQ(box_index(box, 4, 4, 11), 59u);  // the last
}

TEST(field_reduction, parts_merged_give_the_bits_of_the_whole) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-1074, 1000);
  std::vector<double> values(5000);
  for (auto& x : values) x = std::ldexp(mantissa(random), exponent(random));
  values[17] = -0.0;
  values[18] = 0.0;
  const auto whole = reduction_of(values);
  std::shuffle(values.begin(), values.end(), random);
  field_reduction merged;
  for (std::size_t part = 0; part < 7; ++part) {
    merged.merge(
        reduction_of({values.begin() + part * values.size() / 7, values.begin() + (part + 1) * values.size() / 7}));
  }
  EXPECT_EQ(bits(merged.sum.value()), bits(whole.sum.value()));
  EXPECT_EQ(bits(merged.squares.value()), bits(whole.squares.value()));
  EXPECT_EQ(bits(merged.minimum), bits(whole.minimum));
  EXPECT_EQ(bits(merged.maximum), bits(whole.maximum));
  EXPECT_EQ(bits(merged.max_abs), bits(whole.max_abs));
  EXPECT_EQ(merged.points, whole.points);
  EXPECT_EQ(merged.first_non_finite, field_reduction::no_point);
}

TEST(field_reduction, rows_give_the_bits_of_their_points_added_one_by_one) {
  // Rows of finite values (signed zeros, denormals) take add_row's one pass; rows with a NaN or
  // an infinity, and every row where sums are asked for, go point by point. Either way: add()'s
  // fields for the same points, extremes, counts and the first non-finite index alike.
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-1074, 1000);
  for (const bool with_sums : {false, true}) {
    std::vector<std::vector<double>> rows(9, std::vector<double>(37));
    for (auto& row : rows)
      for (auto& x : row) x = std::ldexp(mantissa(random), exponent(random));
    rows[1][3] = -0.0;
    rows[2][5] = 0.0;
    rows[4][30] = std::numeric_limits<double>::quiet_NaN();
    rows[6][0] = -inf;
    rows[7].assign(37, -0.0);
    field_reduction by_rows, by_points;
    by_rows.with_sums = by_points.with_sums = with_sums;
    std::uint64_t index = 0;
    for (const auto& row : rows) {
      by_rows.add_row(row.data(), row.size(), index);
      for (const double x : row) by_points.add(x, index++);
    }
    SCOPED_TRACE(with_sums ? "with sums" : "extremes only");
    EXPECT_EQ(bits(by_rows.minimum), bits(by_points.minimum));
    EXPECT_EQ(bits(by_rows.maximum), bits(by_points.maximum));
    EXPECT_EQ(bits(by_rows.max_abs), bits(by_points.max_abs));
    EXPECT_EQ(by_rows.points, by_points.points);
    EXPECT_EQ(by_rows.nans, 1u);
    EXPECT_EQ(by_rows.infinities, 1u);
    EXPECT_EQ(by_rows.first_non_finite, 4u * 37u + 30u);  // the NaN
    EXPECT_EQ(by_rows.first_non_finite, by_points.first_non_finite);
    if (with_sums) {
      EXPECT_EQ(bits(by_rows.squares.value()), bits(by_points.squares.value()));
    }
  }
  // float rows, as a single-precision build's arrays
  const std::vector<float> floats{2.5f, -0.0f, 0.0f, -7.25f, 1e-40f};
  field_reduction by_rows, by_points;
  by_rows.with_sums = by_points.with_sums = false;
  by_rows.add_row(floats.data(), floats.size(), 0);
  for (std::size_t n = 0; n < floats.size(); ++n) by_points.add(floats[n], n);
  EXPECT_EQ(bits(by_rows.minimum), bits(-7.25));
  EXPECT_EQ(bits(by_rows.maximum), bits(2.5));
  EXPECT_EQ(bits(by_rows.max_abs), bits(by_points.max_abs));
}

TEST(field_reduction, reduce_box_rows_gives_the_bits_of_reduce_box_points) {
  // An array of 6 x 5 x 4 elements; the box its points (1..4, 1..3, 0..3).
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  std::vector<double> array(6 * 5 * 4);
  for (auto& x : array) x = uniform(random);
  array[1 + 6 * (2 + 5 * 1)] = inf;
  const auto at = [&](int i, int j, int k) { return &array[static_cast<std::size_t>(i + 6 * (j + 5 * k))]; };
  const index_range box{{1, 1, 0}, {5, 4, 4}};
  for (const bool with_sums : {false, true}) {
    const auto rows = reduce_box_rows(box, [&](int j, int k) { return at(box.begin[0], j, k); }, with_sums);
    const auto points = reduce_box_points(box, [&](int i, int j, int k) { return *at(i, j, k); }, with_sums);
    EXPECT_EQ(bits(rows.minimum), bits(points.minimum));
    EXPECT_EQ(bits(rows.maximum), bits(points.maximum));
    EXPECT_EQ(bits(rows.max_abs), bits(points.max_abs));
    EXPECT_EQ(rows.points, 48u);
    EXPECT_EQ(rows.first_non_finite, box_index(box, 1, 2, 1));
    EXPECT_EQ(bits(rows.sum.value()), bits(points.sum.value()));
  }
}

TEST(field_reduction, ordered_keys_order_doubles_and_come_back) {
  const std::vector<double> ascending{-inf,
                                      -1e308,
                                      -1.0,
                                      -std::numeric_limits<double>::denorm_min(),
                                      -0.0,
                                      0.0,
                                      std::numeric_limits<double>::denorm_min(),
                                      1.0,
                                      1e308,
                                      inf};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    EXPECT_EQ(bits(from_ordered_key(ordered_key(ascending[i]))), bits(ascending[i]));
    if (i > 0) {
      EXPECT_LT(ordered_key(ascending[i - 1]), ordered_key(ascending[i])) << ascending[i];
    }
  }
}

}  // namespace
}  // namespace opuntia
