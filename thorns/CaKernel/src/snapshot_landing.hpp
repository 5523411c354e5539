#pragma once
// A checkpoint snapshot's copy from its device buffer to host memory, made by whoever first waits
// for it (the checkpoint writer's thread, before it writes) in chunks, two at a time, on the
// backend's snapshot queue, rather than enqueued whole when the snapshot is taken. A device moves
// its copies to the host through a copy engine in the order they were enqueued, whichever queue
// they came from: a copy the run needed while a whole snapshot was on its way (a reduction's
// result for the lid-driven cavity's diagnostics) waited for all of it, 28 ms for 1.4 GiB on an
// H200, with the device idle; behind chunks it waits for two at most (4-8 ms were left in that
// window, about what the diagnostics of that iteration take, with chunks of 32 MiB and of 8 MiB
// alike: bench/RESULTS.md, 2026-12-03).
#include <atomic>
#include <cstddef>
#include <mutex>

#include "backend.hpp"

namespace opuntia::thorns::CaKernel {

/// The bytes of one chunk: 8 MiB, about 0.16 ms over PCIe 5 (a GiB in 128 chunks, each with an
/// event the writer's thread waits for: a few ms of a write that takes a second).
inline constexpr std::size_t snapshot_landing_chunk = std::size_t{8} << 20;

class snapshot_landing final : public queue_event {
public:
  /// `bytes` from `device_memory` (of `device`) to `host`, once `copied` (the snapshot's copy
  /// within the device) is done, `chunk` bytes at a time.
  snapshot_landing(backend& device, queue_event_ptr copied, void* host, const void* device_memory, std::size_t bytes,
                   std::size_t chunk = snapshot_landing_chunk);
  /// Makes the copy (once; a second call, from any thread, waits for the first to end).
  void wait() override;
  /// Whether the copy has been made: never before someone waited for it.
  bool done() override { return landed_.load(); }

private:
  backend& device_;
  queue_event_ptr copied_;
  void* host_;
  const void* device_memory_;
  std::size_t bytes_, chunk_;
  std::mutex making_;
  std::atomic<bool> landed_{false};
};

}  // namespace opuntia::thorns::CaKernel
