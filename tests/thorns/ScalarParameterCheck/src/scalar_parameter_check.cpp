// The host side of tests/thorns/ScalarParameterCheck: sets the grid scalars colour and weight
// before each launch of kernel SeeScalars, and checks at every point that the launch saw them.
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
  for (std::size_t i = 0; i < colours.size(); ++i) {
    if (colours[i] != static_cast<CCTK_REAL>(colour) || weights[i] != scale * weight) {
      throw std::runtime_error(fmt::format("sweep {}: at point {} the kernel saw colour {} and scale * weight {}; "
                                           "the host set colour {} and weight {} before the launch",
                                           context.integer_scalar("sweeps_done"), i, colours[i], weights[i], colour,
                                           weight));
    }
  }
  ++context.integer_scalar("sweeps_done");
  --context.integer_scalar("sweeps_left");
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
