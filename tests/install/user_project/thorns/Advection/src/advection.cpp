// Host routines of Advection: the initial profile, and its comparison with the exact answer.
//
// At Courant number 1 (velocity dt = dx) each upwind step moves u one point along x exactly, so
// after n steps on a grid periodic with P points along x, u at global index m is the initial
// profile at m - n (mod P): the same bits, since both come from profile() below, rounded to
// CCTK_REAL alike.
#include <array>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "Advection_parameters.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::Advection {
namespace {

/// The global index m of a periodic axis of `points` points (the last the image of the first)
/// brought into [0, points - 1).
int wrap(int m, int points) {
  const int period = points - 1;
  return ((m % period) + period) % period;
}

/// The initial u at global indices (m, n) along x and y.
double profile(const grid_layout& g, int m, int n) {
  const double x = static_cast<double>(wrap(m, g.global[0])) / (g.global[0] - 1);
  const double y = static_cast<double>(wrap(n, g.global[1])) / (g.global[1] - 1);
  return std::sin(2 * std::numbers::pi * x) + 0.5 * std::cos(2 * std::numbers::pi * y);
}

}  // namespace

void Advection_Init(routine_context& context) {
  const auto& g = context.grid();
  auto u = context.write("u");
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) u[g.index(i, j, k)] = profile(g, g.offset[0] + i, g.offset[1] + j);
    }
  }
}

void Advection_Check(routine_context& context) {
  const auto& g = context.grid();
  const double courant = context.parameters<parameters>().velocity * context.dt() / g.delta[0];
  if (courant != 1) {
    context.warn(fmt::format("Courant number {}: the answer is exact only where velocity * dt = dx", courant));
  }
  const int moved = context.iteration();  // points, one a step
  const auto u = context.read("u");
  const auto error = context.interior_norms([&](int i, int j, int k) {
    return u[g.index(i, j, k)] - static_cast<CCTK_REAL>(profile(g, g.offset[0] + i - moved, g.offset[1] + j));
  });
  context.info(fmt::format("after {} iterations u moved {} points along x: max |u - exact| = {}", context.iteration(),
                           moved, error.max_abs));
}

}  // namespace opuntia::thorns::Advection
