#include "halo_exchange.hpp"

#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

namespace opuntia::thorns::Driver {

halo_exchange::halo_exchange(const grid_layout& layout, const std::array<int, 6>& neighbours)
    : layout_(layout), neighbours_(neighbours) {
  const auto owned_points = layout_.interior();
  for (int d = 0; d < 3; ++d) {
    const int owned = owned_points.end[d] - owned_points.begin[d];
    if (exchanges() && owned < layout_.ghosts[d]) {
      // The driver refuses such a split with the parameters; this guards the exchange itself.
      throw std::logic_error(fmt::format("halo_exchange: {} points along axis {} are fewer than the {} ghost layers "
                                         "they must fill",
                                         owned, d, layout_.ghosts[d]));
    }
  }
}

bool halo_exchange::exchanges() const {
  for (int f = 0; f < 6; ++f) {
    if (!layout_.physical[f] && neighbours_[f] >= 0 && layout_.ghosts[f / 2] > 0) return true;
  }
  return false;
}

index_range halo_exchange::slab(int d, int first, int layers) const {
  index_range b{{0, 0, 0}, layout_.local};
  b.begin[d] = first;
  b.end[d] = first + layers;
  return b;
}

void halo_exchange::exchange(std::span<grid_variable* const> variables, halo_memory& memory, communicator& ranks) {
  // Message slots, reused by every direction: side s sends from slot 2s and receives into 2s + 1.
  const auto send_slot = [](int side) { return 2 * side; };
  const auto receive_slot = [](int side) { return 2 * side + 1; };
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point start) { return std::chrono::duration<double>(clock::now() - start).count(); };
  ++seconds_.exchanges;
  for (int d = 0; d < 3; ++d) {
    auto phase_start = clock::now();
    const int g = layout_.ghosts[d];
    const int n = layout_.local[d];
    struct side_plan {
      int side;
      int peer;
      std::vector<halo_piece> send, receive;
      std::size_t bytes = 0;
    };
    std::vector<side_plan> sides;
    for (int side = 0; side < 2; ++side) {
      const int face = 2 * d + side;
      if (g == 0 || layout_.physical[face] || neighbours_[face] < 0) continue;
      side_plan plan{side, neighbours_[face], {}, {}};
      const index_range send = side == 0 ? slab(d, g, g) : slab(d, n - 2 * g, g);
      const index_range receive = side == 0 ? slab(d, 0, g) : slab(d, n - g, g);
      for (auto* v : variables) {
        plan.send.push_back({v, layout_.local, send, plan.bytes});
        plan.receive.push_back({v, layout_.local, receive, plan.bytes});
        // Every piece starts 8-byte aligned: a device copies whole elements of any type.
        plan.bytes += (send.points() * v->element_size() + 7) / 8 * 8;
      }
      memory.pack(send_slot(side), plan.send);
      sides.push_back(std::move(plan));
    }
    if (sides.empty()) continue;
    // Messages only to other ranks; a rank that is its own neighbour reads its own packed slab.
    std::vector<message> sends, receives;
    std::vector<int> sent_slots, received_slots;
    for (const auto& s : sides) {
      if (s.peer == ranks.rank()) continue;
      const bool device_pointers = ranks.accepts_device_memory();
      // A message is tagged with the face of the receiver it fills: what leaves through this
      // rank's lower face fills the neighbour's upper ghosts.
      sends.push_back({s.peer, 2 * d + (1 - s.side), {memory.message(send_slot(s.side), s.bytes, device_pointers), s.bytes}});
      receives.push_back({s.peer, 2 * d + s.side, {memory.message(receive_slot(s.side), s.bytes, device_pointers), s.bytes}});
      sent_slots.push_back(send_slot(s.side));
      received_slots.push_back(receive_slot(s.side));
    }
    if (!sends.empty()) memory.packed(sent_slots);
    seconds_.pack += since(phase_start);
    phase_start = clock::now();
    if (!sends.empty()) {
      ranks.exchange(sends, receives);
      seconds_.messages += since(phase_start);
      phase_start = clock::now();
      memory.received(received_slots);
    }
    for (const auto& s : sides) {
      const bool from_itself = s.peer == ranks.rank();
      memory.unpack(from_itself ? send_slot(1 - s.side) : receive_slot(s.side), s.receive);
    }
    // The next direction packs what this one unpacked (edges, corners): the device orders them.
    seconds_.unpack += since(phase_start);
  }
  const auto last_unpacks = clock::now();
  memory.wait();
  seconds_.unpack += since(last_unpacks);
}

}  // namespace opuntia::thorns::Driver
