// The halo exchange of the Cartesian driver on several ranks in one process: each rank is a
// thread, and a communicator of the test's own carries their messages. Every ghost point, edges
// and corners included, must end up with the value of the point it images.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>

#include "thorns/Driver/src/cartesian_topology.hpp"
#include "thorns/Driver/src/halo_exchange.hpp"

namespace opuntia::thorns::Driver {
namespace {

/// Messages between threads: a send is left in a mailbox, a receive waits for its message.
class mailboxes {
public:
  explicit mailboxes(int ranks) : ranks_(ranks) {}
  int size() const { return ranks_; }
  void post(int from, const message& m) {
    std::lock_guard lock(mutex_);
    // In order, as MPI keeps the messages between two ranks with one tag.
    box_[{from, m.peer, m.tag}].emplace_back(m.bytes.begin(), m.bytes.end());
    arrived_.notify_all();
  }
  void take(int to, const message& m) {
    std::unique_lock lock(mutex_);
    const auto key = std::make_tuple(m.peer, to, m.tag);
    arrived_.wait(lock, [&] { return !box_[key].empty(); });
    const auto bytes = std::move(box_[key].front());
    box_[key].pop_front();
    ASSERT_EQ(bytes.size(), m.bytes.size());
    if (!bytes.empty()) std::memcpy(m.bytes.data(), bytes.data(), bytes.size());
  }

private:
  int ranks_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<std::tuple<int, int, int>, std::deque<std::vector<std::byte>>> box_;
};

class thread_communicator final : public communicator {
public:
  thread_communicator(mailboxes& boxes, int rank) : boxes_(boxes), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return boxes_.size(); }
  void exchange(std::span<const message> sends, std::span<const message> receives) override {
    for (const auto& m : sends) boxes_.post(rank_, m);
    for (const auto& m : receives) boxes_.take(rank_, m);
  }
  void sum(exact_sum&) override {}
  double minimum(double local) override { return local; }
  double maximum(double local) override { return local; }
  std::uint64_t wrapping_sum(std::uint64_t local) override { return local; }
  std::vector<std::string> gather(const std::string&) override {
    throw std::logic_error("thread_communicator: the halo exchange gathers nothing");
  }
  std::vector<std::string> all_gather(const std::string&) override {
    throw std::logic_error("thread_communicator: the halo exchange gathers nothing");
  }

private:
  mailboxes& boxes_;
  int rank_;
};

/// The host halo memory, posing as a device whose buffers ranks on the same host can share
/// (threads share one address space: a handle is the buffer's address). It follows the protocol
/// of the CUDA IPC path (thorns/CaKernel/src/device_halo_memory.cpp) without a GPU.
class sharing_memory final : public halo_memory {
public:
  explicit sharing_memory(std::function<void*(grid_variable&)> data_of) : inner_(std::move(data_of)) {}
  bool on_device() const override { return true; }
  std::byte* message(int slot, std::size_t bytes, bool device_pointers) override {
    return inner_.message(slot, bytes, device_pointers);
  }
  void pack(int slot, const std::vector<halo_piece>& pieces) override { inner_.pack(slot, pieces); }
  void unpack(int slot, const std::vector<halo_piece>& pieces) override { inner_.unpack(slot, pieces); }
  void packed(const std::vector<int>&) override {}
  void received(const std::vector<int>&) override {}
  void wait() override {}
  std::vector<std::byte> share(int slot, std::size_t bytes) override {
    ++shared;
    std::byte* buffer = inner_.message(slot, bytes, false);
    std::vector<std::byte> handle(sizeof buffer);
    std::memcpy(handle.data(), &buffer, sizeof buffer);
    return handle;
  }
  bool open_shared(int slot, const std::vector<std::byte>& handle) override {
    std::byte* buffer = nullptr;
    std::memcpy(&buffer, handle.data(), sizeof buffer);
    opened_[slot] = buffer;
    return true;
  }
  // Signals (where `signalling`): counters that a neighbour's thread stores into and this rank's
  // thread spins on, as one GPU queue waits on a value another writes.
  bool signals() const override { return signalling; }
  std::string device_identity() const override { return identity; }
  std::vector<std::byte> share_counters(int slot, int count) override {
    auto& own = counters_[slot];
    if (!own) own = std::make_unique<std::atomic<std::uint32_t>[]>(static_cast<std::size_t>(count));  // zeros
    std::byte* at = reinterpret_cast<std::byte*>(own.get());
    std::vector<std::byte> handle(sizeof at);
    std::memcpy(handle.data(), &at, sizeof at);
    return handle;
  }
  void signal(int slot, int index, std::uint32_t value) override {
    ++signalled;
    reinterpret_cast<std::atomic<std::uint32_t>*>(opened_.at(slot))[index].store(value, std::memory_order_release);
  }
  void wait_for(int slot, int index, std::uint32_t value) override {
    const auto& counter = counters_.at(slot)[index];
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (static_cast<std::int32_t>(counter.load(std::memory_order_acquire) - value) < 0) {
      if (std::chrono::steady_clock::now() > give_up) {
        ADD_FAILURE() << "counter " << index << " of slot " << slot << " never reached " << value;
        return;
      }
      std::this_thread::yield();
    }
  }
  void pack_to_shared(int slot, const std::vector<halo_piece>& pieces) override {
    ++packed_to_shared;
    constexpr int scratch = 99;
    std::size_t bytes = 0;
    for (const auto& p : pieces) bytes = std::max(bytes, p.offset + p.box.points() * p.variable->element_size());
    inner_.pack(scratch, pieces);
    std::memcpy(opened_.at(slot), inner_.message(scratch, bytes, false), bytes);
  }
  int shared = 0, packed_to_shared = 0, signalled = 0;
  bool signalling = false;
  std::string identity;

private:
  host_halo_memory inner_;
  std::map<int, std::byte*> opened_;
  std::map<int, std::unique_ptr<std::atomic<std::uint32_t>[]>> counters_;
};

/// A value that tells every point of the global grid apart; periodic indices wrap first.
double value_at(std::array<int, 3> global_index, const grid_layout& whole, const std::array<bool, 3>& periodic) {
  for (int d = 0; d < 3; ++d) {
    if (periodic[d]) {
      const int period = whole.global[d] - 1;
      global_index[d] = ((global_index[d] % period) + period) % period;
    }
  }
  return global_index[0] + 1000.0 * global_index[1] + 1e6 * global_index[2];
}

struct exchange_case {
  int ranks;
  std::array<int, 3> points;
  std::array<bool, 3> periodic;
  std::array<int, 3> ghosts;
  topology_kind kind = topology_kind::automatic;
  bool shared_buffers = false;  // ranks pack into each other's buffers (sharing_memory)
  int exchanges = 1;            // successive exchanges (shared buffers alternate between them)
  halo_extent extent = halo_extent::faces_edges_corners;
  int line_points = 0;  // rows padded for lines of this many elements (pad_rows); 0: unpadded
  bool odd_planes = false;  // planes padded to an odd number of rows (pad_planes)
  bool signals = false;     // neighbours that share buffers signal through counters (Driver::device_signals)
  int devices = 0;          // rank r's memory on device r % devices; 0: each rank on its own
};

/// Runs the exchange on every rank of `c` and returns the number of points checked; each
/// failure is reported with its rank and indices.
std::size_t check_exchange(const exchange_case& c) {
  grid_layout whole;
  whole.global = c.points;
  std::array<int, 3> owned{};
  for (int d = 0; d < 3; ++d) owned[d] = c.periodic[d] ? c.points[d] - 1 : c.points[d];
  const auto topology = choose_topology(c.ranks, owned, c.kind, {});
  mailboxes boxes(c.ranks);
  std::vector<std::size_t> checked(c.ranks);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < c.ranks; ++rank) {
    threads.emplace_back([&, rank] {
      auto block = block_of(rank, topology, whole, c.ghosts, c.periodic);
      if (c.line_points > 0) pad_rows(block.layout, c.ghosts[0], c.line_points);
      if (c.odd_planes) pad_planes(block.layout);
      const auto& g = block.layout;
      std::vector<double> field(g.elements(), std::nan(""));
      std::vector<CCTK_INT> tags(g.elements(), -1);  // a second field of another element size
      const auto owns = [&](int d, int i) {
        const int lower = g.physical[2 * d] ? 0 : g.ghosts[d];
        const int upper = g.physical[2 * d + 1] ? 0 : g.ghosts[d];
        return i >= lower && i < g.local[d] - upper;
      };
      for (int k = 0; k < g.local[2]; ++k)
        for (int j = 0; j < g.local[1]; ++j)
          for (int i = 0; i < g.local[0]; ++i)
            if (owns(0, i) && owns(1, j) && owns(2, k)) {
              field[g.index(i, j, k)] = value_at({i + g.offset[0], j + g.offset[1], k + g.offset[2]}, whole, c.periodic);
              tags[g.index(i, j, k)] = rank;
            }
      thread_communicator ranks(boxes, rank);
      halo_exchange halo(g, block.neighbours, c.signals);
      grid_variable field_variable, tags_variable;
      field_variable.data_type = data_type::cctk_real;
      tags_variable.data_type = data_type::cctk_int;
      host_halo_memory memory([&](grid_variable& v) -> void* {
        return &v == &field_variable ? static_cast<void*>(field.data()) : static_cast<void*>(tags.data());
      });
      grid_variable* const variables[] = {&tags_variable, &field_variable};  // 4-byte pieces first: offsets align
      const auto data_of = [&](grid_variable& v) -> void* {
        return &v == &field_variable ? static_cast<void*>(field.data()) : static_cast<void*>(tags.data());
      };
      sharing_memory shared_memory(data_of);
      shared_memory.signalling = c.signals;
      const auto device_of = [&](int r) { return c.devices > 0 ? r % c.devices : r; };
      shared_memory.identity = "GPU-" + std::to_string(device_of(rank));
      for (int e = 0; e < c.exchanges; ++e) {
        if (c.shared_buffers) {
          halo.exchange(variables, shared_memory, ranks, c.extent);
        } else {
          halo.exchange(variables, memory, ranks, c.extent);
        }
      }
      if (c.shared_buffers && c.ranks > 1) {
        EXPECT_GT(shared_memory.packed_to_shared, 0) << "rank " << rank;
        // With signals no message of no bytes goes: each shared face signals once a round, unless
        // its neighbour's memory is on the same device (then a message, as without signals). Every
        // face packs as often, so the faces to other devices make that share of the packs.
        if (c.signals) {
          int shared_faces = 0, faces_to_other_devices = 0;
          for (const int peer : block.neighbours) {
            if (peer < 0 || peer == rank) continue;
            ++shared_faces;
            faces_to_other_devices += device_of(peer) != device_of(rank);
          }
          if (c.devices == 0) EXPECT_EQ(shared_memory.signalled, shared_memory.packed_to_shared) << "rank " << rank;
          if (c.devices == 1) EXPECT_EQ(shared_memory.signalled, 0) << "rank " << rank;
          EXPECT_EQ(shared_memory.signalled * shared_faces, shared_memory.packed_to_shared * faces_to_other_devices)
              << "rank " << rank << ": " << faces_to_other_devices << " of " << shared_faces << " faces to other devices";
        }
      }
      for (int k = 0; k < g.local[2]; ++k)
        for (int j = 0; j < g.local[1]; ++j)
          for (int i = 0; i < g.local[0]; ++i) {
            // Faces only: a ghost point of an edge or a corner (a ghost along two axes or three) is left alone.
            const int ghost_axes = !owns(0, i) + !owns(1, j) + !owns(2, k);
            if (c.extent == halo_extent::faces && ghost_axes > 1) {
              EXPECT_TRUE(std::isnan(field[g.index(i, j, k)])) << "rank " << rank << " point " << i << "," << j << "," << k;
              EXPECT_EQ(tags[g.index(i, j, k)], -1) << "rank " << rank << " point " << i << "," << j << "," << k;
              continue;
            }
            const double expected = value_at({i + g.offset[0], j + g.offset[1], k + g.offset[2]}, whole, c.periodic);
            EXPECT_EQ(field[g.index(i, j, k)], expected) << "rank " << rank << " point " << i << "," << j << "," << k;
            EXPECT_GE(tags[g.index(i, j, k)], 0) << "rank " << rank << " point " << i << "," << j << "," << k;
            ++checked[rank];
          }
      // The padding of the rows and planes is never written.
      for (int k = 0; k < g.local[2]; ++k)
        for (int j = 0; j < g.rows_per_plane(); ++j)
          for (int i = -g.lead; i < g.row_pitch() - g.lead; ++i)
            if (i < 0 || i >= g.local[0] || j >= g.local[1]) {
              EXPECT_TRUE(std::isnan(field[g.index(i, j, k)])) << "rank " << rank << " padding " << i << "," << j << "," << k;
              EXPECT_EQ(tags[g.index(i, j, k)], -1) << "rank " << rank << " padding " << i << "," << j << "," << k;
            }
    });
  }
  for (auto& t : threads) t.join();
  std::size_t total = 0;
  for (const auto n : checked) total += n;
  return total;
}

TEST(halo_exchange, one_rank_periodic_images_itself_edges_and_corners_included) {
  EXPECT_EQ(check_exchange({1, {7, 6, 5}, {true, true, true}, {2, 1, 2}}), (6u + 4) * (5 + 2) * (4 + 4));
}

TEST(halo_exchange, faces_only_fill_the_faces_in_one_round_and_leave_edges_and_corners) {
  for (const auto& c : std::vector<exchange_case>{
           {1, {7, 6, 5}, {true, true, true}, {2, 1, 2}, topology_kind::automatic, false, 1, halo_extent::faces},
           {4, {10, 10, 10}, {true, true, true}, {1, 1, 1}, topology_kind::automatic, false, 1, halo_extent::faces},
           {8, {13, 12, 11}, {true, false, true}, {2, 1, 3}, topology_kind::automatic, false, 1, halo_extent::faces},
           {3, {11, 9, 7}, {false, true, false}, {2, 2, 2}, topology_kind::automatic, true, 3, halo_extent::faces},
       }) {
    SCOPED_TRACE(::testing::Message() << c.ranks << " ranks on " << c.points[0] << "x" << c.points[1] << "x"
                                      << c.points[2]);
    EXPECT_GT(check_exchange(c), 0u);
  }
}

TEST(halo_exchange, one_rank_without_periodic_directions_moves_nothing) {
  grid_layout whole;
  whole.global = {5, 5, 5};
  const auto block = block_of(0, {1, 1, 1}, whole, {1, 1, 1}, {false, false, false});
  EXPECT_EQ(block.layout.local, (std::array<int, 3>{5, 5, 5}));
  EXPECT_EQ(block.layout.ghosts, (std::array<int, 3>{0, 0, 0}));
  EXPECT_FALSE(halo_exchange(block.layout, block.neighbours).exchanges());
}

TEST(halo_exchange, several_ranks_fill_every_ghost) {
  for (const auto& c : std::vector<exchange_case>{
           {2, {9, 8, 7}, {false, false, false}, {1, 1, 1}},
           {3, {11, 9, 7}, {false, true, false}, {2, 2, 2}},
           {4, {10, 10, 10}, {true, true, true}, {1, 1, 1}},
           {8, {13, 12, 11}, {true, false, true}, {2, 1, 3}},
           {6, {16, 9, 9}, {false, false, false}, {3, 3, 3}, topology_kind::no_x_split},
           {5, {7, 7, 21}, {false, false, true}, {2, 2, 2}},
       }) {
    SCOPED_TRACE(::testing::Message() << c.ranks << " ranks on " << c.points[0] << "x" << c.points[1] << "x"
                                      << c.points[2]);
    EXPECT_GT(check_exchange(c), 0u);
  }
}

TEST(halo_exchange, padded_rows_fill_every_ghost) {
  for (const auto& c : std::vector<exchange_case>{
           {2, {9, 8, 7}, {false, false, false}, {1, 1, 1}, topology_kind::automatic, false, 1,
            halo_extent::faces_edges_corners, 16},
           {3, {11, 9, 7}, {true, true, false}, {2, 2, 2}, topology_kind::automatic, true, 2,
            halo_extent::faces_edges_corners, 8},
           {8, {13, 12, 11}, {true, false, true}, {2, 1, 3}, topology_kind::automatic, false, 1, halo_extent::faces, 16},
           {1, {7, 6, 5}, {true, true, true}, {2, 1, 2}, topology_kind::automatic, false, 1,
            halo_extent::faces_edges_corners, 32},
           // Planes of an odd number of rows too: 8 + 2 rows on 1 rank, and the ranks' even ones.
           {1, {7, 9, 5}, {true, true, true}, {2, 1, 2}, topology_kind::automatic, false, 1,
            halo_extent::faces_edges_corners, 16, true},
           {4, {10, 10, 10}, {true, true, true}, {1, 1, 1}, topology_kind::automatic, true, 2, halo_extent::faces, 8,
            true},
           {6, {16, 9, 9}, {false, false, false}, {3, 3, 3}, topology_kind::no_x_split, false, 1,
            halo_extent::faces_edges_corners, 0, true},
       }) {
    SCOPED_TRACE(::testing::Message() << c.ranks << " ranks on " << c.points[0] << "x" << c.points[1] << "x"
                                      << c.points[2] << ", lines of " << c.line_points
                                      << (c.odd_planes ? ", odd planes" : ""));
    EXPECT_GT(check_exchange(c), 0u);
  }
}

TEST(halo_exchange, padded_rows_start_their_first_point_past_the_ghosts_on_a_line) {
  grid_layout whole;
  whole.global = {258, 5, 5};
  auto block = block_of(0, {1, 1, 1}, whole, {1, 1, 1}, {false, false, false});
  pad_rows(block.layout, 1, 16);
  EXPECT_EQ(block.layout.lead, 15);
  EXPECT_EQ(block.layout.pitch, 288);  // 15 + 258 points in whole lines of 16
  EXPECT_EQ(block.layout.index(1, 0, 0) % 16, 0u);
  EXPECT_EQ(block.layout.index(1, 3, 2) % 16, 0u);
  EXPECT_EQ(block.layout.elements(), 288u * 5 * 5);
  EXPECT_EQ(block.layout.allocated_box({{0, 0, 0}, {258, 5, 5}}).begin[0], 15);
  pad_rows(block.layout, 4, 16);
  EXPECT_EQ(block.layout.lead, 12);
  EXPECT_EQ(block.layout.pitch, 272);
  pad_rows(block.layout, 0, 1);  // a line of one point: nothing padded
  EXPECT_EQ(block.layout.lead, 0);
  EXPECT_EQ(block.layout.row_pitch(), 258);
}

TEST(halo_exchange, padded_planes_take_an_odd_number_of_rows) {
  grid_layout whole;
  whole.global = {256, 256, 256};
  auto block = block_of(0, {1, 1, 1}, whole, {4, 4, 4}, {false, false, false});
  pad_rows(block.layout, 4, 16);
  pad_planes(block.layout);
  EXPECT_EQ(block.layout.rows_per_plane(), 257);
  EXPECT_EQ(block.layout.allocated(), (std::array<int, 3>{272, 257, 256}));
  EXPECT_EQ(block.layout.elements(), 272u * 257 * 256);
  const std::size_t plane = block.layout.index(0, 0, 1) - block.layout.index(0, 0, 0);
  EXPECT_EQ(plane, 272u * 257);
  // A plane of 272 doubles x 257 rows is not a multiple of 4 KiB (of 256 rows it is: 136 x 4 KiB):
  // the planes spread over the L1 sets.
  EXPECT_NE(plane * sizeof(double) % 4096, 0u);
  EXPECT_EQ(272u * 256 * sizeof(double) % 4096, 0u);
  whole.global = {256, 255, 256};  // an odd count stays
  block = block_of(0, {1, 1, 1}, whole, {4, 4, 4}, {false, false, false});
  pad_planes(block.layout);
  EXPECT_EQ(block.layout.plane_rows, 0);
  EXPECT_EQ(block.layout.rows_per_plane(), 255);
  whole.global = {256, 256, 1};  // one plane: nothing to spread
  block = block_of(0, {1, 1, 1}, whole, {4, 4, 0}, {false, false, false});
  pad_planes(block.layout);
  EXPECT_EQ(block.layout.rows_per_plane(), 256);
}

TEST(halo_exchange, neighbours_that_share_buffers_pack_into_each_other_alternating_between_two) {
  for (const auto& c : std::vector<exchange_case>{
           {2, {9, 8, 7}, {false, false, false}, {1, 1, 1}, topology_kind::automatic, true, 3},
           {4, {10, 10, 10}, {true, true, true}, {2, 2, 2}, topology_kind::automatic, true, 3},
           {3, {11, 9, 7}, {false, true, false}, {2, 2, 2}, topology_kind::no_x_split, true, 2},
           {1, {7, 6, 5}, {true, true, true}, {2, 1, 2}, topology_kind::automatic, true, 2},
       }) {
    SCOPED_TRACE(::testing::Message() << c.ranks << " ranks on " << c.points[0] << "x" << c.points[1] << "x"
                                      << c.points[2]);
    EXPECT_GT(check_exchange(c), 0u);
  }
}

TEST(halo_exchange, neighbours_that_share_buffers_signal_through_counters_without_messages) {
  // As above, each exchange's arrival signalled by the packing rank and waited for by the
  // unpacking one; many exchanges, so that a rank that ran ahead would pack into the buffer its
  // neighbour still unpacks.
  for (auto c : std::vector<exchange_case>{
           {2, {9, 8, 7}, {false, false, false}, {1, 1, 1}, topology_kind::automatic, true, 12},
           {4, {10, 10, 10}, {true, true, true}, {2, 2, 2}, topology_kind::automatic, true, 7},
           {3, {11, 9, 7}, {false, true, false}, {2, 2, 2}, topology_kind::no_x_split, true, 5},
           {2, {12, 9, 8}, {false, false, false}, {1, 1, 1}, topology_kind::automatic, true, 9, halo_extent::faces},
       }) {
    c.signals = true;
    SCOPED_TRACE(::testing::Message() << c.ranks << " ranks on " << c.points[0] << "x" << c.points[1] << "x"
                                      << c.points[2]);
    EXPECT_GT(check_exchange(c), 0u);
  }
}

TEST(halo_exchange, neighbours_on_one_device_exchange_by_messages_even_with_signals) {
  // Ranks that share a GPU take turns on it: a queue waiting on a counter would keep the GPU from
  // the packs that end the wait. Every rank on one device: no signals at all; four ranks on two
  // devices (round robin): signals only across devices; the fields are right either way.
  for (const int devices : {1, 2}) {
    for (auto c : std::vector<exchange_case>{
             {2, {9, 8, 7}, {false, false, false}, {1, 1, 1}, topology_kind::automatic, true, 6},
             {4, {10, 10, 10}, {true, true, true}, {2, 2, 2}, topology_kind::automatic, true, 5},
         }) {
      c.signals = true;
      c.devices = devices;
      SCOPED_TRACE(::testing::Message() << c.ranks << " ranks on " << devices << " devices");
      EXPECT_GT(check_exchange(c), 0u);
    }
  }
}

TEST(halo_exchange, blocks_cover_the_grid_with_their_owned_points) {
  grid_layout whole;
  whole.global = {10, 7, 6};
  const std::array<bool, 3> periodic{true, false, false};
  const auto topology = choose_topology(6, {9, 7, 6}, topology_kind::automatic, {});
  long owned_points = 0;
  for (int rank = 0; rank < 6; ++rank) {
    const auto b = block_of(rank, topology, whole, {1, 1, 1}, periodic);
    long points = 1;
    for (int d = 0; d < 3; ++d) {
      points *= b.layout.local[d] - (b.layout.physical[2 * d] ? 0 : 1) - (b.layout.physical[2 * d + 1] ? 0 : 1);
    }
    owned_points += points;
  }
  EXPECT_EQ(owned_points, 9L * 7 * 6);
}

}  // namespace
}  // namespace opuntia::thorns::Driver
