#pragma once
// Fills the ghost zones of a rank's block from its neighbours: one direction after the other,
// x, y, z, each slab spanning the whole local block in the other directions, so that the ghosts
// filled along x travel on along y and z and edges and corners come out right without messages
// of their own (three rounds instead of 26 neighbours). A face with a neighbour (another rank,
// or this one across a periodic direction) sends the `ghosts` layers it owns next to the face
// and receives the neighbour's into its ghost layers; a physical face has no ghost zone.
#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "communicator.hpp"
#include "opuntia/grid.hpp"

namespace opuntia::thorns::Driver {

/// One array to exchange: `layout.points()` elements of `element_size` bytes.
struct field_view {
  void* data = nullptr;
  std::size_t element_size = 0;
};

class halo_exchange {
public:
  /// `neighbours`: the rank across each face (xn, xp, yn, yp, zn, zp), -1 for a physical face.
  halo_exchange(const grid_layout& layout, const std::array<int, 6>& neighbours);
  void exchange(std::span<const field_view> fields, communicator& ranks);
  /// Whether any face has a neighbour: when none, exchange() moves nothing.
  bool exchanges() const;

private:
  /// The box of local indices [begin, end) of the `layers` layers along `d` starting at `first`.
  struct box {
    std::array<int, 3> begin, end;
    std::size_t points() const;
  };
  box slab(int d, int first, int layers) const;
  void copy(const box& b, const field_view& f, std::byte* buffer, bool pack) const;

  grid_layout layout_;
  std::array<int, 6> neighbours_;
  std::array<std::vector<std::byte>, 4> buffers_;  // send and receive, per side; reused between exchanges
};

}  // namespace opuntia::thorns::Driver
