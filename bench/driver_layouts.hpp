#pragma once
// The layouts in memory that a run's grid functions get from the driver by default, for the
// stencil benchmarks (bench/stencil_bench.cpp on the CPU, bench/gpu_stencil_bench.cu on a GPU):
// they run the generated kernels on these as well as on a bare n^3 array, laid out by the
// driver's own rules so that a benchmark cannot drift from what a run does.
#include <cstddef>
#include <string>
#include <vector>

#include "opuntia/grid.hpp"
#include "thorns/Driver/src/cartesian_topology.hpp"  // pad_rows, pad_planes

namespace opuntia::bench {

/// The padded layouts of an n^3 block of `element_bytes`-byte values for kernels that start
/// computing at x = `radius`: rows padded for 128-byte lines, the first point a kernel computes
/// in a row starting one (Driver::pad_to_cachelines, Driver::cacheline_bytes' default), and those
/// rows in planes of an odd number of rows besides (Driver::pad_planes), where that changes them.
inline std::vector<grid_layout> driver_layouts(int n, int radius, std::size_t element_bytes) {
  grid_layout rows_padded;
  rows_padded.local = {n, n, n};
  thorns::Driver::pad_rows(rows_padded, radius, static_cast<int>(128 / element_bytes));
  std::vector<grid_layout> layouts{rows_padded};
  thorns::Driver::pad_planes(layouts.emplace_back(rows_padded));
  if (layouts.back().plane_rows == 0) layouts.pop_back();  // planes already odd: the same layout
  return layouts;
}

/// How a benchmark's results name a padded layout: ", rows padded to P[, planes of R rows]".
inline std::string layout_words(const grid_layout& layout) {
  return ", rows padded to " + std::to_string(layout.row_pitch()) +
         (layout.plane_rows == 0 ? "" : ", planes of " + std::to_string(layout.plane_rows) + " rows");
}

/// Where row `row` (j + n k) of an n^3 block starts in an array of `layout`.
inline std::size_t row_start(const grid_layout& layout, int n, std::size_t row) {
  return layout.index(0, static_cast<int>(row % n), static_cast<int>(row / n));
}

}  // namespace opuntia::bench
