#pragma once
// What the CaKernel runtime needs from a backend. Each backend lives in backends/<name>/ with
// the same file names; the rest of the runtime talks to this interface only.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "box_reduction.hpp"
#include "flesh/runtime/kernel_runtime.hpp"

namespace opuntia::thorns::CaKernel {

/// The event of a backend whose kernels have run when their launch returns (OpenMP): done at
/// once, and stamped with the host's clock so that two of them time what ran between.
class host_clock_event final : public queue_event {
public:
  host_clock_event()
      : seconds_(std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count()) {}
  void wait() override {}
  bool done() override { return true; }
  double seconds() const { return seconds_; }

private:
  double seconds_;
};

/// A box of a device array copied to or from contiguous device memory, x fastest (the messages
/// of a ghost-zone exchange): `array` holds `extent` points of `element_size` bytes, x fastest;
/// the box's points go to (come from) `buffer` from `offset` bytes on, a multiple of 8.
struct box_copy {
  void* array = nullptr;   // device memory as allocate() returned it (a cl_mem on OpenCL)
  std::array<int, 3> extent{};
  index_range box;
  std::size_t element_size = 0;
  void* buffer = nullptr;  // the same kind of device memory
  std::size_t offset = 0;
};

class backend {
public:
  virtual ~backend() = default;
  virtual std::string name() const = 0;
  /// The device this process uses, for the start-up report: "cuda device 0: NVIDIA H100 80GB HBM3".
  virtual std::string device_description() const { return name(); }
  /// What tells this device apart from the others of its node (CUDA: the GPU's UUID, the same
  /// whatever CUDA_VISIBLE_DEVICES numbers it); empty where unknown.
  virtual std::string device_identity() const { return {}; }
  /// OpenMP: kernels read and write the host arrays themselves, so nothing is ever copied.
  virtual bool shares_host_memory() const = 0;
  virtual void* allocate(std::size_t bytes) = 0;
  /// allocate(), or null where the device has no room left (no error stays behind: a run that
  /// can do without the memory goes on).
  virtual void* try_allocate(std::size_t bytes) {
    try {
      return allocate(bytes);
    } catch (const std::exception&) {
      return nullptr;
    }
  }
  virtual void release(void* device) = 0;
  /// The queue launches (kernel_call::queue) and copies to the device go to, in order: the
  /// backend's CUDA stream or OpenCL command queue; null where a launch runs before it returns.
  virtual void* queue() const { return nullptr; }
  /// Enqueued on queue(): `host` must stay unchanged until an event recorded after it is done.
  virtual void copy_to_device(void* device, const void* host, std::size_t bytes) = 0;
  /// Returns once the copy has landed. It does not wait for kernels still running (devices copy
  /// on a queue of their own): the caller waits first for the kernel that wrote `device`.
  virtual void copy_to_host(void* host, const void* device, std::size_t bytes) = 0;
  /// Waits for everything enqueued.
  virtual void synchronize() = 0;
  // A device backend's second queue, for ghost-zone exchanges: packing, staging copies and
  // unpacking run there, so that they overlap a kernel's interior running on queue(). The
  // operations below are enqueued on the queue they are given (queue() or halo_queue()).
  /// The queue of ghost-zone exchanges; null where there is no device.
  virtual void* halo_queue() const { return nullptr; }
  /// An event on `queue` after everything enqueued on it so far.
  virtual queue_event_ptr record_on(void* queue) {
    (void)queue;
    return record();
  }
  /// Work enqueued on `queue` from now on waits for `event` (recorded on any queue).
  virtual void wait_on(void* queue, queue_event& event) {
    (void)queue;
    event.wait();
  }
  /// Copies `bytes` of device memory from `offset` bytes into it to host memory that stays valid
  /// until an event recorded after it is done.
  virtual void enqueue_copy_to_host(void* queue, void* host, const void* device, std::size_t bytes,
                                    std::size_t offset = 0) {
    (void)queue, (void)host, (void)device, (void)bytes, (void)offset;
    throw std::logic_error("enqueue_copy_to_host: this backend has no device memory");
  }
  /// Copies host memory, unchanged until an event recorded after it is done, to device memory.
  virtual void enqueue_copy_to_device(void* queue, void* device, const void* host, std::size_t bytes) {
    (void)queue, (void)device, (void)host, (void)bytes;
    throw std::logic_error("enqueue_copy_to_device: this backend has no device memory");
  }
  /// Copies `bytes` of device memory (from allocate()) to device memory.
  virtual void copy_on_device(void* queue, void* to, const void* from, std::size_t bytes) {
    (void)queue, (void)to, (void)from, (void)bytes;
    throw std::logic_error("copy_on_device: this backend has no device memory");
  }
  /// The queue snapshots go to the host on (kernel_runtime::copy_for_snapshot), so that those
  /// copies overlap the kernels on queue() and do not hold up the copies of copy_to_host(); null
  /// where there is no device.
  virtual void* snapshot_queue() const { return nullptr; }
  /// Copies boxes of device arrays into their buffers (`pack`) or back: kernels do it, so that a
  /// halo never leaves the device as a whole array.
  virtual void copy_boxes(void* queue, const std::vector<box_copy>& copies, bool pack) {
    (void)queue, (void)copies, (void)pack;
    throw std::logic_error("copy_boxes: this backend has no device memory");
  }
  /// What another process on this node needs to open `device` (memory from allocate()): a CUDA
  /// IPC handle; empty where the backend cannot share memory between processes.
  virtual std::vector<std::byte> share_with_processes(void* device) {
    (void)device;
    return {};
  }
  /// The memory another process shared (share_with_processes), or null where it cannot be opened.
  virtual void* open_from_process(const std::vector<std::byte>& handle) {
    (void)handle;
    return nullptr;
  }
  /// Never throws: called from destructors.
  virtual void close_from_process(void* device) noexcept { (void)device; }
  /// Whether a queue can write a 32-bit value into device memory (this process's or one opened
  /// from another) after the work before it, and wait until a value there is reached, without the
  /// host (CUDA's stream memory operations): signals between the queues of ranks on one node.
  virtual bool orders_by_values() const { return false; }
  /// Enqueues on `queue`: once the work before it is done and its writes are visible, writes
  /// `value` to the 32-bit word at `device`.
  virtual void write_value_on(void* queue, void* device, std::uint32_t value) {
    (void)queue, (void)device, (void)value;
    throw std::logic_error("write_value_on: this backend cannot order queues by values");
  }
  /// Enqueues on `queue`: what follows waits until the 32-bit word at `device` has reached
  /// `value`, compared cyclically ((int32)(word - value) >= 0).
  virtual void wait_value_on(void* queue, const void* device, std::uint32_t value) {
    (void)queue, (void)device, (void)value;
    throw std::logic_error("wait_value_on: this backend cannot order queues by values");
  }
  /// Enqueues on queue(), after what is before it, one pass of a reduction of a box of a device
  /// array, and returns its words once done (device backends only: box_reduction.hpp).
  virtual reduction_result reduce_box(const reduction_pass& pass) {
    (void)pass;
    throw std::logic_error("reduce_box: this backend has no device memory");
  }
  /// Whether device memory from allocate() is an address MPI can be given (CUDA), not a handle (OpenCL).
  virtual bool device_memory_is_addressable() const { return false; }
  /// Host memory that copies to and from the device reach fastest (page-locked where the
  /// backend can), for messages staged through the host; freed by release_host.
  virtual void* allocate_host(std::size_t bytes) { return ::operator new(bytes == 0 ? 1 : bytes); }
  /// Never throws: called from destructors.
  virtual void release_host(void* host) noexcept { ::operator delete(host); }
  /// An event on queue() after everything enqueued on it so far.
  virtual queue_event_ptr record() { return std::make_shared<host_clock_event>(); }
  /// An event on queue() after everything enqueued on it so far and perhaps after more: where an
  /// event costs time between kernels (CUDA, OpenCL), it is recorded only when first asked about (waited for, polled
  /// or waited on by another queue), after whatever was enqueued by then. For the waits whose
  /// exact place does not matter (a kernel's writes); never for timing.
  virtual queue_event_ptr record_when_asked() { return record(); }
  /// An event on queue() that starts a launch's timer (elapsed_seconds from it): where the
  /// backend can, its time is when the launch's first kernel starts, not when everything before
  /// it had finished, so that the host's work in between is not counted where the device waits
  /// for it (OpenCL: kernel events' start times).
  virtual queue_event_ptr record_launch_start() { return record(); }
  /// How many launches the routine timers count for one they time (kernel_runtime::timing_stride):
  /// every one on the host arrays, whose timer is the host's clock; on a device one in 17, since
  /// the events around a launch cost time there: the device 1.3-2.5 us a step between CUDA kernels
  /// of 14-30 us at 128^3, NVIDIA's OpenCL host 7.5 us a marker against 4.8 us a kernel (bench/
  /// RESULTS.md, 2026-11-27, measured with 16). A prime, so that the timed launches do not all
  /// fall on the same phase of a routine whose launches repeat a pattern (the rim-and-interior
  /// launch on every k-th SYNC of ghost zones k times the stencil's width).
  virtual int timing_stride() const { return shares_host_memory() ? 1 : 17; }
  /// Seconds between two events of record(), once both are done.
  virtual double elapsed_seconds(queue_event& from, queue_event& to) {
    return static_cast<host_clock_event&>(to).seconds() - static_cast<host_clock_event&>(from).seconds();
  }
  /// Makes copies of the `bytes` at `host` asynchronous and faster (page-locked), until unpin:
  /// the runtime pins each host array that gets a device copy. Does nothing where the backend
  /// cannot pin memory it did not allocate.
  virtual void pin(void* host, std::size_t bytes) {
    (void)host;
    (void)bytes;
  }
  /// Never throws: called from destructors.
  virtual void unpin(void* host) noexcept { (void)host; }
  /// Bytes of device memory free now; nullopt where unknown (or the host's, shares_host_memory).
  virtual std::optional<std::size_t> memory_available() const { return std::nullopt; }
  /// The largest single allocation the device allows; nullopt: no limit but the memory itself.
  virtual std::optional<std::size_t> largest_allocation() const { return std::nullopt; }
};

/// What backends read from CaKernel's parameters (param.ccl).
struct backend_options {
  std::string opencl_platform;  // CaKernel::opencl_platform: index or name substring, empty: any
  std::string opencl_device;    // CaKernel::opencl_device: index or name substring, empty: first GPU
  std::string cache_dir;        // CaKernel::cache_dir: programs built at run time; empty: the default
  std::string autotune = "no";  // CaKernel::autotune: no, cached, always (launch_tuner.hpp)
  double autotune_seconds = 0;  // CaKernel::autotune_seconds: how long a tile's search may take
  bool gpu_only = false;        // CaKernel::backend = "auto": a backend whose device is no GPU declines
  bool opencl_tensor_copies = true;  // CaKernel::opencl_tensor_copies: OpenCL's rings by tensor copies where the GPU has them
  std::string opencl_options;        // CaKernel::opencl_options: added to every OpenCL program's build options
};

/// A backend this build compiled: its name, a factory that returns nullptr when the machine has
/// no device for it (a CUDA build on a machine without a GPU), and the text `opuntia
/// --list-devices` prints for it.
struct backend_factory {
  const char* name;
  std::unique_ptr<backend> (*make)(const backend_options&);
  std::string (*describe_devices)(const backend_options&);
};

/// Every backend of this build, most preferred first for CaKernel::backend = "auto" (the list
/// is generated by the build from its backends: see thorns/CMakeLists.txt).
const std::vector<backend_factory>& compiled_backends();

std::unique_ptr<backend> make_openmp_backend(const backend_options& options = {});

}  // namespace opuntia::thorns::CaKernel
