#include "cartesian_driver.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "flesh/runtime/parameters_error.hpp"
#include "opuntia/cctk_types.h"

namespace opuntia::thorns::Driver {

namespace {

constexpr const char* axis_names[] = {"x", "y", "z"};

/// Driver::ghost_size_<axis>, or ghost_size where it is -1.
int ghost_width(const parameter_source& p, int d) {
  const int axis_ghosts = p.integer("Driver", fmt::format("ghost_size_{}", axis_names[d]));
  return axis_ghosts >= 0 ? axis_ghosts : p.integer("Driver", "ghost_size");
}

std::vector<parameter_name> ghost_parameters(int d) {
  return {{"Driver", "ghost_size"}, {"Driver", fmt::format("ghost_size_{}", axis_names[d])}};
}

}  // namespace

cartesian_driver::cartesian_driver(const parameter_source& p, std::unique_ptr<communicator> ranks)
    : ranks_(std::move(ranks)) {
  grid_layout whole;
  std::array<bool, 3> periodic{};
  std::array<int, 3> ghosts{};
  std::array<int, 3> owned{};
  const bool all_periodic = p.boolean("Driver", "periodic");
  for (int d = 0; d < 3; ++d) {
    const std::string axis = axis_names[d];
    const std::string points_name = "global_n" + axis;
    whole.global[d] = p.integer("Driver", points_name);
    if (whole.global[d] < 2) {
      throw parameters_error({{"Driver", points_name}},
                             fmt::format("Driver::{} = {}: a grid needs at least two points along each axis",
                                         points_name, whole.global[d]));
    }
    const double lo = p.real("Driver", axis + "min");
    const double hi = p.real("Driver", axis + "max");
    if (!(hi > lo)) {
      throw parameters_error({{"Driver", axis + "min"}, {"Driver", axis + "max"}},
                             fmt::format("the domain is empty along {0}: Driver::{0}max = {1:g} must be greater than "
                                         "Driver::{0}min = {2:g}",
                                         axis, hi, lo));
    }
    whole.origin[d] = lo;
    whole.delta[d] = (hi - lo) / (whole.global[d] - 1);
    // An extent beyond the largest double, or too small to split into global_n - 1 steps with
    // full precision (a subnormal spacing loses digits, zero gives dt = 0).
    if (!std::isnormal(whole.delta[d]) || whole.delta[d] < 0) {
      throw parameters_error({{"Driver", axis + "min"}, {"Driver", axis + "max"}, {"Driver", points_name}},
                             fmt::format("the grid spacing along {0}, (Driver::{0}max - Driver::{0}min) / "
                                         "(Driver::{1} - 1) = {2:g}, is not a positive normal double (finite, at "
                                         "least {3:g})",
                                         axis, points_name, whole.delta[d], std::numeric_limits<double>::min()));
    }
    periodic[d] = all_periodic || p.boolean("Driver", "periodic_" + axis);
    ghosts[d] = ghost_width(p, d);
    if (periodic[d] && ghosts[d] == 0) {
      auto parameters = ghost_parameters(d);
      parameters.push_back({"Driver", "periodic_" + axis});
      throw parameters_error(parameters, fmt::format("the grid is periodic along {0} but its ghost zones there are 0 "
                                                     "wide (Driver::ghost_size, or Driver::ghost_size_{0}): a "
                                                     "periodic direction is filled through its ghost zones",
                                                     axis));
    }
    owned[d] = periodic[d] ? whole.global[d] - 1 : whole.global[d];
  }
  topology_ = choose_topology(ranks_->size(), owned, topology_kind_of(p.text("Driver", "processor_topology")),
                              {p.integer("Driver", "processor_topology_3d_x"),
                               p.integer("Driver", "processor_topology_3d_y"),
                               p.integer("Driver", "processor_topology_3d_z")});
  for (int d = 0; d < 3; ++d) {
    // The thinnest block along d (the last ones of an uneven split) must hold the layers its
    // neighbours' ghost zones copy from it.
    const int thinnest = owned[d] / topology_[d];
    const bool has_neighbours = topology_[d] > 1 || periodic[d];
    if (has_neighbours && thinnest < ghosts[d]) {
      auto parameters = ghost_parameters(d);
      parameters.insert(parameters.begin(), {"Driver", fmt::format("global_n{}", axis_names[d])});
      parameters.push_back({"Driver", "processor_topology"});
      // One rank along a periodic direction fills its ghosts from its own far side.
      const std::string blocks =
          topology_[d] == 1 ? fmt::format("the periodic {} direction's {} point{} on one rank are", axis_names[d],
                                          thinnest, thinnest == 1 ? "" : "s")
                            : fmt::format("{} ranks along {} leave blocks of {} point{},", topology_[d], axis_names[d],
                                          thinnest, thinnest == 1 ? "" : "s");
      const std::string remedy =
          topology_[d] == 1 ? "narrower ghost zones or a larger grid"
                            : fmt::format("fewer ranks along {}, narrower ghost zones or a larger grid", axis_names[d]);
      throw parameters_error(parameters, fmt::format("{} thinner than the ghost zones of {} they fill: use {}", blocks,
                                                     ghosts[d], remedy));
    }
    const long long widest = owned[d] / topology_[d] + (owned[d] % topology_[d] != 0) + 2LL * ghosts[d];
    if (widest > std::numeric_limits<int>::max()) {
      const std::string points_name = fmt::format("global_n{}", axis_names[d]);
      throw parameters_error({{"Driver", points_name}, {"Driver", "ghost_size"},
                              {"Driver", fmt::format("ghost_size_{}", axis_names[d])}},
                             fmt::format("Driver::{} = {} with ghost zones of {} on both sides makes {} points along "
                                         "{}, more than an int counts ({})",
                                         points_name, whole.global[d], ghosts[d], widest, axis_names[d],
                                         std::numeric_limits<int>::max()));
    }
  }
  block_ = block_of(ranks_->rank(), topology_, whole, ghosts, periodic);
  if (p.boolean("Driver", "pad_to_cachelines")) {
    // A multiple of 16 (param.ccl's range): a row's first point starts a 16-byte group, as a GPU
    // moves the rows in.
    const auto line_bytes = p.integer("Driver", "cacheline_bytes");
    pad_rows(block_.layout, ghosts[0], static_cast<int>(line_bytes / static_cast<long long>(sizeof(CCTK_REAL))));
  }
  if (p.boolean("Driver", "pad_planes")) pad_planes(block_.layout);
  if (!point_count(block_.layout.allocated())) {
    const auto& n = block_.layout.local;
    throw parameters_error(size_parameters(),
                           fmt::format("the grid has {}x{}x{} = {:.3g} points{}, more than an array index counts "
                                       "({} at most)",
                                       n[0], n[1], n[2], static_cast<double>(n[0]) * n[1] * n[2],
                                       n == whole.global ? "" : " (ghost zones included)",
                                       std::numeric_limits<std::ptrdiff_t>::max()));
  }
  halo_ = std::make_unique<halo_exchange>(block_.layout, block_.neighbours, p.boolean("Driver", "device_signals"));
  periodic_ = periodic;
  overlap_sync_ = p.boolean("Driver", "overlap_sync");
  sync_faces_only_ = p.boolean("Driver", "sync_faces_only");
}

std::string cartesian_driver::name() const {
  if (size() == 1) return "Cartesian, 1 rank";
  return fmt::format("Cartesian, {} ranks ({}x{}x{})", size(), topology_[0], topology_[1], topology_[2]);
}

void cartesian_driver::sync(const std::vector<grid_variable*>& variables, halo_memory& memory, halo_extent what) {
  std::vector<grid_variable*> grid_functions;
  for (auto* v : variables) {
    if (v->group_type == group_type::gf) grid_functions.push_back(v);
  }
  halo_->exchange(grid_functions, memory, *ranks_, what);
}

std::array<int, 6> cartesian_driver::exchanged_ghost_widths() const {
  std::array<int, 6> width{};
  for (int face = 0; face < 6; ++face) {
    const int d = face / 2;
    if (topology_[d] > 1 || periodic_[d]) width[face] = block_.layout.ghosts[d];
  }
  return width;
}

std::array<int, 6> cartesian_driver::physical_face_blocks() const {
  std::array<int, 6> points{};
  for (int face = 0; face < 6; ++face) {
    const int d = face / 2;
    if (topology_[d] == 1 || periodic_[d]) continue;  // no block has both a physical face and a neighbour
    // The first block along d has the lower face, the last the upper one.
    points[face] = block_along(block_.layout.global[d], topology_[d], face % 2 == 0 ? 0 : topology_[d] - 1).count;
  }
  return points;
}

void cartesian_driver::check_stencils(const std::array<int, 6>& widest, const std::array<std::string, 6>& kernel) const {
  const auto& g = block_.layout;
  for (int face = 0; face < 6; ++face) {
    const int d = face / 2;
    const bool from_neighbour = !g.physical[face] && block_.neighbours[face] >= 0;
    if (!from_neighbour || g.ghosts[d] >= widest[face]) continue;
    throw parameters_error(ghost_parameters(d),
                           fmt::format("kernel {} reads {} point{} across the {} {} face of a rank's block, but the "
                                       "ghost zones there are {} wide (Driver::ghost_size, or "
                                       "Driver::ghost_size_{}): the owned points next to the face would never be "
                                       "computed; set the ghost width to at least {}",
                                       kernel[face], widest[face], widest[face] == 1 ? "" : "s",
                                       face % 2 == 0 ? "lower" : "upper", axis_names[d], g.ghosts[d], axis_names[d],
                                       widest[face]));
  }
}

std::vector<driver::phase_timer> cartesian_driver::sync_timers() const {
  const auto& s = halo_->seconds();
  if (s.exchanges == 0) return {};
  return {{"SYNC: pack (and stage to host)", s.exchanges, s.pack},
          {"SYNC: messages between ranks", s.exchanges, s.messages},
          {"SYNC: unpack (and stage to device)", s.exchanges, s.unpack}};
}

double cartesian_driver::reduce(double local, reduction op) const {
  switch (op) {
    case reduction::sum: {
      exact_sum total;
      total.add(local);
      return sum(total);
    }
    case reduction::minimum: return ranks_->minimum(local);
    case reduction::maximum: return ranks_->maximum(local);
  }
  return local;
}

}  // namespace opuntia::thorns::Driver
