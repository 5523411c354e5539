// Host routines of HeatEquation: initial data and the comparison with the analytic solution.
//
// On a box [xmin,xmax]x[ymin,ymax]x[zmin,zmax] with u = 0 on the boundary, the mode
//   u(x, t) = exp(-alpha k^2 t) sin(pi x') sin(pi y') sin(pi z'),  x' = (x - xmin) / Lx, ...
//   k^2 = pi^2 (1/Lx^2 + 1/Ly^2 + 1/Lz^2)
// solves du/dt = alpha laplacian(u) exactly.
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "HeatEquation_parameters.hpp"
#include "ccl/file_io.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::HeatEquation {
namespace {

struct mode {
  double length[3];
  double decay_rate;  // alpha k^2
};

mode slowest_mode(const grid_layout& g, double alpha) {
  mode m{};
  double k2 = 0;
  for (int d = 0; d < 3; ++d) {
    m.length[d] = g.delta[d] * (g.global[d] - 1);
    k2 += std::numbers::pi * std::numbers::pi / (m.length[d] * m.length[d]);
  }
  m.decay_rate = alpha * k2;
  return m;
}

double shape(const grid_layout& g, const mode& m, int i, int j, int k) {
  const int index[3] = {i, j, k};
  double value = 1;
  for (int d = 0; d < 3; ++d) {
    value *= std::sin(std::numbers::pi * (g.coordinate(d, index[d]) - g.origin[d]) / m.length[d]);
  }
  return value;
}

}  // namespace

void HeatEquation_CheckTimeStep(routine_context& context) {
  // Explicit Euler with the 7-point laplacian grows the grid's shortest mode unless
  // dt <= 1 / (2 alpha sum 1/h^2); Time's default, half the spacing, is far above it on any grid.
  const double alpha = context.parameters<parameters>().alpha;
  const double limit = 1 / (2 * alpha * context.grid().inverse_square_spacings());
  if (!(context.dt() > limit)) return;
  context.warn_about({"Time::timestep", "Time::dtfac", "alpha"},
                     fmt::format("dt = {:g} exceeds explicit Euler's stability limit for HeatEquation::alpha = {:g} "
                                 "on this grid, 1 / (2 alpha (1/dx^2 + 1/dy^2 + 1/dz^2)) = {:.6g}: the temperature "
                                 "will grow without bound; set Time::timestep below the limit",
                                 context.dt(), alpha, limit));
}

void HeatEquation_Init(routine_context& context) {
  const auto& g = context.grid();
  const auto m = slowest_mode(g, context.parameters<parameters>().alpha);
  // The mode at the initial time (Cactus::cctk_initial_time), as HeatEquation_Error expects.
  const double decay = std::exp(-m.decay_rate * context.time());
  auto u = context.write("u");
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) u[g.index(i, j, k)] = decay * shape(g, m, i, j, k);
    }
  }
}

void HeatEquation_Error(routine_context& context) {
  const auto& g = context.grid();
  const auto m = slowest_mode(g, context.parameters<parameters>().alpha);
  const double decay = std::exp(-m.decay_rate * context.time());
  const auto u = context.read("u");
  // The points this rank owns, not its ghost zones, combined over the ranks with an exact sum.
  const auto exact = [&](int i, int j, int k) { return decay * shape(g, m, i, j, k); };
  const auto error = context.interior_norms([&](int i, int j, int k) { return u[g.index(i, j, k)] - exact(i, j, k); });
  const double max_error = error.max_abs;
  const double max_exact = context.interior_norms(exact).max_abs;
  const double l2 = error.rms;
  context.info(fmt::format("t = {:.6g}: max |u - exact| = {:.6e} (relative {:.3e}), rms = {:.6e}", context.time(),
                           max_error, max_exact > 0 ? max_error / max_exact : 0.0, l2));
  if (context.rank() != 0) return;  // one file for the run
  // Whole or not at all: a temporary file renamed into place; a failed write is an error.
  ccl::write_file_atomically(
      context.out_dir() / "heat_error.txt",
      fmt::format("# iteration time max_error rms_error dx\n{} {:.17g} {:.17g} {:.17g} {:.17g}\n", context.iteration(),
                  context.time(), max_error, l2, g.delta[0]));
}

}  // namespace opuntia::thorns::HeatEquation
