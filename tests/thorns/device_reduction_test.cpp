// Field reductions where each backend reduces: on a device (thorns/CaKernel/src/
// device_reduction.cpp over each backend's reduce kernels: backends/cuda/reduce.cu,
// backends/opencl/reduce.cpp), or on the host arrays for OpenMP (reduce_box_points, its threads'
// parts merged), against field_reduction::add of the same points one by one, limb for limb: the
// exact sums of the values and of their squares must be the same integers, minimum, maximum and
// max |value| the same bits, the counts (points, NaN, infinities) and the first non-finite point
// the same. Inputs that break plain sums: huge and tiny magnitudes, 1e300 + 1 - 1e300,
// subnormals, squares that overflow or underflow, NaN and infinities, -0 beside +0, every
// exponent at random (a new run of digits at almost every point), more points than one pass,
// and ghost zones full of values that must not count; NaN and infinities planted at known
// points. Doubles and floats. One CTest test per backend (device_reduction.openmp,
// device_reduction.opencl, device_reduction.cuda: label gpu); each skips where the machine has
// no device for it.
#include "thorns/CaKernel/src/device_reduction.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backend_cases.hpp"

namespace {

using opuntia::field_reduction;
using opuntia::index_range;
using opuntia::thorns::CaKernel::backend;

constexpr double inf = std::numeric_limits<double>::infinity();

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

std::vector<std::int64_t> normalized_limbs(opuntia::exact_sum sum) {
  sum.normalize();
  return {sum.limbs().begin(), sum.limbs().end()};
}

/// A block of `extent` points with ghost zones `ghosts` wide: the box a rank owns.
index_range interior_of(const std::array<int, 3>& extent, int ghosts) {
  return {{ghosts, ghosts, ghosts}, {extent[0] - ghosts, extent[1] - ghosts, extent[2] - ghosts}};
}

template <typename Real>
double value_at(const std::vector<Real>& array, const std::array<int, 3>& extent, int i, int j, int k) {
  return static_cast<double>(
      array[i + static_cast<std::size_t>(extent[0]) * (j + static_cast<std::size_t>(extent[1]) * k)]);
}

/// The reference: every point added one by one, in order.
template <typename Real>
field_reduction on_host(const std::vector<Real>& array, const std::array<int, 3>& extent, const index_range& box) {
  field_reduction r;
  std::uint64_t index = 0;
  box.for_each([&](int i, int j, int k) { r.add(value_at(array, extent, i, j, k), index++); });
  return r;
}

template <typename Real>
field_reduction on_device(backend& device, const std::vector<Real>& array, const std::array<int, 3>& extent,
                          const index_range& box, std::uint64_t points_per_pass) {
  const std::size_t bytes = array.size() * sizeof(Real);
  void* copy = device.allocate(bytes);
  device.copy_to_device(copy, array.data(), bytes);
  auto r = opuntia::thorns::CaKernel::reduce_device_box(device, copy, extent, box, sizeof(Real), points_per_pass);
  device.release(copy);
  return r;
}

/// The reduction where `device` reduces: the host array for a backend on the host's memory
/// (OpenMP), as the CaKernel runtime does (cakernel_runtime::reduce_on_device), else the device.
template <typename Real>
field_reduction where_it_reduces(backend& device, const std::vector<Real>& array, const std::array<int, 3>& extent,
                                 const index_range& box, std::uint64_t points_per_pass) {
  if (device.shares_host_memory()) {
    return opuntia::reduce_box_points(box, [&](int i, int j, int k) { return value_at(array, extent, i, j, k); });
  }
  return on_device(device, array, extent, box, points_per_pass);
}

/// The backend's reduction of `box` of `array` is the one-by-one one, exactly; returns the latter.
template <typename Real>
field_reduction expect_host_bits(
    backend& device, const std::vector<Real>& array, const std::array<int, 3>& extent, const index_range& box,
    std::uint64_t points_per_pass = opuntia::thorns::CaKernel::reduction_words::most_points_per_pass) {
  const auto host = on_host(array, extent, box);
  const auto got = where_it_reduces(device, array, extent, box, points_per_pass);
  EXPECT_EQ(normalized_limbs(got.sum), normalized_limbs(host.sum));
  EXPECT_EQ(normalized_limbs(got.squares), normalized_limbs(host.squares));
  EXPECT_EQ(bits(got.sum.value()), bits(host.sum.value()));
  EXPECT_EQ(bits(got.minimum), bits(host.minimum));
  EXPECT_EQ(bits(got.maximum), bits(host.maximum));
  EXPECT_EQ(bits(got.max_abs), bits(host.max_abs));
  EXPECT_EQ(got.points, host.points);
  EXPECT_EQ(got.nans, host.nans);
  EXPECT_EQ(got.infinities, host.infinities);
  EXPECT_EQ(got.first_non_finite, host.first_non_finite);
  return host;
}

/// `values` laid over the box in x-fastest order (repeated to fill it), 1e300 in the ghost zones.
template <typename Real>
std::vector<Real> box_of(const std::vector<double>& values, const std::array<int, 3>& extent, const index_range& box) {
  std::vector<Real> array(static_cast<std::size_t>(extent[0]) * extent[1] * extent[2], static_cast<Real>(1e300));
  std::size_t next = 0;
  box.for_each([&](int i, int j, int k) {
    array[i + static_cast<std::size_t>(extent[0]) * (j + static_cast<std::size_t>(extent[1]) * k)] =
        static_cast<Real>(values[next++ % values.size()]);
  });
  return array;
}

class device_reduction : public ::testing::TestWithParam<variant_check::backend_case> {
 protected:
  void SetUp() override {
    device_ = variant_check::make_device(GetParam().backend);
    if (!device_) GTEST_SKIP() << "the build has " << GetParam().backend << ", the machine no device for it";
    extent_ = {GetParam().grid.ni, GetParam().grid.nj, GetParam().grid.nk};
    box_ = interior_of(extent_, 3);
  }
  /// Both precisions: `values` over the interior, and the device against the host.
  /// Returns the one-by-one reduction of the doubles.
  field_reduction expect_host_bits_of(const std::vector<double>& values, std::uint64_t points_per_pass = 1ULL << 30) {
    field_reduction host;
    {
      SCOPED_TRACE("double");
      host = expect_host_bits(*device_, box_of<double>(values, extent_, box_), extent_, box_, points_per_pass);
    }
    {
      SCOPED_TRACE("float");
      expect_host_bits(*device_, box_of<float>(values, extent_, box_), extent_, box_, points_per_pass);
    }
    return host;
  }
  std::unique_ptr<backend> device_;
  std::array<int, 3> extent_{};
  index_range box_;
};

TEST_P(device_reduction, a_smooth_field_in_passes_of_every_size) {
  std::vector<double> values;
  box_.for_each([&](int i, int j, int k) { values.push_back(std::sin(0.3 * i) * std::cos(0.2 * j) + 1e-3 * k); });
  // One pass, and passes that do and do not divide the box.
  for (const std::uint64_t pass : {1ULL << 30, 1000ULL, 997ULL, 5ULL * 35 * 23}) {
    SCOPED_TRACE(pass);
    expect_host_bits_of(values, pass);
  }
}

TEST_P(device_reduction, cancellation_loses_nothing) {
  const auto array = box_of<double>({1e300, 1.0, -1e300, 2.5, -2.5}, extent_, box_);
  const auto host = expect_host_bits(*device_, array, extent_, box_);
  // Each run of five adds 1 exactly; a last run cut after -1e300 (the 44-point grid's) too.
  const std::uint64_t runs = box_.points() / 5, tail = box_.points() % 5;
  ASSERT_TRUE(tail == 0 || tail == 3) << tail;
  EXPECT_EQ(host.sum.value(), static_cast<double>(runs + (tail == 3 ? 1 : 0)));
  EXPECT_EQ(host.squares.value(), inf);  // (+-1e300)^2 overflows to +inf
}

TEST_P(device_reduction, huge_tiny_and_subnormal_magnitudes) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  const double huge = std::numeric_limits<double>::max();
  expect_host_bits_of({huge, tiny, -tiny, 3 * tiny, std::numeric_limits<double>::min(), -huge, huge, 1e-310, -1e-320,
                       1e-200, 1e200, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()});
}

TEST_P(device_reduction, nan_and_infinities_are_counted_and_zeros_ordered) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_host_bits_of({0.0, -0.0, inf, 1.0, -inf, nan, -0.0});
  expect_host_bits_of({-0.0, 0.0, -0.0});  // no other value: minimum -0, maximum +0
  expect_host_bits_of({inf, 2.0, inf});    // +inf alone: no NaN in the sums
}

TEST_P(device_reduction, non_finite_points_planted_are_counted_and_the_first_found) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Point (i, j, k) of the box is value n = (i - 3) + nx (j - 3 + ny (k - 3)) of the list.
  const int nx = box_.end[0] - box_.begin[0], ny = box_.end[1] - box_.begin[1];
  const auto n_of = [&](int i, int j, int k) { return static_cast<std::size_t>(i - 3 + nx * (j - 3 + ny * (k - 3))); };
  std::vector<double> values(box_.points());
  for (std::size_t n = 0; n < values.size(); ++n) values[n] = std::sin(0.01 * static_cast<double>(n));
  // Late points first, so that no backend finds the first by luck of its order: a NaN near the
  // box's far corner, -inf in the middle, then the first, a NaN at (7, 5, 9).
  values[n_of(box_.end[0] - 2, box_.end[1] - 1, box_.end[2] - 1)] = nan;
  values[n_of(20, 10, 10)] = -inf;
  const std::size_t first = n_of(7, 5, 9);
  values[first] = nan;
  for (const std::uint64_t pass : {1ULL << 30, 997ULL}) {
    SCOPED_TRACE(pass);
    const auto host = expect_host_bits_of(values, pass);
    EXPECT_EQ(host.first_non_finite, first);
    EXPECT_EQ(opuntia::box_index(box_, 7, 5, 9), first);
    EXPECT_EQ(host.nans, 2u);
    EXPECT_EQ(host.infinities, 1u);
  }
  // An infinity before every NaN is the first; a field without any has none.
  values[n_of(3, 4, 3)] = inf;
  EXPECT_EQ(expect_host_bits_of(values, 1000).first_non_finite, n_of(3, 4, 3));
  const auto finite = expect_host_bits_of({1.0, -2.0});
  EXPECT_EQ(finite.first_non_finite, field_reduction::no_point);
  EXPECT_EQ(finite.nans + finite.infinities, 0u);
}

TEST_P(device_reduction, every_exponent_at_random) {
  // A new lowest digit at almost every point: every term reaches the shared words.
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-1074, 1023);
  std::vector<double> values(box_.points());
  for (auto& x : values) x = std::ldexp(mantissa(random), exponent(random));
  expect_host_bits_of(values);
  expect_host_bits_of(values, 1234);
}

TEST_P(device_reduction, only_the_box_counts) {
  // The whole array, a slab one point thick, and an empty box: the ghost zones' 1e300 never count.
  std::vector<double> values;
  box_.for_each([&](int i, int j, int k) { values.push_back(i - 2.0 * j + 0.5 * k); });
  const auto array = box_of<double>(values, extent_, box_);
  const index_range whole{{0, 0, 0}, extent_};
  expect_host_bits(*device_, array, extent_, whole);
  const index_range slab{{3, 3, 5}, {extent_[0] - 3, extent_[1] - 3, 6}};
  expect_host_bits(*device_, array, extent_, slab, 7);
  const index_range empty{{3, 3, 5}, {3, extent_[1] - 3, 6}};
  const auto host = expect_host_bits(*device_, array, extent_, empty);
  EXPECT_EQ(host.points, 0u);
  EXPECT_EQ(host.minimum, inf);
}

TEST_P(device_reduction, passes_of_no_point_or_past_the_bound_are_refused) {
  const auto array = box_of<double>({1.0}, extent_, box_);
  EXPECT_THROW(on_device(*device_, array, extent_, box_, 0), std::invalid_argument);
  EXPECT_THROW(on_device(*device_, array, extent_, box_, (1ULL << 30) + 1), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(device, device_reduction, ::testing::ValuesIn(variant_check::backend_cases(true)),
                         [](const auto& info) { return variant_check::case_name(info.param); });

}  // namespace
