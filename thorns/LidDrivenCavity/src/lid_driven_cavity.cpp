// Host routines of LidDrivenCavity: the checks of the grid, the time step, the initial data, the
// control of the pressure iterations (a WHILE loop of generated sweeps) and the diagnostics.
//
// The cavity lies inside Driver's grid with one layer of ghost cells around it: along x its walls
// are the vertices 1 (x = xmin + dx) and global_nx - 1 (x = xmax), its cells 1 .. global_nx - 2
// (README.md). The kernels compute every point their STENCIL allows, which is the cavity.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "LidDrivenCavity_parameters.hpp"
#include "flesh/runtime/parameters_error.hpp"
#include "opuntia/collective_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::LidDrivenCavity {
namespace {

constexpr const char* axis_names = "xyz";

/// The cavity's cells along axis d: the grid less a ghost cell on each side.
int cells(const grid_layout& g, int d) { return g.global[d] - 2; }

/// The kinematic viscosity U L / Re, L the cavity's width along x.
double viscosity(const grid_layout& g, const parameters& p) {
  return p.lid_velocity * cells(g, 0) * g.delta[0] / p.reynolds;
}

bool red_black(const parameters& p) { return p.pressure_solver == "sor"; }

/// Pressure iterations of this step: a sor iteration is a red and a black sweep.
int pressure_iterations(routine_context& context, const parameters& p) {
  const int sweeps = context.integer_scalar("pressure_sweeps");
  return red_black(p) ? sweeps / 2 : sweeps;
}

}  // namespace

void LDC_CheckParameters(routine_context& context) {
  const auto& all = context.all_parameters();
  const auto& p = context.parameters<parameters>();
  for (const char* name : {"periodic", "periodic_x", "periodic_y", "periodic_z"}) {
    if (all.boolean("Driver", name)) {
      throw parameter_value_error("Driver", name, "the lid-driven cavity has walls on every side: no direction is periodic");
    }
  }
  for (int d = 0; d < 3; ++d) {
    const std::string name = fmt::format("global_n{}", axis_names[d]);
    const auto points = all.integer("Driver", name);
    if (d == 2 && p.dimensions == 2 && points != 3) {
      // Both: the error stands at whichever of them the file set (often dimensions alone).
      throw parameters_error(
          {{"LidDrivenCavity", "dimensions"}, {"Driver", name}},
          fmt::format("LidDrivenCavity::dimensions = 2 has one cell in z with a ghost cell on each side: Driver::{} must "
                      "be 3, not {}",
                      name, points));
    }
    if (points < 3) {
      throw parameter_value_error(
          "Driver", name,
          fmt::format("the cavity needs a cell and a ghost cell on each side of it along {}: Driver::{} must be at least 3, "
                      "not {}",
                      axis_names[d], name, points));
    }
  }
  // The steady state is tested where the diagnostics run: with none, a tolerance ends nothing.
  if (p.steady_tolerance > 0 && p.diagnostics_every == 0) {
    context.warn_about({"steady_tolerance", "diagnostics_every"},
                       "LidDrivenCavity::steady_tolerance is tested where the diagnostics run, and "
                       "LidDrivenCavity::diagnostics_every = 0 runs them never: the run goes on to its end");
  }
}

void LDC_TimeStep(routine_context& context) {
  const auto& g = context.grid();
  const auto& p = context.parameters<parameters>();
  const double nu = viscosity(g, p);
  double smallest = g.delta[0];
  for (int d = 0; d < p.dimensions; ++d) smallest = std::min(smallest, g.delta[d]);
  // Explicit diffusion is stable for dt <= 1 / (2 nu sum 1/h^2); the convection for dt <= h / U.
  const double viscous = 1 / (2 * nu * g.inverse_square_spacings(p.dimensions));
  const double convective = smallest / p.lid_velocity;
  const double fixed = context.all_parameters().real("Time", "timestep");
  if (fixed <= 0) {
    const double dt = p.cfl * std::min(viscous, convective);
    // The physics' extremes (reynolds = 1e-308, lid_velocity = 1e300) leave no usable step:
    // said at their lines, not as the flesh's refusal of a dt that names none.
    if (!std::isnormal(dt)) {
      throw parameters_error({{"LidDrivenCavity", "reynolds"}, {"LidDrivenCavity", "lid_velocity"},
                              {"LidDrivenCavity", "cfl"}},
                             fmt::format("the cavity's stability limits (viscous {:g}, convective {:g}) leave dt = "
                                         "{:g}, not a positive normal double: Re = {:g} and lid_velocity = {:g} are "
                                         "beyond what the time step can resolve",
                                         viscous, convective, dt, p.reynolds.get(), p.lid_velocity.get()));
    }
    context.set_dt(dt);
  }
  std::string extent;
  for (int d = 0; d < p.dimensions; ++d) {
    extent += fmt::format("{}[{:g}, {:g}]", d ? " x " : "", g.origin[d] + g.delta[d], g.origin[d] + (g.global[d] - 1) * g.delta[d]);
  }
  context.info(fmt::format("{}D cavity {} of {} cells, Re = {:g}, nu = {:.6g}; dt = {:.6g} ({}; limits: viscous {:.6g}, "
                           "convective {:.6g})",
                           static_cast<int>(p.dimensions), extent,
                           p.dimensions == 3 ? fmt::format("{} x {} x {}", cells(g, 0), cells(g, 1), cells(g, 2))
                                             : fmt::format("{} x {}", cells(g, 0), cells(g, 1)),
                           p.reynolds.get(), nu, context.dt(),
                           fixed > 0 ? "Time::timestep" : fmt::format("cfl {:g}", p.cfl.get()), viscous, convective));
  if (fixed > std::min(viscous, convective)) {
    context.warn_about({"Time::timestep"}, fmt::format("Time::timestep = {:g} exceeds the stability limit {:.6g}: the "
                                                       "run may blow up",
                                                       fixed, std::min(viscous, convective)));
  }
}

void LDC_Init(routine_context& context) {
  for (const char* var : {"vx", "vy", "vz"}) {
    for (int level = 0; level < 2; ++level) std::ranges::fill(context.write(var, level), 0.0);
  }
  for (const char* var : {"p", "divergence", "residual", "change", "kinetic_energy"}) {
    std::ranges::fill(context.write(var), 0.0);
  }
  context.real_scalar("pressure_divergence") = 0;
  context.integer_scalar("pressure_sweeps") = 0;
}

void LDC_PressureStart(routine_context& context) {
  const auto& g = context.grid();
  const auto& p = context.parameters<parameters>();
  context.integer_scalar("pressure_iterating") = 1;
  context.integer_scalar("pressure_sweeps") = 0;
  context.integer_scalar("pressure_check_now") = 0;
  if (red_black(p)) {
    context.integer_scalar("pressure_colour") = 1;  // LDC_PressureSweep turns it to red (0) first
    int most = 0;
    for (int d = 0; d < p.dimensions; ++d) most = std::max(most, cells(g, d));
    context.real_scalar("pressure_omega") =
        p.sor_omega > 0 ? p.sor_omega.get() : 2 / (1 + std::sin(std::numbers::pi / most));
  } else {
    context.integer_scalar("pressure_colour") = -1;  // every cell
    context.real_scalar("pressure_omega") = p.jacobi_weight;
  }
}

void LDC_PressureSweep(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  auto& colour = context.integer_scalar("pressure_colour");
  if (red_black(p)) colour = 1 - colour;
  ++context.integer_scalar("pressure_sweeps");
  // A sor iteration is complete after its black sweep.
  const bool complete = !red_black(p) || colour == 1;
  const int iterations = pressure_iterations(context, p);
  const bool last = complete && iterations >= p.max_pressure_iterations;
  const bool test = complete && p.pressure_tolerance > 0 && (iterations % p.pressure_check_every == 0 || last);
  context.integer_scalar("pressure_check_now") = test;
  if (last && !test) context.integer_scalar("pressure_iterating") = 0;
}

void LDC_PressureCheck(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  const double largest = context.statistics("residual", 0, routine_context::reduction_figures::extremes).max_abs;
  if (std::isnan(largest)) {
    throw collective_error(fmt::format("LidDrivenCavity: the pressure residual is NaN at iteration {} (time {:g}); a "
                                       "smaller LidDrivenCavity::cfl or Time::timestep may help",
                                       context.iteration(), context.time()));
  }
  auto& divergence = context.real_scalar("pressure_divergence");
  divergence = context.dt() * largest;
  if (divergence <= p.pressure_tolerance || pressure_iterations(context, p) >= p.max_pressure_iterations) {
    context.integer_scalar("pressure_iterating") = 0;
  }
}

void LDC_DiagnosticsDue(routine_context& context) {
  const int every = context.parameters<parameters>().diagnostics_every;
  context.integer_scalar("diagnostics_now") = every > 0 && context.iteration() % every == 0;
}

void LDC_Report(routine_context& context) {
  const auto& g = context.grid();
  const auto& p = context.parameters<parameters>();
  const double divergence = context.statistics("divergence", 0, routine_context::reduction_figures::extremes).max_abs;
  double cell_volume = 1;
  for (int d = 0; d < p.dimensions; ++d) cell_volume *= g.delta[d];
  const double energy = context.statistics("kinetic_energy").sum * cell_volume;
  const double change = context.statistics("change", 0, routine_context::reduction_figures::extremes).max_abs;
  const std::string residual =
      p.pressure_tolerance > 0 ? fmt::format(", dt |residual| {:.3e}", context.real_scalar("pressure_divergence")) : "";
  context.info(fmt::format("it {} t {:.6g}: max |div u| {:.3e}, kinetic energy {:.9e}, pressure iterations {}{}, "
                           "max |du/dt| {:.3e}",
                           context.iteration(), context.time(), divergence, energy, pressure_iterations(context, p),
                           residual, change));
  if (p.steady_tolerance > 0 && context.iteration() > 0 && change < p.steady_tolerance) {
    context.terminate_next(fmt::format("steady state: max |du/dt| = {:.3e} < LidDrivenCavity::steady_tolerance = {:g}",
                                       change, p.steady_tolerance.get()));
  }
}

}  // namespace opuntia::thorns::LidDrivenCavity
