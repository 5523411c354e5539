#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "flesh/runtime/host_memory.hpp"
#include "flesh/runtime/signal_dispositions.hpp"
#include "opuntia/binding.hpp"

namespace {

namespace fs = std::filesystem;
using opuntia::host_memory_detail::cgroup_path;
using opuntia::host_memory_detail::cgroup_room;
using opuntia::host_memory_detail::kib_field;
using opuntia::host_memory_detail::memory_cgroup;

TEST(flesh, binding_types_are_plain_data) {
  opuntia::thorn_binding b;
  b.name = "T";
  EXPECT_TRUE(b.parameters.empty());
}

// --- host memory (flesh/runtime/host_memory.hpp) --------------------------------------------

TEST(host_memory, reads_kib_fields_in_bytes) {
  const std::string meminfo = "MemTotal:       24683656 kB\nMemAvailable:   24027124 kB\nSwapTotal: 0 kB\n";
  EXPECT_EQ(kib_field(meminfo, "MemAvailable"), 24027124.0 * 1024);
  EXPECT_EQ(kib_field(meminfo, "SwapTotal"), 0.0);
  EXPECT_EQ(kib_field(meminfo, "Mem"), std::nullopt);  // a prefix of a name is not the name
  EXPECT_EQ(kib_field(meminfo, "VmSize"), std::nullopt);
}

TEST(host_memory, finds_the_memory_cgroup_v1_before_v2) {
  const auto v1 = memory_cgroup("12:cpu,memory:/jobs/a\n0::/user.slice\n");
  ASSERT_TRUE(v1);
  EXPECT_FALSE(v1->v2);
  EXPECT_EQ(v1->path, "/jobs/a");
  const auto v2 = memory_cgroup("0::/user.slice/run\n");
  ASSERT_TRUE(v2);
  EXPECT_TRUE(v2->v2);
  EXPECT_EQ(v2->path, "/user.slice/run");
  EXPECT_FALSE(memory_cgroup("4:cpuacct:/\n3:memory_other:/x\n"));  // controllers by their whole name
}

struct cgroup_tree {
  fs::path root = fs::temp_directory_path() / ("opuntia_cgroup_test_" + std::to_string(::getpid()));
  cgroup_tree() { fs::create_directories(root / "jobs" / "a"); }
  ~cgroup_tree() { fs::remove_all(root); }
  void write(const fs::path& file, const std::string& text) const { std::ofstream(root / file) << text << "\n"; }
};

TEST(host_memory, cgroup_room_is_the_least_over_the_group_and_its_parents) {
  const cgroup_tree tree;
  tree.write("memory.max", "max");  // the root: no limit
  tree.write("memory.current", "5000");
  tree.write("jobs/memory.max", "1000");
  tree.write("jobs/memory.current", "400");
  tree.write("jobs/a/memory.max", "max");
  tree.write("jobs/a/memory.current", "100");
  EXPECT_EQ(cgroup_room(tree.root, cgroup_path{true, "/jobs/a"}), 600.0);
  tree.write("jobs/a/memory.max", "300");
  EXPECT_EQ(cgroup_room(tree.root, cgroup_path{true, "/jobs/a"}), 200.0);
  // v1 names its files otherwise; with none of them there is no limit to report.
  EXPECT_EQ(cgroup_room(tree.root, cgroup_path{false, "/jobs/a"}), std::nullopt);
  tree.write("jobs/memory.limit_in_bytes", "2000");
  tree.write("jobs/memory.usage_in_bytes", "1500");
  EXPECT_EQ(cgroup_room(tree.root, cgroup_path{false, "/jobs/a"}), 500.0);
}

TEST(host_memory, this_host_reports_what_it_has_free) {
  const auto available = opuntia::host_memory_available();
  ASSERT_TRUE(available);  // Linux: /proc/meminfo at least
  EXPECT_GT(available->bytes, 0);
  EXPECT_FALSE(available->source.empty());
}

// --- signals (flesh/runtime/signal_dispositions.hpp) ----------------------------------------

void some_handler(int) {}

sighandler_t disposition(int signal) {
  struct sigaction now {};
  sigaction(signal, nullptr, &now);
  return now.sa_handler;
}

TEST(keep_signal_dispositions, puts_back_what_a_library_changed) {
  ASSERT_EQ(disposition(SIGQUIT), SIG_DFL);
  {
    const opuntia::keep_signal_dispositions keep;
    std::signal(SIGQUIT, some_handler);  // as LLVM does when pocl loads it
    std::signal(SIGSEGV, some_handler);  // fault signals are the library's business
  }
  EXPECT_EQ(disposition(SIGQUIT), SIG_DFL);
  EXPECT_EQ(disposition(SIGSEGV), some_handler);
  std::signal(SIGSEGV, SIG_DFL);
}

TEST(keep_signal_dispositions, keeps_a_signal_the_process_ignores_ignored) {
  std::signal(SIGHUP, SIG_IGN);  // nohup
  {
    const opuntia::keep_signal_dispositions keep;
    std::signal(SIGHUP, some_handler);
  }
  EXPECT_EQ(disposition(SIGHUP), SIG_IGN);
  std::signal(SIGHUP, SIG_DFL);
}

TEST(stop_signal_handlers, record_the_signal_instead_of_dying_and_then_step_aside) {
  {
    const opuntia::stop_signal_handlers handlers;
    EXPECT_EQ(handlers.received(), 0);
    std::raise(SIGTERM);
    EXPECT_EQ(handlers.received(), SIGTERM);
    EXPECT_EQ(disposition(SIGTERM), SIG_DFL);  // a second SIGTERM kills
    EXPECT_NE(disposition(SIGINT), SIG_DFL);
  }
  EXPECT_EQ(disposition(SIGINT), SIG_DFL);  // put back as they were
  EXPECT_EQ(disposition(SIGTERM), SIG_DFL);
  const opuntia::stop_signal_handlers next_run;
  EXPECT_EQ(next_run.received(), 0);
}

TEST(stop_signal_handlers, leave_an_ignored_signal_ignored) {
  std::signal(SIGINT, SIG_IGN);  // `&` in a script
  {
    const opuntia::stop_signal_handlers handlers;
    std::raise(SIGINT);
    EXPECT_EQ(handlers.received(), 0);
  }
  EXPECT_EQ(disposition(SIGINT), SIG_IGN);
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace
