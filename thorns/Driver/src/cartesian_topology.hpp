#pragma once
// How ranks split the grid, in the manner of PUGH (Cactus's unigrid driver): a Cartesian
// topology of px x py x pz ranks, each holding one block of the points a direction owns. A
// direction of n points owns n of them, or n - 1 when periodic (point n - 1 is point 0 again).
// Blocks may be uneven: the first n % p blocks along a direction get one point more.
#include <array>
#include <string>

#include "opuntia/grid.hpp"

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

/// One rank's part of the grid: its block with ghost zones, and the rank across each face.
struct rank_block {
  grid_layout layout;
  std::array<int, 6> neighbours{-1, -1, -1, -1, -1, -1};  // xn, xp, yn, yp, zn, zp; -1: physical face
};
/// The block of `rank` in `topology` of a grid of `whole.global` points on `whole.origin` and
/// `whole.delta`, with ghost zones of `ghosts` where a face has a neighbour (another rank, or
/// this one across a periodic direction) and none on a physical face.
rank_block block_of(int rank, const std::array<int, 3>& topology, const grid_layout& whole,
                    const std::array<int, 3>& ghosts, const std::array<bool, 3>& periodic);

/// Pads `layout`'s rows (grid_layout::pitch, lead) for lines of `line_points` elements: every
/// row starts where the one before it did modulo a line, and local point `aligned_x` starts a
/// line (the first point past the ghost zones the parameters ask for: where the kernels of a
/// stencil as wide as the ghost zones start computing, whether or not the face is physical). A
/// line of 1 point pads nothing.
void pad_rows(grid_layout& layout, int aligned_x, int line_points);

/// Pads `layout`'s planes (grid_layout::plane_rows) to an odd number of rows: a row's bytes
/// times an even count is often a multiple of 4 KiB, the span a CPU core's L1 cache maps onto
/// its sets (64 sets of 64-byte lines on current Intel and AMD cores), and then the same point
/// of every plane falls in the same set, which a radius-4 star's nine planes overfill (256^3
/// in rows of 272 doubles: 136 x 4 KiB a plane). An odd count puts the planes an odd number of
/// rows apart. A block of one plane is left as it is.
void pad_planes(grid_layout& layout);

}  // namespace opuntia::thorns::Driver
