#include "single_process_driver.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "flesh/runtime/parameters_error.hpp"

namespace opuntia::thorns::Driver {

single_process_driver::single_process_driver(const parameter_source& p) {
  const char* axes[] = {"x", "y", "z"};
  const bool all_periodic = p.boolean("Driver", "periodic");
  const int ghost_size = p.integer("Driver", "ghost_size");
  for (int d = 0; d < 3; ++d) {
    const std::string axis = axes[d];
    const std::string points_name = "global_n" + axis;
    layout_.global[d] = p.integer("Driver", points_name);
    if (layout_.global[d] < 2) {
      throw parameters_error({{"Driver", points_name}},
                             fmt::format("Driver::{} = {}: a grid needs at least two points along each axis",
                                         points_name, layout_.global[d]));
    }
    const double lo = p.real("Driver", axis + "min");
    const double hi = p.real("Driver", axis + "max");
    if (!(hi > lo)) {
      throw parameters_error({{"Driver", axis + "min"}, {"Driver", axis + "max"}},
                             fmt::format("the domain is empty along {0}: Driver::{0}max = {1:g} must be greater than "
                                         "Driver::{0}min = {2:g}",
                                         axis, hi, lo));
    }
    layout_.origin[d] = lo;
    layout_.delta[d] = (hi - lo) / (layout_.global[d] - 1);
    // An extent beyond the largest double, or too small to split into global_n - 1 steps with
    // full precision (a subnormal spacing loses digits, zero gives dt = 0).
    if (!std::isnormal(layout_.delta[d]) || layout_.delta[d] < 0) {
      throw parameters_error({{"Driver", axis + "min"}, {"Driver", axis + "max"}, {"Driver", points_name}},
                             fmt::format("the grid spacing along {0}, (Driver::{0}max - Driver::{0}min) / "
                                         "(Driver::{1} - 1) = {2:g}, is not a positive normal double (finite, at "
                                         "least {3:g})",
                                         axis, points_name, layout_.delta[d], std::numeric_limits<double>::min()));
    }
    periodic_[d] = all_periodic || p.boolean("Driver", "periodic_" + axis);
    const int axis_ghosts = p.integer("Driver", "ghost_size_" + axis);
    const int ghosts = periodic_[d] ? (axis_ghosts >= 0 ? axis_ghosts : ghost_size) : 0;
    const long long local = layout_.global[d] + 2LL * ghosts;
    if (local > std::numeric_limits<int>::max()) {
      throw parameters_error({{"Driver", points_name}, {"Driver", "ghost_size"}, {"Driver", "ghost_size_" + axis}},
                             fmt::format("Driver::{} = {} with ghost zones of {} on both sides makes {} points along "
                                         "{}, more than an int counts ({})",
                                         points_name, layout_.global[d], ghosts, local, axis,
                                         std::numeric_limits<int>::max()));
    }
    layout_.ghosts[d] = ghosts;
    layout_.local[d] = static_cast<int>(local);
    layout_.offset[d] = -ghosts;
    layout_.physical[2 * d] = layout_.physical[2 * d + 1] = !periodic_[d];
  }
  if (!point_count(layout_.local)) {
    const auto& n = layout_.local;
    throw parameters_error({{"Driver", "global_nx"}, {"Driver", "global_ny"}, {"Driver", "global_nz"}},
                           fmt::format("the grid has {}x{}x{} = {:.3g} points{}, more than an array index counts "
                                       "({} at most)",
                                       n[0], n[1], n[2], static_cast<double>(n[0]) * n[1] * n[2],
                                       layout_.local == layout_.global ? "" : " (ghost zones included)",
                                       std::numeric_limits<std::ptrdiff_t>::max()));
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
    if (v->group_type != group_type::gf) continue;
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
