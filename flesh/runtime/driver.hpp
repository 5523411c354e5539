#pragma once
// The driver interface: how the grid is decomposed and how ghost zones are exchanged. A driver
// thorn provides one (flesh/runtime/providers.hpp): the Cartesian driver of thorns/Driver.
#include <array>
#include <string>
#include <vector>

#include "flesh/grid/grid_functions.hpp"
#include "flesh/runtime/halo_memory.hpp"
#include "flesh/runtime/parameters_error.hpp"
#include "opuntia/exact_sum.hpp"
#include "opuntia/grid.hpp"
#include "opuntia/reduction.hpp"

namespace opuntia {

class driver {
public:
  virtual ~driver() = default;
  virtual std::string name() const = 0;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// This rank's block of the grid.
  virtual const grid_layout& layout() const = 0;
  /// The parameters that set the number of grid points, where a grid too large for the memory
  /// is reported.
  virtual std::vector<parameter_name> size_parameters() const = 0;
  /// Fills the ghost zones of `variables` (current time level) from their neighbours, periodic
  /// images included, packing and unpacking them in `memory` (the host arrays or a device's
  /// copies: the caller makes the variables current there first); `what`: all ghost points, or
  /// those across the faces only.
  virtual void sync(const std::vector<grid_variable*>& variables, halo_memory& memory, halo_extent what) = 0;
  /// Seconds sync() spent so far in each of its phases, with the number of calls: the timer
  /// report prints them below the routines.
  struct phase_timer {
    std::string name;
    long calls = 0;
    double seconds = 0;
  };
  virtual std::vector<phase_timer> sync_timers() const { return {}; }
  /// Whether a kernel followed by a SYNC computes its rim first and its interior while the
  /// exchange runs (on backends with queues: simulation::run_routine).
  virtual bool overlaps_sync() const { return false; }
  /// Whether a SYNC may fill the faces only where every reader stencils along the axes.
  virtual bool syncs_faces_only() const { return true; }
  /// Refuses (parameters_error) ghost zones narrower than `widest[face]`, the widest STENCIL
  /// across each face of the kernels of the active thorns (`kernel[face]` names one), on a face
  /// whose ghost zones come from a neighbour.
  virtual void check_stencils(const std::array<int, 6>& widest, const std::array<std::string, 6>& kernel) const {
    (void)widest, (void)kernel;
  }
  /// Whether sync() has anything to do (neighbours or periodic images); when not, SYNC moves
  /// no data at all, not even between host and device.
  virtual bool exchanges() const = 0;
  /// The width of the ghost zones on each face (xn, xp, yn, yp, zn, zp) where some rank's face
  /// is exchanged (with a neighbour or a periodic image), 0 where no rank's is: the same on
  /// every rank, so that every rank decides alike whether a SYNC exchanges (ghost_depths.hpp).
  virtual std::array<int, 6> exchanged_ghost_widths() const { return {}; }
  /// The faces (xn, xp, yn, yp, zn, zp) of the periodic directions: across them a rank's ghost
  /// zones hold the periodic image of points a period away.
  virtual std::array<bool, 6> periodic_faces() const { return {}; }
  /// For each face f, the points along f's axis of the blocks whose face f is a physical boundary
  /// and that have a neighbour across the opposite face, 0 where no block does: the same on every
  /// rank (ghost_depths.hpp: a boundary kernel's slab may reach what a thin block's neighbour
  /// holds as ghosts).
  virtual std::array<int, 6> physical_face_blocks() const { return {}; }
  /// Combines one value per rank.
  virtual double reduce(double local, reduction op) const = 0;
  /// The exact sum over every rank of each rank's accumulator (exact_sum.hpp), the same bits on
  /// any number of ranks. A driver of one rank needs nothing more than this default.
  virtual double sum(exact_sum& local) const { return local.value(); }
  /// The sum over every rank modulo 2^64 (routine_context::digest).
  virtual std::uint64_t wrapping_sum(std::uint64_t local) const { return local; }
  /// Every rank's `local` text, in rank order, on rank 0; an empty list on the others. Every
  /// rank calls it (the start-up report).
  virtual std::vector<std::string> gather(const std::string& local) const { return {local}; }
  /// Every rank's `local` text, in rank order, on every rank (where each rank decides from what
  /// all of them read: the start-up's OpenMP thread counts). Every rank calls it.
  virtual std::vector<std::string> all_gather(const std::string& local) const { return {local}; }
};

}  // namespace opuntia
