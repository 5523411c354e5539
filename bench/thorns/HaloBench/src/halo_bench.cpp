// Host routine of HaloBench: initial data that depends on the global point only, so that any
// rank count starts from the same field.
#include <cmath>

#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::HaloBench {

void HaloBench_Init(routine_context& context) {
  const auto& g = context.grid();
  auto u = context.write("u");
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) {
        u[g.index(i, j, k)] = std::sin(6 * g.coordinate(0, i)) * std::cos(4 * g.coordinate(1, j)) + g.coordinate(2, k);
      }
    }
  }
}

}  // namespace opuntia::thorns::HaloBench
