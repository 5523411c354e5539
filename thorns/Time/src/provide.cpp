// The time step of a run (Cactus's cctk_delta_time, which thorn Time sets): Time::timestep when
// it is positive, else Time::dtfac times the smallest grid spacing.
#include <algorithm>

#include "flesh/runtime/providers.hpp"

namespace opuntia::thorns::Time {

void provide(providers& p) {
  p.always_active();
  p.add_time_step({
      [](const parameter_source& s, const grid_layout& grid) -> double {
        const double timestep = s.real("Time", "timestep");
        if (timestep > 0) return timestep;
        return s.real("Time", "dtfac") * std::min({grid.delta[0], grid.delta[1], grid.delta[2]});
      },
      [](const parameter_source& s) -> std::vector<parameter_name> {
        if (s.real("Time", "timestep") > 0) return {{"Time", "timestep"}};
        return {{"Time", "dtfac"}};
      },
  });
}

}  // namespace opuntia::thorns::Time
