#pragma once
// How ranks split the grid, in the manner of PUGH (Cactus's unigrid driver): a Cartesian
// topology of px x py x pz ranks, each holding one block of the points a direction owns. A
// direction of n points owns n of them, or n - 1 when periodic (point n - 1 is point 0 again).
// Blocks may be uneven: the first n % p blocks along a direction get one point more.
#include <array>
#include <string>

namespace opuntia::thorns::Driver {

enum class topology_kind {
  automatic,   // as cubic as possible; ties split z first, then y, x last
  manual,      // processor_topology_3d_x/y/z; a 0 there is chosen automatically
  no_x_split,  // x whole (coalesced rows on a GPU), y and z as automatic
};
/// "automatic", "manual", "no_x_split" as Driver::processor_topology writes them.
topology_kind topology_kind_of(const std::string& keyword);

/// Ranks along x, y, z for `ranks` ranks and `owned` points per direction. Throws
/// parameters_error naming Driver::processor_topology* when a manual topology's product is not
/// the rank count, or when a direction would get more ranks than it has points.
std::array<int, 3> choose_topology(int ranks, const std::array<int, 3>& owned, topology_kind kind,
                                   const std::array<int, 3>& manual);

/// The points block `index` of `parts` holds along a direction of `owned` points.
struct block_range {
  int begin = 0;  // global index of its first point
  int count = 0;
};
block_range block_along(int owned, int parts, int index);

/// The position of `rank` in `topology`: x fastest, as MPI_Cart_create orders ranks.
std::array<int, 3> rank_coordinates(int rank, const std::array<int, 3>& topology);

}  // namespace opuntia::thorns::Driver
