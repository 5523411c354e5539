// The snapshot memory of checkpoints written in the background: a buffer per array, allocated
// once and reused; the values of the moment it was taken; copies still landing waited for before
// a buffer is reused or freed.
#include "flesh/runtime/checkpoint_snapshot.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "test_runtime.hpp"

namespace {

using opuntia::checkpoint_contents;
using opuntia::checkpoint_snapshot;
using opuntia::grid_variable;
using opuntia::kernel_runtime;
using opuntia::queue_event;

/// A copy that lands only when it is waited for, as a device's copy lands when its event is done.
class landing_copy final : public queue_event {
public:
  landing_copy(const void* from, void* into, std::size_t bytes, int& waits)
      : from_(from), into_(into), bytes_(bytes), waits_(waits) {}
  void wait() override {
    if (landed_) return;
    ++waits_;
    std::memcpy(into_, from_, bytes_);
    landed_ = true;
  }
  bool done() override { return landed_; }

private:
  const void* from_;
  void* into_;
  std::size_t bytes_;
  int& waits_;
  bool landed_ = false;
};

/// Counts the snapshot memory it gives; `deferred`: its copies land when waited for.
class counting_runtime final : public opuntia::test_support::host_runtime {
public:
  void* allocate_host(std::size_t bytes) override {
    ++allocations;
    return kernel_runtime::allocate_host(bytes);
  }
  void release_host(void* host) noexcept override {
    ++releases;
    kernel_runtime::release_host(host);
  }
  snapshot_copy copy_for_snapshot(grid_variable& v, int level, const void* host, void* into) override {
    if (!deferred) return kernel_runtime::copy_for_snapshot(v, level, host, into);
    return {std::make_shared<landing_copy>(host, into, v.count * v.element_size(), waits),
            snapshot_route::device_snapshot};
  }
  /// With `stamped`, each array's stamp: its variable and level as the buffer, writes[i] as
  /// its writes (i: the array's place in `arrays`, below).
  std::optional<contents_stamp> stamp_of(grid_variable& v, int level) override {
    if (!stamped) return std::nullopt;
    const std::size_t i = v.name == "u" ? 0 : 1 + static_cast<std::size_t>(level);
    return contents_stamp{{v.name == "u" ? 0u : 1u, level}, writes[i]};
  }
  int allocations = 0, releases = 0, waits = 0;
  bool deferred = false;
  bool stamped = false;
  std::size_t writes[3] = {};
};

/// Two grid functions of 6 points, the second with two time levels: three arrays.
struct arrays {
  grid_variable u, v;
  std::vector<std::vector<CCTK_REAL>> values{{1, 2, 3, 4, 5, 6}, {10, 20, 30, 40, 50, 60}, {-1, -2, -3, -4, -5, -6}};
  std::vector<checkpoint_snapshot::source> sources;

  arrays() {
    u.name = "u";
    v.name = "v";
    u.count = v.count = 6;
    sources = {{&u, 0}, {&v, 0}, {&v, 1}};
  }
  /// A checkpoint of them, its values the arrays themselves (as simulation::checkpoint_arrays gives them).
  checkpoint_contents contents() {
    checkpoint_contents c;
    for (std::size_t i = 0; i < sources.size(); ++i) {
      c.arrays.push_back({"wave", sources[i].variable->name, sources[i].level, opuntia::data_type::cctk_real, true,
                          opuntia::ccl::vertex_centred, values[i].data()});
    }
    return c;
  }
};

const CCTK_REAL* real(const void* p) { return static_cast<const CCTK_REAL*>(p); }

/// A snapshot of the arrays `a`, its memory from `runtime`.
class snapshot_test : public ::testing::Test {
protected:
  struct checkpoint {
    checkpoint_contents contents;
    checkpoint_snapshot::taken taken;
  };
  /// The arrays as they are now, taken into the snapshot.
  checkpoint take() {
    checkpoint c{a.contents(), {}};
    c.taken = snapshot->take(c.contents, a.sources);
    return c;
  }
  std::size_t by_route(const checkpoint& c, kernel_runtime::snapshot_route route) const {
    return c.taken.by_route[static_cast<std::size_t>(route)];
  }

  counting_runtime runtime;
  arrays a;
  std::optional<checkpoint_snapshot> snapshot{std::in_place, runtime};  // destroyed before the runtime
};

TEST_F(snapshot_test, buffers_are_allocated_once_and_reused) {
  const auto first = take();
  EXPECT_EQ(runtime.allocations, 3);
  EXPECT_EQ(first.taken.bytes_allocated, 3 * 6 * sizeof(CCTK_REAL));
  EXPECT_EQ(snapshot->buffers(), 3u);
  EXPECT_EQ(snapshot->bytes(), 3 * 6 * sizeof(CCTK_REAL));
  const auto second = take();
  EXPECT_EQ(runtime.allocations, 3);  // no new memory for the second checkpoint
  EXPECT_EQ(second.taken.bytes_allocated, 0);
  EXPECT_EQ(runtime.releases, 0);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(first.contents.arrays[i].values, second.contents.arrays[i].values) << i;  // the same buffers
    EXPECT_NE(second.contents.arrays[i].values, a.values[i].data()) << i;               // not the run's arrays
  }
}

TEST_F(snapshot_test, reserve_allocates_before_the_first_checkpoint_and_copies_nothing) {
  const auto reserved = snapshot->reserve(a.sources);
  EXPECT_EQ(runtime.allocations, 3);
  EXPECT_EQ(reserved.bytes_allocated, 3 * 6 * sizeof(CCTK_REAL));
  EXPECT_TRUE(reserved.copies.empty());
  EXPECT_EQ(reserved.by_route, (std::array<std::size_t, 3>{}));
  const auto first = take();
  EXPECT_EQ(runtime.allocations, 3);  // the first checkpoint allocates nothing
  EXPECT_EQ(first.taken.bytes_allocated, 0);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(real(first.contents.arrays[i].values)[5], a.values[i][5]) << i;
}

TEST_F(snapshot_test, holds_the_values_of_the_moment_it_was_taken) {
  const auto c = take();
  EXPECT_TRUE(c.taken.copies.empty());  // host copies: landed on return
  EXPECT_EQ(by_route(c, kernel_runtime::snapshot_route::host_copy), 3u);
  for (auto& values : a.values) values.assign(6, 99.0);  // the run goes on
  EXPECT_EQ(real(c.contents.arrays[0].values)[5], 6);
  EXPECT_EQ(real(c.contents.arrays[1].values)[0], 10);
  EXPECT_EQ(real(c.contents.arrays[2].values)[2], -3);
}

TEST_F(snapshot_test, copies_still_landing_are_waited_for_before_a_buffer_is_reused) {
  runtime.deferred = true;
  const auto first = take();
  EXPECT_EQ(first.taken.copies.size(), 3u);  // for the writer to wait for
  EXPECT_EQ(by_route(first, kernel_runtime::snapshot_route::device_snapshot), 3u);
  EXPECT_EQ(runtime.waits, 0);  // the run did not wait for them
  take();
  EXPECT_EQ(runtime.waits, 3);  // the first take's copies, before their buffers got new ones
}

TEST_F(snapshot_test, destruction_waits_for_the_copies_then_frees_every_buffer) {
  runtime.deferred = true;
  take();
  snapshot.reset();
  EXPECT_EQ(runtime.waits, 3);
  EXPECT_EQ(runtime.releases, 3);
}

TEST_F(snapshot_test, an_array_of_another_size_gets_a_new_buffer) {
  take();
  a.u.count = 4;  // storage of another size: that array alone is allocated again
  const auto second = take();
  EXPECT_EQ(runtime.allocations, 4);
  EXPECT_EQ(runtime.releases, 1);
  EXPECT_EQ(second.taken.bytes_allocated, 4 * sizeof(CCTK_REAL));
  EXPECT_EQ(real(second.contents.arrays[0].values)[3], 4);
}

TEST_F(snapshot_test, copies_only_the_arrays_written_since_the_snapshot_before) {
  runtime.stamped = true;
  runtime.deferred = true;
  const auto first = take();
  EXPECT_EQ(first.taken.unchanged, 0u);
  EXPECT_EQ(first.taken.copies.size(), 3u);
  a.values[1].assign(6, 7.0);  // v's level 0 written
  ++runtime.writes[1];
  const auto second = take();
  EXPECT_EQ(runtime.waits, 3);  // the first take's copies landed before its buffers were read as whole
  EXPECT_EQ(second.taken.unchanged, 2u);
  EXPECT_EQ(second.taken.copies.size(), 1u);
  EXPECT_EQ(by_route(second, kernel_runtime::snapshot_route::device_snapshot), 1u);
  for (const auto& copy : second.taken.copies) copy->wait();
  EXPECT_EQ(real(second.contents.arrays[0].values)[5], 6);  // as the first snapshot copied it
  EXPECT_EQ(real(second.contents.arrays[1].values)[5], 7);  // copied again
  EXPECT_EQ(real(second.contents.arrays[2].values)[2], -3);
}

TEST_F(snapshot_test, a_buffer_allocated_again_holds_nothing_to_skip) {
  runtime.stamped = true;
  take();
  a.u.count = 4;  // u's buffer allocated again: copied though unwritten
  a.values[0].assign(6, 3.0);
  const auto second = take();
  EXPECT_EQ(second.taken.unchanged, 2u);
  EXPECT_EQ(by_route(second, kernel_runtime::snapshot_route::host_copy), 1u);
  EXPECT_EQ(real(second.contents.arrays[0].values)[3], 3);
}

TEST_F(snapshot_test, without_stamps_every_array_is_copied_every_time) {
  take();
  const auto second = take();
  EXPECT_EQ(second.taken.unchanged, 0u);
  EXPECT_EQ(by_route(second, kernel_runtime::snapshot_route::host_copy), 3u);
}

TEST_F(snapshot_test, needs_a_source_for_each_array) {
  auto contents = a.contents();
  a.sources.pop_back();
  EXPECT_THROW(snapshot->take(contents, a.sources), std::logic_error);
}

}  // namespace
