// Bounds checking of I3D in the OpenMP kernels (OPUNTIA_CHECK_BOUNDS; templates/openmp/
// common.h.tpl): a body whose offsets leave the local grid stops with its file, line, access and
// point instead of corrupting the heap. tests/thorns/BoundsCheck's kernel takes its offsets
// from parameters, so only the run-time check can see them; its target has the check on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "BoundsCheck_parameters.hpp"
#include "opuntia/binding.hpp"
#include "variant_check_grid.hpp"

namespace {

using namespace opuntia::thorns::BoundsCheck;

constexpr variant_check::grid_size grid{9, 5, 4};

/// Runs every variant of Reach with the given offsets; the fields inside the grid only.
void run_reach(int read_reach, int write_reach) {
  const auto b = binding();
  parameters p{};
  p.read_reach = read_reach;
  p.write_reach = write_reach;
  for (const auto& variant : b.kernels.front().variants) {
    std::vector<CCTK_REAL> a(grid.elements(), 1.5), out(grid.elements(), 0.0);
    void* arrays[] = {a.data(), out.data()};
    variant.launch(variant_check::make_call(grid, arrays, &p));
    for (const auto v : out) ASSERT_EQ(v, 3.0) << variant.template_name;
  }
}

TEST(bounds_check, offsets_inside_the_grid_run) {
  ASSERT_EQ(binding().kernels.front().variants.size(), 2u);
  run_reach(0, 0);
}

TEST(bounds_check_death, a_read_past_the_grid_stops_with_the_body_line) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(run_reach(1, 0),
               "BoundsCheck/src/Reach.kernel:4: error: I3D\\(a, params.read_reach, 0, 0\\) at point \\(8, [0-9]+, "
               "[0-9]+\\) reaches \\(9, [0-9]+, [0-9]+\\), outside the local grid of 9x5x4 points; the run stops");
}

TEST(bounds_check_death, a_write_before_the_grid_stops_with_the_body_line) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(run_reach(0, -1),
               "BoundsCheck/src/Reach.kernel:4: error: I3D\\(b, params.write_reach, 0, 0\\) at point \\(0, [0-9]+, "
               "[0-9]+\\) reaches \\(-1, [0-9]+, [0-9]+\\), outside the local grid");
}

}  // namespace
