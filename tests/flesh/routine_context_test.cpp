// routine_context as simulation::context implements it (flesh/runtime/simulation.cpp): rank and
// size from the driver, the interior of the rank's block, reductions through driver::reduce, and
// the variables a thorn sees. A run of hand-made thorns on a fake driver that says it is rank 1
// of 3 and whose block has ghost zones.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "flesh/runtime/simulation.hpp"
#include "opuntia/routine_context.hpp"
#include "parameter_bindings.hpp"
#include "test_driver.hpp"
#include "test_runtime.hpp"

namespace {

using namespace opuntia;
using namespace opuntia::test_bindings;

/// Whether the driver's reductions give each value back (true) or recognisably changed.
bool reductions_as_one_rank = false;

/// Rank 1 of 3 with a block of 8x6x5 points, ghost zones of 2 along x and 1 along y.
std::unique_ptr<driver> rank_one_of_three(const parameter_source&) {
  grid_layout layout;
  layout.global = {12, 4, 5};
  layout.local = {8, 6, 5};
  layout.ghosts = {2, 1, 0};
  layout.offset = {2, -1, 0};
  layout.physical = {false, false, false, false, true, true};  // neighbours along x and y
  layout.delta = {0.1, 0.1, 0.1};
  return std::make_unique<test_support::test_driver>("rank 1 of 3", layout, 1, 3, !reductions_as_one_rank);
}

/// The variables whose host copies were asked for, and the reduction a "device" hands back for
/// variable v (as if its current copy were on a device): 5 and -1.
std::vector<std::string> host_copies_asked;
field_reduction device_reduction_of_v() {
  field_reduction r;
  r.add(5.0, 0);
  r.add(-1.0, 1);
  return r;
}

/// The flesh tests' host runtime, recording the host copies asked for and handing back a
/// device reduction for v.
class recording_runtime final : public test_support::host_runtime {
 public:
  void ensure_host(grid_variable& v, int) override { host_copies_asked.push_back(v.name); }
  std::optional<field_reduction> reduce_on_device(grid_variable& v, int, const std::array<int, 3>&,
                                                  const index_range&) override {
    if (v.name != "v") return std::nullopt;
    return device_reduction_of_v();
  }
};

/// What the probe routine saw.
struct seen_by_probe {
  int rank = -1, size = -1;
  index_range interior;
  std::size_t interior_points = 0;
  int visited = 0;
  double sum = 0, maximum = 0, minimum = 0;
  std::vector<variable_description> variables;
  std::vector<std::string> named_group;  // variables_named("probe::evolved")
  std::string unknown_name;              // what variables_named("probe::evolvd") throws
  std::array<int, 3> owned_extent{};
  std::vector<std::string> gathered;
  std::size_t integers = 0;  // read_integer("m").size()
  bool host_copy_of_m = false;
  std::string real_read_of_integer, integer_read_of_real;  // what read("m") and read_integer("u") throw
} seen;

void Probe_Look(routine_context& context) {
  seen.rank = context.rank();
  seen.size = context.size();
  seen.interior = context.interior();
  seen.interior_points = context.interior().points();
  context.interior().for_each([](int, int, int) { ++seen.visited; });
  seen.sum = context.sum(1);
  seen.maximum = context.maximum(3);
  seen.minimum = context.minimum(3);
  seen.variables = context.variables();
  seen.named_group.clear();  // each test's run looks anew
  for (const auto& v : context.variables_named("probe::evolved")) seen.named_group.push_back(v.name);
  try {
    context.variables_named("probe::evolvd");
  } catch (const std::invalid_argument& e) {
    seen.unknown_name = e.what();
  }
  seen.owned_extent = context.owned_extent();
  seen.gathered = context.gather("rank 1's text");
  host_copies_asked.clear();
  seen.integers = context.read_integer("m").size();
  seen.host_copy_of_m = host_copies_asked == std::vector<std::string>{"m"};
  try {
    context.read("m");
  } catch (const std::invalid_argument& e) {
    seen.real_read_of_integer = e.what();
  }
  try {
    context.read_integer("u");
  } catch (const std::invalid_argument& e) {
    seen.integer_read_of_real = e.what();
  }
}

/// What the reducing routine saw: u's statistics (the interior holds f below, the ghost zones
/// 1e300), those of u's level 1 (interior points NaN at (3, 2, 1) and +inf at (5, 4, 4): global
/// (5, 1, 1) and (7, 4, 4)), and v's (reduced on the "device").
struct seen_by_reduce {
  routine_context::field_statistics u, u_with_nan, v, u_extremes, u_with_nan_extremes;
  field_reduction interior_of_u;  // f over the interior, added here point by point
  std::size_t host_copies_of_v = 0;
  std::string scalar_refused;  // what statistics() of the SCALAR n throws
} reduced;

double f(int i, int j, int k) { return (i - 4) * 0.5 + j * 0.25 - k * 1e-3; }

void Probe_Reduce(routine_context& context) {
  const auto& g = context.grid();
  const auto interior = context.interior();
  auto u = context.write("u");
  auto u1 = context.write("u", 1);
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) {
        const bool owned = i >= interior.begin[0] && i < interior.end[0] && j >= interior.begin[1] &&
                           j < interior.end[1] && k >= interior.begin[2] && k < interior.end[2];
        u[g.index(i, j, k)] = u1[g.index(i, j, k)] = owned ? f(i, j, k) : 1e300;
      }
    }
  }
  u1[g.index(5, 4, 4)] = std::numeric_limits<double>::infinity();
  u1[g.index(3, 2, 1)] = std::numeric_limits<double>::quiet_NaN();
  reduced.interior_of_u = {};  // each test's run adds anew
  std::uint64_t index = 0;
  interior.for_each([&](int i, int j, int k) { reduced.interior_of_u.add(f(i, j, k), index++); });
  reduced.u = context.statistics("u");
  reduced.u_with_nan = context.statistics("u", 1);
  reduced.u_extremes = context.statistics("u", 0, routine_context::reduction_figures::extremes);
  reduced.u_with_nan_extremes = context.statistics("u", 1, routine_context::reduction_figures::extremes);
  host_copies_asked.clear();
  reduced.v = context.statistics("v");
  reduced.host_copies_of_v = host_copies_asked.size();
  try {
    context.statistics("n");
  } catch (const std::invalid_argument& e) {
    reduced.scalar_refused = e.what();
  }
}

/// Probe_Stop asks to end the run at this iteration (-1: never), saying whether it failed.
int stop_at_iteration = -1;
bool stop_failed = false;

void Probe_Stop(routine_context& context) {
  if (context.iteration() != stop_at_iteration) return;
  context.terminate_next("enough", stop_failed);
}

thorn_binding cactus() {
  return thorn("Cactus", "cactus",
               {param("cctk_itlast", parameter_type::integer, "0"), param("cctk_initial_time", parameter_type::real, "0"),
                param("cctk_final_time", parameter_type::real, "-1"), param("max_runtime", parameter_type::real, "0"),
                param("terminate", parameter_type::keyword, "iteration"),
                param("cctk_run_title", parameter_type::string, ""),
                param("cctk_show_schedule", parameter_type::boolean, "no"),
                param("cctk_timer_output", parameter_type::keyword, "off"),
                param("progress_every", parameter_type::integer, "0")});
}

group_binding real_gf(std::string name, std::vector<std::string> variables, std::string timelevels) {
  group_binding g;
  g.name = std::move(name);
  g.data_type = data_type::cctk_real;
  g.group_type = group_type::gf;
  g.access = "public";
  g.timelevels = std::move(timelevels);
  g.variables = std::move(variables);
  return g;
}

/// Probe (inherits Base; grid functions u, v and the SCALAR n) schedules Probe_Look and Probe_Reduce
/// in INITIAL; Base declares a group Probe sees, Other one it does not.
std::vector<thorn_binding> thorns() {
  auto grid = thorn("Grid", "grid",
                    {param("out_dir", parameter_type::string, "."), param("variant", parameter_type::string, "")});
  auto base = thorn("Base", "base", {});
  base.groups.push_back(real_gf("shared", {"s"}, "1"));
  auto other = thorn("Other", "other", {});
  other.groups.push_back(real_gf("hidden", {"h"}, "1"));
  auto probe = thorn("Probe", "probe", {});
  probe.inherits = {"base"};
  probe.groups.push_back(real_gf("evolved", {"u", "v"}, "2"));
  auto counter = real_gf("counter", {"n"}, "1");
  counter.group_type = group_type::scalar;
  probe.groups.push_back(counter);
  auto flags = real_gf("flags", {"m"}, "1");
  flags.data_type = data_type::cctk_int;
  probe.groups.push_back(flags);
  schedule_binding storage;
  storage.what = schedule_binding::kind::storage;
  storage.storage = {"evolved[2]", "counter", "flags"};
  schedule_binding look;
  look.name = "Probe_Look";
  look.placement = "at";
  look.target = "CCTK_INITIAL";
  look.origin = "thorns/Probe/schedule.ccl:1:1";
  schedule_binding reduce = look;
  reduce.name = "Probe_Reduce";
  reduce.origin = "thorns/Probe/schedule.ccl:2:1";
  schedule_binding stop = look;
  stop.name = "Probe_Stop";
  stop.target = "CCTK_POSTSTEP";
  stop.origin = "thorns/Probe/schedule.ccl:3:1";
  probe.schedule = {storage, look, reduce, stop};
  probe.routines = {{"Probe_Look", &Probe_Look}, {"Probe_Reduce", &Probe_Reduce}, {"Probe_Stop", &Probe_Stop}};
  return {cactus(), grid, base, other, probe};
}

void provide_cactus(providers& p) { p.always_active(); }
void provide_grid(providers& p) {
  p.always_active();
  p.add_driver({&rank_one_of_three});
  p.add_kernel_runtime({[](const parameter_source&, grid_function_store&) -> std::unique_ptr<kernel_runtime> {
                          return std::make_unique<recording_runtime>();
                        },
                        [](std::string_view kernel) { return "Launch_" + std::string(kernel); },
                        {"Grid", "variant"}});
  p.add_time_step({[](const parameter_source&, const grid_layout&) { return 0.01; },
                   [](const parameter_source&) { return std::vector<parameter_name>{}; }});
  p.add_output_folder({{"Grid", "out_dir"}, {}});  // no checkpoints
}

/// What a run of Probe printed, and where it ended.
struct probe_run {
  std::string out;
  int iteration = 0;
  bool terminated_on_failure = false;
};

/// Runs Probe's routines (on rank 1 of 3), its output in a fresh folder; `more` adds lines to
/// the parameter file.
probe_run run_probe(const std::string& more = "") {
  providers provided;
  provided.add("Cactus", &provide_cactus);
  provided.add("Grid", &provide_grid);
  const auto out_dir = std::filesystem::path(::testing::TempDir()) / "routine_context_test";
  const ccl::source_file parfile{
      "run.par", "ActiveThorns = \"Base Other Probe\"\nGrid::out_dir = \"" + out_dir.string() + "\"\n" + more};
  std::ostringstream out;
  simulation sim(thorns(), provided, parfile, parameter_level::normal, out);
  sim.run();
  std::filesystem::remove_all(out_dir);
  return {out.str(), sim.iteration(), sim.terminated_on_failure()};
}

TEST(routine_context, tells_rank_interior_reductions_and_variables) {
  run_probe();

  EXPECT_EQ(seen.rank, 1);
  EXPECT_EQ(seen.size, 3);
  // 8x6x5 less ghost zones of 2 along x and 1 along y on both sides: [2,6) x [1,5) x [0,5).
  EXPECT_EQ(seen.interior.begin, (std::array<int, 3>{2, 1, 0}));
  EXPECT_EQ(seen.interior.end, (std::array<int, 3>{6, 5, 5}));
  EXPECT_EQ(seen.interior_points, 4u * 4u * 5u);
  EXPECT_EQ(seen.visited, 80);
  // Through driver::reduce (test_driver's: +100, x2, /2).
  EXPECT_EQ(seen.sum, 101);
  EXPECT_EQ(seen.maximum, 6);
  EXPECT_EQ(seen.minimum, 1.5);
  // Its own variables first, then the inherited Base's; not Other's.
  ASSERT_EQ(seen.variables.size(), 5u);
  EXPECT_EQ(seen.variables[0].name, "u");
  EXPECT_EQ(seen.variables[0].group, "evolved");
  EXPECT_EQ(seen.variables[0].implementation, "probe");
  EXPECT_EQ(seen.variables[0].group_type, group_type::gf);
  EXPECT_EQ(seen.variables[0].data_type, data_type::cctk_real);
  EXPECT_EQ(seen.variables[0].timelevels, 2);
  EXPECT_TRUE(seen.variables[0].has_storage);
  EXPECT_EQ(seen.variables[1].name, "v");
  EXPECT_EQ(seen.variables[2].name, "n");
  EXPECT_EQ(seen.variables[2].group_type, group_type::scalar);
  EXPECT_EQ(seen.variables[3].name, "m");
  EXPECT_EQ(seen.variables[3].data_type, data_type::cctk_int);
  EXPECT_EQ(seen.variables[4].name, "s");
  EXPECT_EQ(seen.variables[4].implementation, "base");
  EXPECT_FALSE(seen.variables[4].has_storage);
}

TEST(routine_context, names_groups_gathers_and_reads_integers) {
  run_probe();

  // An output parameter's name: a group gives its variables; a typo the nearest names.
  EXPECT_EQ(seen.named_group, (std::vector<std::string>{"u", "v"}));
  EXPECT_EQ(seen.unknown_name,
            "unknown grid function or group 'probe::evolvd' in thorn Probe; did you mean 'probe::evolved'?");
  // The owned extent is the largest offset + interior end over the ranks: through driver::reduce
  // (test_driver's maximum doubles) of 2 + 6, -1 + 5 and 0 + 5.
  EXPECT_EQ(seen.owned_extent, (std::array<int, 3>{16, 8, 10}));
  EXPECT_EQ(seen.gathered, (std::vector<std::string>{"rank 1's text"}));  // the driver's gather
  // A CCTK_INT grid function: its host copy brought up to date, the whole local block.
  EXPECT_EQ(seen.integers, 8u * 6u * 5u);
  EXPECT_TRUE(seen.host_copy_of_m);
  EXPECT_EQ(seen.real_read_of_integer, "grid function probe::m is CCTK_INT, not CCTK_REAL");
  EXPECT_EQ(seen.integer_read_of_real, "grid function probe::u is CCTK_REAL, not CCTK_INT");
}

TEST(routine_context, statistics_reduce_the_interior_where_the_data_is) {
  run_probe();

  // The interior's 80 points only (not the ghost zones' 1e300), combined through the driver:
  // exact sums as they are on one rank, maximum x2 and minimum /2 (test_driver's).
  const auto& expected = reduced.interior_of_u;
  EXPECT_EQ(reduced.u.points, 80u);
  EXPECT_EQ(reduced.u.sum, expected.sum.value());
  EXPECT_EQ(reduced.u.rms, std::sqrt(expected.squares.value() / 80));
  EXPECT_EQ(reduced.u.minimum, expected.minimum / 2);
  EXPECT_EQ(reduced.u.maximum, expected.maximum * 2);
  EXPECT_EQ(reduced.u.max_abs, expected.max_abs * 2);
  EXPECT_EQ(expected.minimum, f(2, 1, 4));
  // A NaN point makes every figure NaN but the count.
  EXPECT_TRUE(std::isnan(reduced.u_with_nan.sum));
  EXPECT_TRUE(std::isnan(reduced.u_with_nan.rms));
  EXPECT_TRUE(std::isnan(reduced.u_with_nan.minimum));
  EXPECT_TRUE(std::isnan(reduced.u_with_nan.maximum));
  EXPECT_TRUE(std::isnan(reduced.u_with_nan.max_abs));
  EXPECT_EQ(reduced.u_with_nan.points, 80u);
  EXPECT_EQ(reduced.u_with_nan.nans, 1u);
  EXPECT_EQ(reduced.u_with_nan.infinities, 1u);
  EXPECT_TRUE(reduced.u_with_nan.first_non_finite.has_value());
  EXPECT_EQ(reduced.u.nans + reduced.u.infinities, 0u);
  EXPECT_FALSE(reduced.u.first_non_finite.has_value());
  // The extremes alone: the same minimum, maximum, max_abs and counts, no sums.
  EXPECT_EQ(reduced.u_extremes.minimum, reduced.u.minimum);
  EXPECT_EQ(reduced.u_extremes.maximum, reduced.u.maximum);
  EXPECT_EQ(reduced.u_extremes.max_abs, reduced.u.max_abs);
  EXPECT_EQ(reduced.u_extremes.points, 80u);
  EXPECT_TRUE(std::isnan(reduced.u_extremes.sum));
  EXPECT_TRUE(std::isnan(reduced.u_extremes.rms));
  EXPECT_TRUE(std::isnan(reduced.u_with_nan_extremes.max_abs));
  EXPECT_EQ(reduced.u_with_nan_extremes.nans, 1u);
  EXPECT_EQ(reduced.u_with_nan_extremes.infinities, 1u);
  ASSERT_TRUE(reduced.u_with_nan_extremes.first_non_finite.has_value());
  EXPECT_EQ(reduced.u_with_nan_extremes.first_non_finite->index, reduced.u_with_nan.first_non_finite->index);
  // v: the runtime's reduction, and no copy of v to the host.
  EXPECT_EQ(reduced.v.points, 2u);
  EXPECT_EQ(reduced.v.sum, 4.0);
  EXPECT_EQ(reduced.v.rms, std::sqrt(26.0 / 2));
  EXPECT_EQ(reduced.v.minimum, -0.5);
  EXPECT_EQ(reduced.v.maximum, 10.0);
  EXPECT_EQ(reduced.v.max_abs, 10.0);
  EXPECT_EQ(reduced.host_copies_of_v, 0u);
  // A SCALAR's one value has no grid to be reduced over (its index would run past it).
  EXPECT_EQ(reduced.scalar_refused,
            "probe::n is in a group of type SCALAR: only grid functions (GF) are reduced over the grid");
}

TEST(routine_context, statistics_find_the_first_non_finite_point_in_global_order) {
  // Reductions as one rank's: the global index of the first, and the rank holding it, come
  // through as they are. The NaN at local (3, 2, 1) comes first (the +inf at (5, 4, 4) later):
  // global (3 + 2, 2 - 1, 1 + 0) on rank 1.
  reductions_as_one_rank = true;
  run_probe();
  reductions_as_one_rank = false;

  ASSERT_TRUE(reduced.u_with_nan.first_non_finite.has_value());
  EXPECT_EQ(reduced.u_with_nan.first_non_finite->index, (std::array<int, 3>{5, 1, 1}));
  EXPECT_EQ(reduced.u_with_nan.first_non_finite->rank, 1);
  EXPECT_EQ(reduced.interior_of_u.first_non_finite, field_reduction::no_point);  // f alone
}

TEST(routine_context, terminate_next_ends_the_run_after_the_iteration) {
  // Reductions as one rank's: the request (2: failed, 1: not) comes through as it is.
  reductions_as_one_rank = true;
  stop_at_iteration = 3;
  for (const bool failed : {true, false}) {
    stop_failed = failed;
    const auto run = run_probe("Cactus::cctk_itlast = 10\n");
    EXPECT_EQ(run.iteration, 3);
    EXPECT_EQ(run.terminated_on_failure, failed);
    EXPECT_NE(run.out.find("opuntia: terminated after iteration 3, time 0.03: Probe asked: enough\n"), std::string::npos)
        << run.out;
  }
  // In the POSTSTEP after the initial data: no iteration runs.
  stop_at_iteration = 0;
  EXPECT_EQ(run_probe("Cactus::cctk_itlast = 10\n").iteration, 0);
  stop_at_iteration = -1;
  EXPECT_EQ(run_probe("Cactus::cctk_itlast = 2\n").iteration, 2);  // no request: to the end
  reductions_as_one_rank = false;
}

TEST(index_range, an_empty_box_has_no_points) {
  const index_range empty{{2, 0, 0}, {2, 5, 5}};
  EXPECT_EQ(empty.points(), 0u);
  int visited = 0;
  empty.for_each([&](int, int, int) { ++visited; });
  EXPECT_EQ(visited, 0);
  grid_layout g;
  g.local = {3, 3, 3};
  g.ghosts = {0, 0, 0};
  EXPECT_EQ(g.interior().points(), g.points());  // no ghosts: the whole block
}

TEST(index_range, a_physical_face_has_no_ghost_zone) {
  grid_layout g;  // the first rank along x: a physical lower face, a neighbour above
  g.local = {7, 3, 3};
  g.ghosts = {2, 0, 0};
  g.physical = {true, false, true, true, true, true};
  EXPECT_EQ(g.interior().begin, (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(g.interior().end, (std::array<int, 3>{5, 3, 3}));
}

}  // namespace
