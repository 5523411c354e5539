#include "device_reduction.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace opuntia::thorns::CaKernel {

namespace words = reduction_words;

field_reduction reduce_device_box(backend& device, const void* array, const std::array<int, 3>& extent,
                                  const index_range& box, std::size_t element_size, std::uint64_t points_per_pass) {
  if (points_per_pass == 0 || points_per_pass > words::most_points_per_pass) {
    throw std::invalid_argument("reduce_device_box: " + std::to_string(points_per_pass) +
                                " points per pass, expected 1 to 2^30 (each word must stay below 2^62)");
  }
  field_reduction total;
  const std::uint64_t points = box.points();
  for (std::uint64_t first = 0; first < points; first += points_per_pass) {
    const std::uint64_t count = std::min(points_per_pass, points - first);
    add_pass(total, device.reduce_box({array, extent, box, element_size, first, count}), count);
  }
  return total;
}

void add_pass(field_reduction& total, const reduction_result& pass, std::uint64_t points) {
  const auto add_accumulator = [&](exact_sum& sum, int at) {
    std::array<std::int64_t, exact_sum_layout::limbs> limbs{};
    for (int d = 0; d < words::digits; ++d) {
      limbs[d] = static_cast<std::int64_t>(pass[at + words::positive + d]) -
                 static_cast<std::int64_t>(pass[at + words::negative + d]);
    }
    limbs[exact_sum_layout::nan_count] = static_cast<std::int64_t>(pass[at + words::nan_count]);
    limbs[exact_sum_layout::plus_infinity_count] = static_cast<std::int64_t>(pass[at + words::plus_infinity_count]);
    limbs[exact_sum_layout::minus_infinity_count] = static_cast<std::int64_t>(pass[at + words::minus_infinity_count]);
    sum.add_limbs(limbs);
  };
  add_accumulator(total.sum, words::values);
  add_accumulator(total.squares, words::squares);
  if (pass[words::minimum] < ordered_key(total.minimum)) total.minimum = from_ordered_key(pass[words::minimum]);
  if (pass[words::maximum] > ordered_key(total.maximum)) total.maximum = from_ordered_key(pass[words::maximum]);
  total.max_abs = std::fmax(total.max_abs, std::bit_cast<double>(pass[words::max_abs]));
  total.points += points;
  total.nans += pass[words::values + words::nan_count];
  total.infinities += pass[words::values + words::plus_infinity_count] + pass[words::values + words::minus_infinity_count];
  total.first_non_finite = std::min(total.first_non_finite, pass[words::first_non_finite]);
}

}  // namespace opuntia::thorns::CaKernel
