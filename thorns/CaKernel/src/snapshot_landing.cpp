#include "snapshot_landing.hpp"

#include <algorithm>
#include <utility>

namespace opuntia::thorns::CaKernel {

snapshot_landing::snapshot_landing(backend& device, queue_event_ptr copied, void* host, const void* device_memory,
                                   std::size_t bytes, std::size_t chunk)
    : device_(device), copied_(std::move(copied)), host_(host), device_memory_(device_memory), bytes_(bytes),
      chunk_(std::max<std::size_t>(chunk, 1)) {}

void snapshot_landing::wait() {
  const std::lock_guard lock(making_);
  if (landed_) return;
  copied_->wait();  // also makes the device current for this thread (a CUDA event's wait does)
  void* const queue = device_.snapshot_queue();
  queue_event_ptr in_flight;  // the chunk before the one just enqueued
  for (std::size_t offset = 0; offset < bytes_; offset += chunk_) {
    device_.enqueue_copy_to_host(queue, static_cast<char*>(host_) + offset, device_memory_,
                                 std::min(chunk_, bytes_ - offset), offset);
    auto enqueued = device_.record_on(queue);
    if (in_flight) in_flight->wait();
    in_flight = std::move(enqueued);
  }
  if (in_flight) in_flight->wait();
  landed_ = true;
}

}  // namespace opuntia::thorns::CaKernel
