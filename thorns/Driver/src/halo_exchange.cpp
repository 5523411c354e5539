#include "halo_exchange.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <stdexcept>

#include <fmt/format.h>

namespace opuntia::thorns::Driver {

halo_exchange::halo_exchange(const grid_layout& layout, const std::array<int, 6>& neighbours, bool signals)
    : layout_(layout), neighbours_(neighbours), signals_(signals) {
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

index_range halo_exchange::slab(int d, int first, int layers, bool owned_across) const {
  index_range b = owned_across ? layout_.interior() : index_range{{0, 0, 0}, layout_.local};
  b.begin[d] = first;
  b.end[d] = first + layers;
  return b;
}

namespace {

// Message slots of a memory: face f sends from slot 2f and receives into 2f + 1; the buffers a
// neighbour on this node writes into directly are 12 + 2f + parity, and the counters it signals
// in 24 + f (each slot also holds the neighbour's buffer or counters that this rank opened).
int send_slot(int face) { return 2 * face; }
int receive_slot(int face) { return 2 * face + 1; }
int shared_slot(int face, int parity) { return 12 + 2 * face + parity; }
int counters_slot(int face) { return 24 + face; }
// The counter of a face: the number of the last exchange whose slab the neighbour has packed into
// this rank's buffer.
constexpr int arrived = 0, counters = 1;
/// The face across from `face` in its direction: what leaves through one fills the other's ghosts.
int opposite(int face) { return face ^ 1; }
// Tags of the messages that set up shared buffers, apart from the faces' tags (0..5).
constexpr int share_tag = 8, share_answer_tag = 16;

/// The setup message of shared buffers: this host's name (only a neighbour on the same host can
/// open them), its memory's device (halo_memory::device_identity), the handles of the two buffers
/// (exchanges alternate between them) and of the face's counters (none where the memory has no
/// signals); each handle a size and its bytes.
constexpr std::size_t host_name_bytes = 64, device_bytes = 64, handle_bytes = 128;
constexpr std::size_t handles_at = host_name_bytes + device_bytes;
constexpr std::size_t offer_bytes = handles_at + 3 * (sizeof(std::uint64_t) + handle_bytes);
/// The answer: whether the buffers were opened, and whether the counters were.
constexpr std::byte opened_buffers{1}, opened_counters{2};

std::string host_name() {
  char name[host_name_bytes] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace

void halo_exchange::share_buffers(std::vector<side_plan>& sides, halo_memory& memory, communicator& ranks) {
  // Both neighbours of a face reach it in the same exchange with the same message size, so they
  // set up (or grow) their shared buffers together: offers, then whether each could open the other's.
  std::vector<std::vector<std::byte>> offers, answers;
  std::vector<side_plan*> setting_up;
  // What this rank says of itself in each offer and compares with each neighbour's, as sent.
  const auto name = host_name();
  const auto device = memory.device_identity().substr(0, device_bytes - 1);
  for (auto& s : sides) {
    const int face = s.face;
    if (s.peer == ranks.rank() || shared_[face].bytes >= s.bytes) continue;
    std::vector<std::byte> offer(offer_bytes);
    std::memcpy(offer.data(), name.data(), std::min(name.size(), host_name_bytes - 1));
    std::memcpy(offer.data() + host_name_bytes, device.data(), device.size());
    bool offered = true;
    for (int part = 0; part < 3; ++part) {
      // The two buffers; then the counters, where this memory signals and both buffers were offered.
      const auto handle = part < 2 ? memory.share(shared_slot(face, part), s.bytes)
                          : signals_ && offered && memory.signals() ? memory.share_counters(counters_slot(face), counters)
                                                                    : std::vector<std::byte>{};
      const bool fits = !handle.empty() && handle.size() <= handle_bytes;
      if (part < 2) offered = offered && fits;
      const std::uint64_t size = (part < 2 ? offered : fits) ? handle.size() : 0;
      std::byte* at = offer.data() + handles_at + part * (sizeof size + handle_bytes);
      std::memcpy(at, &size, sizeof size);
      if (size > 0) std::memcpy(at + sizeof size, handle.data(), handle.size());
    }
    offers.push_back(std::move(offer));
    answers.emplace_back(offer_bytes);
    setting_up.push_back(&s);
  }
  if (setting_up.empty()) return;
  std::vector<message> sends, receives;
  for (std::size_t i = 0; i < setting_up.size(); ++i) {
    const auto& s = *setting_up[i];
    sends.push_back({s.peer, share_tag + opposite(s.face), offers[i]});
    receives.push_back({s.peer, share_tag + s.face, answers[i]});
  }
  ranks.exchange(sends, receives);
  // Each side opens what the neighbour offered, then both learn whether the other could.
  std::vector<std::array<std::byte, 1>> opened(setting_up.size()), peer_opened(setting_up.size());
  for (std::size_t i = 0; i < setting_up.size(); ++i) {
    const auto& offer = answers[i];
    const std::string peer_host(reinterpret_cast<const char*>(offer.data()));
    const std::string peer_device(reinterpret_cast<const char*>(offer.data() + host_name_bytes));
    // No signals between ranks on one device: ranks that share a GPU take turns on it, and a
    // queue waiting on a counter keeps the GPU from the neighbour's packs that would end the wait
    // (WaveToy 256^3 on one H100: 4.7 times slower steps on 2 ranks, bench/RESULTS.md,
    // 2026-12-07). Both sides see the same pair of devices, so both leave the counters closed.
    const bool signal_peer = device.empty() || peer_device != device;
    bool ok = peer_host == name, counted = false;
    for (int part = 0; part < 3 && ok && (part < 2 || signal_peer); ++part) {
      const std::byte* at = offer.data() + handles_at + part * (sizeof(std::uint64_t) + handle_bytes);
      std::uint64_t size = 0;
      std::memcpy(&size, at, sizeof size);
      const int slot = part < 2 ? shared_slot(setting_up[i]->face, part) : counters_slot(setting_up[i]->face);
      const bool opened_part =
          size > 0 && size <= handle_bytes &&
          memory.open_shared(slot, std::vector<std::byte>(at + sizeof size, at + sizeof size + size));
      if (part < 2) ok = opened_part;
      else counted = opened_part;
    }
    opened[i][0] = (ok ? opened_buffers : std::byte{0}) | (ok && counted ? opened_counters : std::byte{0});
  }
  sends.clear(), receives.clear();
  for (std::size_t i = 0; i < setting_up.size(); ++i) {
    const auto& s = *setting_up[i];
    sends.push_back({s.peer, share_answer_tag + opposite(s.face), opened[i]});
    receives.push_back({s.peer, share_answer_tag + s.face, peer_opened[i]});
  }
  ranks.exchange(sends, receives);
  for (std::size_t i = 0; i < setting_up.size(); ++i) {
    const int face = setting_up[i]->face;
    const std::byte both = opened[i][0] & peer_opened[i][0];
    // Signals need both sides' counters: each waits on its own, which the other writes.
    shared_[face] = {setting_up[i]->bytes, (both & opened_buffers) != std::byte{0},
                     (both & opened_counters) != std::byte{0}};
  }
}

std::vector<std::vector<halo_exchange::side_plan>> halo_exchange::plan(std::span<grid_variable* const> variables,
                                                                      halo_extent what) const {
  const bool faces_only = what == halo_extent::faces;
  std::vector<std::vector<side_plan>> rounds(faces_only ? 1 : 3);
  for (int face = 0; face < 6; ++face) {
    const int d = face / 2;
    const int g = layout_.ghosts[d];
    const int n = layout_.local[d];
    if (g == 0 || layout_.physical[face] || neighbours_[face] < 0) continue;
    side_plan s{face, neighbours_[face], {}, {}};
    const bool lower = face % 2 == 0;
    const index_range send = slab(d, lower ? g : n - 2 * g, g, faces_only);
    const index_range receive = slab(d, lower ? 0 : n - g, g, faces_only);
    for (auto* v : variables) {
      s.send.push_back({v, layout_.allocated(), layout_.allocated_box(send), s.bytes});
      s.receive.push_back({v, layout_.allocated(), layout_.allocated_box(receive), s.bytes});
      // Every piece starts 8-byte aligned: a device copies whole elements of any type.
      s.bytes += (send.points() * v->element_size() + 7) / 8 * 8;
    }
    rounds[faces_only ? 0 : d].push_back(std::move(s));
  }
  return rounds;
}

void halo_exchange::exchange(std::span<grid_variable* const> variables, halo_memory& memory, communicator& ranks,
                             halo_extent what) {
  using clock = std::chrono::steady_clock;
  const auto since = [](clock::time_point start) { return std::chrono::duration<double>(clock::now() - start).count(); };
  // Shared buffers alternate between exchanges: a neighbour writes this exchange's into one
  // while this rank may still be unpacking the previous one from the other. It cannot be two
  // exchanges behind: it sent its messages of the previous exchange only after its queue, and
  // with it that unpack, had finished; with signals, its queue signalled the previous exchange's
  // arrival only after that unpack (a queue runs in order, and a signal waits for the work before
  // it), and this rank's queue packs only after waiting for that signal.
  const int parity = static_cast<int>(seconds_.exchanges % 2);
  ++seconds_.exchanges;
  const auto number = static_cast<std::uint32_t>(seconds_.exchanges);  // counters wrap, compared cyclically
  for (auto& sides : plan(variables, what)) {
    auto phase_start = clock::now();
    if (sides.empty()) continue;
    // On a device, a neighbour on this node gets the slab packed straight into its memory and a
    // message of no bytes that says it is there, or a signal from this rank's queue (the memory
    // decides whether it can: CUDA IPC, CUDA's stream memory operations).
    if (memory.on_device()) share_buffers(sides, memory, ranks);
    // (Every rank takes the device path for the same SYNCs: the same schedule leaves the same copies current.)
    const auto direct = [&](const side_plan& s) {
      return memory.on_device() && s.peer != ranks.rank() && shared_[s.face].direct;
    };
    // A neighbour that signals: its queue waits for this rank's to have packed (the counter of
    // its face), and no message goes: the host waits neither for the packs nor for the neighbour.
    const auto signalled = [&](const side_plan& s) { return direct(s) && shared_[s.face].signals; };
    for (const auto& s : sides) {
      if (direct(s)) {
        memory.pack_to_shared(shared_slot(s.face, parity), s.send);
      } else {
        memory.pack(send_slot(s.face), s.send);
      }
    }
    for (const auto& s : sides) {
      if (signalled(s)) memory.signal(counters_slot(s.face), arrived, number);
    }
    // Messages only to other ranks that do not signal; a rank that is its own neighbour reads its
    // own packed slab.
    std::vector<message> sends, receives;
    std::vector<int> sent_slots, received_slots;
    for (const auto& s : sides) {
      if (s.peer == ranks.rank() || signalled(s)) continue;
      // A message is tagged with the face of the receiver it fills: what leaves through this
      // rank's lower face fills the neighbour's upper ghosts.
      const int sent_tag = opposite(s.face), received_tag = s.face;
      if (direct(s)) {
        sends.push_back({s.peer, sent_tag, {}});
        receives.push_back({s.peer, received_tag, {}});
        continue;
      }
      const bool device_pointers = ranks.accepts_device_memory();
      sends.push_back({s.peer, sent_tag, {memory.message(send_slot(s.face), s.bytes, device_pointers), s.bytes}});
      receives.push_back({s.peer, received_tag, {memory.message(receive_slot(s.face), s.bytes, device_pointers), s.bytes}});
      sent_slots.push_back(send_slot(s.face));
      received_slots.push_back(receive_slot(s.face));
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
      if (signalled(s)) memory.wait_for(counters_slot(s.face), arrived, number);
    }
    for (const auto& s : sides) {
      int from = receive_slot(s.face);
      if (s.peer == ranks.rank()) from = send_slot(opposite(s.face));
      if (direct(s)) from = shared_slot(s.face, parity);
      memory.unpack(from, s.receive);
    }
    // The next direction packs what this one unpacked (edges, corners): the device orders them.
    seconds_.unpack += since(phase_start);
  }
  const auto last_unpacks = clock::now();
  memory.wait();
  seconds_.unpack += since(last_unpacks);
}

}  // namespace opuntia::thorns::Driver
