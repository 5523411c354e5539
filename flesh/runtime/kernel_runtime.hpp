#pragma once
// The flesh's view of the CaKernel runtime (thorns/CaKernel implements it): launch a kernel
// on the chosen backend, and keep host and device copies of grid functions coherent.
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flesh/grid/grid_functions.hpp"
#include "flesh/runtime/halo_memory.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

struct field_reduction;  // opuntia/field_reduction.hpp: C++20, and CUDA translation units include this as C++17

/// A point in a queue of device work: done once everything enqueued before it has finished.
class queue_event {
public:
  virtual ~queue_event() = default;
  /// Blocks the host until the event is done.
  virtual void wait() = 0;
  /// Whether it is done, without waiting.
  virtual bool done() = 0;
};
using queue_event_ptr = std::shared_ptr<queue_event>;

/// The points a launch computes, in two parts: the boxes of `first` (the rim a SYNC sends), then
/// those of `then` (the interior, computed while the rim's ghost zones are exchanged; on a device
/// the rim runs on the exchange's queue, beside the interior). Both empty: every point the
/// kernel computes, in one launch.
struct launch_parts {
  std::vector<index_range> first, then;
};

/// What launch() recorded on the run's queue: after the first part's boxes (null when the
/// launch had no parts), and after the whole launch (null where kernels run on the host arrays
/// and the host never waits for them). The routine timers take `done` as their end: one event
/// fewer a launch, and recording one cost the host as much as a launch on an H200 (issue 28).
struct launched_events {
  queue_event_ptr first_part_done, done;
};

/// Whether the routine timer times a launch: `untimed`, its `done` event only orders later work
/// (ensure_host, a SYNC) and may be recorded when first asked for, after later launches too.
enum class launch_timing { timed, untimed };

class kernel_runtime {
public:
  virtual ~kernel_runtime() = default;
  /// The backend kernels run on: openmp, cuda, opencl.
  virtual std::string backend_name() const = 0;
  /// What this process runs kernels on, for the start-up report: "cuda device 0: NVIDIA H100
  /// 80GB HBM3", "openmp: 4 threads".
  virtual std::string device_description() const { return "host"; }
  /// Decides what launch() with the same arguments will run, where that takes measuring
  /// (autotuning at a kernel's first launch on a grid size, and on each size of box among
  /// `parts`): called before the launch's timer starts, so that the routine's time is its
  /// kernel's. launch() decides itself where nothing called this first.
  virtual void prepare(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
                       const kernel_grid& grid, const std::string& variant, const launch_parts& parts = {}) {
    (void)thorn, (void)kernel, (void)thorn_parameters, (void)grid, (void)variant, (void)parts;
  }
  /// Enqueues `kernel` of `thorn` (its variant for this backend; `variant` names the template when
  /// several were generated, empty: the first), applying every variable's INTENT around it; on a
  /// device it may still run when this returns. `parts`: the boxes it computes, in order (of the
  /// points it would compute).
  virtual launched_events launch(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
                                 const kernel_grid& grid, const std::string& variant, const launch_parts& parts = {},
                                 launch_timing timing = launch_timing::timed) = 0;
  /// Before the host reads (or writes) time level `level` of `v`: waits for the kernel that last
  /// wrote it and brings the host copy up to date, or for a copy still reading the host array.
  virtual void ensure_host(grid_variable& v, int level = 0) = 0;
  /// After the host wrote time level `level` of `v`: the device copy is stale.
  virtual void host_wrote(grid_variable& v, int level = 0) = 0;
  /// Where SYNC should pack the ghost zones of `variables` (time level 0): a halo memory on the
  /// device when their current copies are there, so that only the halo leaves it; null where the
  /// host arrays are the place (a backend on the host arrays, or a variable the host holds the
  /// only current copy of: the caller then makes them all current on the host).
  /// Its packs start after `after` (an event of launch()), or after everything enqueued so far.
  virtual halo_memory* device_halo(const std::vector<grid_variable*>& variables, queue_event* after = nullptr) {
    (void)variables, (void)after;
    return nullptr;
  }
  /// The device time of device_halo()'s packs and unpacks so far (halo_memory::device_copy_seconds).
  virtual halo_memory::copy_seconds halo_copy_seconds() { return {}; }
  /// After a SYNC in device_halo()'s memory filled `v`'s ghost zones on the device.
  virtual void device_wrote(grid_variable& v) { (void)v; }
  /// This rank's reduction of `box` of time level `level` of the real grid function `v` (an
  /// array of `extent` points, x fastest), computed on the device where the current copy is the
  /// device's alone, so that only a few hundred bytes leave it; nullopt where the host holds a
  /// current copy (the caller reduces the host array). The same bits as the host's reduction.
  virtual std::optional<field_reduction> reduce_on_device(grid_variable& v, int level, const std::array<int, 3>& extent,
                                                          const index_range& box);
  /// Waits for every launched kernel.
  virtual void synchronize() = 0;
  /// What the runtime decided since the last call that the run's output should say (a kernel's
  /// variant chosen by measurement), a line each.
  virtual std::vector<std::string> take_notes() { return {}; }

  // Snapshots: copies of arrays as they stand at one point of the run, taken while the run goes
  // on (a checkpoint written in the background holds them).
  /// Host memory a snapshot is copied into, page-locked where the backend can (copies from a
  /// device then overlap its kernels); freed by release_host.
  virtual void* allocate_host(std::size_t bytes);
  /// Never throws: called from destructors.
  virtual void release_host(void* host) noexcept;
  /// How copy_for_snapshot() copied.
  enum class snapshot_route {
    host_copy,        // from the host array, a memcpy before it returned (the host copy was current)
    device_snapshot,  // on the device into a snapshot buffer on the run's queue, then to `into` when waited for
    device_to_host,   // from the device copy straight to `into` on the run's queue (no room for a snapshot buffer)
  };
  struct snapshot_copy {
    queue_event_ptr done;  // `into` holds the values once it is waited for (which may make the copy); null: on return
    snapshot_route route = snapshot_route::host_copy;
  };
  /// What the values of a time level are, as far as a snapshot needs to know: its buffer and how
  /// many writes that buffer has had (kernels, host routines, SYNC, recovery). Two equal stamps
  /// are equal values, so a snapshot skips an array whose stamp is that of the copy it already
  /// holds (checkpoint_snapshot::take).
  struct contents_stamp {
    buffer_key buffer;
    std::size_t writes = 0;
    friend bool operator==(const contents_stamp& a, const contents_stamp& b) {
      return a.buffer == b.buffer && a.writes == b.writes;
    }
  };
  /// The stamp of time level `level` of `v`; nullopt where this runtime does not count writes
  /// (then every snapshot copies every array).
  virtual std::optional<contents_stamp> stamp_of(grid_variable& v, int level) {
    (void)v, (void)level;
    return std::nullopt;
  }
  /// Starts copying time level `level` of `v` (its host array `host`) into `into`
  /// (v.count * v.element_size() bytes of allocate_host() memory), as everything launched so far
  /// leaves it; launches and host writes after the call do not change what `into` receives. The
  /// default, for a runtime on the host arrays: the current copy brought to the host, then a memcpy.
  virtual snapshot_copy copy_for_snapshot(grid_variable& v, int level, const void* host, void* into);
  /// An event after everything enqueued so far (on OpenMP, whose kernels have run by then, a
  /// time on the host's clock): the per-routine timers measure kernels between two of them.
  virtual queue_event_ptr record() = 0;
  /// Seconds between two events of record(), once both are done.
  virtual double elapsed_seconds(queue_event& from, queue_event& to) = 0;
  /// The event a routine timer starts from, recorded just before a launch: record()'s, or where
  /// the backend can tell, one whose time is when the launch's first kernel starts, so that the
  /// host's work between the two is not counted as the kernel's (OpenCL).
  virtual queue_event_ptr record_launch_start() { return record(); }
  /// The routine timers time a routine's first two launches and then one in this many: 1 where
  /// timing is free (the host's clock, OpenMP); more on a device, where the events around a
  /// launch cost time: on NVIDIA's OpenCL 7.5 us of host time an event against 4.8 us a kernel,
  /// on CUDA 1.3-2.5 us of device time a step between kernels of 14-30 us (bench/RESULTS.md,
  /// 2026-11-27).
  virtual int timing_stride() const { return 1; }

  // What the flesh counts before allocating, so that a run too large for the device is refused
  // with the figures rather than failing in its first launch. The defaults suit a backend that
  // runs on the host arrays (OpenMP).
  /// Whether kernels work on device copies of the arrays they use (CUDA, OpenCL): every time
  /// level of a variable a kernel uses, and its scratch buffer, then also takes device memory.
  virtual bool mirrors_on_device() const { return false; }
  /// Bytes of device memory free for those copies; nullopt: unknown (nothing is refused).
  virtual std::optional<std::size_t> device_memory_available() const { return std::nullopt; }
  /// The largest single buffer the device allows (OpenCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  /// nullopt: no limit but the memory itself.
  virtual std::optional<std::size_t> largest_device_allocation() const { return std::nullopt; }
};

}  // namespace opuntia
