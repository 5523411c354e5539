#include "flesh/runtime/providers.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ccl/parse.hpp"
#include "test_driver.hpp"

namespace {

using namespace opuntia;
using test_support::test_driver;

thorn_binding thorn(std::string name) {
  thorn_binding t;
  t.name = name;
  t.implementation = name + "_impl";
  return t;
}

// What the thorns of these tests provide, as their src/provide.cpp would.
void provide_grid_a(providers& p) {
  p.add_driver({[](const parameter_source&) -> std::unique_ptr<driver> { return std::make_unique<test_driver>("a"); }});
}
void provide_grid_b(providers& p) {
  p.add_driver({[](const parameter_source&) -> std::unique_ptr<driver> { return std::make_unique<test_driver>("b"); }});
}
void provide_always_active_grid(providers& p) {
  p.always_active();
  p.add_driver({[](const parameter_source&) -> std::unique_ptr<driver> {
    return std::make_unique<test_driver>("always");
  }});
}
void provide_nothing(providers&) {}

/// Builds GridA, GridB (drivers), Physics (none) and, with `with_always_active`, Base (an always
/// active driver thorn); applies `text`; returns the chosen driver's name or the error.
std::string chosen_driver(const std::string& text, bool with_always_active = false) {
  providers provided;
  std::vector<thorn_binding> thorns;
  if (with_always_active) {
    provided.add("Base", &provide_always_active_grid);
    thorns.push_back(thorn("Base"));
  }
  provided.add("GridA", &provide_grid_a);
  provided.add("GridB", &provide_grid_b);
  provided.add("Physics", &provide_nothing);
  for (const char* name : {"GridA", "GridB", "Physics"}) thorns.push_back(thorn(name));
  auto registry = provided.registry_of(thorns);
  const ccl::source_file source{"run.par", text};
  try {
    const auto parfile = ccl::parse_parfile(source);
    registry.apply(parfile, source);
    return provided.active_driver(registry, parfile, source).make(registry)->name();
  } catch (const ccl::input_error& e) {
    return ccl::format_diagnostics(e.diagnostics());
  }
}

TEST(providers, the_active_driver_thorn_provides_the_driver) {
  EXPECT_EQ(chosen_driver("ActiveThorns = \"Physics GridB\"\n"), "b");
  EXPECT_EQ(chosen_driver("ActiveThorns = \"gridA\"\nActiveThorns = \"Physics\"\n"), "a");
  EXPECT_EQ(chosen_driver("", true), "always");
}

TEST(providers, two_active_driver_thorns_are_an_error_where_the_second_is_named) {
  EXPECT_EQ(chosen_driver("ActiveThorns = \"GridA Physics\"\nActiveThorns = \"GridB\"\n"),
            "run.par:2:17: error: thorns 'GridA' and 'GridB' both provide a driver; activate only one\n"
            "ActiveThorns = \"GridB\"\n"
            "                ^\n");
  // An always-active driver thorn and one the file activates: at the one the file names.
  EXPECT_EQ(chosen_driver("# comment\nActiveThorns = \"Physics GridA\"\n", true),
            "run.par:2:25: error: thorns 'Base' and 'GridA' both provide a driver; activate only one\n"
            "ActiveThorns = \"Physics GridA\"\n"
            "                        ^\n");
}

TEST(providers, no_active_driver_thorn_is_an_error_naming_those_that_provide_one) {
  EXPECT_EQ(chosen_driver("# comment\nActiveThorns = \"Physics\"\n"),
            "run.par:2:1: error: no active thorn provides a driver; activate 'GridA' or 'GridB'\n"
            "ActiveThorns = \"Physics\"\n"
            "^\n");
  // No ActiveThorns line at all: the file's first line.
  EXPECT_EQ(chosen_driver("# nothing\n"),
            "run.par:1:1: error: no active thorn provides a driver; activate 'GridA' or 'GridB'\n"
            "# nothing\n"
            "^\n");
}

TEST(providers, a_build_without_a_provider_says_so) {
  providers provided;
  provided.add("Physics", &provide_nothing);
  auto registry = provided.registry_of({thorn("Physics")});
  const ccl::source_file source{"run.par", "ActiveThorns = \"Physics\"\n"};
  const auto parfile = ccl::parse_parfile(source);
  registry.apply(parfile, source);
  try {
    provided.active_time_step(registry, parfile, source);
    FAIL() << "no error";
  } catch (const ccl::input_error& e) {
    EXPECT_EQ(e.diagnostics().front().message, "no thorn of this build provides the time step");
  }
}

TEST(providers, always_active_thorns_are_active_in_the_registry_they_build) {
  providers provided;
  provided.add("Base", &provide_always_active_grid);
  provided.add("GridA", &provide_grid_a);
  EXPECT_TRUE(provided.is_always_active("base"));
  EXPECT_FALSE(provided.is_always_active("GridA"));
  EXPECT_EQ(provided.always_active_thorns(), (std::vector<std::string>{"Base"}));
  auto registry = provided.registry_of({thorn("Base"), thorn("GridA")});
  const ccl::source_file source{"run.par", ""};
  registry.apply(ccl::parse_parfile(source), source);
  EXPECT_EQ(registry.active_thorns(), (std::vector<std::string>{"Base"}));
  ASSERT_EQ(provided.drivers().size(), 2u);
  EXPECT_EQ(provided.drivers()[0].thorn, "Base");  // credited to the thorn whose provide() added it
  EXPECT_EQ(provided.drivers()[1].thorn, "GridA");
}

TEST(providers, adding_outside_a_provide_function_is_a_bug) {
  providers provided;
  EXPECT_THROW(provided.always_active(), std::logic_error);
  provided.add("GridA", &provide_grid_a);
  EXPECT_THROW(provided.add_command({}), std::logic_error);  // add() is over
}

}  // namespace
