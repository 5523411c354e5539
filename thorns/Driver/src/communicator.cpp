#include "communicator.hpp"

#include <stdexcept>

namespace opuntia::thorns::Driver {

void self_communicator::exchange(std::span<const message> sends, std::span<const message> receives) {
  // halo_exchange unpacks a rank's own slabs without a message: one rank alone never sends.
  if (!sends.empty() || !receives.empty()) {
    throw std::logic_error("self_communicator: a rank alone has no other rank to exchange messages with");
  }
}

}  // namespace opuntia::thorns::Driver
