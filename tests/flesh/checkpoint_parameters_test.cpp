// What a checkpoint records of the parameters, and what a recovering run may not change of them
// (flesh/runtime/checkpoint_parameters.cpp): STEERABLE=recover and always may change, the rest
// not; the active thorns not either; values round-trip however they are written.
#include "flesh/runtime/checkpoint_parameters.hpp"

#include <gtest/gtest.h>

#include "ccl/parse.hpp"
#include "parameter_bindings.hpp"

namespace {

using namespace opuntia;
using namespace opuntia::test_bindings;

parameter_binding steerable(parameter_binding p, std::string when) {
  p.steerable = std::move(when);
  return p;
}

parameter_registry registry_with(const std::string& parfile) {
  parameter_registry registry;
  registry.add_thorn(thorn("Grid", "grid",
                           {param("n", parameter_type::integer, "10"), param("xmax", parameter_type::real, "1.0"),
                            steerable(param("topology", parameter_type::keyword, "automatic", "",
                                            {words({"automatic", "manual"})}),
                                      "recover"),
                            steerable(param("itlast", parameter_type::integer, "10"), "always"),
                            array_of("2", param("weights", parameter_type::real, "0"))}),
                     activation::always);
  registry.add_thorn(thorn("Notes", "notes", {param("text", parameter_type::string, "")}));
  registry.add_thorn(thorn("Extra", "extra", {param("on", parameter_type::boolean, "no")}));
  const ccl::source_file file{"run.par", parfile};
  registry.apply(ccl::parse_parfile(file), file);
  return registry;
}

TEST(checkpoint_parameters, records_the_active_thorns_then_every_value_of_theirs) {
  const auto registry = registry_with("ActiveThorns = \"Notes\"\nGrid::xmax = 0.1\nGrid::weights[1] = 1e-300\n"
                                      "Notes::text = \"two\\nlines \\\\ and a backslash\"\n");
  EXPECT_EQ(recorded_parameters(registry),
            "ActiveThorns = \"Grid Notes\"\n"
            "Grid::n = 10\n"
            "Grid::xmax = 0.1\n"
            "Grid::topology = automatic\n"
            "Grid::itlast = 10\n"
            "Grid::weights[0] = 0\n"
            "Grid::weights[1] = 1e-300\n"
            "Notes::text = two\\nlines \\\\ and a backslash\n");
}

TEST(checkpoint_parameters, the_same_run_has_no_conflicts) {
  const std::string parfile = "ActiveThorns = \"Notes\"\nGrid::xmax = 0.1\nNotes::text = \"a\\nb\\\\\"\n";
  EXPECT_TRUE(conflicts_on_recovery(registry_with(parfile), recorded_parameters(registry_with(parfile))).empty());
}

TEST(checkpoint_parameters, steerable_on_recovery_parameters_may_change) {
  const auto record = recorded_parameters(registry_with(""));
  EXPECT_TRUE(
      conflicts_on_recovery(registry_with("Grid::topology = \"manual\"\nGrid::itlast = 99\n"), record).empty());
}

TEST(checkpoint_parameters, other_parameters_may_not_change_elements_named) {
  const auto record = recorded_parameters(registry_with("Grid::xmax = 0.1\n"));
  const auto conflicts = conflicts_on_recovery(registry_with("Grid::n = 12\nGrid::weights[1] = 0.5\n"), record);
  ASSERT_EQ(conflicts.changed.size(), 3u);
  EXPECT_EQ(conflicts.changed[0].name, "n");
  EXPECT_EQ(conflicts.changed[0].recorded, "10");
  EXPECT_EQ(conflicts.changed[0].now, "12");
  EXPECT_EQ(conflicts.changed[1].name, "xmax");
  EXPECT_EQ(conflicts.changed[1].recorded, "0.1");
  EXPECT_EQ(conflicts.changed[1].now, "1");
  EXPECT_EQ(conflicts.changed[2].name, "weights");
  EXPECT_EQ(conflicts.changed[2].index, 1);
  EXPECT_EQ(conflicts.changed[2].now, "0.5");
}

TEST(checkpoint_parameters, a_real_that_differs_in_its_last_bit_differs) {
  const auto record = recorded_parameters(registry_with("Grid::xmax = 0.1\n"));
  EXPECT_EQ(conflicts_on_recovery(registry_with("Grid::xmax = 0.10000000000000002\n"), record).changed.size(), 1u);
  EXPECT_TRUE(conflicts_on_recovery(registry_with("Grid::xmax = 1 / 10\n"), record).empty());
}

TEST(checkpoint_parameters, the_active_thorns_may_not_change) {
  const auto record = recorded_parameters(registry_with("ActiveThorns = \"Notes\"\n"));
  const auto conflicts = conflicts_on_recovery(registry_with("ActiveThorns = \"Extra\"\n"), record);
  EXPECT_EQ(conflicts.thorns_active_here_only, std::vector<std::string>{"Extra"});
  EXPECT_EQ(conflicts.thorns_active_there_only, std::vector<std::string>{"Notes"});
  EXPECT_TRUE(conflicts.changed.empty());  // neither side's own parameters are compared
}

TEST(checkpoint_parameters, parameters_another_build_does_not_have_are_not_compared) {
  const auto record = recorded_parameters(registry_with("")) + "Grid::gone = 3\n";
  EXPECT_TRUE(conflicts_on_recovery(registry_with(""), record).empty());
}

TEST(checkpoint_parameters, a_record_that_is_not_one_is_refused_naming_its_line) {
  try {
    conflicts_on_recovery(registry_with(""), "ActiveThorns = \"Grid\"\nGrid::n 10\n");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "line 2 of its parameters is not 'name = value': 'Grid::n 10'");
  }
}

}  // namespace
