#pragma once
// The halo memory of a device backend (CUDA, OpenCL): ghost-zone layers are packed by kernels
// from the device copies into device buffers and unpacked from them; messages leave the device
// as they are when the communicator takes device memory (CUDA-aware MPI), else through host
// buffers (page-locked where the backend can) copied in order on the backend's queue.
#include <deque>
#include <functional>
#include <vector>

#include "backend.hpp"
#include "flesh/runtime/halo_memory.hpp"

namespace opuntia::thorns::CaKernel {

class device_halo_memory final : public halo_memory {
public:
  /// `device_array`: the device copy of time level 0 of a variable (which must be current).
  device_halo_memory(backend& device, std::function<void*(grid_variable&)> device_array);
  ~device_halo_memory() override;
  device_halo_memory(const device_halo_memory&) = delete;
  device_halo_memory& operator=(const device_halo_memory&) = delete;

  /// The exchange about to start waits for `after` (an event of the compute queue), or for
  /// everything enqueued there so far; it runs on the backend's halo queue.
  void start_after(queue_event* after);
  bool on_device() const override { return true; }
  std::byte* message(int slot, std::size_t bytes, bool device_pointers_accepted) override;
  void pack(int slot, const std::vector<halo_piece>& pieces) override;
  void unpack(int slot, const std::vector<halo_piece>& pieces) override;
  void packed(const std::vector<int>& slots) override;
  void received(const std::vector<int>& slots) override;
  void wait() override;
  copy_seconds device_copy_seconds() override;
  std::vector<std::byte> share(int slot, std::size_t bytes) override;
  bool open_shared(int slot, const std::vector<std::byte>& handle) override;
  void pack_to_shared(int slot, const std::vector<halo_piece>& pieces) override;
  bool signals() const override { return device_.orders_by_values(); }
  std::string device_identity() const override { return device_.device_identity(); }
  std::vector<std::byte> share_counters(int slot, int count) override;
  void signal(int slot, int index, std::uint32_t value) override;
  void wait_for(int slot, int index, std::uint32_t value) override;

private:
  struct buffer {
    void* device = nullptr;
    std::size_t device_bytes = 0;
    std::byte* host = nullptr;  // the staging copy, when messages go through the host
    std::size_t host_bytes = 0;
    std::size_t staged = 0;     // bytes of the current message staged through `host`; 0: none
    void* opened = nullptr;     // another process's buffer this one packs into (open_shared)
  };
  buffer& slot_buffer(int slot);
  /// Grows the slot's device buffer to at least `bytes` (waiting first for work that uses it).
  void reserve_device(buffer& b, std::size_t bytes);
  void copy(int slot, const std::vector<halo_piece>& pieces, bool pack);
  void enqueue_box_copies(void* message, const std::vector<halo_piece>& pieces, bool pack);
  /// Launches the box copies gathered since the last flush.
  void flush_copies();
  /// The device-time spans of device_copy_seconds(): `phase` starts (a pack or an unpack, or
  /// none at the end of an exchange), ending the span of the phase before it.
  enum class copy_phase { none, pack, unpack };
  void enter(copy_phase phase);
  /// Adds the spans that have ended on the device to `seconds_`; `wait`: all of them.
  void read_spans(bool wait);

  struct span {
    copy_phase phase;
    queue_event_ptr begin, end;
  };
  copy_phase phase_ = copy_phase::none;
  queue_event_ptr phase_begin_;
  std::deque<span> spans_;  // ended on the host, oldest first; maybe still queued on the device
  copy_seconds seconds_;

  backend& device_;
  void* queue_;  // the backend's halo queue
  std::function<void*(grid_variable&)> device_array_;
  std::vector<buffer> buffers_;
  std::vector<box_copy> copies_;  // gathered, not launched yet (reused between calls)
  bool copies_pack_ = true;       // whether they pack or unpack
};

}  // namespace opuntia::thorns::CaKernel
