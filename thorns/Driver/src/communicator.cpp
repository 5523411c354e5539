#include "communicator.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace opuntia::thorns::Driver {

void self_communicator::exchange(std::span<const message> sends, std::span<const message> receives) {
  for (const auto& receive : receives) {
    const auto send = std::find_if(sends.begin(), sends.end(), [&](const message& m) { return m.tag == receive.tag; });
    if (send == sends.end() || send->peer != 0 || receive.peer != 0 || send->bytes.size() != receive.bytes.size()) {
      throw std::logic_error(fmt::format("self_communicator: no matching send of {} bytes with tag {} for a receive",
                                         receive.bytes.size(), receive.tag));
    }
    std::memcpy(receive.bytes.data(), send->bytes.data(), receive.bytes.size());
  }
}

}  // namespace opuntia::thorns::Driver
