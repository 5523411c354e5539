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

field_reduction reduction_of(const std::vector<double>& values) {
  field_reduction r;
  for (const double x : values) r.add(x);
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
  EXPECT_EQ(r.points, 4u);
  EXPECT_TRUE(std::isnan(r.sum.value()));
  EXPECT_TRUE(std::isnan(r.squares.value()));
  EXPECT_EQ(r.minimum, -inf);
  EXPECT_EQ(r.maximum, 2.0);
  EXPECT_EQ(r.max_abs, inf);
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
