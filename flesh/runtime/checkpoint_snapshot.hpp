#pragma once
// The memory a checkpoint written in the background holds its arrays in: at the iteration the
// checkpoint is of, every array is copied into a buffer of its own (kernel_runtime's
// copy_for_snapshot: a memcpy on the host, a copy within the device and then to the host on a
// device), which the run does not touch afterwards, so that it goes on while the writer writes
// the buffers. An array whose values have not changed since the snapshot before (the same
// buffer, written as often: kernel_runtime::stamp_of) is not copied again: arrays that only a
// diagnostic or the initial data writes cost a checkpoint nothing. The buffers are host memory of the kernel runtime (page-locked on a device),
// allocated at the first checkpoint and reused by every later one.
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "flesh/runtime/checkpoint_data.hpp"
#include "flesh/runtime/kernel_runtime.hpp"

namespace opuntia {

class checkpoint_snapshot {
public:
  /// Where array i of a checkpoint comes from: time level `level` of `variable`.
  struct source {
    grid_variable* variable = nullptr;
    int level = 0;
  };
  /// What take() did.
  struct taken {
    /// The copies still landing: the snapshot is whole once each is done (null: landed already).
    std::vector<queue_event_ptr> copies;
    /// How many arrays went each way, by kernel_runtime::snapshot_route,
    std::array<std::size_t, 3> by_route{};
    /// and how many were not copied: their buffer already held their values (unchanged since).
    std::size_t unchanged = 0;
    double bytes_allocated = 0;     // buffers this take() allocated (the first one's, as a rule)
    double seconds_allocating = 0;  // and the time that took
  };

  explicit checkpoint_snapshot(kernel_runtime& runtime) : runtime_(runtime) {}
  /// Waits for copies still landing, then frees the buffers.
  ~checkpoint_snapshot();
  checkpoint_snapshot(const checkpoint_snapshot&) = delete;
  checkpoint_snapshot& operator=(const checkpoint_snapshot&) = delete;

  /// Copies every array of `contents` (array i: `sources[i]`, whose host array its `values` is)
  /// into this snapshot, and points each array's `values` at its buffer. Waits first for the
  /// copies of the take() before, so that no copy still lands in a buffer it reuses. Returns
  /// when the run may go on; the caller waits for the copies before it reads the buffers.
  taken take(checkpoint_contents& contents, const std::vector<source>& sources);
  /// Allocates (and touches) the host buffers a take() of `sources` will use, without copying:
  /// the run calls it before its evolution, so that no checkpoint stalls the run to allocate
  /// (0.26 s of pinned memory for 384 MiB on an H100 machine, bench/RESULTS.md, 2026-11-26).
  /// Returns the bytes allocated and the seconds it took in a `taken` without copies.
  taken reserve(const std::vector<source>& sources);

  /// The buffers held, and their bytes.
  std::size_t buffers() const { return buffers_.size(); }
  double bytes() const;

private:
  struct buffer {
    void* memory = nullptr;
    std::size_t bytes = 0;
    std::optional<kernel_runtime::contents_stamp> holds;  // the values last copied in, where stamped
  };
  void wait_for_copies();
  /// Buffer i holding `bytes`: (re)allocated and touched where it does not, counted in `t`.
  void fit(std::size_t i, std::size_t bytes, taken& t);

  kernel_runtime& runtime_;
  std::vector<buffer> buffers_;          // by the array's place in the checkpoint
  std::vector<queue_event_ptr> landing_;  // the copies of the last take()
};

}  // namespace opuntia
