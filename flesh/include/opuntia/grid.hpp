#pragma once
// The grid one rank holds: sizes with ghosts, where it sits in the global grid, its spacing
// and which of its faces are physical boundaries. Vertex i lies at x = xmin + i * dx globally; a
// cell-centred direction (CENTERING={c..}) puts point i half a step above it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "ccl/model/variable_kinds.hpp"

namespace opuntia {

/// Points of an nx x ny x nz block, or nullopt when a size is negative or the product does not
/// fit a ptrdiff_t (kernels index arrays with one): point_count({609, 36760123, 823996703})
/// is nullopt, where the plain product would wrap to a few points.
inline std::optional<std::size_t> point_count(const std::array<int, 3>& sizes) {
  std::ptrdiff_t points = 1;
  for (const int n : sizes) {
    if (n < 0 || __builtin_mul_overflow(points, static_cast<std::ptrdiff_t>(n), &points)) return std::nullopt;
  }
  return static_cast<std::size_t>(points);
}

/// A box of local indices, [begin, end) along each axis.
struct index_range {
  std::array<int, 3> begin{};
  std::array<int, 3> end{};

  /// Points in the box (0 when it is empty along an axis).
  std::size_t points() const {
    std::size_t n = 1;
    for (int d = 0; d < 3; ++d) n *= end[d] > begin[d] ? static_cast<std::size_t>(end[d] - begin[d]) : 0;
    return n;
  }
  /// Calls visit(i, j, k) for every point, x fastest.
  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (int k = begin[2]; k < end[2]; ++k) {
      for (int j = begin[1]; j < end[1]; ++j) {
        for (int i = begin[0]; i < end[0]; ++i) visit(i, j, k);
      }
    }
  }
};

struct grid_layout {
  std::array<int, 3> global{};   // global_nx, global_ny, global_nz
  std::array<int, 3> local{};    // this rank's array sizes, ghosts included (cagh_ni, ...)
  std::array<int, 3> ghosts{};   // ghost widths (cagh_nghostsi, ...)
  std::array<int, 3> offset{};   // global index of local index 0 (negative with periodic ghosts)
  std::array<bool, 6> physical{true, true, true, true, true, true};  // xn, xp, yn, yp, zn, zp
  std::array<double, 3> origin{};  // domain minimum: coordinate of global index 0
  std::array<double, 3> delta{};   // dx, dy, dz
  // How the points lie in memory (Cactus's cctk_ash against cctk_lsh): rows of `pitch`
  // elements (0: local[0], no padding), planes of `plane_rows` rows (0: local[1]), local point
  // (i, j, k) at element lead + i + pitch * (j + plane_rows * k) of the allocation. The driver
  // pads the rows so that each starts where the one before it did modulo a cache line, and sets
  // the lead so that the first point past the x ghost zone starts a line
  // (Driver::pad_to_cachelines); it gives the planes an odd number of rows, so that the planes
  // a stencil reads along z do not share a CPU's L1 sets (Driver::pad_planes). Elements
  // [-lead, pitch - lead) of a row, in local x, and rows [0, plane_rows) of a plane are
  // allocated: a kernel may read a group of points that reaches into a row's padding, never use
  // it; no kernel reads the rows past local[1].
  int pitch = 0;
  int lead = 0;
  int plane_rows = 0;

  /// Points of the local block. The driver refuses layouts whose count overflows, so the throw
  /// is a guard against a driver that does not, never a message a user should see.
  std::size_t points() const {
    if (const auto n = point_count(local)) return *n;
    throw std::overflow_error("grid_layout::points(): the local block's point count overflows an index");
  }
  /// Elements a row takes in memory, padding included.
  int row_pitch() const { return pitch > 0 ? pitch : local[0]; }
  /// Rows a plane takes in memory, padding included.
  int rows_per_plane() const { return plane_rows > 0 ? plane_rows : local[1]; }
  /// The allocated array, padding included, as an unpadded one: local point (i, j, k) is its
  /// point (i + lead, j, k). Box copies, reductions and file I/O take a box of it
  /// (allocated_box) and this extent.
  std::array<int, 3> allocated() const { return {row_pitch(), rows_per_plane(), local[2]}; }
  /// `box` (local indices) in the allocated array's indices.
  index_range allocated_box(index_range box) const {
    box.begin[0] += lead;
    box.end[0] += lead;
    return box;
  }
  /// Elements of one grid function's array, padding included (the driver checked that the
  /// count fits an index).
  std::size_t elements() const {
    if (const auto n = point_count(allocated())) return *n;
    throw std::overflow_error("grid_layout::elements(): the local block's allocation overflows an index");
  }
  /// Linear index of local point (i, j, k) in its array: x fastest.
  std::size_t index(int i, int j, int k) const {
    return static_cast<std::size_t>(lead + i) +
           static_cast<std::size_t>(row_pitch()) *
               (static_cast<std::size_t>(j) + static_cast<std::size_t>(rows_per_plane()) * static_cast<std::size_t>(k));
  }
  /// The points this rank owns: its block less the ghost zones on every side (those exchanged
  /// with neighbours and periodic images alike). Over all ranks, the global grid once.
  index_range interior() const {
    index_range r;
    for (int d = 0; d < 3; ++d) {  // a physical face has no ghost zone
      r.begin[d] = physical[2 * d] ? 0 : ghosts[d];
      r.end[d] = local[d] - (physical[2 * d + 1] ? 0 : ghosts[d]);
    }
    return r;
  }
  /// 1/dx^2 + 1/dy^2 (+ 1/dz^2 where `axes` is 3): the 7-point laplacian's largest eigenvalue over
  /// 4, which the stability limits of explicit schemes on this grid scale with.
  double inverse_square_spacings(int axes = 3) const {
    double sum = 0;
    for (int d = 0; d < axes; ++d) sum += 1 / (delta[d] * delta[d]);
    return sum;
  }
  /// Coordinate of local index i along axis d of a variable centred `c` along d (a vertex, or
  /// the centre of the cell above it): coordinate(0, i, ccl::centering::cell) == xmin + (global
  /// i + 0.5) * dx.
  double coordinate(int d, int i, ccl::centering c = ccl::centering::vertex) const {
    return global_coordinate(d, offset[d] + i, c);
  }
  /// The same for global index i along d, on any rank.
  double global_coordinate(int d, int i, ccl::centering c = ccl::centering::vertex) const {
    return origin[d] + (i + ccl::centering_offset(c)) * delta[d];
  }
  /// Coordinate of local index 0 along d: params.cagh_xmin in a kernel.
  double local_origin(int d) const { return origin[d] + offset[d] * delta[d]; }
};

/// One value's part of a digest (owned_points_digest): a hash of its place `index` and its
/// `element_size` (at most 8) bytes at `value`, every input bit reaching every output bit
/// (splitmix64's finaliser, twice).
inline std::uint64_t point_digest(std::uint64_t index, const void* value, std::size_t element_size) {
  const auto mix = [](std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t bits = 0;
  std::memcpy(&bits, value, element_size);
  return mix(mix(index) ^ bits);
}

/// A 64-bit digest of the points of `g.interior()` (this rank's owned points) of a local array of
/// `element_size`-byte values laid out as `g` says: the sum modulo 2^64 of each point's
/// point_digest at its global index. A sum, so that the ranks' digests add up to the same value
/// however the grid is split (routine_context::wrapping_sum); a hash of place and bits, so that a
/// field that differs in one bit, or two values that trade places, change it.
inline std::uint64_t owned_points_digest(const void* values, std::size_t element_size, const grid_layout& g) {
  const auto* bytes = static_cast<const unsigned char*>(values);
  const auto r = g.interior();
  std::uint64_t digest = 0;
  for (int k = r.begin[2]; k < r.end[2]; ++k) {
    for (int j = r.begin[1]; j < r.end[1]; ++j) {
      const auto row_index = static_cast<std::uint64_t>(g.global[0]) *
                             (static_cast<std::uint64_t>(g.offset[1] + j) +
                              static_cast<std::uint64_t>(g.global[1]) * static_cast<std::uint64_t>(g.offset[2] + k));
      const unsigned char* row = bytes + g.index(0, j, k) * element_size;
      for (int i = r.begin[0]; i < r.end[0]; ++i) {
        digest += point_digest(row_index + static_cast<std::uint64_t>(g.offset[0] + i),
                               row + static_cast<std::ptrdiff_t>(i) * static_cast<std::ptrdiff_t>(element_size),
                               element_size);
      }
    }
  }
  return digest;
}

}  // namespace opuntia
