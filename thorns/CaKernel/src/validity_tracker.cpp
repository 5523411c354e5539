#include "validity_tracker.hpp"

namespace opuntia::thorns::CaKernel {

validity validity_tracker::state(const buffer_key& buffer) const {
  const auto found = states_.find(buffer);
  return found == states_.end() ? validity::host : found->second;
}

validity_tracker::transfer validity_tracker::before_kernel_reads(const buffer_key& buffer) {
  if (state(buffer) != validity::host) return transfer::none;
  states_[buffer] = validity::both;
  return transfer::to_device;
}

void validity_tracker::after_kernel_writes(const buffer_key& buffer) {
  states_[buffer] = validity::device;
  ++writes_[buffer];
}

validity_tracker::transfer validity_tracker::before_host_reads(const buffer_key& buffer) {
  if (state(buffer) != validity::device) return transfer::none;
  states_[buffer] = validity::both;
  return transfer::to_host;
}

void validity_tracker::after_host_writes(const buffer_key& buffer) {
  states_[buffer] = validity::host;
  ++writes_[buffer];
}

std::size_t validity_tracker::writes(const buffer_key& buffer) const {
  const auto found = writes_.find(buffer);
  return found == writes_.end() ? 0 : found->second;
}

}  // namespace opuntia::thorns::CaKernel
