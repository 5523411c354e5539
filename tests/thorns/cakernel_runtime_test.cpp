// The CaKernel runtime without generated code: a hand-written launcher, a fake device backend
// that counts every copy, and the real OpenMP backend.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flesh/grid/grid_functions.hpp"
#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"
#include "flesh/runtime/halo_memory.hpp"
#include "thorns/CaKernel/src/backend.hpp"
#include "thorns/CaKernel/src/cakernel_runtime.hpp"
#include "thorns/CaKernel/src/snapshot_landing.hpp"
#include "thorns/CaKernel/src/validity_tracker.hpp"

namespace {

using opuntia::grid_function_store;
using opuntia::grid_variable;
using opuntia::kernel_binding;
using opuntia::kernel_call;
using opuntia::thorn_binding;
using opuntia::halo_piece;
using opuntia::launch_timing;
using opuntia::launched_events;
using opuntia::queue_event;
using opuntia::queue_event_ptr;
using opuntia::thorns::CaKernel::box_copy;
using opuntia::thorns::CaKernel::backend;
using opuntia::thorns::CaKernel::cakernel_runtime;
using opuntia::thorns::CaKernel::make_kernel_runtime;
using opuntia::thorns::CaKernel::make_openmp_backend;
using opuntia::thorns::CaKernel::validity;
using opuntia::thorns::CaKernel::validity_tracker;
using transfer = validity_tracker::transfer;

// --- validity_tracker ----------------------------------------------------------------------

// Buffers of three variables, as the grid function store names them: variable id, buffer number.
const opuntia::buffer_key u{0, 0}, wave_u{1, 0}, wave_v{2, 0};

TEST(validity_tracker, unseen_variable_is_valid_on_the_host) {
  validity_tracker t;
  EXPECT_EQ(t.state(wave_u), validity::host);
}

TEST(validity_tracker, kernel_read_of_host_data_transfers_to_device_once) {
  validity_tracker t;
  EXPECT_EQ(t.before_kernel_reads(u), transfer::to_device);
  EXPECT_EQ(t.state(u), validity::both);
  EXPECT_EQ(t.before_kernel_reads(u), transfer::none);
  EXPECT_EQ(t.before_kernel_reads(u), transfer::none);
  EXPECT_EQ(t.state(u), validity::both);
}

TEST(validity_tracker, kernel_write_makes_the_device_copy_the_only_valid_one) {
  validity_tracker t;
  t.after_kernel_writes(u);
  EXPECT_EQ(t.state(u), validity::device);
  EXPECT_EQ(t.before_kernel_reads(u), transfer::none);  // already on the device
  EXPECT_EQ(t.state(u), validity::device);
}

TEST(validity_tracker, host_read_after_kernel_write_transfers_back_once) {
  validity_tracker t;
  EXPECT_EQ(t.before_kernel_reads(u), transfer::to_device);
  t.after_kernel_writes(u);
  EXPECT_EQ(t.before_host_reads(u), transfer::to_host);
  EXPECT_EQ(t.state(u), validity::both);
  EXPECT_EQ(t.before_host_reads(u), transfer::none);
  EXPECT_EQ(t.before_kernel_reads(u), transfer::none);  // both copies are current
}

TEST(validity_tracker, host_reads_of_host_data_move_nothing) {
  validity_tracker t;
  EXPECT_EQ(t.before_host_reads(u), transfer::none);
  EXPECT_EQ(t.state(u), validity::host);
  EXPECT_EQ(t.before_kernel_reads(u), transfer::to_device);
  EXPECT_EQ(t.before_host_reads(u), transfer::none);  // both
}

TEST(validity_tracker, host_write_makes_the_host_copy_the_only_valid_one) {
  validity_tracker t;
  EXPECT_EQ(t.before_kernel_reads(u), transfer::to_device);
  t.after_host_writes(u);
  EXPECT_EQ(t.state(u), validity::host);
  EXPECT_EQ(t.before_kernel_reads(u), transfer::to_device);
  // A host write over device-only data: the host copy wins, nothing comes back.
  t.after_kernel_writes(u);
  t.after_host_writes(u);
  EXPECT_EQ(t.state(u), validity::host);
  EXPECT_EQ(t.before_host_reads(u), transfer::none);
}

TEST(validity_tracker, repeated_writes_move_nothing) {
  validity_tracker t;
  t.after_kernel_writes(u);
  t.after_kernel_writes(u);
  EXPECT_EQ(t.state(u), validity::device);
  EXPECT_EQ(t.before_host_reads(u), transfer::to_host);
  t.after_host_writes(u);
  t.after_host_writes(u);
  EXPECT_EQ(t.state(u), validity::host);
  EXPECT_EQ(t.before_host_reads(u), transfer::none);
}

TEST(validity_tracker, variables_are_tracked_independently) {
  validity_tracker t;
  t.after_kernel_writes(wave_u);
  EXPECT_EQ(t.state(wave_u), validity::device);
  EXPECT_EQ(t.state(wave_v), validity::host);
  EXPECT_EQ(t.before_kernel_reads(wave_v), transfer::to_device);
  EXPECT_EQ(t.before_host_reads(wave_u), transfer::to_host);
  EXPECT_EQ(t.state(wave_v), validity::both);
}

// --- a fake device backend and a scripted launcher -----------------------------------------

/// What the fake device saw; shared so a test can read it after the runtime is gone.
struct device_log {
  std::map<void*, std::size_t> live;  // device allocation -> bytes
  int allocations = 0, releases = 0, to_device = 0, to_host = 0, synchronizes = 0;
  int box_copies = 0, staged_to_host = 0;  // points copied by copy_boxes; copies enqueue_copy_to_host made
  int on_device_copies = 0, snapshot_to_host = 0;  // copy_on_device; enqueue_copy_to_host on snapshot_queue()
  int snapshot_queue = 0;                          // its address is the fake's snapshot queue
  int recorded = 0, recorded_when_asked = 0;       // record() and record_when_asked() calls
  int asked = 0;                                   // questions asked of record_when_asked()'s events
  std::optional<std::size_t> memory_available;     // what the device says it has free
  std::vector<void*> to_device_targets;
  std::vector<void*> to_host_targets;
};

class fake_device final : public backend {
public:
  explicit fake_device(std::shared_ptr<device_log> log, std::string name = "fakegpu")
      : log_(std::move(log)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  bool shares_host_memory() const override { return false; }
  void* allocate(std::size_t bytes) override {
    void* p = new unsigned char[bytes];
    std::memset(p, 0xAB, bytes);  // uninitialised device memory: garbage
    log_->live[p] = bytes;
    ++log_->allocations;
    return p;
  }
  void release(void* device) override {
    const auto found = log_->live.find(device);
    ASSERT_NE(found, log_->live.end()) << "release of memory the device never allocated";
    log_->live.erase(found);
    ++log_->releases;
    delete[] static_cast<unsigned char*>(device);
  }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    check_device(device, bytes);
    ++log_->to_device;
    log_->to_device_targets.push_back(device);
    std::memcpy(device, host, bytes);
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    check_device(const_cast<void*>(device), bytes);
    ++log_->to_host;
    log_->to_host_targets.push_back(host);
    std::memcpy(host, device, bytes);
  }
  void synchronize() override { ++log_->synchronizes; }
  void enqueue_copy_to_device(void*, void* device, const void* host, std::size_t bytes) override {
    copy_to_device(device, host, bytes);
  }
  void enqueue_copy_to_host(void* queue, void* host, const void* device, std::size_t bytes,
                            std::size_t offset) override {
    check_device(const_cast<void*>(device), offset + bytes);
    ++(queue == snapshot_queue() ? log_->snapshot_to_host : log_->staged_to_host);
    std::memcpy(host, static_cast<const unsigned char*>(device) + offset, bytes);
  }
  void copy_on_device(void*, void* to, const void* from, std::size_t bytes) override {
    check_device(to, bytes);
    check_device(const_cast<void*>(from), bytes);
    ++log_->on_device_copies;
    std::memcpy(to, from, bytes);
  }
  void* snapshot_queue() const override { return &log_->snapshot_queue; }
  queue_event_ptr record() override {
    ++log_->recorded;
    return backend::record();
  }
  /// An event that counts the questions asked of it (the OpenCL backend records its marker then).
  queue_event_ptr record_when_asked() override {
    ++log_->recorded_when_asked;
    struct counted final : queue_event {
      explicit counted(std::shared_ptr<device_log> to) : log(std::move(to)) {}
      void wait() override { ++log->asked; }
      bool done() override { return ++log->asked, true; }
      std::shared_ptr<device_log> log;
    };
    return std::make_shared<counted>(log_);
  }
  std::optional<std::size_t> memory_available() const override { return log_->memory_available; }
  void copy_boxes(void*, const std::vector<box_copy>& copies, bool pack) override {
    for (const auto& c : copies) {
      check_device(c.array, 1);
      check_device(c.buffer, c.offset + c.box.points() * c.element_size);
      auto* array = static_cast<unsigned char*>(c.array);
      auto* buffer = static_cast<unsigned char*>(c.buffer) + c.offset;
      c.box.for_each([&](int i, int j, int k) {
        unsigned char* at = array + (i + static_cast<std::size_t>(c.extent[0]) * (j + static_cast<std::size_t>(c.extent[1]) * k)) * c.element_size;
        if (pack) std::memcpy(buffer, at, c.element_size); else std::memcpy(at, buffer, c.element_size);
        buffer += c.element_size;
        ++log_->box_copies;
      });
    }
  }

private:
  void check_device(void* device, std::size_t bytes) const {
    const auto found = log_->live.find(device);
    ASSERT_NE(found, log_->live.end()) << "copy to or from memory that is not a device allocation";
    ASSERT_LE(bytes, found->second);
  }
  std::shared_ptr<device_log> log_;
  std::string name_;
};

/// Forwards to the real OpenMP backend and counts the calls it gets.
class counting_backend final : public backend {
public:
  counting_backend(std::unique_ptr<backend> inner, std::shared_ptr<device_log> log)
      : inner_(std::move(inner)), log_(std::move(log)) {}
  std::string name() const override { return inner_->name(); }
  bool shares_host_memory() const override { return inner_->shares_host_memory(); }
  void* allocate(std::size_t bytes) override {
    ++log_->allocations;
    return inner_->allocate(bytes);
  }
  void release(void* device) override {
    ++log_->releases;
    inner_->release(device);
  }
  // A call with device == host moves nothing (the OpenMP backend ignores it); count only moves.
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    if (device != host) ++log_->to_device;
    inner_->copy_to_device(device, host, bytes);
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    if (device != host) ++log_->to_host;
    inner_->copy_to_host(host, device, bytes);
  }
  void synchronize() override {
    ++log_->synchronizes;
    inner_->synchronize();
  }

private:
  std::unique_ptr<backend> inner_;
  std::shared_ptr<device_log> log_;
};

/// What the launcher saw, one entry per launch.
struct launch_record {
  std::vector<void*> arrays;
  std::vector<CCTK_REAL> first_values;  // arrays[i][0] when the kernel started
  const void* parameters = nullptr;
  opuntia::kernel_grid grid;
};

std::size_t g_array_count = 0;  // how many arrays the next launch passes
std::vector<launch_record> g_launches;
std::function<void(const kernel_call&)> g_body;  // what the kernel does after recording

void scripted_kernel(const kernel_call& call) {
  launch_record r;
  for (std::size_t i = 0; i < g_array_count; ++i) {
    r.arrays.push_back(call.arrays[i]);
    r.first_values.push_back(static_cast<const CCTK_REAL*>(call.arrays[i])[0]);
  }
  r.parameters = call.parameters;
  r.grid = call.grid;
  g_launches.push_back(r);
  if (g_body) g_body(call);
}

constexpr std::size_t points = 4 * 3 * 2;

CCTK_REAL* real(void* p) { return static_cast<CCTK_REAL*>(p); }

void fill(void* p, CCTK_REAL value) {
  for (std::size_t i = 0; i < points; ++i) real(p)[i] = value;
}

bool all_equal(const void* p, CCTK_REAL value, std::size_t from = 0) {
  for (std::size_t i = from; i < points; ++i) {
    if (static_cast<const CCTK_REAL*>(p)[i] != value) return false;
  }
  return true;
}

/// Kernel bodies: every array argument `index` set to `value`.
std::function<void(const kernel_call&)> writes(std::size_t index, CCTK_REAL value) {
  return [=](const kernel_call& call) { fill(call.arrays[index], value); };
}
/// A separateinout step on arrays (in, out): out = in + 1 everywhere but point 0 (a boundary
/// point the kernel leaves alone).
std::function<void(const kernel_call&)> steps(std::size_t in, std::size_t out) {
  return [=](const kernel_call& call) {
    const auto* a = static_cast<const CCTK_REAL*>(call.arrays[in]);
    auto* b = static_cast<CCTK_REAL*>(call.arrays[out]);
    for (std::size_t i = 1; i < points; ++i) b[i] = a[i] + 1.0;
  };
}

class runtime_test : public ::testing::Test {
protected:
  void SetUp() override {
    g_launches.clear();
    g_body = nullptr;
    g_array_count = 0;

    opuntia::grid_layout grid;
    grid.global = grid.local = {4, 3, 2};
    thorn.name = "Wave";
    thorn.implementation = "wave";
    for (const auto& [group, var] : {std::pair{"evolved", "u"}, {"rhs", "v"}, {"extra", "w"}}) {
      opuntia::group_binding g;
      g.name = group;
      g.data_type = opuntia::data_type::cctk_real;
      g.group_type = opuntia::group_type::gf;
      g.timelevels = "1";
      g.variables = {var};
      thorn.groups.push_back(g);
    }
    store.add_thorn(thorn, grid);
    for (const char* g : {"evolved", "rhs", "extra"}) store.enable_storage("Wave", g);
    fill(host("u"), 1.0);
    fill(host("v"), 10.0);
    fill(host("w"), 100.0);
  }

  void make_device_runtime() { rt = std::make_unique<cakernel_runtime>(std::make_unique<fake_device>(log), store); }
  void make_openmp_runtime() {
    rt = std::make_unique<cakernel_runtime>(std::make_unique<counting_backend>(make_openmp_backend(), log), store);
  }

  kernel_binding kernel(std::vector<std::pair<std::string, std::string>> variables, std::string backend = "fakegpu") {
    kernel_binding k;
    k.name = "K";
    for (const auto& [name, intent] : variables) {
      opuntia::kernel_variable_binding v;
      v.name = name;
      v.intent = *opuntia::ccl::enum_named<opuntia::kernel_intent>(opuntia::ccl::kernel_intent_names, intent);
      k.variables.push_back(v);
    }
    k.variants.push_back({std::move(backend), "3dblock", &scripted_kernel});
    return k;
  }

  launched_events launch(const kernel_binding& k, std::function<void(const kernel_call&)> body = nullptr,
                         launch_timing timing = launch_timing::timed) {
    g_array_count = k.variables.size();
    for (const auto& v : k.variables) g_array_count += v.intent == opuntia::kernel_intent::separateinout ? 1 : 0;
    g_body = std::move(body);
    return rt->launch(thorn, k, &parameters, opuntia::kernel_grid{}, "", {}, timing);
  }

  grid_variable& var(const char* name) { return store.find("Wave", name); }
  void* host(const char* name) { return store.data(var(name), 0); }
  bool on_device(void* p) const { return log->live.count(p) != 0; }

  grid_function_store store;
  thorn_binding thorn;
  int parameters = 0;
  std::shared_ptr<device_log> log = std::make_shared<device_log>();
  std::unique_ptr<cakernel_runtime> rt;
};

// --- device backend: data moves only when the other side needs it ---------------------------

TEST_F(runtime_test, kernel_reading_u_twice_copies_u_to_the_device_once) {
  make_device_runtime();
  const auto k = kernel({{"u", "in"}});
  launch(k);
  launch(k);
  EXPECT_EQ(log->to_device, 1);
  EXPECT_EQ(log->to_host, 0);
  ASSERT_EQ(g_launches.size(), 2u);
  EXPECT_TRUE(on_device(g_launches[0].arrays[0]));
  EXPECT_NE(g_launches[0].arrays[0], host("u"));
  EXPECT_EQ(g_launches[0].arrays[0], g_launches[1].arrays[0]);  // the same mirror
  EXPECT_EQ(g_launches[0].first_values[0], 1.0);                 // the host values arrived
  EXPECT_EQ(g_launches[1].first_values[0], 1.0);
  EXPECT_EQ(g_launches[0].parameters, &parameters);
  EXPECT_EQ(rt->validity_of(var("u")), validity::both);
}

TEST_F(runtime_test, an_untimed_launch_records_its_event_only_when_asked_and_the_host_still_waits_for_it) {
  make_device_runtime();
  const auto timed = launch(kernel({{"u", "inout"}}), writes(0, 5.0));
  EXPECT_EQ(log->recorded, 1);  // the launch's `done`, the routine timer's end
  EXPECT_EQ(log->recorded_when_asked, 0);
  ASSERT_NE(timed.done, nullptr);
  const auto untimed = launch(kernel({{"u", "inout"}}), writes(0, 6.0), launch_timing::untimed);
  EXPECT_EQ(log->recorded, 1);
  EXPECT_EQ(log->recorded_when_asked, 1);
  EXPECT_EQ(log->asked, 0);
  ASSERT_NE(untimed.done, nullptr);
  // The host's read waits for the kernel that wrote u: it asks the untimed launch's event.
  rt->ensure_host(var("u"));
  EXPECT_GE(log->asked, 1);
  EXPECT_TRUE(all_equal(host("u"), 6.0));
}

TEST_F(runtime_test, host_read_after_intent_in_copies_nothing_back) {
  make_device_runtime();
  launch(kernel({{"u", "in"}}));
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 0);
}

TEST_F(runtime_test, host_read_after_kernel_write_copies_back_once) {
  make_device_runtime();
  launch(kernel({{"u", "inout"}}), writes(0, 5.0));
  EXPECT_EQ(log->to_device, 1);
  EXPECT_TRUE(all_equal(host("u"), 1.0));  // the host copy is stale until read
  EXPECT_EQ(rt->validity_of(var("u")), validity::device);
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 1);
  EXPECT_TRUE(all_equal(host("u"), 5.0));
  rt->ensure_host(var("u"));
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 1);
  ASSERT_EQ(log->to_host_targets.size(), 1u);
  EXPECT_EQ(log->to_host_targets[0], host("u"));
  EXPECT_EQ(log->to_device, 1);
}

TEST_F(runtime_test, inout_twice_copies_in_once_and_keeps_results_on_the_device) {
  make_device_runtime();
  const auto k = kernel({{"u", "inout"}});
  launch(k, writes(0, 2.0));
  launch(k, writes(0, 3.0));
  EXPECT_EQ(log->to_device, 1);
  EXPECT_EQ(log->to_host, 0);
  EXPECT_EQ(g_launches[1].first_values[0], 2.0);  // the second launch sees the first's output
  rt->ensure_host(var("u"));
  EXPECT_TRUE(all_equal(host("u"), 3.0));
}

TEST_F(runtime_test, host_write_makes_the_next_kernel_copy_to_the_device_again) {
  make_device_runtime();
  const auto k = kernel({{"u", "in"}});
  launch(k);
  fill(host("u"), 7.0);
  rt->host_wrote(var("u"));
  launch(k);
  EXPECT_EQ(log->to_device, 2);
  EXPECT_EQ(g_launches[1].first_values[0], 7.0);
  EXPECT_EQ(log->to_device_targets[0], log->to_device_targets[1]);  // into the same mirror
}

TEST_F(runtime_test, host_read_then_write_then_kernel_read_round_trip) {
  make_device_runtime();
  launch(kernel({{"u", "inout"}}), writes(0, 4.0));
  rt->ensure_host(var("u"));
  real(host("u"))[0] = -1.0;
  rt->host_wrote(var("u"));
  launch(kernel({{"u", "in"}}));
  EXPECT_EQ(log->to_device, 2);
  EXPECT_EQ(log->to_host, 1);
  EXPECT_EQ(g_launches[1].first_values[0], -1.0);
}

TEST_F(runtime_test, intent_out_copies_once_on_first_use_only) {
  make_device_runtime();
  const auto k = kernel({{"u", "out"}});
  launch(k, writes(0, 8.0));
  EXPECT_EQ(log->to_device, 1);  // first use: points the kernel skips are not garbage
  EXPECT_EQ(g_launches[0].first_values[0], 1.0);
  launch(k, writes(0, 9.0));
  EXPECT_EQ(log->to_device, 1);
  EXPECT_EQ(rt->validity_of(var("u")), validity::device);
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 1);
  EXPECT_TRUE(all_equal(host("u"), 9.0));
}

TEST_F(runtime_test, intent_out_after_a_host_write_copies_the_host_values_in) {
  // An `out` kernel may leave points alone (a boundary kernel's interior, ghost zones that SYNC
  // filled on the host): they must hold the host's new values, not the device's old ones. Without
  // this copy a WaveToy run on 2 ranks on a GPU differed from 1 rank from its second iteration.
  make_device_runtime();
  const auto k = kernel({{"u", "out"}});
  launch(k, writes(0, 8.0));
  rt->ensure_host(var("u"));
  fill(host("u"), 0.5);
  rt->host_wrote(var("u"));
  launch(k, writes(0, 9.0));
  EXPECT_EQ(log->to_device, 2);
  EXPECT_EQ(g_launches[1].first_values[0], 0.5);  // what the kernel saw: the host's values
  rt->ensure_host(var("u"));
  EXPECT_TRUE(all_equal(host("u"), 9.0));
}

TEST_F(runtime_test, arrays_follow_descriptor_order_with_separate_buffers_last) {
  make_device_runtime();
  launch(kernel({{"u", "separateinout"}, {"v", "in"}, {"w", "separateinout"}}));
  ASSERT_EQ(g_launches.size(), 1u);
  const auto& a = g_launches[0];
  ASSERT_EQ(a.arrays.size(), 5u);
  EXPECT_EQ(a.first_values[0], 1.0);    // u
  EXPECT_EQ(a.first_values[1], 10.0);   // v
  EXPECT_EQ(a.first_values[2], 100.0);  // w
  EXPECT_EQ(a.first_values[3], 1.0);    // u's second buffer: a copy of u
  EXPECT_EQ(a.first_values[4], 100.0);  // w's second buffer
  for (auto* p : a.arrays) EXPECT_TRUE(on_device(p));
  EXPECT_NE(a.arrays[0], a.arrays[3]);
  EXPECT_NE(a.arrays[2], a.arrays[4]);
}

TEST_F(runtime_test, separateinout_swaps_the_device_buffers_and_refreshes_the_host_only_when_read) {
  make_device_runtime();
  const auto k = kernel({{"u", "separateinout"}});
  void* host_u = host("u");
  launch(k, steps(0, 1));
  ASSERT_EQ(g_launches[0].arrays.size(), 2u);
  void* first = g_launches[0].arrays[0];
  void* second = g_launches[0].arrays[1];
  EXPECT_NE(first, second);
  EXPECT_TRUE(on_device(first));
  EXPECT_TRUE(on_device(second));
  const int copies_in = log->to_device;  // u, and u into its second buffer
  EXPECT_EQ(copies_in, 2);

  launch(k, steps(0, 1));
  EXPECT_EQ(g_launches[1].arrays[0], second);  // swapped: the output is now level 0
  EXPECT_EQ(g_launches[1].arrays[1], first);
  EXPECT_EQ(log->to_device, copies_in);
  EXPECT_EQ(log->to_host, 0);
  EXPECT_EQ(host("u"), host_u);            // the host keeps its buffer
  EXPECT_TRUE(all_equal(host_u, 1.0));     // and its old values until read

  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 1);
  EXPECT_EQ(real(host_u)[0], 1.0);  // the point the kernel leaves alone
  EXPECT_TRUE(all_equal(host_u, 3.0, 1));
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 1);
}

TEST_F(runtime_test, separateinout_after_a_device_write_keeps_the_current_untouched_points) {
  // u is written on the device (inout), then stepped by a separateinout kernel whose second
  // buffer is made now. Its untouched point must hold the device's current value, as on OpenMP
  // (where the scratch buffer is a copy of the current level 0), not the stale host value.
  make_device_runtime();
  launch(kernel({{"u", "inout"}}), writes(0, 2.0));
  launch(kernel({{"u", "separateinout"}}), steps(0, 1));
  rt->ensure_host(var("u"));
  EXPECT_EQ(real(host("u"))[0], 2.0);
  EXPECT_TRUE(all_equal(host("u"), 3.0, 1));
}

TEST_F(runtime_test, kernels_on_several_variables_move_only_what_each_needs) {
  make_device_runtime();
  launch(kernel({{"u", "in"}, {"v", "out"}}), writes(1, 11.0));
  EXPECT_EQ(log->to_device, 2);  // u, and v on its first use
  launch(kernel({{"u", "in"}, {"v", "in"}, {"w", "inout"}}), writes(2, 101.0));
  EXPECT_EQ(log->to_device, 3);  // w only
  EXPECT_EQ(g_launches[1].first_values[1], 11.0);
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_host, 0);
  rt->ensure_host(var("v"));
  rt->ensure_host(var("w"));
  EXPECT_EQ(log->to_host, 2);
  EXPECT_TRUE(all_equal(host("v"), 11.0));
  EXPECT_TRUE(all_equal(host("w"), 101.0));
}

TEST_F(runtime_test, host_read_of_a_variable_no_kernel_used_moves_nothing) {
  make_device_runtime();
  rt->ensure_host(var("u"));
  rt->host_wrote(var("u"));
  rt->ensure_host(var("u"));
  EXPECT_EQ(log->to_device, 0);
  EXPECT_EQ(log->to_host, 0);
  EXPECT_EQ(log->allocations, 0);
}

// --- SYNC on the device: only the halo moves ------------------------------------------------

TEST_F(runtime_test, sync_after_a_kernel_write_packs_and_unpacks_on_the_device_only) {
  make_device_runtime();
  launch(kernel({{"u", "out"}}), [](const kernel_call& call) {
    for (std::size_t p = 0; p < points; ++p) real(call.arrays[0])[p] = static_cast<CCTK_REAL>(p);
  });
  const int to_device_before = log->to_device;
  std::vector<grid_variable*> synced{&var("u")};
  auto* memory = rt->device_halo(synced);
  ASSERT_NE(memory, nullptr);
  EXPECT_TRUE(memory->on_device());
  // A periodic image along x of the 4x3x2 block: column 0 from column 2, as halo_exchange does it.
  const std::array<int, 3> extent{4, 3, 2};
  const std::vector<halo_piece> from{{&var("u"), extent, {{2, 0, 0}, {3, 3, 2}}, 0}};
  const std::vector<halo_piece> to{{&var("u"), extent, {{0, 0, 0}, {1, 3, 2}}, 0}};
  memory->pack(0, from);
  memory->unpack(0, to);
  memory->wait();  // the exchange's end, as halo_exchange ends it: the gathered copies go
  rt->device_wrote(var("u"));
  EXPECT_EQ(log->box_copies, 12);
  EXPECT_EQ(log->to_device, to_device_before);  // no whole array moved
  EXPECT_EQ(log->to_host, 0);
  rt->ensure_host(var("u"));  // the host copy was stale: one copy back, with the ghosts filled
  EXPECT_EQ(log->to_host, 1);
  for (int k = 0; k < 2; ++k) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(real(host("u"))[4 * (j + 3 * k)], 4.0 * (j + 3 * k) + 2);
  }
}

TEST_F(runtime_test, sync_messages_are_staged_through_the_host_unless_the_communicator_takes_device_memory) {
  make_device_runtime();
  launch(kernel({{"u", "out"}}), writes(0, 7.0));
  auto* memory = rt->device_halo({&var("u")});
  ASSERT_NE(memory, nullptr);
  const std::vector<halo_piece> face{{&var("u"), {4, 3, 2}, {{0, 0, 0}, {4, 3, 1}}, 0}};
  memory->pack(0, face);
  // The fake device's memory is no address MPI could take: host buffers even when offered.
  std::byte* message = memory->message(0, 12 * sizeof(CCTK_REAL), true);
  EXPECT_FALSE(on_device(message));
  memory->packed({0});
  EXPECT_EQ(log->staged_to_host, 1);
  CCTK_REAL first = 0;
  std::memcpy(&first, message, sizeof first);
  EXPECT_EQ(first, 7.0);
  // A received message goes back to the device before it is unpacked.
  std::byte* incoming = memory->message(1, 12 * sizeof(CCTK_REAL), false);
  const CCTK_REAL received = -3.0;
  for (int p = 0; p < 12; ++p) std::memcpy(incoming + p * sizeof received, &received, sizeof received);
  const int to_device_before = log->to_device;
  memory->received({1});
  EXPECT_EQ(log->to_device, to_device_before + 1);
  memory->unpack(1, face);
  memory->wait();
  rt->device_wrote(var("u"));
  rt->ensure_host(var("u"));
  EXPECT_EQ(real(host("u"))[0], -3.0);
  EXPECT_EQ(real(host("u"))[11], -3.0);
  EXPECT_EQ(real(host("u"))[12], 7.0);
}

TEST_F(runtime_test, sync_of_a_variable_the_host_wrote_stays_on_the_host) {
  make_device_runtime();
  launch(kernel({{"u", "out"}}), writes(0, 7.0));
  rt->ensure_host(var("v"));
  rt->host_wrote(var("v"));
  EXPECT_EQ(rt->device_halo({&var("u"), &var("v")}), nullptr);  // v is current on the host only
  EXPECT_NE(rt->device_halo({&var("u")}), nullptr);
}

TEST_F(runtime_test, sync_on_openmp_packs_the_host_arrays) {
  make_openmp_runtime();
  EXPECT_EQ(rt->device_halo({&var("u")}), nullptr);
}

// --- snapshots (a checkpoint written in the background) -------------------------------------

using snapshot_route = opuntia::kernel_runtime::snapshot_route;

TEST_F(runtime_test, snapshot_of_a_kernel_result_is_copied_within_the_device_then_to_the_host) {
  make_device_runtime();
  const auto k = kernel({{"u", "inout"}});
  launch(k, writes(0, 5.0));
  std::vector<CCTK_REAL> into(points, 0.0);
  const auto copy = rt->copy_for_snapshot(var("u"), 0, host("u"), into.data());
  EXPECT_EQ(copy.route, snapshot_route::device_snapshot);
  EXPECT_EQ(log->on_device_copies, 1);
  EXPECT_EQ(log->snapshot_to_host, 0);  // made by whoever waits for it: the checkpoint writer
  EXPECT_FALSE(copy.done->done());
  copy.done->wait();
  EXPECT_TRUE(copy.done->done());
  EXPECT_EQ(log->snapshot_to_host, 1);  // on the snapshot queue, not the run's
  EXPECT_TRUE(all_equal(into.data(), 5.0));
  copy.done->wait();
  EXPECT_EQ(log->snapshot_to_host, 1);  // once
  EXPECT_EQ(log->to_host, 0);              // the run's host array is not brought up to date
  EXPECT_TRUE(all_equal(host("u"), 1.0));
  EXPECT_EQ(rt->validity_of(var("u")), validity::device);
  const int allocations = log->allocations;
  launch(k, writes(0, 6.0));
  rt->copy_for_snapshot(var("u"), 0, host("u"), into.data()).done->wait();
  EXPECT_EQ(log->allocations, allocations);  // the device snapshot buffer is reused
  EXPECT_TRUE(all_equal(into.data(), 6.0));
}

TEST_F(runtime_test, a_stamp_changes_with_every_write_of_a_grid_function_and_scalars_have_none) {
  make_device_runtime();
  const auto before = rt->stamp_of(var("u"), 0);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(rt->stamp_of(var("u"), 0), before);  // asking writes nothing
  launch(kernel({{"u", "inout"}}), writes(0, 5.0));
  const auto after_kernel = rt->stamp_of(var("u"), 0);
  EXPECT_NE(after_kernel, before);
  EXPECT_EQ(rt->stamp_of(var("v"), 0), rt->stamp_of(var("v"), 0));
  rt->ensure_host(var("u"));  // a read is no write
  EXPECT_EQ(rt->stamp_of(var("u"), 0), after_kernel);
  rt->host_wrote(var("u"));
  EXPECT_NE(rt->stamp_of(var("u"), 0), after_kernel);
  var("w").group_type = opuntia::group_type::scalar;  // written through a reference nothing counts
  EXPECT_FALSE(rt->stamp_of(var("w"), 0).has_value());
}

TEST(snapshot_landing, copies_in_chunks_once_waited_for) {
  auto log = std::make_shared<device_log>();
  fake_device device(log);
  const std::size_t bytes = 10 * sizeof(CCTK_REAL);
  void* memory = device.allocate(bytes);
  std::vector<CCTK_REAL> values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, into(10, -1.0);
  device.copy_to_device(memory, values.data(), bytes);
  opuntia::thorns::CaKernel::snapshot_landing landing(device, device.record(), into.data(), memory, bytes,
                                                      4 * sizeof(CCTK_REAL));
  EXPECT_FALSE(landing.done());
  EXPECT_EQ(log->snapshot_to_host, 0);
  landing.wait();
  EXPECT_TRUE(landing.done());
  EXPECT_EQ(log->snapshot_to_host, 3);  // 4 + 4 + 2 values, on the snapshot queue
  EXPECT_EQ(into, values);
  device.release(memory);
}

TEST_F(runtime_test, snapshot_of_an_array_the_host_holds_is_a_memcpy) {
  make_device_runtime();
  std::vector<CCTK_REAL> into(points, 0.0);
  const auto copy = rt->copy_for_snapshot(var("v"), 0, host("v"), into.data());
  EXPECT_EQ(copy.route, snapshot_route::host_copy);
  EXPECT_EQ(copy.done, nullptr);
  EXPECT_TRUE(all_equal(into.data(), 10.0));
  EXPECT_EQ(log->allocations, 0);
  EXPECT_EQ(log->on_device_copies + log->snapshot_to_host + log->staged_to_host, 0);
}

TEST_F(runtime_test, snapshot_goes_straight_to_the_host_on_the_run_queue_where_the_device_has_no_room) {
  make_device_runtime();
  const auto k = kernel({{"u", "inout"}});
  launch(k, writes(0, 5.0));
  log->memory_available = opuntia::thorns::CaKernel::snapshot_headroom;  // nothing left beyond the headroom
  const int allocations = log->allocations;
  std::vector<CCTK_REAL> into(points, 0.0);
  for (int checkpoint = 0; checkpoint < 2; ++checkpoint) {
    const auto copy = rt->copy_for_snapshot(var("u"), 0, host("u"), into.data());
    EXPECT_EQ(copy.route, snapshot_route::device_to_host);
    EXPECT_TRUE(all_equal(into.data(), 5.0));
  }
  EXPECT_EQ(log->allocations, allocations);
  EXPECT_EQ(log->staged_to_host, 2);
  EXPECT_EQ(log->on_device_copies + log->snapshot_to_host, 0);
}

TEST_F(runtime_test, snapshot_on_openmp_copies_the_host_array) {
  make_openmp_runtime();
  launch(kernel({{"u", "inout"}}, "openmp"), writes(0, 3.0));
  std::vector<CCTK_REAL> into(points, 0.0);
  const auto copy = rt->copy_for_snapshot(var("u"), 0, host("u"), into.data());
  EXPECT_EQ(copy.route, snapshot_route::host_copy);
  EXPECT_TRUE(all_equal(into.data(), 3.0));
}

TEST_F(runtime_test, destroying_the_runtime_releases_the_device_snapshot_buffers) {
  make_device_runtime();
  launch(kernel({{"u", "inout"}}), writes(0, 5.0));
  std::vector<CCTK_REAL> into(points, 0.0);
  rt->copy_for_snapshot(var("u"), 0, host("u"), into.data());
  rt.reset();
  EXPECT_TRUE(log->live.empty());
  EXPECT_EQ(log->allocations, log->releases);
}

TEST_F(runtime_test, destroying_the_runtime_releases_every_device_buffer) {
  make_device_runtime();
  launch(kernel({{"u", "separateinout"}, {"v", "in"}}));
  EXPECT_EQ(log->allocations, 3);
  rt.reset();
  EXPECT_EQ(log->releases, 3);
  EXPECT_TRUE(log->live.empty());
}

TEST_F(runtime_test, backend_name_and_synchronize_come_from_the_backend) {
  make_device_runtime();
  EXPECT_EQ(rt->backend_name(), "fakegpu");
  rt->synchronize();
  EXPECT_EQ(log->synchronizes, 1);
}

TEST_F(runtime_test, kernel_without_a_variant_for_the_backend_throws_naming_what_was_generated) {
  make_device_runtime();
  const auto k = kernel({{"u", "in"}}, "openmp");
  try {
    launch(k);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("kernel K of thorn Wave has no fakegpu variant"), std::string::npos) << message;
    EXPECT_NE(message.find("openmp/3dblock"), std::string::npos) << message;
  }
  EXPECT_TRUE(g_launches.empty());
  EXPECT_EQ(log->to_device, 0);
}

TEST_F(runtime_test, named_variant_picks_the_template) {
  make_device_runtime();
  auto k = kernel({{"u", "in"}});
  k.variants.insert(k.variants.begin(), {"fakegpu", "other", nullptr});  // would crash if chosen
  g_array_count = 1;
  rt->launch(thorn, k, &parameters, opuntia::kernel_grid{}, "3dblock");
  EXPECT_EQ(g_launches.size(), 1u);
  EXPECT_THROW(rt->launch(thorn, k, &parameters, opuntia::kernel_grid{}, "missing"), std::runtime_error);
}

TEST_F(runtime_test, kernel_grid_reaches_the_launcher) {
  make_device_runtime();
  opuntia::kernel_grid grid;
  grid.ni = 4;
  grid.nj = 3;
  grid.nk = 2;
  grid.dt = 0.25;
  g_array_count = 1;
  rt->launch(thorn, kernel({{"u", "in"}}), &parameters, grid, "");
  ASSERT_EQ(g_launches.size(), 1u);
  EXPECT_EQ(g_launches[0].grid.ni, 4);
  EXPECT_EQ(g_launches[0].grid.nk, 2);
  EXPECT_EQ(g_launches[0].grid.dt, 0.25);
}

// --- OpenMP backend: kernels use the host arrays, nothing is copied --------------------------

TEST_F(runtime_test, openmp_kernels_receive_the_host_arrays_and_nothing_is_copied) {
  make_openmp_runtime();
  EXPECT_EQ(rt->backend_name(), "openmp");
  const auto k = kernel({{"u", "in"}, {"v", "out"}, {"w", "inout"}}, "openmp");
  launch(k, writes(1, 12.0));
  launch(k, writes(2, 102.0));
  ASSERT_EQ(g_launches.size(), 2u);
  EXPECT_EQ(g_launches[0].arrays[0], host("u"));
  EXPECT_EQ(g_launches[0].arrays[1], host("v"));
  EXPECT_EQ(g_launches[0].arrays[2], host("w"));
  EXPECT_TRUE(all_equal(host("v"), 12.0));  // written in place, visible at once
  EXPECT_TRUE(all_equal(host("w"), 102.0));
  rt->ensure_host(var("v"));
  rt->ensure_host(var("w"));
  EXPECT_EQ(log->to_device, 0);
  EXPECT_EQ(log->to_host, 0);
  EXPECT_EQ(log->allocations, 0);
}

TEST_F(runtime_test, openmp_separateinout_swaps_level_zero_with_the_scratch_buffer) {
  make_openmp_runtime();
  const auto k = kernel({{"u", "separateinout"}}, "openmp");
  auto& u_variable = var("u");
  void* level0 = host("u");
  launch(k, steps(0, 1));
  ASSERT_EQ(g_launches[0].arrays.size(), 2u);
  EXPECT_EQ(g_launches[0].arrays[0], level0);
  void* scratch = g_launches[0].arrays[1];
  EXPECT_NE(scratch, level0);
  EXPECT_EQ(g_launches[0].first_values[1], 1.0);  // the scratch buffer started as a copy of level 0

  EXPECT_EQ(store.data(u_variable, 0), scratch);  // swapped after the launch
  EXPECT_EQ(store.scratch(u_variable), level0);
  EXPECT_EQ(real(host("u"))[0], 1.0);
  EXPECT_TRUE(all_equal(host("u"), 2.0, 1));

  launch(k, steps(0, 1));
  EXPECT_EQ(g_launches[1].arrays[0], scratch);
  EXPECT_EQ(g_launches[1].arrays[1], level0);
  EXPECT_EQ(store.data(u_variable, 0), level0);
  EXPECT_TRUE(all_equal(host("u"), 3.0, 1));
  rt->ensure_host(u_variable);
  EXPECT_EQ(log->to_device, 0);
  EXPECT_EQ(log->to_host, 0);
  EXPECT_EQ(log->allocations, 0);
}

TEST_F(runtime_test, openmp_and_device_runs_agree) {
  std::vector<CCTK_REAL> results[2];
  for (int run = 0; run < 2; ++run) {
    rt.reset();
    store = grid_function_store{};
    thorn = thorn_binding{};
    SetUp();
    log = std::make_shared<device_log>();
    const std::string backend = run == 0 ? "openmp" : "fakegpu";
    if (run == 0) make_openmp_runtime();
    else make_device_runtime();
    launch(kernel({{"u", "inout"}}, backend), writes(0, 2.0));
    launch(kernel({{"u", "separateinout"}}, backend), steps(0, 1));
    launch(kernel({{"u", "separateinout"}, {"v", "in"}}, backend), steps(0, 2));
    launch(kernel({{"u", "separateinout"}}, backend), steps(0, 1));  // an odd number of swaps
    rt->ensure_host(var("u"));
    results[run].assign(real(host("u")), real(host("u")) + points);
  }
  EXPECT_EQ(results[0], results[1]);
}

// --- make_kernel_runtime -------------------------------------------------------------------

TEST_F(runtime_test, make_kernel_runtime_gives_openmp_for_auto_and_openmp) {
  EXPECT_EQ(make_kernel_runtime("openmp", store)->backend_name(), "openmp");
  // auto: a GPU when the build has CUDA or OpenCL and the machine a GPU, OpenMP otherwise (never
  // OpenCL on a CPU, as pocl would give).
  const auto chosen = make_kernel_runtime("auto", store)->backend_name();
  EXPECT_TRUE(chosen == "openmp" || chosen == "cuda" || chosen == "opencl") << chosen;
}

TEST_F(runtime_test, make_kernel_runtime_for_a_missing_backend_throws_naming_it) {
  for (const char* name : {"hip", "sycl"}) {
    try {
      make_kernel_runtime(name, store);
      ADD_FAILURE() << name << ": no exception";
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(std::string("no ") + name + " backend"), std::string::npos) << message;
      EXPECT_NE(message.find("openmp"), std::string::npos) << message;
    }
  }
}

}  // namespace
