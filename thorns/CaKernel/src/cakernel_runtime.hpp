#pragma once
// The CaKernel runtime: picks a backend, keeps a device mirror of every grid function a kernel
// uses, applies the variables' INTENT around each launch and calls the generated launcher, which
// enqueues the kernel on the backend's queue. The host waits only where it reads: for the
// kernel that last wrote the buffer it reads, or for a copy still reading a buffer it will write.
#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "device_halo_memory.hpp"
#include "flesh/runtime/kernel_runtime.hpp"
#include "validity_tracker.hpp"
#include "launch_tuner.hpp"

namespace opuntia::thorns::CaKernel {

class cakernel_runtime final : public opuntia::kernel_runtime {
public:
  /// `tuner`: chooses a kernel's variant, where none is asked for, and its shape (tile, depth);
  /// null: the first variant with the template's own shape.
  cakernel_runtime(std::unique_ptr<backend> device, grid_function_store& store,
                   std::unique_ptr<launch_tuner> tuner = nullptr);
  ~cakernel_runtime() override;

  std::string backend_name() const override { return device_->name(); }
  std::string device_description() const override { return device_->device_description(); }
  void prepare(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
               const kernel_grid& grid, const std::string& variant, const launch_parts& parts = {}) override;
  launched_events launch(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
                         const kernel_grid& grid, const std::string& variant, const launch_parts& parts = {},
                         launch_timing timing = launch_timing::timed) override;
  void ensure_host(grid_variable& v, int level = 0) override;
  void host_wrote(grid_variable& v, int level = 0) override;
  halo_memory* device_halo(const std::vector<grid_variable*>& variables, queue_event* after = nullptr) override;
  halo_memory::copy_seconds halo_copy_seconds() override {
    return halo_ != nullptr ? halo_->device_copy_seconds() : halo_memory::copy_seconds{};
  }
  void device_wrote(grid_variable& v) override;
  std::optional<field_reduction> reduce_on_device(grid_variable& v, int level, const std::array<int, 3>& extent,
                                                  const index_range& box) override;
  void synchronize() override;
  std::vector<std::string> take_notes() override { return tuner_ ? tuner_->take_notes() : std::vector<std::string>{}; }
  void* allocate_host(std::size_t bytes) override { return device_->allocate_host(bytes); }
  void release_host(void* host) noexcept override { device_->release_host(host); }
  /// The buffer of (v, level) and the validity tracker's count of its writes; grid functions only.
  std::optional<contents_stamp> stamp_of(grid_variable& v, int level) override;
  /// On a device backend, from the device copy where it is current: into a device snapshot
  /// buffer of (v, level) on the run's queue, then to `into` in chunks on the backend's snapshot
  /// queue by whoever waits for it (snapshot_landing.hpp); where the device has no room for that
  /// buffer (snapshot_headroom), straight to `into` on the run's queue. The copies of the
  /// snapshot before must have landed (its events waited for).
  snapshot_copy copy_for_snapshot(grid_variable& v, int level, const void* host, void* into) override;
  queue_event_ptr record() override { return device_->record(); }
  queue_event_ptr record_launch_start() override { return device_->record_launch_start(); }
  double elapsed_seconds(queue_event& from, queue_event& to) override { return device_->elapsed_seconds(from, to); }
  int timing_stride() const override { return device_->timing_stride(); }
  bool mirrors_on_device() const override { return !device_->shares_host_memory(); }
  std::optional<std::size_t> device_memory_available() const override { return device_->memory_available(); }
  std::optional<std::size_t> largest_device_allocation() const override { return device_->largest_allocation(); }

  const validity_tracker& tracker() const { return tracker_; }
  /// Where the valid copy of time level `level` of `v` is.
  validity validity_of(grid_variable& v, int level = 0) { return tracker_.state(store_.key(v, level)); }

private:
  // Every device buffer mirrors one host buffer: a time level of a variable, or its scratch
  // buffer. Mirrors, validity and events are keyed by the buffer (store_.key), so when the flesh
  // rotates time levels or swaps a separateinout pair on the host, the device side follows with
  // no copy.
  struct mirror {
    void* device = nullptr;
    void* host = nullptr;  // pinned while the mirror lives
  };
  void* device_of(const buffer_key& buffer, void* host, std::size_t bytes);
  /// Makes the device copy of `buffer` current (copying only when it is stale); true when it copied.
  bool to_device(const buffer_key& buffer, void* host, std::size_t bytes);
  /// The grid scalars `kernel` takes as parameters (kernel_binding::scalars), looked up at its first launch.
  const std::vector<grid_variable*>& scalars_of(const thorn_binding& thorn, const kernel_binding& kernel);
  /// A device buffer that holds a snapshot of one time level of one variable while it goes to
  /// the host; allocated at the first snapshot and reused by the later ones.
  struct device_snapshot {
    void* device = nullptr;
    std::size_t bytes = 0;
    bool no_room = false;  // the device had none: snapshots of it go straight to the host
  };
  /// `s` holding `bytes`, or no_room.
  void reserve_snapshot(device_snapshot& s, std::size_t bytes);
  /// A launch's arrays, made current on the device: one per kernel variable in descriptor order,
  /// then the second buffer of each separateinout one.
  struct bound_arrays {
    std::vector<grid_variable*> variables;  // of the kernel variables
    std::vector<void*> arrays;
    std::vector<std::size_t> bytes;  // of each of `arrays`
    std::vector<buffer_key> copied;  // buffers whose host arrays the queue still reads after this returns
    std::vector<const void*> scalars;  // each grid scalar's current value (kernel_binding::scalars)
  };
  bound_arrays bind(const thorn_binding& thorn, const kernel_binding& kernel);
  /// The call that launches `kernel` with `bound`'s arrays.
  kernel_call call_of(const bound_arrays& bound, const void* thorn_parameters, const kernel_grid& grid) const;
  /// The tuner's choice of variant and shape (tile, depth) for `kernel` of `thorn` launched with `call` (whose arrays
  /// hold `bytes` each) on a grid of this size, or on a box of this size where the call has one, asked
  /// once a kernel and size; `variant` is CaKernel::variant's (empty: any).
  std::pair<std::vector<kernel_variant_binding>::const_iterator, launch_shape> tuned(
      const thorn_binding& thorn, const kernel_binding& kernel, const std::string& variant, const kernel_call& call,
      const std::vector<std::size_t>& bytes);
  /// What tuned_ keeps a choice under: the kernel, the grid's size, and the box's (zero without one).
  using tuned_key = std::tuple<const kernel_binding*, std::array<int, 3>, std::array<int, 3>>;
  static tuned_key key_of(const kernel_binding& kernel, const kernel_grid& grid, const std::optional<index_range>& box);

  std::unique_ptr<backend> device_;
  grid_function_store& store_;
  validity_tracker tracker_;
  std::map<buffer_key, mirror> mirrors_;                   // device backends only
  std::map<buffer_key, queue_event_ptr> last_writer_;      // the launch that last wrote the device copy
  std::map<buffer_key, queue_event_ptr> reading_host_;     // a copy to the device still reading the host array
  std::unique_ptr<device_halo_memory> halo_;                // made at the first SYNC on the device
  std::map<const kernel_binding*, std::vector<grid_variable*>> scalars_;  // scalars_of() of each kernel launched
  std::map<std::pair<std::size_t, int>, device_snapshot> snapshots_;      // by variable id and time level
  std::unique_ptr<launch_tuner> tuner_;
  // The tuner's choice for each kernel, grid size and box size launched so far: the variant and its shape.
  std::map<tuned_key, std::pair<std::vector<kernel_variant_binding>::const_iterator, launch_shape>> tuned_;
};

/// Device memory a snapshot buffer must leave free (for the exchanges' buffers, the reductions
/// and the device's own needs): one that would not is not made.
constexpr std::size_t snapshot_headroom = std::size_t{256} << 20;

/// `CaKernel::backend`: "auto" (a GPU when this build has a backend for one and it answers,
/// else OpenMP), "openmp", "cuda", "opencl". A backend this build lacks: std::invalid_argument
/// saying so. `options` carries the other CaKernel parameters (OpenCL platform and device, cache).
std::unique_ptr<opuntia::kernel_runtime> make_kernel_runtime(const std::string& backend_name, grid_function_store& store,
                                                             const backend_options& options = {});

/// CaKernel's parameters other than `backend`, as the backends read them.
backend_options backend_options_from(const parameter_source& parameters);

/// The devices of every backend of this build, as `opuntia --list-devices` prints them.
std::string describe_devices(const backend_options& options);

}  // namespace opuntia::thorns::CaKernel
