// routine_context as simulation::context implements it (flesh/runtime/simulation.cpp): rank and
// size from the driver, the interior of the rank's block, reductions through driver::reduce, and
// the variables a thorn sees. A run of hand-made thorns on a fake driver that says it is rank 1
// of 3 and whose block has ghost zones.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "flesh/runtime/simulation.hpp"
#include "opuntia/routine_context.hpp"
#include "parameter_bindings.hpp"
#include "test_driver.hpp"
#include "test_runtime.hpp"

namespace {

using namespace opuntia;
using namespace opuntia::test_bindings;

/// Rank 1 of 3 with a block of 8x6x5 points, ghost zones of 2 along x and 1 along y.
std::unique_ptr<driver> rank_one_of_three(const parameter_source&) {
  grid_layout layout;
  layout.global = {12, 4, 5};
  layout.local = {8, 6, 5};
  layout.ghosts = {2, 1, 0};
  layout.offset = {2, -1, 0};
  layout.physical = {false, false, false, false, true, true};  // neighbours along x and y
  layout.delta = {0.1, 0.1, 0.1};
  return std::make_unique<test_support::test_driver>("rank 1 of 3", layout, 1, 3);
}

using test_support::host_runtime;

/// What the probe routine saw.
struct seen_by_probe {
  int rank = -1, size = -1;
  index_range interior;
  std::size_t interior_points = 0;
  int visited = 0;
  double sum = 0, maximum = 0, minimum = 0;
  std::vector<variable_description> variables;
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

/// Probe (inherits Base) schedules Probe_Look in INITIAL; Base declares a group Probe sees,
/// Other one it does not.
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
  schedule_binding storage;
  storage.what = schedule_binding::kind::storage;
  storage.storage = {"evolved[2]"};
  schedule_binding look;
  look.name = "Probe_Look";
  look.placement = "at";
  look.target = "CCTK_INITIAL";
  look.origin = "thorns/Probe/schedule.ccl:1:1";
  probe.schedule = {storage, look};
  probe.routines = {{"Probe_Look", &Probe_Look}};
  return {cactus(), grid, base, other, probe};
}

void provide_cactus(providers& p) { p.always_active(); }
void provide_grid(providers& p) {
  p.always_active();
  p.add_driver({&rank_one_of_three});
  p.add_kernel_runtime({[](const parameter_source&, grid_function_store&) -> std::unique_ptr<kernel_runtime> {
                          return std::make_unique<host_runtime>();
                        },
                        [](std::string_view kernel) { return "Launch_" + std::string(kernel); },
                        {"Grid", "variant"}});
  p.add_time_step({[](const parameter_source&, const grid_layout&) { return 0.01; },
                   [](const parameter_source&) { return std::vector<parameter_name>{}; }});
  p.add_output_folder({{"Grid", "out_dir"}});
}

TEST(routine_context, tells_rank_interior_reductions_and_variables) {
  providers provided;
  provided.add("Cactus", &provide_cactus);
  provided.add("Grid", &provide_grid);
  const auto out_dir = std::filesystem::path(::testing::TempDir()) / "routine_context_test";
  const ccl::source_file parfile{
      "run.par", "ActiveThorns = \"Base Other Probe\"\nGrid::out_dir = \"" + out_dir.string() + "\"\n"};
  std::ostringstream out;
  simulation sim(thorns(), provided, parfile, parameter_level::normal, out);
  sim.run();

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
  ASSERT_EQ(seen.variables.size(), 3u);
  EXPECT_EQ(seen.variables[0].name, "u");
  EXPECT_EQ(seen.variables[0].group, "evolved");
  EXPECT_EQ(seen.variables[0].implementation, "probe");
  EXPECT_EQ(seen.variables[0].group_type, group_type::gf);
  EXPECT_EQ(seen.variables[0].data_type, data_type::cctk_real);
  EXPECT_EQ(seen.variables[0].timelevels, 2);
  EXPECT_TRUE(seen.variables[0].has_storage);
  EXPECT_EQ(seen.variables[1].name, "v");
  EXPECT_EQ(seen.variables[2].name, "s");
  EXPECT_EQ(seen.variables[2].implementation, "base");
  EXPECT_FALSE(seen.variables[2].has_storage);
  std::filesystem::remove_all(out_dir);
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
