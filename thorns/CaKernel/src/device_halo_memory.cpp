#include "device_halo_memory.hpp"

#include <algorithm>

namespace opuntia::thorns::CaKernel {

device_halo_memory::device_halo_memory(backend& device, std::function<void*(grid_variable&)> device_array)
    : device_(device), queue_(device.halo_queue()), device_array_(std::move(device_array)) {}

void device_halo_memory::start_after(queue_event* after) {
  if (after != nullptr) {
    device_.wait_on(queue_, *after);
  } else {
    device_.wait_on(queue_, *device_.record());
  }
}

device_halo_memory::~device_halo_memory() {
  try {
    device_.synchronize();  // no copy still reads or writes the buffers released here
  } catch (const std::exception&) {
    // a failed copy was reported where it was waited for; the buffers are released anyway
  }
  for (auto& b : buffers_) {
    if (b.opened != nullptr) device_.close_from_process(b.opened);
    if (b.device != nullptr) device_.release(b.device);
    if (b.host != nullptr) device_.release_host(b.host);
  }
}

device_halo_memory::buffer& device_halo_memory::slot_buffer(int slot) {
  if (static_cast<std::size_t>(slot) >= buffers_.size()) buffers_.resize(static_cast<std::size_t>(slot) + 1);
  return buffers_[static_cast<std::size_t>(slot)];
}

void device_halo_memory::reserve_device(buffer& b, std::size_t bytes) {
  if (b.device_bytes >= bytes) return;
  if (b.device != nullptr) {
    flush_copies();         // copies gathered for the old buffer go there first
    device_.synchronize();  // a pack or unpack may still use the old buffer
    device_.release(b.device);
    b.device = nullptr;
  }
  b.device = device_.allocate(bytes);
  b.device_bytes = bytes;
}

std::byte* device_halo_memory::message(int slot, std::size_t bytes, bool device_pointers_accepted) {
  auto& b = slot_buffer(slot);
  reserve_device(b, bytes);
  if (device_pointers_accepted && device_.device_memory_is_addressable()) {
    b.staged = 0;
    return static_cast<std::byte*>(b.device);
  }
  if (b.host_bytes < bytes) {
    if (b.host != nullptr) {
      device_.synchronize();  // a staging copy may still read or fill the old buffer
      device_.release_host(b.host);
      b.host = nullptr;
    }
    b.host = static_cast<std::byte*>(device_.allocate_host(bytes));
    b.host_bytes = bytes;
  }
  b.staged = bytes;
  return b.host;
}

void device_halo_memory::enqueue_box_copies(void* message, const std::vector<halo_piece>& pieces, bool pack) {
  // Gathered until the phase ends (flush_copies): the faces of a round go in one launch, not one each.
  for (const auto& piece : pieces) {
    copies_.push_back({device_array_(*piece.variable), piece.extent, piece.box, piece.variable->element_size(), message,
                       piece.offset});
  }
  copies_pack_ = pack;
}

void device_halo_memory::flush_copies() {
  if (copies_.empty()) return;
  device_.copy_boxes(queue_, copies_, copies_pack_);
  copies_.clear();
}

void device_halo_memory::copy(int slot, const std::vector<halo_piece>& pieces, bool pack) {
  auto& b = slot_buffer(slot);
  std::size_t end = 0;
  for (const auto& piece : pieces) end = std::max(end, piece.offset + piece.box.points() * piece.variable->element_size());
  reserve_device(b, end);
  enqueue_box_copies(b.device, pieces, pack);
}

std::vector<std::byte> device_halo_memory::share(int slot, std::size_t bytes) {
  auto& b = slot_buffer(slot);
  reserve_device(b, bytes);
  return device_.share_with_processes(b.device);
}

bool device_halo_memory::open_shared(int slot, const std::vector<std::byte>& handle) {
  auto& b = slot_buffer(slot);
  if (b.opened != nullptr) {
    flush_copies();
    device_.synchronize();  // a pack may still write into the buffer opened before
    device_.close_from_process(b.opened);
    b.opened = nullptr;
  }
  b.opened = device_.open_from_process(handle);
  return b.opened != nullptr;
}

void device_halo_memory::pack_to_shared(int slot, const std::vector<halo_piece>& pieces) {
  enter(copy_phase::pack);
  enqueue_box_copies(slot_buffer(slot).opened, pieces, true);
}

std::vector<std::byte> device_halo_memory::share_counters(int slot, int count) {
  if (!signals()) return {};
  auto& b = slot_buffer(slot);
  const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(std::uint32_t);
  if (b.device_bytes < bytes) {
    reserve_device(b, bytes);
    const std::vector<std::uint32_t> zeros(static_cast<std::size_t>(count), 0);
    device_.copy_to_device(b.device, zeros.data(), bytes);
    // The zeros must have landed before the handle goes out: the copy runs on the run's queue,
    // maybe behind a kernel's interior (overlap), and a neighbour that signals its first exchange
    // before it would have that signal erased, its wait never ending (8 ranks sharing an H100,
    // bench/RESULTS.md, 2026-12-07).
    device_.record()->wait();
  }
  return device_.share_with_processes(b.device);
}

void device_halo_memory::signal(int slot, int index, std::uint32_t value) {
  flush_copies();  // the packs or unpacks gathered so far come first
  device_.write_value_on(queue_, static_cast<std::uint32_t*>(slot_buffer(slot).opened) + index, value);
}

void device_halo_memory::wait_for(int slot, int index, std::uint32_t value) {
  flush_copies();
  device_.wait_value_on(queue_, static_cast<const std::uint32_t*>(slot_buffer(slot).device) + index, value);
}

void device_halo_memory::pack(int slot, const std::vector<halo_piece>& pieces) {
  enter(copy_phase::pack);
  copy(slot, pieces, true);
}

void device_halo_memory::unpack(int slot, const std::vector<halo_piece>& pieces) {
  enter(copy_phase::unpack);
  copy(slot, pieces, false);
}

void device_halo_memory::wait() {
  enter(copy_phase::none);
  // The run's queue waits for the unpacks on the device; the host goes on to launch what comes
  // next (waiting here left the GPU idle from the last unpack to the next launch). Whatever
  // reads the arrays next is ordered after an event of the run's queue (cakernel_runtime::
  // device_wrote), and the next exchange's packed() waits for this one's unpacks on this queue.
  device_.wait_on(device_.queue(), *device_.record_on(queue_));
  read_spans(false);
}

void device_halo_memory::enter(copy_phase phase) {
  if (phase == phase_) return;
  flush_copies();  // the phase before ends with its copies
  // Events on the halo queue: the first is reached when the queue has finished what came before
  // (for a pack, the kernel's rim it waits for), so a span holds the copies and not the waits.
  auto now = device_.record_on(queue_);
  if (phase_ != copy_phase::none) spans_.push_back({phase_, std::move(phase_begin_), now});
  phase_ = phase;
  phase_begin_ = phase == copy_phase::none ? nullptr : std::move(now);
  if (phase == copy_phase::pack) ++seconds_.rounds;
}

void device_halo_memory::read_spans(bool wait) {
  // Recorded in order on one queue, so they complete in order: the first pending one ends the look.
  while (!spans_.empty()) {
    auto& s = spans_.front();
    if (wait) {
      s.end->wait();
    } else if (!s.end->done()) {
      break;
    }
    (s.phase == copy_phase::pack ? seconds_.pack : seconds_.unpack) += device_.elapsed_seconds(*s.begin, *s.end);
    spans_.pop_front();
  }
}

halo_memory::copy_seconds device_halo_memory::device_copy_seconds() {
  enter(copy_phase::none);
  read_spans(true);
  return seconds_;
}

void device_halo_memory::packed(const std::vector<int>& slots) {
  flush_copies();
  for (const int slot : slots) {
    const auto& b = slot_buffer(slot);
    if (b.staged > 0) device_.enqueue_copy_to_host(queue_, b.host, b.device, b.staged);
  }
  // The communicator reads the messages now: the packs (and staging copies) must have finished.
  device_.record_on(queue_)->wait();
}

void device_halo_memory::received(const std::vector<int>& slots) {
  enter(copy_phase::unpack);  // the staging copies are the unpack's first part
  // Enqueued before the unpacks that read them. The host buffers stay untouched until the next
  // packed() (or a growth) has waited for the queue, so the copies may still run on return.
  for (const int slot : slots) {
    const auto& b = slot_buffer(slot);
    if (b.staged > 0) device_.enqueue_copy_to_device(queue_, b.device, b.host, b.staged);
  }
}

}  // namespace opuntia::thorns::CaKernel
