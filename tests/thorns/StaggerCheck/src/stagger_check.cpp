// The host side of tests/thorns/StaggerCheck: every point's coordinates through
// routine_context::coordinate, compared bit for bit with those the kernel wrote.
#include <stdexcept>

#include <fmt/format.h>

#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::StaggerCheck {

void StaggerCheck_Compare(routine_context& context) {
  const auto& g = context.grid();
  const char* const variables[] = {"xc", "yc", "zc", "xf", "yf", "zf", "xv", "yv", "zv"};
  CCTK_INT compared = 0;
  for (int v = 0; v < 9; ++v) {
    const int d = v % 3;
    const auto values = context.read(variables[v]);
    for (int k = 0; k < g.local[2]; ++k) {
      for (int j = 0; j < g.local[1]; ++j) {
        for (int i = 0; i < g.local[0]; ++i) {
          const int index[3] = {i, j, k};
          // CCTK_REAL: the kernel computes in it (the test's grid spacings are powers of two, exact in float too).
          const auto host = static_cast<CCTK_REAL>(context.coordinate(variables[v], d, index[d]));
          const CCTK_REAL kernel = values[g.index(i, j, k)];
          if (host != kernel) {
            throw std::runtime_error(fmt::format("{} at ({}, {}, {}): the kernel wrote {}, the host computes {}",
                                                 variables[v], i, j, k, kernel, host));
          }
          ++compared;
        }
      }
    }
  }
  context.integer_scalar("checked") = compared;
}

}  // namespace opuntia::thorns::StaggerCheck
