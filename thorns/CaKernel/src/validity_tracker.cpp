#include "validity_tracker.hpp"

namespace opuntia::thorns::CaKernel {

validity validity_tracker::state(const std::string& variable) const {
  const auto found = states_.find(variable);
  return found == states_.end() ? validity::host : found->second;
}

validity_tracker::transfer validity_tracker::before_kernel_reads(const std::string& variable) {
  if (state(variable) != validity::host) return transfer::none;
  states_[variable] = validity::both;
  return transfer::to_device;
}

void validity_tracker::after_kernel_writes(const std::string& variable) { states_[variable] = validity::device; }

validity_tracker::transfer validity_tracker::before_host_reads(const std::string& variable) {
  if (state(variable) != validity::device) return transfer::none;
  states_[variable] = validity::both;
  return transfer::to_host;
}

void validity_tracker::after_host_writes(const std::string& variable) { states_[variable] = validity::host; }

}  // namespace opuntia::thorns::CaKernel
