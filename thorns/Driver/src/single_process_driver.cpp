#include "single_process_driver.hpp"

#include <cstring>

namespace opuntia::thorns::Driver {

single_process_driver::single_process_driver(const parameter_source& p) {
  const char* axes[] = {"x", "y", "z"};
  const bool all_periodic = p.boolean("Driver", "periodic");
  const int ghost_size = p.integer("Driver", "ghost_size");
  for (int d = 0; d < 3; ++d) {
    const std::string axis = axes[d];
    layout_.global[d] = p.integer("Driver", "global_n" + axis);
    const double lo = p.real("Driver", axis + "min");
    const double hi = p.real("Driver", axis + "max");
    layout_.origin[d] = lo;
    layout_.delta[d] = (hi - lo) / (layout_.global[d] - 1);
    periodic_[d] = all_periodic || p.boolean("Driver", "periodic_" + axis);
    const int axis_ghosts = p.integer("Driver", "ghost_size_" + axis);
    const int ghosts = periodic_[d] ? (axis_ghosts >= 0 ? axis_ghosts : ghost_size) : 0;
    layout_.ghosts[d] = ghosts;
    layout_.local[d] = layout_.global[d] + 2 * ghosts;
    layout_.offset[d] = -ghosts;
    layout_.physical[2 * d] = layout_.physical[2 * d + 1] = !periodic_[d];
  }
}

void single_process_driver::sync(const std::vector<grid_variable*>& variables, grid_function_store& store) {
  if (!periodic_[0] && !periodic_[1] && !periodic_[2]) return;
  const auto& g = layout_;
  // Global index -> its image in [0, n-2] along a periodic axis (period n-1).
  const auto wrap = [&](int d, int global_index) {
    const int period = g.global[d] - 1;
    return ((global_index % period) + period) % period;
  };
  for (auto* v : variables) {
    if (v->group_type != "GF") continue;
    auto* base = static_cast<unsigned char*>(store.data(*v, 0));
    const std::size_t size = v->element_size();
    for (int k = 0; k < g.local[2]; ++k) {
      for (int j = 0; j < g.local[1]; ++j) {
        for (int i = 0; i < g.local[0]; ++i) {
          const int local[3] = {i, j, k};
          int source[3] = {i, j, k};
          bool image = false;
          for (int d = 0; d < 3; ++d) {
            const int global_index = local[d] + g.offset[d];
            if (periodic_[d] && (global_index < 0 || global_index > g.global[d] - 2)) {
              source[d] = wrap(d, global_index) - g.offset[d];
              image = true;
            }
          }
          if (!image) continue;
          std::memcpy(base + g.index(i, j, k) * size, base + g.index(source[0], source[1], source[2]) * size, size);
        }
      }
    }
  }
}

}  // namespace opuntia::thorns::Driver
