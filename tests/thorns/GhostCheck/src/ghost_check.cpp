// The host routines of GhostCheck: initial data on every point, and a routine that reads the
// ghost zones (READS: GhostCheck::u(everywhere)), so that every SYNC before it must exchange.
#include <cmath>

#include <fmt/format.h>

#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::GhostCheck {

void GhostCheck_Init(routine_context& context) {
  const auto& g = context.grid();
  auto u = context.write("u");
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) {
        u[g.index(i, j, k)] = std::sin(6 * g.coordinate(0, i)) * std::cos(4 * g.coordinate(1, j)) + g.coordinate(2, k);
      }
    }
  }
}

void GhostCheck_ReadGhosts(routine_context& context) {
  double sum = 0;
  for (const double value : context.read("u")) sum += value;
  if (context.iteration() == 1) context.info(fmt::format("rank 0 block sum, ghost zones included: {:.17g}", sum));
}

}  // namespace opuntia::thorns::GhostCheck
