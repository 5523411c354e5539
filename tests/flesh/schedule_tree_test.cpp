#include "flesh/schedule/schedule_tree.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "ccl/diagnostic.hpp"
#include "opuntia/binding.hpp"

namespace {

using opuntia::schedule_binding;
using opuntia::schedule_node;
using opuntia::schedule_tree;
using opuntia::thorn_binding;

void no_op(opuntia::routine_context&) {}

/// Parameter values as text, keyed by name (any thorn).
struct parameter_values : opuntia::condition_evaluator {
  std::map<std::string, std::string> values;
  std::optional<std::string> parameter_text(std::string_view, std::string_view name) const override {
    const auto colons = name.rfind("::");  // qualified names: impl::name
    const auto it = values.find(std::string(colons == std::string_view::npos ? name : name.substr(colons + 2)));
    if (it == values.end()) return std::nullopt;
    return it->second;
  }
};

schedule_binding routine(std::string name, std::string target, std::string origin = "s.ccl:1:1") {
  schedule_binding s;
  s.name = std::move(name);
  s.placement = "in";
  s.target = std::move(target);
  s.origin = std::move(origin);
  return s;
}

schedule_binding group(std::string name, std::string target, std::string origin = "s.ccl:1:1") {
  schedule_binding s = routine(std::move(name), std::move(target), std::move(origin));
  s.is_group = true;
  return s;
}

schedule_binding after(schedule_binding s, std::vector<std::string> names) {
  s.after = std::move(names);
  return s;
}

schedule_binding before(schedule_binding s, std::vector<std::string> names) {
  s.before = std::move(names);
  return s;
}

schedule_binding conditional(std::string condition, std::vector<schedule_binding> then_branch,
                             std::vector<schedule_binding> else_branch = {}, std::string origin = "s.ccl:5:1") {
  schedule_binding s;
  s.what = schedule_binding::kind::conditional;
  s.condition = std::move(condition);
  s.then_branch = std::move(then_branch);
  s.else_branch = std::move(else_branch);
  s.origin = std::move(origin);
  return s;
}

void add_routines(thorn_binding& t, const std::vector<schedule_binding>& statements) {
  for (const auto& s : statements) {
    if (s.what == schedule_binding::kind::item && !s.is_group) t.routines.push_back({s.name, &no_op});
    add_routines(t, s.then_branch);
    add_routines(t, s.else_branch);
  }
}

/// A thorn (implementation: its name in lower case) whose every scheduled routine has a function.
thorn_binding thorn(std::string name, std::vector<schedule_binding> schedule) {
  thorn_binding t;
  t.name = std::move(name);
  t.implementation = t.name;
  std::transform(t.implementation.begin(), t.implementation.end(), t.implementation.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  add_routines(t, schedule);
  t.schedule = std::move(schedule);
  return t;
}

std::vector<std::string> names(const std::vector<schedule_node>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(n.name);
  return out;
}

/// CaKernel's name for the function that launches a kernel (thorns/CaKernel/src/provide.cpp).
std::string cakernel_launch(std::string_view kernel) { return "CAKERNEL_Launch_" + std::string(kernel); }

/// "path:line:column: message" lines of the error build() throws, or "no error".
std::string errors(const std::vector<const thorn_binding*>& thorns, const opuntia::condition_evaluator& values) {
  try {
    schedule_tree::build(thorns, values, cakernel_launch);
  } catch (const opuntia::ccl::input_error& e) {
    std::string out;
    for (const auto& d : e.diagnostics()) {
      out += d.where.path + ":" + std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + ": " +
             d.message + "\n";
    }
    return out;
  }
  return "no error";
}

std::string errors(const thorn_binding& t, const parameter_values& values = {}) { return errors({&t}, values); }

using strings = std::vector<std::string>;

// --- bins --------------------------------------------------------------------------------------

TEST(schedule_tree, bins_are_in_cactus_order) {
  EXPECT_EQ(opuntia::schedule_bins(),
            (strings{"STARTUP", "WRAGH", "PARAMCHECK", "BASEGRID", "INITIAL", "POSTINITIAL", "POSTPOSTINITIAL",
                     "RECOVER_VARIABLES", "POST_RECOVER_VARIABLES", "CPINITIAL", "PRESTEP", "EVOL", "POSTSTEP",
                     "CHECKPOINT", "ANALYSIS", "TERMINATE", "SHUTDOWN"}));
}

TEST(schedule_tree, bin_names_take_cctk_prefix_and_any_case) {
  auto a = routine("A", "CCTK_EVOL");
  a.placement = "at";
  const auto t = thorn("T", {a, routine("B", "evol"), routine("C", "cctk_Evol"), routine("D", "Startup")});
  parameter_values values;
  const auto tree = schedule_tree::build({&t}, values);
  EXPECT_EQ(names(tree.bin("EVOL")), (strings{"A", "B", "C"}));
  EXPECT_EQ(names(tree.bin("cctk_evol")), (strings{"A", "B", "C"}));
  EXPECT_EQ(names(tree.bin("CCTK_STARTUP")), (strings{"D"}));
  EXPECT_TRUE(tree.bin("SHUTDOWN").empty());
  EXPECT_THROW(tree.bin("EVOLUTION"), std::out_of_range);
  EXPECT_EQ(tree.show(),
            "STARTUP\n"
            "  D  [T]\n"
            "EVOL\n"
            "  A  [T]\n"
            "  B  [T]\n"
            "  C  [T]\n");
}

// --- groups ------------------------------------------------------------------------------------

TEST(schedule_tree, groups_nest_to_any_depth) {
  const auto t = thorn("T", {group("Outer", "CCTK_EVOL"), group("Middle", "outer"), group("Inner", "Middle"),
                             routine("Deep", "INNER"), routine("Shallow", "Outer")});
  parameter_values values;
  const auto tree = schedule_tree::build({&t}, values);
  ASSERT_EQ(tree.bin("EVOL").size(), 1u);
  const auto& outer = tree.bin("EVOL")[0];
  EXPECT_EQ(outer.what, schedule_node::kind::group);
  EXPECT_EQ(outer.function, "");
  EXPECT_EQ(names(outer.children), (strings{"Middle", "Shallow"}));
  EXPECT_EQ(names(outer.children[0].children), (strings{"Inner"}));
  EXPECT_EQ(names(outer.children[0].children[0].children), (strings{"Deep"}));
  EXPECT_EQ(tree.show(),
            "EVOL\n"
            "  group Outer\n"
            "    group Middle\n"
            "      group Inner\n"
            "        Deep  [T]\n"
            "    Shallow   [T]\n");
}

TEST(schedule_tree, group_declared_after_its_members_and_across_thorns) {
  const auto a = thorn("A", {routine("Member1", "Late"), routine("Member2", "late")});
  const auto b = thorn("B", {routine("Member3", "Late"), group("Late", "CCTK_INITIAL")});
  parameter_values values;
  const auto tree = schedule_tree::build({&a, &b}, values);
  ASSERT_EQ(tree.bin("INITIAL").size(), 1u);
  EXPECT_EQ(names(tree.bin("INITIAL")[0].children), (strings{"Member1", "Member2", "Member3"}));
  EXPECT_EQ(tree.bin("INITIAL")[0].children[2].thorn, "B");
}

// --- ordering ----------------------------------------------------------------------------------

TEST(schedule_tree, ties_keep_registration_order) {
  const auto a = thorn("A", {routine("A1", "EVOL"), routine("A2", "EVOL")});
  const auto b = thorn("B", {routine("B1", "EVOL"), routine("B2", "EVOL")});
  parameter_values values;
  EXPECT_EQ(names(schedule_tree::build({&b, &a}, values).bin("EVOL")), (strings{"B1", "B2", "A1", "A2"}));
  EXPECT_EQ(names(schedule_tree::build({&a, &b}, values).bin("EVOL")), (strings{"A1", "A2", "B1", "B2"}));
}

TEST(schedule_tree, orders_after_before_constraints) {
  auto aliased = routine("Compute_RHS", "EVOL");
  aliased.alias = "RHS";
  const auto t = thorn("T", {
                                after(routine("Last", "EVOL"), {"rhs", "Middle"}),     // by alias, any case
                                before(routine("Middle", "EVOL"), {"Last"}),
                                before(routine("First", "EVOL"), {"(unused)", "compute_rhs", "Middle"}),
                                aliased,
                                after(routine("Loose", "EVOL"), {"NotScheduled"}),       // ignored
                            });
  parameter_values values;
  const auto tree = schedule_tree::build({&t}, values);
  // Middle and RHS are not ordered against each other: registration order decides.
  EXPECT_EQ(names(tree.bin("EVOL")), (strings{"First", "Middle", "RHS", "Last", "Loose"}));
  EXPECT_EQ(tree.bin("EVOL")[2].function, "Compute_RHS");
  EXPECT_EQ(tree.show(),
            "EVOL\n"
            "  First               [T]\n"
            "  Middle              [T]\n"
            "  Compute_RHS AS RHS  [T]\n"
            "  Last                [T]\n"
            "  Loose               [T]\n");
}

TEST(schedule_tree, before_after_only_orders_siblings) {
  // "Outside" names a routine in another group: not a sibling, so ignored.
  const auto t = thorn("T", {group("G", "EVOL"), routine("X", "G"), after(routine("Y", "G"), {"X"}),
                             before(routine("Outside", "EVOL"), {"X"}), before(routine("Z", "G"), {"X"})});
  parameter_values values;
  const auto tree = schedule_tree::build({&t}, values);
  EXPECT_EQ(names(tree.bin("EVOL")), (strings{"G", "Outside"}));
  EXPECT_EQ(names(tree.bin("EVOL")[0].children), (strings{"Z", "X", "Y"}));
}

TEST(schedule_tree, reports_a_cycle_naming_every_member) {
  const auto t = thorn("T", {routine("Free", "EVOL"), after(routine("A", "EVOL", "t/schedule.ccl:3:1"), {"C"}),
                             after(routine("B", "EVOL", "t/schedule.ccl:7:1"), {"A"}),
                             after(routine("C", "EVOL", "t/schedule.ccl:9:1"), {"b"}),
                             after(routine("Downstream", "EVOL"), {"C"})});
  EXPECT_EQ(errors(t), "t/schedule.ccl:3:1: schedule cycle in EVOL: A -> B -> C -> A\n");
}

TEST(schedule_tree, reports_a_two_member_cycle_inside_a_group) {
  const auto t = thorn("T", {group("Step", "EVOL"), before(routine("X", "Step", "t/schedule.ccl:4:1"), {"Y"}),
                             before(routine("Y", "Step", "t/schedule.ccl:8:1"), {"X"})});
  EXPECT_EQ(errors(t), "t/schedule.ccl:4:1: schedule cycle in group Step: X -> Y -> X\n");
}

// --- conditionals ------------------------------------------------------------------------------

TEST(schedule_tree, conditionals_are_decided_once_with_else_if) {
  const auto t = thorn("T", {conditional("CCTK_Equals(initial_data, \"lid_driven_cavity\")",
                                         {routine("Init_LDC", "INITIAL")},
                                         {conditional("CCTK_EQUALS(initial_data, 'shear')",
                                                      {routine("Init_Shear", "INITIAL")},
                                                      {routine("Init_Zero", "INITIAL")})})});
  parameter_values values;
  values.values["initial_data"] = "LID_Driven_Cavity";  // keywords compare case-insensitively
  EXPECT_EQ(names(schedule_tree::build({&t}, values).bin("INITIAL")), (strings{"Init_LDC"}));
  values.values["initial_data"] = "shear";
  EXPECT_EQ(names(schedule_tree::build({&t}, values).bin("INITIAL")), (strings{"Init_Shear"}));
  values.values["initial_data"] = "other";
  EXPECT_EQ(names(schedule_tree::build({&t}, values).bin("INITIAL")), (strings{"Init_Zero"}));
}

TEST(schedule_tree, conditions_have_numbers_booleans_and_operators) {
  parameter_values values;
  values.values = {{"use_gpu", "yes"}, {"verbose", "no"}, {"steps", "10"}, {"cfl", "0.25"}, {"mode", "fast"}};
  const auto taken = [&](const std::string& condition) {
    const auto t = thorn("T", {conditional(condition, {routine("R", "EVOL")})});
    return !schedule_tree::build({&t}, values).bin("EVOL").empty();
  };
  EXPECT_TRUE(taken("use_gpu"));
  EXPECT_FALSE(taken("verbose"));
  EXPECT_TRUE(taken("!verbose"));
  EXPECT_TRUE(taken("steps > 5 && cfl <= 0.5"));
  EXPECT_FALSE(taken("steps >= 11 || cfl < 1.d-3"));
  EXPECT_TRUE(taken("(verbose || use_gpu) && !(steps != 10)"));
  EXPECT_TRUE(taken("steps == 1.0e1"));
  EXPECT_TRUE(taken("mode == \"FAST\""));
  EXPECT_TRUE(taken("T::steps"));
  EXPECT_TRUE(taken("  CCTK_Equals( mode , \"fast\" ) && \\\n  use_gpu  "));
  EXPECT_FALSE(taken("verbose && CCTK_Equals(mode, \"fast\") || 0"));
}

TEST(schedule_tree, condition_syntax_error_names_the_character) {
  const auto t = thorn("T", {conditional("CCTK_Equals(initial_data \"lid\")", {routine("R", "EVOL")}, {},
                                         "thorns/T/schedule.ccl:5:1")});
  parameter_values values;
  values.values["initial_data"] = "lid";
  EXPECT_EQ(errors(t, values),
            "thorns/T/schedule.ccl:5:1: in condition (CCTK_Equals(initial_data \"lid\")) at character 26: "
            "expected ',' between the two arguments of CCTK_Equals; found '\"'\n");
}

TEST(schedule_tree, condition_that_stops_early) {
  const auto t = thorn("T", {conditional("steps > ", {routine("R", "EVOL")}),
                             conditional("(steps > 1", {routine("R", "EVOL")}, {}, "s.ccl:6:1"),
                             conditional("steps 1", {routine("R", "EVOL")}, {}, "s.ccl:7:1")});
  parameter_values values;
  values.values["steps"] = "3";
  EXPECT_EQ(errors(t, values),
            "s.ccl:5:1: in condition (steps > ) at character 9: expected an operand: a parameter, a number, "
            "a string, CCTK_Equals(...), '!' or '('; found the end of the condition\n"
            "s.ccl:6:1: in condition ((steps > 1) at character 11: expected ')' to close a '('; found the end of "
            "the condition\n"
            "s.ccl:7:1: in condition (steps 1) at character 7: expected '&&', '||', a comparison or the end of "
            "the condition; found '1'\n");
}

TEST(schedule_tree, condition_with_an_unknown_parameter) {
  auto t = thorn("T", {conditional("CCTK_Equals(initial_dat, \"lid\")", {routine("R", "EVOL")})});
  opuntia::parameter_binding p;
  p.name = "initial_data";
  t.parameters.push_back(p);
  EXPECT_EQ(errors(t), "s.ccl:5:1: in condition (CCTK_Equals(initial_dat, \"lid\")) at character 13: unknown "
                       "parameter 'initial_dat' of thorn T; did you mean 'initial_data'?\n");
}

TEST(schedule_tree, condition_using_text_as_a_truth_value) {
  const auto t = thorn("T", {conditional("mode", {routine("R", "EVOL")}),
                             conditional("mode < 3", {routine("R", "EVOL")}, {}, "s.ccl:9:1")});
  parameter_values values;
  values.values["mode"] = "fast";
  EXPECT_EQ(errors(t, values),
            "s.ccl:5:1: in condition (mode) at character 1: 'fast' is not a number or a boolean; compare text "
            "with CCTK_Equals(...)\n"
            "s.ccl:9:1: in condition (mode < 3) at character 6: 'fast' is not a number; '<' compares numbers\n");
}

// --- checks ------------------------------------------------------------------------------------

TEST(schedule_tree, unknown_bin_suggests_the_nearest_bins) {
  const auto t = thorn("T", {routine("R", "CCTK_EVLO", "t/schedule.ccl:12:1"), routine("S", "postinital", "t/schedule.ccl:13:1")});
  EXPECT_EQ(errors(t), "t/schedule.ccl:12:1: unknown schedule bin or group 'CCTK_EVLO'; did you mean 'CCTK_EVOL'?\n"
                       "t/schedule.ccl:13:1: unknown schedule bin or group 'postinital'; did you mean 'POSTINITIAL'?\n");
}

TEST(schedule_tree, unknown_group_suggests_the_nearest_groups) {
  const auto a = thorn("A", {group("Update_Velocity", "EVOL")});
  const auto b = thorn("B", {routine("R", "Update_Velocty", "b/schedule.ccl:2:3"), routine("S", "Nowhere", "b/schedule.ccl:4:1")});
  parameter_values values;
  EXPECT_EQ(errors({&a, &b}, values),
            "b/schedule.ccl:2:3: unknown schedule bin or group 'Update_Velocty'; did you mean 'Update_Velocity'?\n"
            "b/schedule.ccl:4:1: unknown schedule bin or group 'Nowhere'\n");
}

TEST(schedule_tree, a_group_is_scheduled_once) {
  const auto a = thorn("A", {group("Step", "EVOL", "a/schedule.ccl:3:1")});
  const auto b = thorn("B", {group("STEP", "POSTSTEP", "b/schedule.ccl:8:1")});
  parameter_values values;
  EXPECT_EQ(errors({&a, &b}, values),
            "b/schedule.ccl:8:1: group 'STEP' is already scheduled at a/schedule.ccl:3:1 by thorn A\n");
}

TEST(schedule_tree, a_routine_needs_a_function) {
  auto t = thorn("T", {routine("CAKERNEL_Launch_Update", "EVOL"), routine("Init", "INITIAL")});
  t.routines.clear();
  t.routines.push_back({"Init_Data", &no_op});
  opuntia::kernel_binding k;
  k.name = "Update";
  t.kernels.push_back(k);
  auto missing = routine("Init_Date", "INITIAL", "thorns/T/schedule.ccl:20:1");
  t.schedule.push_back(missing);
  EXPECT_EQ(errors(t),
            "s.ccl:1:1: routine 'Init' of thorn T has no function: define void Init(opuntia::routine_context&) in "
            "the thorn's src/\n"
            "thorns/T/schedule.ccl:20:1: routine 'Init_Date' of thorn T has no function: define void "
            "Init_Date(opuntia::routine_context&) in the thorn's src/; did you mean 'Init_Data'?\n");
}

TEST(schedule_tree, a_group_inside_itself) {
  const auto t = thorn("T", {group("A", "B", "s.ccl:1:1"), group("B", "A", "s.ccl:2:1"), routine("R", "A")});
  EXPECT_EQ(errors(t), "s.ccl:1:1: group 'A' is scheduled inside itself: A in B in A\n");
}

TEST(schedule_tree, errors_are_collected_and_thrown_once) {
  const auto t = thorn("T", {routine("R", "NOWHERE", "s.ccl:1:1"), group("G", "EVOL", "s.ccl:2:1"),
                             group("G", "EVOL", "s.ccl:3:1"), conditional("x ==", {}, {}, "s.ccl:4:1")});
  const std::string text = errors(t);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
}

// --- what items carry ----------------------------------------------------------------------------

TEST(schedule_tree, qualifies_sync_storage_and_scalars) {
  auto r = routine("R", "EVOL");
  r.clauses.push_back({"LANG", {"C"}});
  r.clauses.push_back({"SYNC", {"velocity", "Other::rho", "OtherImpl::e"}});
  r.clauses.push_back({"STORAGE", {"scratch[2]"}});
  r.clauses.push_back({"TRIGGERS", {"velocity"}});
  r.clauses.push_back({"READS", {"Other::rho(everywhere)"}});
  r.clauses.push_back({"WRITES", {"velocity(interior)"}});
  r.if_vars = {"Fluid::do_step"};
  r.until_vars = {"converged"};
  auto g = group("Loop", "EVOL");
  g.while_vars = {"FLUID::iterating"};
  opuntia::schedule_binding storage;
  storage.what = schedule_binding::kind::storage;
  storage.storage = {"velocity", "pressure[3]", "velocity"};
  auto fluid = thorn("Fluid", {storage, r, g});
  opuntia::schedule_binding storage2 = storage;
  storage2.storage = {"rho", "fluid::velocity"};
  auto other = thorn("Other", {storage2});
  other.implementation = "OtherImpl";
  parameter_values values;
  const auto tree = schedule_tree::build({&fluid, &other}, values);
  EXPECT_EQ(tree.storage(), (strings{"fluid::velocity", "fluid::pressure", "OtherImpl::rho"}));
  const auto& n = tree.bin("EVOL")[0];
  EXPECT_EQ(n.lang, "C");
  EXPECT_EQ(n.sync, (strings{"fluid::velocity", "OtherImpl::rho", "OtherImpl::e"}));
  EXPECT_EQ(n.storage, (strings{"fluid::scratch"}));
  EXPECT_EQ(n.triggers, (strings{"fluid::velocity"}));
  EXPECT_EQ(n.reads, (strings{"Other::rho(everywhere)"}));
  EXPECT_EQ(n.writes, (strings{"velocity(interior)"}));
  EXPECT_EQ(n.if_vars, (strings{"fluid::do_step"}));
  EXPECT_EQ(n.until_vars, (strings{"fluid::converged"}));
  EXPECT_EQ(tree.bin("EVOL")[1].while_vars, (strings{"fluid::iterating"}));
  EXPECT_EQ(tree.show(),
            "EVOL\n"
            "  R  [Fluid]  until fluid::converged  if fluid::do_step  sync fluid::velocity, OtherImpl::rho, "
            "OtherImpl::e\n"
            "  group Loop  while fluid::iterating\n");
}

TEST(schedule_tree, an_empty_schedule_shows_nothing) {
  parameter_values values;
  const auto tree = schedule_tree::build({}, values);
  EXPECT_EQ(tree.show(), "");
  EXPECT_TRUE(tree.bin("EVOL").empty());
}

// --- the real CaCUDA lid-driven cavity thorn ----------------------------------------------------

/// The schedule of tests/generator/cases/cacuda_fixture/expected/CaCUDACFD3DWOMOL/bindings, as generated.
thorn_binding cacuda_thorn() {
  thorn_binding b;
  b.name = "CaCUDACFD3DWOMOL";
  b.implementation = "cacudacfd3dwomol";
  {
    opuntia::parameter_binding p;
    p.name = "initial_data";
    b.parameters.push_back(p);
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:3:1";
    s0.what = opuntia::schedule_binding::kind::storage;
    s0.storage = {"velocity", "pressure", "psolver_step"};
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:5:1";
    s0.what = opuntia::schedule_binding::kind::conditional;
    s0.condition = "CCTK_Equals(initial_data, \"lid_driven_cavity\")";
    {
      opuntia::schedule_binding s1;
      s1.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:7:3";
      s1.what = opuntia::schedule_binding::kind::item;
      s1.name = "CACUDACFD3D_Init_LDC";
      s1.placement = "in";
      s1.target = "CCTK_INITIAL";
      s1.clauses.push_back({"LANG", {"C"}});
      s1.description = "Initialize with the lid-driven cavity initial data";
      s0.then_branch.push_back(std::move(s1));
    }
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:16:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "Update_Velocity";
    s0.is_group = true;
    s0.placement = "in";
    s0.target = "CCTK_EVOL";
    s0.description = "Update Velocity";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:20:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CAKERNEL_Launch_Update_Velocity";
    s0.placement = "in";
    s0.target = "Update_Velocity";
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Launch CaCUDA Kernel Update_Velocity";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:25:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CAKERNEL_Launch_Update_Boundaries";
    s0.placement = "in";
    s0.target = "Update_Velocity";
    s0.after = {"CAKERNEL_Launch_Update_Velocity"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Launch CaCUDA Kernel Update_Boundaries after Updating Velocity";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:34:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "Update_Pressure";
    s0.is_group = true;
    s0.placement = "in";
    s0.target = "CCTK_EVOL";
    s0.after = {"Update_Velocity"};
    s0.description = "Update Pressure";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:39:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDACFD3D_Pressure_Solver_Iterator_Start";
    s0.placement = "in";
    s0.target = "Update_Pressure";
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Start the iterator for the pressure solver";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:44:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "Update_Pressure_Iterator";
    s0.is_group = true;
    s0.placement = "in";
    s0.target = "Update_Pressure";
    s0.while_vars = {"CaCUDACFD3DWOMOL::psolver_step"};
    s0.after = {"CaCUDACFD3D_Pressure_Solver_Iterator_Start"};
    s0.description = "Iteratively Launch CaCUDA Kernel Update_Pressure";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:50:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDACFD3D_Pressure_Solver_Iterate";
    s0.placement = "in";
    s0.target = "Update_Pressure_Iterator";
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Update the number of iterations for the pressure solver";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:55:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CAKERNEL_Launch_Update_Pressure";
    s0.placement = "in";
    s0.target = "Update_Pressure_Iterator";
    s0.after = {"CaCUDACFD3D_Pressure_Solver_Iterate"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Iteratively solves the conservation of mass equation (by adjusting pressure and velocity)";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:60:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CAKERNEL_Launch_Update_Boundaries";
    s0.placement = "in";
    s0.target = "Update_Pressure_Iterator";
    s0.after = {"CaCUDACFD3D_Pressure_Solver_Iterate"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Update the velocity on the boundaries";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:66:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_CopyFromDev_Boundary";
    s0.placement = "in";
    s0.target = "CCTK_EVOL";
    s0.after = {"Update_Pressure"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.clauses.push_back({"SYNC", {"velocity", "pressure"}});
    s0.description = "Copy variables (boundary only) from devices";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:73:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_CopyToDev_Boundary";
    s0.placement = "in";
    s0.target = "CCTK_EVOL";
    s0.after = {"CaCUDA_CopyFromDev_Boundary"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Copy variables to device (boundary only)";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:79:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_CopyFromDev";
    s0.placement = "in";
    s0.target = "CCTK_ANALYSIS";
    s0.clauses.push_back({"LANG", {"C"}});
    s0.clauses.push_back({"TRIGGERS", {"velocity", "pressure"}});
    s0.description = "Copy variables from devices";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:85:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_AllocMem";
    s0.is_group = true;
    s0.placement = "in";
    s0.target = "CCTK_BASEGRID";
    s0.after = {"CaCUDALib_SetDev"};
    s0.description = "Alloc device memory";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:89:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_FreeMem";
    s0.is_group = true;
    s0.placement = "in";
    s0.target = "CaCUDA_Shutdown";
    s0.description = "Free device memory";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:99:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_CopyToDev";
    s0.placement = "in";
    s0.target = "CaCUDA_AllocMem";
    s0.after = {"CaCUDA_AllocDevMem"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Allocate memory for variables on devices";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "thorns/CaCUDACFD3DWOMOL/schedule.ccl:103:1";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_AllocDevMem";
    s0.placement = "in";
    s0.target = "CaCUDA_AllocMem";
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Allocate memory for variables on devices";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "templates/deps.ccl:22:8";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_CopyToDev";
    s0.placement = "in";
    s0.target = "CaCUDA_AllocMem";
    s0.after = {"CaCUDA_AllocDevMem"};
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Allocate memory for variables on devices";
    b.schedule.push_back(std::move(s0));
  }
  {
    opuntia::schedule_binding s0;
    s0.origin = "templates/deps.ccl:38:8";
    s0.what = opuntia::schedule_binding::kind::item;
    s0.name = "CaCUDA_AllocDevMem";
    s0.placement = "in";
    s0.target = "CaCUDA_AllocMem";
    s0.clauses.push_back({"LANG", {"C"}});
    s0.description = "Allocate memory for variables on devices";
    b.schedule.push_back(std::move(s0));
  }
  for (const char* kernel : {"Update_Velocity", "Update_Pressure", "Update_Boundaries"}) {
    opuntia::kernel_binding k;
    k.name = kernel;
    b.kernels.push_back(k);
  }
  for (const char* r : {"CACUDACFD3D_Init_LDC", "CaCUDACFD3D_Pressure_Solver_Iterator_Start",
                        "CaCUDACFD3D_Pressure_Solver_Iterate", "CaCUDA_CopyFromDev_Boundary",
                        "CaCUDA_CopyToDev_Boundary", "CaCUDA_CopyFromDev", "CaCUDA_CopyToDev", "CaCUDA_AllocDevMem"}) {
    b.routines.push_back({r, &no_op});
  }
  return b;
}

/// Stands in for CaCUDALib, which the CaCUDA thorn schedules against (CaCUDA_Shutdown, CaCUDALib_SetDev).
thorn_binding cacuda_lib_thorn() {
  return thorn("CaCUDALib", {routine("CaCUDALib_SetDev", "CCTK_BASEGRID"), group("CaCUDA_Shutdown", "CCTK_SHUTDOWN")});
}

TEST(schedule_tree, reproduces_the_cacuda_lid_driven_cavity_schedule) {
  const auto ldc = cacuda_thorn();
  const auto lib = cacuda_lib_thorn();
  parameter_values values;
  values.values["initial_data"] = "lid_driven_cavity";
  const auto tree = schedule_tree::build({&lib, &ldc}, values, cakernel_launch);
  EXPECT_EQ(tree.show(),
            "BASEGRID\n"
            "  CaCUDALib_SetDev                              [CaCUDALib]\n"
            "  group CaCUDA_AllocMem\n"
            "    CaCUDA_AllocDevMem                          [CaCUDACFD3DWOMOL]\n"
            "    CaCUDA_CopyToDev                            [CaCUDACFD3DWOMOL]\n"
            "INITIAL\n"
            "  CACUDACFD3D_Init_LDC                          [CaCUDACFD3DWOMOL]\n"
            "EVOL\n"
            "  group Update_Velocity\n"
            "    CAKERNEL_Launch_Update_Velocity             [CaCUDACFD3DWOMOL]\n"
            "    CAKERNEL_Launch_Update_Boundaries           [CaCUDACFD3DWOMOL]\n"
            "  group Update_Pressure\n"
            "    CaCUDACFD3D_Pressure_Solver_Iterator_Start  [CaCUDACFD3DWOMOL]\n"
            "    group Update_Pressure_Iterator  while cacudacfd3dwomol::psolver_step\n"
            "      CaCUDACFD3D_Pressure_Solver_Iterate       [CaCUDACFD3DWOMOL]\n"
            "      CAKERNEL_Launch_Update_Pressure           [CaCUDACFD3DWOMOL]\n"
            "      CAKERNEL_Launch_Update_Boundaries         [CaCUDACFD3DWOMOL]\n"
            "  CaCUDA_CopyFromDev_Boundary                   [CaCUDACFD3DWOMOL]  sync cacudacfd3dwomol::velocity, "
            "cacudacfd3dwomol::pressure\n"
            "  CaCUDA_CopyToDev_Boundary                     [CaCUDACFD3DWOMOL]\n"
            "ANALYSIS\n"
            "  CaCUDA_CopyFromDev                            [CaCUDACFD3DWOMOL]\n"
            "SHUTDOWN\n"
            "  group CaCUDA_Shutdown\n"
            "    group CaCUDA_FreeMem\n");
  EXPECT_EQ(tree.storage(),
            (strings{"cacudacfd3dwomol::velocity", "cacudacfd3dwomol::pressure", "cacudacfd3dwomol::psolver_step"}));
  const auto& copy = tree.bin("ANALYSIS")[0];
  EXPECT_EQ(copy.triggers, (strings{"cacudacfd3dwomol::velocity", "cacudacfd3dwomol::pressure"}));
  EXPECT_EQ(copy.origin, "thorns/CaCUDACFD3DWOMOL/schedule.ccl:79:1");
  EXPECT_EQ(copy.description, "Copy variables from devices");
  // The deps.ccl repeats of CaCUDA_CopyToDev and CaCUDA_AllocDevMem run once, as first scheduled.
  EXPECT_EQ(tree.bin("BASEGRID")[1].children[1].origin, "thorns/CaCUDACFD3DWOMOL/schedule.ccl:99:1");
}

TEST(schedule_tree, cacuda_without_cacudalib_names_the_missing_group) {
  const auto ldc = cacuda_thorn();
  parameter_values values;
  values.values["initial_data"] = "something_else";
  EXPECT_EQ(errors({&ldc}, values),
            "thorns/CaCUDACFD3DWOMOL/schedule.ccl:89:1: unknown schedule bin or group 'CaCUDA_Shutdown'\n");
}

}  // namespace

namespace {

TEST(schedule_tree, a_group_inside_itself_directly) {
  const auto t = thorn("T", {group("Loop", "loop", "s.ccl:3:1")});
  EXPECT_EQ(errors(t), "s.ccl:3:1: group 'Loop' is scheduled inside itself: Loop in Loop\n");
}

TEST(schedule_tree, same_routine_name_from_two_thorns_runs_twice) {
  const auto a = thorn("A", {routine("Setup", "BASEGRID")});
  const auto b = thorn("B", {routine("Setup", "BASEGRID"), routine("Setup", "basegrid")});  // B's repeat: once
  parameter_values values;
  const auto tree = schedule_tree::build({&a, &b}, values);
  ASSERT_EQ(tree.bin("BASEGRID").size(), 2u);
  EXPECT_EQ(tree.bin("BASEGRID")[0].thorn, "A");
  EXPECT_EQ(tree.bin("BASEGRID")[1].thorn, "B");
}

TEST(schedule_tree, a_kernel_launch_needs_a_kernel_of_its_own_thorn) {
  auto a = thorn("A", {});
  opuntia::kernel_binding k;
  k.name = "Update";
  a.kernels.push_back(k);
  auto b = thorn("B", {routine("CAKERNEL_Launch_Update", "EVOL", "b/schedule.ccl:2:1")});
  b.routines.clear();
  parameter_values values;
  EXPECT_EQ(errors({&a, &b}, values),
            "b/schedule.ccl:2:1: routine 'CAKERNEL_Launch_Update' of thorn B has no function: define void "
            "CAKERNEL_Launch_Update(opuntia::routine_context&) in the thorn's src/\n");
}

TEST(schedule_tree, a_kernel_launch_names_its_kernel_by_the_runtime_s_rule) {
  auto t = thorn("T", {routine("CAKERNEL_Launch_Update", "EVOL"), routine("Init", "INITIAL")});
  t.routines = {{"Init", &no_op}};
  opuntia::kernel_binding k;
  k.name = "Update";
  t.kernels.push_back(k);
  parameter_values values;
  const auto tree = schedule_tree::build({&t}, values, cakernel_launch);
  ASSERT_EQ(tree.bin("EVOL").size(), 1u);
  EXPECT_EQ(tree.bin("EVOL")[0].kernel, "Update");
  EXPECT_EQ(tree.bin("INITIAL")[0].kernel, "");  // a host routine
  // Without a kernel runtime's rule no function launches a kernel.
  EXPECT_THROW(schedule_tree::build({&t}, values), opuntia::ccl::input_error);
}

TEST(schedule_tree, a_failed_condition_takes_neither_branch) {
  const auto t = thorn("T", {conditional("'unterminated", {routine("R", "NOWHERE")}, {routine("S", "NOWHERE")})});
  EXPECT_EQ(errors(t), "s.ccl:5:1: in condition ('unterminated) at character 14: unterminated string: no closing "
                       "'''; found the end of the condition\n");
}

}  // namespace
