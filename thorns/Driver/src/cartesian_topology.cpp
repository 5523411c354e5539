#include "cartesian_topology.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "flesh/runtime/parameters_error.hpp"

namespace opuntia::thorns::Driver {

namespace {

constexpr const char* axis_names[] = {"x", "y", "z"};
/// Driver::processor_topology's keywords, in the order of topology_kind.
constexpr const char* topology_keywords[] = {"automatic", "manual", "no_x_split"};

/// The prime factors of n, largest first.
std::vector<int> prime_factors(int n) {
  std::vector<int> factors;
  for (int p = 2; static_cast<long long>(p) * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  std::sort(factors.rbegin(), factors.rend());
  return factors;
}

std::vector<parameter_name> topology_parameters() {
  return {{"Driver", "processor_topology"},
          {"Driver", "processor_topology_3d_x"},
          {"Driver", "processor_topology_3d_y"},
          {"Driver", "processor_topology_3d_z"}};
}

}  // namespace

topology_kind topology_kind_of(const std::string& keyword) {
  for (int k = 0; k < 3; ++k) {
    if (keyword == topology_keywords[k]) return static_cast<topology_kind>(k);
  }
  return topology_kind::automatic;
}

std::array<int, 3> choose_topology(int ranks, const std::array<int, 3>& owned, topology_kind kind,
                                   const std::array<int, 3>& manual) {
  std::array<int, 3> topology{1, 1, 1};
  std::array<bool, 3> free{kind != topology_kind::no_x_split, true, true};  // directions still to choose
  int remaining = ranks;
  if (kind == topology_kind::manual) {
    long long fixed = 1;
    for (int d = 0; d < 3; ++d) {
      if (manual[d] > 0) {
        topology[d] = manual[d];
        free[d] = false;
        fixed *= manual[d];
      }
    }
    const bool any_free = free[0] || free[1] || free[2];
    if ((!any_free && fixed != ranks) || (any_free && ranks % fixed != 0)) {
      throw parameters_error(
          topology_parameters(),
          fmt::format("Driver::processor_topology = \"manual\" with processor_topology_3d_x/y/z = {}/{}/{} does not "
                      "split {} rank{}: {}",
                      manual[0], manual[1], manual[2], ranks, ranks == 1 ? "" : "s",
                      any_free ? fmt::format("{} is not a multiple of {}", ranks, fixed)
                               : fmt::format("their product is {}", fixed)));
    }
    remaining = static_cast<int>(ranks / fixed);
  }
  // Each prime factor, largest first, splits the free direction whose blocks are largest; among
  // equal blocks z before y before x, so that x, the direction of contiguous rows, is split last.
  for (const int p : prime_factors(remaining)) {
    int best = -1;
    for (int d = 2; d >= 0; --d) {
      if (!free[d]) continue;
      const double block = static_cast<double>(owned[d]) / topology[d];
      if (best < 0 || block > static_cast<double>(owned[best]) / topology[best]) best = d;
    }
    topology[best] *= p;
  }
  for (int d = 0; d < 3; ++d) {
    if (topology[d] > owned[d]) {
      auto parameters = topology_parameters();
      parameters.push_back({"Driver", fmt::format("global_n{}", axis_names[d])});
      throw parameters_error(
          parameters,
          fmt::format("{} ranks along {} (topology {}x{}x{}, processor_topology = \"{}\") but only {} points to "
                      "split there: use fewer ranks or another topology",
                      topology[d], axis_names[d], topology[0], topology[1], topology[2],
                      topology_keywords[static_cast<int>(kind)], owned[d]));
    }
  }
  return topology;
}

block_range block_along(int owned, int parts, int index) {
  const int base = owned / parts;
  const int larger = owned % parts;  // the first `larger` blocks hold base + 1 points
  return {index * base + std::min(index, larger), base + (index < larger ? 1 : 0)};
}

std::array<int, 3> rank_coordinates(int rank, const std::array<int, 3>& topology) {
  return {rank % topology[0], (rank / topology[0]) % topology[1], rank / (topology[0] * topology[1])};
}

rank_block block_of(int rank, const std::array<int, 3>& topology, const grid_layout& whole,
                    const std::array<int, 3>& ghosts, const std::array<bool, 3>& periodic) {
  rank_block b;
  b.layout.global = whole.global;
  b.layout.origin = whole.origin;
  b.layout.delta = whole.delta;
  const auto position = rank_coordinates(rank, topology);
  for (int d = 0; d < 3; ++d) {
    const int parts = topology[d];
    const int c = position[d];
    // Periodic: point n - 1 is point 0 again, so n - 1 points are owned; it is a ghost.
    const auto owned = block_along(periodic[d] ? whole.global[d] - 1 : whole.global[d], parts, c);
    const bool lower_physical = !periodic[d] && c == 0;
    const bool upper_physical = !periodic[d] && c == parts - 1;
    const int lower_ghosts = lower_physical ? 0 : ghosts[d];
    const int upper_ghosts = upper_physical ? 0 : ghosts[d];
    b.layout.ghosts[d] = lower_physical && upper_physical ? 0 : ghosts[d];
    b.layout.local[d] = owned.count + lower_ghosts + upper_ghosts;
    b.layout.offset[d] = owned.begin - lower_ghosts;
    b.layout.physical[2 * d] = lower_physical;
    b.layout.physical[2 * d + 1] = upper_physical;
    const auto neighbour = [&](int step) {
      auto p = position;
      p[d] = (c + step + parts) % parts;
      return p[0] + topology[0] * (p[1] + topology[1] * p[2]);
    };
    if (!lower_physical) b.neighbours[2 * d] = neighbour(-1);
    if (!upper_physical) b.neighbours[2 * d + 1] = neighbour(+1);
  }
  return b;
}

void pad_rows(grid_layout& layout, int aligned_x, int line_points) {
  const int line = line_points > 0 ? line_points : 1;
  layout.lead = (line - aligned_x % line) % line;
  // The lead and the points, rounded up to whole lines (at least one point of padding is not
  // needed: a row's padding is whatever completes its last line).
  const long long pitch = (static_cast<long long>(layout.lead) + layout.local[0] + line - 1) / line * line;
  layout.pitch = pitch <= std::numeric_limits<int>::max() ? static_cast<int>(pitch) : 0;
  if (layout.pitch == 0) layout.lead = 0;  // too wide to pad: left as it is
}

void pad_planes(grid_layout& layout) {
  const int rows = layout.local[1];  // even, so rows + 1 fits an int
  layout.plane_rows = layout.local[2] > 1 && rows % 2 == 0 ? rows + 1 : 0;
}

}  // namespace opuntia::thorns::Driver
