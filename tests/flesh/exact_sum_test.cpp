#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "opuntia/exact_sum.hpp"

namespace opuntia {
namespace {

double sum_of(const std::vector<double>& values) {
  exact_sum sum;
  for (const double x : values) sum.add(x);
  return sum.value();
}

/// The bits of `x`, so that a failure shows the difference and -0 differs from +0.
std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

TEST(exact_sum, an_empty_sum_is_zero) { EXPECT_EQ(exact_sum{}.value(), 0.0); }

TEST(exact_sum, small_integers_add_as_integers) { EXPECT_EQ(sum_of({1, 2, 3, -4.5}), 1.5); }

TEST(exact_sum, cancellation_loses_nothing) {
  // Plain addition in this order gives 0, 0 and infinity.
  EXPECT_EQ(sum_of({1e308, 1.0, -1e308}), 1.0);
  EXPECT_EQ(sum_of({1.0, 1e-300, -1.0}), 1e-300);
  EXPECT_EQ(sum_of({std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
                    -std::numeric_limits<double>::max()}),
            std::numeric_limits<double>::max());
}

TEST(exact_sum, subnormals_are_exact) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_EQ(sum_of({tiny, tiny, tiny}), 3 * tiny);
  EXPECT_EQ(sum_of({std::numeric_limits<double>::min(), -tiny}), std::numeric_limits<double>::min() - tiny);
}

TEST(exact_sum, rounds_to_nearest_ties_to_even) {
  const double ulp_half = std::ldexp(1.0, -53);  // half an ulp of 1.0
  EXPECT_EQ(bits(sum_of({1.0, ulp_half})), bits(1.0));                       // tie: stays even
  EXPECT_EQ(bits(sum_of({1.0, ulp_half, std::ldexp(1.0, -200)})), bits(std::nextafter(1.0, 2.0)));  // above the tie
  const double odd = std::nextafter(1.0, 2.0);
  EXPECT_EQ(bits(sum_of({odd, ulp_half})), bits(std::nextafter(odd, 2.0)));  // tie: up to even
  EXPECT_EQ(bits(sum_of({1.0, std::ldexp(ulp_half, -1)})), bits(1.0));       // below the tie
}

TEST(exact_sum, negative_sums_round_symmetrically) {
  const double ulp_half = std::ldexp(1.0, -53);
  EXPECT_EQ(bits(sum_of({-1.0, -ulp_half})), bits(-1.0));
  EXPECT_EQ(sum_of({-3.0, 1.0}), -2.0);
}

TEST(exact_sum, past_the_largest_double_is_infinity) {
  const double max = std::numeric_limits<double>::max();
  EXPECT_EQ(sum_of({max, max}), std::numeric_limits<double>::infinity());
  EXPECT_EQ(sum_of({-max, -max}), -std::numeric_limits<double>::infinity());
}

TEST(exact_sum, non_finite_terms) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(sum_of({1.0, std::numeric_limits<double>::quiet_NaN()})));
  EXPECT_TRUE(std::isnan(sum_of({inf, -inf})));
  EXPECT_EQ(sum_of({inf, 1.0}), inf);
  EXPECT_EQ(sum_of({-inf, 1.0}), -inf);
}

TEST(exact_sum, the_order_of_the_terms_does_not_matter) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-60, 60);
  std::vector<double> values(100000);
  for (auto& x : values) x = std::ldexp(mantissa(random), exponent(random));
  const double forward = sum_of(values);
  std::reverse(values.begin(), values.end());
  EXPECT_EQ(bits(sum_of(values)), bits(forward));
  std::shuffle(values.begin(), values.end(), random);
  EXPECT_EQ(bits(sum_of(values)), bits(forward));
  // and it is the correctly rounded sum: long double (64-bit mantissa) summed from the
  // smallest magnitude up agrees to within the double's rounding.
  std::sort(values.begin(), values.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  long double reference = 0;
  for (const double x : values) reference += x;
  EXPECT_NEAR(forward, static_cast<double>(reference), std::abs(forward) * 1e-15);
}

TEST(exact_sum, parts_merged_in_any_grouping_give_the_same_bits) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal(0.0, 1e3);
  std::vector<double> values(30001);
  for (auto& x : values) x = normal(random);
  const double whole = sum_of(values);
  for (const std::size_t parts : {2u, 3u, 8u, 17u}) {
    exact_sum total;
    for (std::size_t p = 0; p < parts; ++p) {
      exact_sum part;
      for (std::size_t i = p * values.size() / parts; i < (p + 1) * values.size() / parts; ++i) part.add(values[i]);
      total.merge(part);
    }
    EXPECT_EQ(bits(total.value()), bits(whole)) << parts << " parts";
  }
}

TEST(exact_sum, normalized_limbs_add_as_integers) {
  // What an MPI_SUM over ranks does: the limb-wise sum of normalized accumulators.
  exact_sum a, b;
  for (int i = 0; i < 1000; ++i) {
    a.add(0.1 * i);
    b.add(-0.03 * i);
  }
  exact_sum merged = a;
  merged.merge(b);
  a.normalize();
  b.normalize();
  for (std::size_t i = 0; i < a.limbs().size(); ++i) a.limbs()[i] += b.limbs()[i];
  a.normalize();
  EXPECT_EQ(bits(a.value()), bits(merged.value()));
}

/// The normalised limbs of `sum`: two accumulators hold the same terms' sum exactly when these agree.
std::vector<std::int64_t> normalized_limbs(exact_sum sum) {
  sum.normalize();
  return {sum.limbs().begin(), sum.limbs().end()};
}

TEST(exact_sum, limbs_added_unnormalized_are_exact) {
  // What a device hands back: limbs that never carried, positive or negative, up to the
  // extremes of an int64, each standing for limb * 2^(32 d - 1074).
  std::array<std::int64_t, exact_sum_layout::limbs> limbs{};
  limbs[0] = std::numeric_limits<std::int64_t>::max();     // 2^63 - 1 units of the smallest subnormal
  limbs[1] = std::numeric_limits<std::int64_t>::min();     // -2^63 units of 2^32 of them
  limbs[40] = (std::int64_t{1} << 62) + 12345;
  limbs[41] = -7;
  limbs[60] = -(std::int64_t{1} << 40);  // near 2^900: higher limbs are past any double
  exact_sum added;
  added.add(3.0);  // added to what is there already
  added.add_limbs(limbs);
  // The same value from doubles, each exact: a limb's high and low 32 bits times its weight.
  exact_sum built;
  built.add(3.0);
  const auto add_integer_times = [&](std::int64_t n, int digit) {
    const double scale = std::ldexp(1.0, 32 * digit - 1074);
    const auto high = static_cast<double>(n >> 32), low = static_cast<double>(n & 0xffffffff);
    built.add(std::ldexp(high * scale, 32));
    built.add(low * scale);
  };
  for (int d = 0; d < exact_sum::digits; ++d) {
    if (limbs[d] != 0) add_integer_times(limbs[d], d);
  }
  EXPECT_EQ(normalized_limbs(added), normalized_limbs(built));
  EXPECT_EQ(bits(added.value()), bits(built.value()));
}

TEST(exact_sum, limbs_of_another_accumulator_add_as_merge_does) {
  exact_sum a, b;
  for (int i = 0; i < 500; ++i) {
    a.add(std::ldexp(1.0 + i, -i));
    b.add(-std::ldexp(3.0 + i, i));
  }
  b.add(std::numeric_limits<double>::quiet_NaN());
  exact_sum merged = a, added = a;
  merged.merge(b);
  added.add_limbs(b.limbs());  // not normalised: as they were left
  EXPECT_EQ(normalized_limbs(added), normalized_limbs(merged));
  EXPECT_TRUE(std::isnan(added.value()));
}

TEST(exact_sum, limbs_of_the_wrong_length_are_refused) {
  exact_sum sum;
  const std::vector<std::int64_t> short_limbs(3, 0);
  EXPECT_THROW(sum.add_limbs(short_limbs), std::invalid_argument);
}

}  // namespace
}  // namespace opuntia
