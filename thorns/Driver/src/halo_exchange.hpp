#pragma once
// Fills the ghost zones of a rank's block from its neighbours. With edges and corners: one
// direction after the other, x, y, z, each slab spanning the whole local block in the other
// directions, so that the ghosts filled along x travel on along y and z and edges and corners
// come out right without messages of their own (three rounds instead of 26 neighbours). Faces
// only (what stencils along the axes read, CaKernel's 3DSTENCIL): one round, the six faces'
// slabs spanning the owned points in the other directions. A face with a neighbour (another rank,
// or this one across a periodic direction) sends the `ghosts` layers it owns next to the face
// and receives the neighbour's into its ghost layers; a physical face has no ghost zone.
//
// The layers are packed and unpacked by a halo_memory (flesh/runtime/halo_memory.hpp): on the
// host arrays, or on a device's copies, where only the packed messages ever cross to the host
// (and not even they when the communicator takes device memory). A face whose neighbour is this
// rank itself (a periodic direction not split) sends no message: its ghosts are unpacked from
// the buffer packed for the opposite face.
#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "communicator.hpp"
#include "flesh/runtime/halo_memory.hpp"
#include "opuntia/grid.hpp"

namespace opuntia::thorns::Driver {

class halo_exchange {
public:
  /// `neighbours`: the rank across each face (xn, xp, yn, yp, zn, zp), -1 for a physical face.
  /// `signals`: where the halo memory can (halo_memory::signals) and a neighbour on this node
  /// packs into this rank's buffers, the two queues tell each other that a slab arrived or was
  /// read by counters in device memory, instead of the host waiting for the packs and sending a
  /// message of no bytes (Driver::device_signals).
  halo_exchange(const grid_layout& layout, const std::array<int, 6>& neighbours, bool signals = false);
  /// Fills the ghost zones (`what` of them) of time level 0 of every grid function in `variables`.
  void exchange(std::span<grid_variable* const> variables, halo_memory& memory, communicator& ranks,
                halo_extent what = halo_extent::faces_edges_corners);
  /// Whether any face has a neighbour: when none, exchange() moves nothing.
  bool exchanges() const;

  /// Host seconds of each phase over every exchange so far: packing the layers (with the copies
  /// that stage them to the host), the messages between ranks (MPI, waiting for the neighbour
  /// included), and unpacking (with the staging copies back), each to its end on the device.
  struct phase_seconds {
    long exchanges = 0;
    double pack = 0, messages = 0, unpack = 0;
  };
  const phase_seconds& seconds() const { return seconds_; }

private:
  /// The `layers` layers along `d` starting at `first`, across the whole block in the other
  /// directions, or across the owned points there (`owned_across`).
  index_range slab(int d, int first, int layers, bool owned_across) const;
  /// One face's part of an exchange.
  struct side_plan {
    int face;  // 0..5: xn, xp, yn, yp, zn, zp
    int peer;
    std::vector<halo_piece> send, receive;
    std::size_t bytes = 0;
  };
  /// The rounds of an exchange (one per direction, or one for all faces), each the faces with a
  /// neighbour and the pieces of `variables` they send and receive.
  std::vector<std::vector<side_plan>> plan(std::span<grid_variable* const> variables, halo_extent what) const;
  /// Sets up, with each neighbour across the faces of `sides` that has none large enough yet,
  /// the buffers the neighbour packs into directly (memory.share and open_shared).
  void share_buffers(std::vector<side_plan>& sides, halo_memory& memory, communicator& ranks);
  /// Per face: the message size the shared buffers were set up for, whether both sides opened
  /// them, and whether both opened each other's counters (signals).
  struct shared_face {
    std::size_t bytes = 0;
    bool direct = false;
    bool signals = false;
  };
  std::array<shared_face, 6> shared_{};

  grid_layout layout_;
  std::array<int, 6> neighbours_;
  bool signals_ = false;
  phase_seconds seconds_;
};

}  // namespace opuntia::thorns::Driver
