// The host side of tests/thorns/ScalarParameterCheck: sets the grid scalars colour and weight
// before each launch of kernel SeeScalars, and checks at every point that the launch saw them;
// checks what kernel SeeGrid saw of the global grid.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ScalarParameterCheck_parameters.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::ScalarParameterCheck {
namespace {

/// The weight of sweep n (from 0): 0.25, 0.5, 0.75, ..., exact in float and double.
CCTK_REAL weight_of(CCTK_INT sweep) { return CCTK_REAL(0.25) * static_cast<CCTK_REAL>(sweep + 1); }

}  // namespace

void ScalarParameterCheck_Init(routine_context& context) {
  const auto total = context.write("weight_total");
  std::fill(total.begin(), total.end(), CCTK_REAL(0));
  context.integer_scalar("sweeps_done") = 0;
}

void ScalarParameterCheck_StartSweeps(routine_context& context) {
  context.integer_scalar("sweeps_left") = context.parameters<parameters>().sweeps;
}

void ScalarParameterCheck_SetScalars(routine_context& context) {
  const CCTK_INT sweep = context.integer_scalar("sweeps_done");
  context.integer_scalar("colour") = sweep % 2;
  context.real_scalar("weight") = weight_of(sweep);
}

void ScalarParameterCheck_Compare(routine_context& context) {
  const CCTK_REAL scale = context.parameters<parameters>().scale;
  const CCTK_INT colour = context.integer_scalar("colour");
  const CCTK_REAL weight = context.real_scalar("weight");
  const auto colours = context.read("colour_seen");
  const auto weights = context.read("weight_seen");
  const auto& g = context.grid();
  opuntia::index_range{{0, 0, 0}, g.local}.for_each([&](int i, int j, int k) {
    const std::size_t at = g.index(i, j, k);
    if (colours[at] != static_cast<CCTK_REAL>(colour) || weights[at] != scale * weight) {
      throw std::runtime_error(fmt::format("sweep {}: at point ({}, {}, {}) the kernel saw colour {} and scale * weight "
                                           "{}; the host set colour {} and weight {} before the launch",
                                           context.integer_scalar("sweeps_done"), i, j, k, colours[at], weights[at],
                                           colour, weight));
    }
  });
  ++context.integer_scalar("sweeps_done");
  --context.integer_scalar("sweeps_left");
}

void ScalarParameterCheck_CheckGrid(routine_context& context) {
  const auto& g = context.grid();
  const char* const sizes[] = {"gni_seen", "gnj_seen", "gnk_seen"};
  for (int d = 0; d < 3; ++d) {
    const auto seen = context.read(sizes[d]);
    opuntia::index_range{{0, 0, 0}, g.local}.for_each([&](int i, int j, int k) {
      if (seen[g.index(i, j, k)] != static_cast<CCTK_REAL>(g.global[d])) {
        throw std::runtime_error(fmt::format("the kernel saw {} = {}; the grid has {} points along axis {}", sizes[d],
                                             seen[g.index(i, j, k)], g.global[d], d));
      }
    });
  }
  const auto wall = context.read("upper_x_wall");
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) {
        const CCTK_REAL expected = g.offset[0] + i == g.global[0] - 1 ? 1 : 0;
        if (wall[g.index(i, j, k)] != expected) {
          throw std::runtime_error(fmt::format("upper_x_wall at local ({}, {}, {}), global x index {}: the kernel "
                                               "wrote {}, not {}", i, j, k, g.offset[0] + i,
                                               wall[g.index(i, j, k)], expected));
        }
      }
    }
  }
  context.info(fmt::format("the kernel saw a global grid of {}x{}x{} points, {} of them on the upper x wall",
                           g.global[0], g.global[1], g.global[2], context.statistics("upper_x_wall").sum));
}

void ScalarParameterCheck_Report(routine_context& context) {
  const CCTK_INT sweeps = context.integer_scalar("sweeps_done");
  CCTK_REAL expected = 0;
  for (CCTK_INT n = 0; n < sweeps; ++n) expected += weight_of(n);
  const auto total = context.statistics("weight_total");
  context.info(fmt::format("{} sweeps saw the colour and weight set before them; weight_total from {} to {}, "
                           "the sum of the weights set {}",
                           sweeps, total.minimum, total.maximum, expected));
}

}  // namespace opuntia::thorns::ScalarParameterCheck
