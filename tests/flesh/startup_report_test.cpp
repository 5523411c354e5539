// The start-up report's lines for each rank (flesh/runtime/startup_report.cpp): the block a rank
// owns in global indices, a long list of ranks cut short, and the devices ranks of one host share;
// the warnings about more OpenMP threads than free cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "flesh/runtime/startup_report.hpp"
#include "test_driver.hpp"
#include "test_runtime.hpp"

namespace opuntia {
namespace {

TEST(startup_report, a_block_without_ghost_zones_is_its_global_ranges) {
  grid_layout g;
  g.global = g.local = {10, 11, 12};
  EXPECT_EQ(describe_block(g), "x 0..9, y 0..10, z 0..11 (10x11x12 points)");
}

TEST(startup_report, a_block_names_what_it_owns_and_its_arrays_with_ghost_zones) {
  // The second of two ranks along z of 97^3 points, ghost zones 1 wide: a neighbour below only.
  grid_layout g;
  g.global = {97, 97, 97};
  g.local = {97, 97, 49};
  g.ghosts = {1, 1, 1};
  g.offset = {0, 0, 48};
  g.physical = {true, true, true, true, false, true};
  EXPECT_EQ(describe_block(g), "x 0..96, y 0..96, z 49..96 (97x97x48 points, 97x97x49 with ghost zones)");
}

TEST(startup_report, a_periodic_block_owns_one_point_less_than_the_grid) {
  grid_layout g;
  g.global = {13, 5, 5};
  g.local = {16, 5, 5};  // 12 owned points and 2 periodic images on each side
  g.ghosts = {2, 0, 0};
  g.offset = {-2, 0, 0};
  g.physical = {false, false, true, true, true, true};
  EXPECT_EQ(describe_block(g), "x 0..11, y 0..4, z 0..4 (12x5x5 points, 16x5x5 with ghost zones)");
}

std::vector<rank_summary> ranks_on(const std::vector<std::string>& hosts, const std::vector<std::string>& devices) {
  std::vector<rank_summary> ranks;
  for (std::size_t r = 0; r < hosts.size(); ++r) ranks.push_back({hosts[r], "x 0..9 (10x1x1 points)", devices[r]});
  return ranks;
}

TEST(startup_report, every_rank_gets_a_line_in_rank_order) {
  const auto ranks = ranks_on({"a", "a", "b"}, {"openmp: 1 thread", "openmp: 1 thread", "openmp: 2 threads"});
  EXPECT_EQ(describe_ranks(ranks, false),
            "  rank 0 on a: x 0..9 (10x1x1 points); openmp: 1 thread\n"
            "  rank 1 on a: x 0..9 (10x1x1 points); openmp: 1 thread\n"
            "  rank 2 on b: x 0..9 (10x1x1 points); openmp: 2 threads\n");
}

TEST(startup_report, many_ranks_show_the_first_and_last_four_and_a_count) {
  std::vector<std::string> hosts, devices;
  for (int r = 0; r < 100; ++r) {
    hosts.push_back("node" + std::to_string(r / 4));
    devices.push_back("cuda device " + std::to_string(r % 4) + ": H100");
  }
  const auto text = describe_ranks(ranks_on(hosts, devices), false);
  EXPECT_EQ(text,
            "  rank 0 on node0: x 0..9 (10x1x1 points); cuda device 0: H100\n"
            "  rank 1 on node0: x 0..9 (10x1x1 points); cuda device 1: H100\n"
            "  rank 2 on node0: x 0..9 (10x1x1 points); cuda device 2: H100\n"
            "  rank 3 on node0: x 0..9 (10x1x1 points); cuda device 3: H100\n"
            "  ... 92 ranks more, 4 to 95\n"
            "  rank 96 on node24: x 0..9 (10x1x1 points); cuda device 0: H100\n"
            "  rank 97 on node24: x 0..9 (10x1x1 points); cuda device 1: H100\n"
            "  rank 98 on node24: x 0..9 (10x1x1 points); cuda device 2: H100\n"
            "  rank 99 on node24: x 0..9 (10x1x1 points); cuda device 3: H100\n");
}

TEST(startup_report, sixteen_ranks_are_all_listed) {
  const std::vector<std::string> hosts(16, "a"), devices(16, "host");
  const auto text = describe_ranks(ranks_on(hosts, devices), false);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 16);
  EXPECT_NE(text.find("  rank 15 on a:"), std::string::npos);
}

TEST(startup_report, ranks_of_one_host_on_one_device_are_noted_once) {
  // Two hosts of two GPUs each, three ranks on each host: device 0 of each host has two ranks.
  const auto ranks = ranks_on({"a", "a", "a", "b", "b", "b"},
                              {"cuda device 0: H100", "cuda device 1: H100", "cuda device 0: H100",
                               "cuda device 0: H100", "cuda device 1: H100", "cuda device 0: H100"});
  const auto text = describe_ranks(ranks, true);
  EXPECT_EQ(text.substr(text.find("  note")),
            "  note: 2 ranks on a share cuda device 0: H100 (ranks 0, 2)\n"
            "  note: 2 ranks on b share cuda device 0: H100 (ranks 3, 5)\n");
}

TEST(startup_report, devices_no_two_ranks_share_get_no_note) {
  const auto ranks = ranks_on({"a", "a", "b"}, {"cuda device 0: H100", "cuda device 1: H100", "cuda device 0: H100"});
  EXPECT_EQ(describe_ranks(ranks, true).find("note"), std::string::npos);
}

TEST(startup_report, the_host_cores_are_not_noted_as_a_shared_device) {
  const auto ranks = ranks_on({"a", "a"}, {"openmp: 1 thread", "openmp: 1 thread"});
  EXPECT_EQ(describe_ranks(ranks, false).find("note"), std::string::npos);
}

TEST(startup_report, many_shared_devices_are_counted_past_four_notes_and_long_rank_lists_cut) {
  // 40 ranks on one host of 6 GPUs, round robin: every device shared, by 7 or 6 ranks.
  std::vector<std::string> hosts(40, "a"), devices;
  for (int r = 0; r < 40; ++r) devices.push_back("cuda device " + std::to_string(r % 6) + ": H100");
  auto text = describe_ranks(ranks_on(hosts, devices), true);
  text = text.substr(text.find("  note"));
  EXPECT_EQ(text,
            "  note: 7 ranks on a share cuda device 0: H100 (ranks 0, 6, 12, 18, 24, 30, 36)\n"
            "  note: 7 ranks on a share cuda device 1: H100 (ranks 1, 7, 13, 19, 25, 31, 37)\n"
            "  note: 7 ranks on a share cuda device 2: H100 (ranks 2, 8, 14, 20, 26, 32, 38)\n"
            "  note: 7 ranks on a share cuda device 3: H100 (ranks 3, 9, 15, 21, 27, 33, 39)\n"
            "  note: 2 more devices are shared by several ranks each\n");
  const auto crowded =
      describe_ranks(ranks_on(std::vector<std::string>(10, "a"), std::vector<std::string>(10, "d")), true);
  EXPECT_EQ(crowded.substr(crowded.find("  note")),
            "  note: 10 ranks on a share d (ranks 0, 1, 2, 3, 4, 5, 6, 7 and 2 more)\n");
}

TEST(startup_report, one_rank_reports_its_host_block_and_device_host_by_default) {
  grid_layout g;
  g.global = g.local = {4, 4, 4};
  const test_support::test_driver one("test", g);
  const test_support::host_runtime runtime;
  EXPECT_EQ(startup_report(one, runtime),
            "  rank 0 on " + host_name() + ": x 0..3, y 0..3, z 0..3 (4x4x4 points); host\n");
}

rank_threads threads_on(std::string host, int threads, std::vector<int> cpus, double load = -1, int others = -1) {
  return {std::move(host), threads, std::move(cpus), load, others};
}

TEST(startup_report, threads_beyond_the_cores_are_warned_of) {
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 5, {0, 1}, 0.12, 0)}),
            "opuntia: warning: 5 OpenMP threads on 2 cores of a, about 2 free (load average 0.12, 0 other tasks running "
            "now): threads beyond the free cores wait for each other at every parallel loop; set OMP_NUM_THREADS=2\n");
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {3})}),
            "opuntia: warning: 2 OpenMP threads on 1 core of a, about 1 free: threads beyond the free cores wait for "
            "each other at every parallel loop; set OMP_NUM_THREADS=1\n");
}

TEST(startup_report, threads_beyond_the_free_cores_are_warned_of) {
  // A load of 1.6 with 3 other tasks running now keeps two of the four cores busy.
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 4, {0, 1, 2, 3}, 1.6, 3)}),
            "opuntia: warning: 4 OpenMP threads on 4 cores of a, about 2 free (load average 1.60, 3 other tasks "
            "running now): threads beyond the free cores wait for each other at every parallel loop; set "
            "OMP_NUM_THREADS=2\n");
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {0, 1}, 7.0, 1)}),
            "opuntia: warning: 2 OpenMP threads on 2 cores of a, about 1 free (load average 7.00, 1 other task running "
            "now): threads beyond the free cores wait for each other at every parallel loop; set OMP_NUM_THREADS=1\n");
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {0, 1}, 7.0)}),
            "opuntia: warning: 2 OpenMP threads on 2 cores of a, about 0 free (load average 7.00): threads beyond the "
            "free cores wait for each other at every parallel loop; set OMP_NUM_THREADS=1\n");
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 4, {0, 1, 2, 3}, 0.4, 5)}), "");
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 3, {0, 1, 2, 3}, 1.4, 1)}), "");
}

TEST(startup_report, a_load_that_has_ended_leaves_the_cores_free) {
  // The average still counts a build that ended a moment ago; nothing else runs now.
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {0, 1}, 1.63, 0)}), "");
}

TEST(startup_report, one_thread_a_rank_is_never_warned_of) {
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 1, {0}, 9.0, 9)}), "");
  // Four ranks on two cores: the launcher's choice (mpirun --oversubscribe), not OpenMP's.
  const auto one_each = threads_on("a", 1, {0, 1}, 0, 3);
  EXPECT_EQ(oversubscription_warnings({one_each, one_each, one_each, one_each}), "");
}

TEST(startup_report, ranks_of_one_host_share_its_cores) {
  // Bound to a core each, or free to run anywhere: two threads each are one too many either way.
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {0}), threads_on("a", 2, {1})}),
            "opuntia: warning: 2 ranks run 4 OpenMP threads on 2 cores of a, about 2 free: threads beyond the free "
            "cores wait for each other at every parallel loop; set OMP_NUM_THREADS=1\n");
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {0, 1}), threads_on("a", 2, {0, 1})}),
            "opuntia: warning: 2 ranks run 4 OpenMP threads on 2 cores of a, about 2 free: threads beyond the free "
            "cores wait for each other at every parallel loop; set OMP_NUM_THREADS=1\n");
  // On two hosts, each with its own cores, the same threads fit; only the crowded host is named.
  EXPECT_EQ(oversubscription_warnings({threads_on("a", 2, {0, 1}), threads_on("b", 2, {0, 1}),
                                       threads_on("c", 8, {0, 1, 2, 3})}),
            "opuntia: warning: 8 OpenMP threads on 4 cores of c, about 4 free: threads beyond the free cores wait for "
            "each other at every parallel loop; set OMP_NUM_THREADS=4\n");
}

std::vector<int> cores(int count) {
  std::vector<int> cpus(static_cast<std::size_t>(count));
  for (int c = 0; c < count; ++c) cpus[static_cast<std::size_t>(c)] = c;
  return cpus;
}

TEST(startup_report, threads_the_user_chose_stay_and_are_warned_of_where_too_many) {
  const auto crowded = threads_on("a", 8, cores(16), 4.1, 4);
  const auto plan = plan_threads({crowded, crowded, crowded, crowded}, true);
  EXPECT_EQ(plan.threads, (std::vector<int>{8, 8, 8, 8}));
  EXPECT_EQ(plan.notes, "");
  EXPECT_EQ(plan.warnings, oversubscription_warnings({crowded, crowded, crowded, crowded}));
  EXPECT_NE(plan.warnings, "");
}

TEST(startup_report, ranks_take_their_share_of_the_free_cores_by_default) {
  // Four ranks, each free to run 16 threads on the host's 16 cores, four of them busy: three each.
  const auto each = threads_on("node7", 16, cores(16), 4.1, 4);
  const auto plan = plan_threads({each, each, each, each}, false);
  EXPECT_EQ(plan.threads, (std::vector<int>{3, 3, 3, 3}));
  EXPECT_EQ(plan.notes,
            "  note: 4 ranks share 16 cores of node7, about 12 free (load average 4.10, 4 other tasks running now): 3 "
            "OpenMP threads each (OMP_NUM_THREADS sets another count)\n");
  EXPECT_EQ(plan.warnings, "");
  // One rank alone on an idle host keeps the runtime's default, and says nothing.
  const auto alone = plan_threads({threads_on("a", 16, cores(16), 0.02, 0)}, false);
  EXPECT_EQ(alone.threads, std::vector<int>{16});
  EXPECT_EQ(alone.notes, "");
}

TEST(startup_report, a_busy_host_leaves_one_thread_a_rank) {
  const auto plan = plan_threads({threads_on("a", 2, cores(2), 7.0, 5)}, false);
  EXPECT_EQ(plan.threads, std::vector<int>{1});
  EXPECT_EQ(plan.notes, "  note: 2 cores of a, about 0 free (load average 7.00, 5 other tasks running now): 1 OpenMP "
                        "thread (OMP_NUM_THREADS sets another count)\n");
  const auto one_each = threads_on("b", 2, cores(2), 0, 3);
  EXPECT_EQ(plan_threads({one_each, one_each, one_each}, false).threads, (std::vector<int>{1, 1, 1}));
}

TEST(startup_report, a_share_is_bounded_by_the_rank_s_own_cores_and_hosts_are_apart) {
  // Bound to one core, a rank runs one thread however free the host; another host's ranks
  // share their own host's cores.
  const auto plan = plan_threads({threads_on("a", 8, {0}), threads_on("a", 8, {1, 2, 3, 4, 5, 6, 7}),
                                  threads_on("b", 8, cores(8))},
                                 false);
  EXPECT_EQ(plan.threads, (std::vector<int>{1, 4, 8}));
  EXPECT_EQ(plan.notes, "  note: 2 ranks share 8 cores of a, about 8 free: 4 OpenMP threads each (OMP_NUM_THREADS sets "
                        "another count)\n");
}

TEST(startup_report, this_rank_counts_its_threads_and_cores) {
  const auto mine = this_rank_threads();
  EXPECT_EQ(mine.host, host_name());
  EXPECT_GE(mine.threads, 1);
  EXPECT_FALSE(mine.cpus.empty());
}

}  // namespace
}  // namespace opuntia
