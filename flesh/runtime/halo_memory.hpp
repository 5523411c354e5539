#pragma once
// Where SYNC packs the ghost-zone layers a rank sends and unpacks the ones it receives: the host
// arrays (host_halo_memory), or a device's copies of them (thorns/CaKernel), so that on a GPU
// a halo leaves the device as a few contiguous messages and never as whole arrays. The driver
// decides what goes where (thorns/Driver/src/halo_exchange.hpp); the memory only copies boxes
// into and out of numbered message buffers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "flesh/grid/grid_functions.hpp"
#include "opuntia/grid.hpp"

namespace opuntia {

/// Which ghost points a SYNC fills: all of them, edges and corners included (what a stencil
/// that leaves the axes reads, CaKernel's 3DBLOCK), or those across the faces only (a stencil
/// along the axes, 3DSTENCIL).
enum class halo_extent { faces_edges_corners, faces };

/// The points of `box` (indices of an array of `extent` points, x fastest: grid_layout::allocated()
/// and allocated_box() of local indices, where rows are padded) of time level 0
/// of `variable`, x fastest, at `offset` bytes into a message.
struct halo_piece {
  grid_variable* variable = nullptr;
  std::array<int, 3> extent{};
  index_range box;
  std::size_t offset = 0;
};

class halo_memory {
public:
  virtual ~halo_memory() = default;
  /// Whether pack() and unpack() work on device memory.
  virtual bool on_device() const = 0;
  /// The `bytes` bytes of message buffer `slot`: what the communicator sends
  /// from or receives into. Device memory only when `device_pointers_accepted` (CUDA-aware MPI)
  /// and the backend can give it; otherwise host memory, staged to and from the device by
  /// packed() and received().
  virtual std::byte* message(int slot, std::size_t bytes, bool device_pointers_accepted) = 0;
  /// Copies `pieces` into (pack) or out of (unpack) buffer `slot`; on a device, in order after
  /// the kernels that wrote the variables, and possibly gathered with the other packs (unpacks)
  /// of the round into one launch, enqueued by the next packed(), received(), unpack() after
  /// packs (pack() after unpacks) or wait(): an exchange ends with wait().
  virtual void pack(int slot, const std::vector<halo_piece>& pieces) = 0;
  virtual void unpack(int slot, const std::vector<halo_piece>& pieces) = 0;
  /// Before the communicator reads `slots`: the packs into them are done and their bytes are
  /// where message() pointed (copied to the host when staged).
  virtual void packed(const std::vector<int>& slots) = 0;
  /// After the communicator filled `slots`: their bytes are where unpack() reads them.
  virtual void received(const std::vector<int>& slots) = 0;
  /// Ends an exchange: whatever uses the variables next comes after every pack, unpack and copy
  /// of it (on a device, the run's queue waits for them there; the host does not).
  virtual void wait() = 0;

  /// The device's time in packs and unpacks (staging copies included): each round of an
  /// exchange counts from its first pack to its last, and from its first unpack to its last,
  /// between events on the device's queue, so that the host's waits are not in it.
  struct copy_seconds {
    long rounds = 0;
    double pack = 0, unpack = 0;
  };
  /// What was measured so far, waiting for the copies still queued; zeros where nothing is
  /// measured on a device (the host's copies are in the driver's SYNC timers).
  virtual copy_seconds device_copy_seconds() { return {}; }

  // Buffers that a rank on the same node packs into directly (CUDA IPC), so that a message
  // never leaves the devices: the receiver shares a buffer, the sender opens it.
  /// Makes buffer `slot` hold at least `bytes` and returns what another process needs to open
  /// it; empty where this memory cannot share (the message then goes the usual way).
  virtual std::vector<std::byte> share(int slot, std::size_t bytes) {
    (void)slot, (void)bytes;
    return {};
  }
  /// Opens, as `slot`, a buffer another process shared (closing the one opened there before);
  /// false where it cannot (another node, another kind of device).
  virtual bool open_shared(int slot, const std::vector<std::byte>& handle) {
    (void)slot, (void)handle;
    return false;
  }
  /// Packs `pieces` into the opened buffer `slot`.
  virtual void pack_to_shared(int slot, const std::vector<halo_piece>& pieces) {
    (void)slot, (void)pieces;
    throw std::logic_error("pack_to_shared: this halo memory shares no buffers");
  }

  // Signals between the queues of ranks on one node, so that neither host waits: a buffer of
  // 32-bit counters that a neighbour opens (share_counters, open_shared), into which its queue
  // writes after its packs (or unpacks), and on which this rank's queue waits before its unpacks
  // (or packs). Counters compare cyclically (a value v is reached when (int32)(counter - v) >= 0),
  // so they may wrap.
  /// Whether this memory's queue can write and wait on counters (signal, wait_for).
  virtual bool signals() const { return false; }
  /// What tells this memory's device apart from the others of its node (a GPU's UUID); empty
  /// where unknown. Ranks whose memories name the same device do not signal each other.
  virtual std::string device_identity() const { return {}; }
  /// Makes buffer `slot` hold `count` counters, zeros where it is new, and returns what another
  /// process needs to open it (as share() does); empty where this memory cannot.
  virtual std::vector<std::byte> share_counters(int slot, int count) {
    (void)slot, (void)count;
    return {};
  }
  /// After the packs and unpacks enqueued so far, writes `value` into counter `index` of the
  /// opened buffer `slot` (another rank's counters).
  virtual void signal(int slot, int index, std::uint32_t value) {
    (void)slot, (void)index, (void)value;
    throw std::logic_error("signal: this halo memory has no signals");
  }
  /// What this memory enqueues next waits until counter `index` of its own buffer `slot` has
  /// reached `value`.
  virtual void wait_for(int slot, int index, std::uint32_t value) {
    (void)slot, (void)index, (void)value;
    throw std::logic_error("wait_for: this halo memory has no signals");
  }
};

/// The host arrays' halo memory: pack and unpack are row copies, messages are plain host buffers.
class host_halo_memory final : public halo_memory {
public:
  /// `data_of`: where time level 0 of a variable is now (grid_function_store::data).
  explicit host_halo_memory(std::function<void*(grid_variable&)> data_of) : data_of_(std::move(data_of)) {}
  bool on_device() const override { return false; }
  std::byte* message(int slot, std::size_t bytes, bool device_pointers_accepted) override;
  void pack(int slot, const std::vector<halo_piece>& pieces) override;
  void unpack(int slot, const std::vector<halo_piece>& pieces) override;
  void packed(const std::vector<int>&) override {}
  void received(const std::vector<int>&) override {}
  void wait() override {}

private:
  std::vector<std::byte>& buffer(int slot);
  void copy(int slot, const std::vector<halo_piece>& pieces, bool pack);

  std::function<void*(grid_variable&)> data_of_;
  std::vector<std::vector<std::byte>> buffers_;
};

}  // namespace opuntia
