// Host routines of WaveToy: the plane wave phi = A sin(k.x - omega t), omega = c |k|, as
// initial data on the two time levels leapfrog starts from, and as the exact solution the
// evolved field is compared with at the end.
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "WaveToy_parameters.hpp"
#include "ccl/file_io.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::WaveToy {
namespace {

struct plane_wave {
  double amplitude, k[3], omega;

  explicit plane_wave(const parameters& p) : amplitude(p.amplitude) {
    const double numbers[3] = {p.wave_number_x, p.wave_number_y, p.wave_number_z};
    double k2 = 0;
    for (int d = 0; d < 3; ++d) {
      k[d] = 2 * std::numbers::pi * numbers[d];
      k2 += k[d] * k[d];
    }
    omega = p.speed * std::sqrt(k2);
  }
  double at(const grid_layout& g, int i, int j, int k_index, double t) const {
    return amplitude * std::sin(k[0] * g.coordinate(0, i) + k[1] * g.coordinate(1, j) + k[2] * g.coordinate(2, k_index) -
                                omega * t);
  }
};

void fill(routine_context& context, int level, double t) {
  const auto& g = context.grid();
  const plane_wave wave(context.parameters<parameters>());
  auto phi = context.write("phi", level);
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) phi[g.index(i, j, k)] = wave.at(g, i, j, k, t);
    }
  }
}

}  // namespace

void WaveToy_CheckTimeStep(routine_context& context) {
  // Leapfrog with the 7-point laplacian is stable for c dt <= 1 / sqrt(sum 1/h^2): Time's default
  // dt, half the smallest spacing, keeps it for c up to 2 / sqrt(3) on a cube's grid.
  const double speed = context.parameters<parameters>().speed;
  const double limit = 1 / (std::abs(speed) * std::sqrt(context.grid().inverse_square_spacings()));
  if (!(context.dt() > limit)) return;
  context.warn_about({"Time::timestep", "Time::dtfac", "speed"},
                     fmt::format("dt = {:g} exceeds leapfrog's stability limit for WaveToy::speed = {:g} on this "
                                 "grid, 1 / (c sqrt(1/dx^2 + 1/dy^2 + 1/dz^2)) = {:.6g}: the wave will grow without "
                                 "bound; set Time::timestep or Time::dtfac lower",
                                 context.dt(), speed, limit));
}

void WaveToy_Init(routine_context& context) {
  fill(context, 0, context.time());
  fill(context, 1, context.time() - context.dt());
}

void WaveToy_Error(routine_context& context) {
  const auto& g = context.grid();
  const plane_wave wave(context.parameters<parameters>());
  const auto phi = context.read("phi");
  // The points this rank owns, not its ghost zones (copies of points another rank, or the
  // periodic image, owns), combined over the ranks with an exact sum.
  const auto norms = context.interior_norms(
      [&](int i, int j, int k) { return phi[g.index(i, j, k)] - wave.at(g, i, j, k, context.time()); });
  const double max_error = norms.max_abs;
  const double rms = norms.rms;
  context.info(fmt::format("t = {:.6g}: max |phi - exact| = {:.6e}, rms = {:.6e}", context.time(), max_error, rms));
  if (context.rank() != 0) return;  // one file for the run
  // Whole or not at all: a temporary file renamed into place; a failed write is an error.
  ccl::write_file_atomically(
      context.out_dir() / "wavetoy_error.txt",
      fmt::format("# iteration time max_error rms_error dx\n{} {:.17g} {:.17g} {:.17g} {:.17g}\n", context.iteration(),
                  context.time(), max_error, rms, g.delta[0]));
}

}  // namespace opuntia::thorns::WaveToy
