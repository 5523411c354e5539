#pragma once
// A field reduction on a device: the box split into passes that each backend reduces
// (backend::reduce_box), and their words added into one field_reduction, exact as the host's.
#include <array>
#include <cstdint>

#include "backend.hpp"
#include "box_reduction.hpp"
#include "opuntia/field_reduction.hpp"

namespace opuntia::thorns::CaKernel {

/// `box` of a device array of `extent` points of `element_size` bytes, reduced on `device` in
/// passes of at most `points_per_pass` points (tests make it small; more than
/// reduction_words::most_points_per_pass is refused). The same bits as field_reduction::add of
/// every point, given its box_index().
field_reduction reduce_device_box(backend& device, const void* array, const std::array<int, 3>& extent,
                                  const index_range& box, std::size_t element_size,
                                  std::uint64_t points_per_pass = reduction_words::most_points_per_pass);

/// Adds the words of a pass over `points` points into `total`.
void add_pass(field_reduction& total, const reduction_result& words, std::uint64_t points);

}  // namespace opuntia::thorns::CaKernel
