#include "flesh/parameters/parameter_registry.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ccl/parse.hpp"
#include "parameter_bindings.hpp"

namespace {

/// The REAL value as the registry stores it (a double), whatever CCTK_REAL is in this build.
double real_value(const opuntia::parameter_registry& registry, std::string_view owner, std::string_view name,
                  int index = -1) {
  return std::get<double>(registry.value(owner, name, index));
}

using namespace opuntia;
using namespace opuntia::test_bindings;

thorn_binding heat_equation() {
  auto coeffs =
      param("coeffs", parameter_type::real, "0", "stencil coefficients", {}, parameter_access::private_access);
  coeffs.array_size = "3";
  auto t = thorn(
      "HeatEquation", "heatequation",
      {param("alpha", parameter_type::real, "1.0", "thermal diffusivity",
             {numeric("(0:*)", "0", "", true, false, "positive")}),
       param("order", parameter_type::integer, "4", "finite-difference order",
             {numeric("2:8:2", "2", "8", false, false, "even", "2")}),
       param("scheme", parameter_type::keyword, "central", "scheme",
             {words("\"upwind\"", {"upwind"}, "first order"), words("\"central\"", {"central"}, "second order")},
             parameter_access::private_access),
       param("label", parameter_type::string, "run 1", "name",
             {words("\"^[a-z0-9 ]+$\"", {"^[a-z0-9 ]+$"}, "lower case")}, parameter_access::private_access),
       param("verbose", parameter_type::boolean, "yes", "talk"), param("steps", parameter_type::integer, "10", "steps"),
       param("length", parameter_type::real, "1.0", "length"), param("note", parameter_type::string, "", "anything"),
       coeffs});
  return t;
}

thorn_binding cactus() {
  return thorn("Cactus", "cactus",
               {param("cctk_itlast", parameter_type::integer, "10", "last iteration",
                      {numeric("0:*", "0", "", false, false, "")}),
                param("cctk_final_time", parameter_type::real, "-1", "final time"),
                param("cctk_run_title", parameter_type::string, "", "title", {words("\"\"", {""}, "anything")}),
                param("cctk_timer_output", parameter_type::keyword, "off", "timers",
                      {words("\"off\", \"full\"", {"off", "full"}, "")}),
                param("cctk_show_schedule", parameter_type::boolean, "yes", ""),
                param("cctk_show_banners", parameter_type::boolean, "yes", ""),
                param("cctk_brief_output", parameter_type::boolean, "no", "")});
}

thorn_binding driver() {
  auto nx = param("global_nx", parameter_type::integer, "32", "points in x",
                  {numeric("1:*", "1", "", false, false, "")}, parameter_access::global_access);
  auto secret = param("secret", parameter_type::integer, "1", "", {}, parameter_access::private_access);
  auto mode = param("mode", parameter_type::keyword, "fast", "", {words("\"fast\"", {"fast"}, "")});
  return thorn("Driver", "driver", {nx, secret, mode});
}

thorn_binding time_thorn() {
  return thorn(
      "Time", "time",
      {param("dtfac", parameter_type::real, "0.5", "courant factor", {numeric("(0:1]", "0", "1", true, false, "")})});
}

thorn_binding io() {
  return thorn("IO", "io",
               {param("out_dir", parameter_type::string, "output", "output folder", {}),
                param("verbose", parameter_type::keyword, "standard", "",
                      {words("\"none\", \"standard\", \"full\"", {"none", "standard", "full"}, "")}),
                param("out_every", parameter_type::integer, "0", "")});
}

// --- helpers -------------------------------------------------------------------------------

/// Adds `t` as the program does: Cactus, Driver, Time and IO always active, as their provide()
/// declares them (thorns/<Thorn>/src/provide.cpp).
void add_to(parameter_registry& registry, const thorn_binding& t) {
  const bool always = t.name == "Cactus" || t.name == "Driver" || t.name == "Time" || t.name == "IO";
  registry.add_thorn(t, always ? activation::always : activation::by_parfile);
}

void run(parameter_registry& registry, const std::string& text, const std::string& path = "run.par") {
  const ccl::source_file file{path, text};
  registry.apply(ccl::parse_parfile(file), file);
}

/// "line:column: message" for each error of applying `text`, one a line; "" when it applies.
std::string errors(parameter_registry& registry, const std::string& text, const std::string& path = "run.par") {
  try {
    run(registry, text, path);
  } catch (const ccl::input_error& e) {
    std::string out;
    for (const auto& d : e.diagnostics()) {
      out += d.where.path == path ? "" : d.where.path + ":";
      out += std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + ": " + d.message + "\n";
    }
    return out;
  }
  return "";
}

/// A registry with Cactus, Driver, Time, IO (always active, as their provide() declares them) and
/// HeatEquation, HeatEquation active.
struct parameter_registry_parfile : ::testing::Test {
  parameter_registry registry;
  void SetUp() override {
    for (const auto& t : {cactus(), driver(), time_thorn(), io(), heat_equation()}) add_to(registry, t);
  }
  /// Errors of a parfile that activates HeatEquation and then has `body`.
  std::string errors_of(const std::string& body) {
    return errors(registry, "ActiveThorns = \"HeatEquation\"\n" + body);
  }
};

// --- activation ----------------------------------------------------------------------------

TEST(parameter_registry, thorns_added_always_active_are_active_without_active_thorns) {
  parameter_registry registry;
  registry.add_thorn(cactus(), activation::always);
  registry.add_thorn(heat_equation());
  registry.add_thorn(time_thorn(), activation::always);
  run(registry, "");
  EXPECT_EQ(registry.active_thorns(), (std::vector<std::string>{"Cactus", "Time"}));
  EXPECT_TRUE(registry.is_active("cactus"));
  EXPECT_TRUE(registry.is_always_active("TIME"));
  EXPECT_FALSE(registry.is_active("HeatEquation"));
  EXPECT_FALSE(registry.is_always_active("HeatEquation"));
  EXPECT_FALSE(registry.is_active("Driver"));  // not registered
  EXPECT_EQ(registry.thorns(), (std::vector<std::string>{"Cactus", "HeatEquation", "Time"}));
}

TEST(parameter_registry, the_flesh_knows_no_thorn_by_name) {
  // Driver is no different from any other thorn unless it is added always active: an
  // ActiveThorns line that names an unregistered CaKernel is an unknown thorn.
  parameter_registry registry;
  registry.add_thorn(driver());
  run(registry, "");
  EXPECT_FALSE(registry.is_active("Driver"));
  EXPECT_EQ(errors(registry, "ActiveThorns = \"CaKernel\"\n"), "1:17: unknown thorn 'CaKernel'; known: Driver\n");
}

TEST_F(parameter_registry_parfile, active_thorns_may_appear_more_than_once_in_any_case) {
  add_to(registry, thorn("Extra", "extra", {}));
  run(registry, "ActiveThorns = \"time heatequation\"\nActiveThorns = \"EXTRA Driver HeatEquation\"\n");
  EXPECT_EQ(registry.active_thorns(),
            (std::vector<std::string>{"Cactus", "Driver", "Time", "IO", "HeatEquation", "Extra"}));
  EXPECT_TRUE(registry.is_active("HEATEQUATION"));
  EXPECT_TRUE(registry.is_active("heatequation"));  // by implementation too
}

TEST_F(parameter_registry_parfile, unknown_thorn_in_active_thorns_names_the_nearest) {
  EXPECT_EQ(errors(registry, "ActiveThorns = \"Time HeatEquaton Nonsense\"\n"),
            "1:22: unknown thorn 'HeatEquaton'; did you mean 'HeatEquation'?\n"
            "1:34: unknown thorn 'Nonsense'; known: Cactus, Driver, Time, IO, HeatEquation\n");
}

TEST_F(parameter_registry_parfile, active_thorns_names_thorns_not_implementations) {
  add_to(registry, thorn("CartGrid3D", "grid", {}));
  EXPECT_EQ(errors(registry, "ActiveThorns = \"grid\"\nGrid::x = 1\nGird::x = 1\n"),
            "1:17: unknown thorn 'grid'; implementation 'grid' is provided by thorn 'CartGrid3D'\n"
            "2:1: thorn 'CartGrid3D' is not active; add it to ActiveThorns\n"
            "3:1: unknown thorn or implementation 'Gird'; did you mean 'grid'?\n");
}

TEST_F(parameter_registry_parfile, two_thorns_of_one_implementation_cannot_both_be_active) {
  add_to(registry, thorn("HeatEquation2", "heatequation", {}));
  EXPECT_EQ(errors(registry, "ActiveThorns = \"HeatEquation HeatEquation2\"\n"),
            "1:30: thorns 'HeatEquation' and 'HeatEquation2' both provide implementation 'heatequation'; "
            "activate only one\n");
}

// --- values --------------------------------------------------------------------------------

TEST_F(parameter_registry_parfile, sets_values_by_thorn_or_implementation_in_any_case) {
  run(registry,
      "ActiveThorns = \"HeatEquation\"\n"
      "HeatEquation::alpha = 2.5\n"
      "heatequation::ORDER = 6\n"
      "HEATEQUATION::scheme = UPWIND\n"
      "HeatEquation::label = \"my run 2\"\n"
      "HeatEquation::verbose = no\n"
      "Driver::global_nx = 128\n"
      "Time::dtfac = 1.d-1\n"
      "IO::out_dir = 'out put'\n");
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "alpha"), 2.5);
  EXPECT_EQ(registry.integer("heatequation", "order"), 6);
  EXPECT_EQ(registry.text("HeatEquation", "scheme"), "upwind");  // the declared spelling
  EXPECT_EQ(registry.text("HeatEquation", "label"), "my run 2");
  EXPECT_FALSE(registry.boolean("HeatEquation", "verbose"));
  EXPECT_EQ(registry.integer("driver", "global_nx"), 128);
  EXPECT_DOUBLE_EQ(real_value(registry, "Time", "dtfac"), 0.1);
  EXPECT_EQ(registry.text("IO", "out_dir"), "out put");
  EXPECT_EQ(std::get<long long>(registry.value("HeatEquation", "order")), 6);
  EXPECT_TRUE(registry.was_set("HeatEquation", "alpha"));
  EXPECT_FALSE(registry.was_set("HeatEquation", "steps"));
}

TEST_F(parameter_registry_parfile, defaults_stand_when_nothing_is_set) {
  run(registry, "");
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "alpha"), 1.0);
  EXPECT_EQ(registry.integer("HeatEquation", "order"), 4);
  EXPECT_EQ(registry.text("HeatEquation", "scheme"), "central");
  EXPECT_EQ(registry.text("HeatEquation", "label"), "run 1");
  EXPECT_TRUE(registry.boolean("HeatEquation", "verbose"));
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "coeffs", 2), 0.0);
  EXPECT_EQ(registry.integer("Cactus", "cctk_itlast"), 10);
}

TEST_F(parameter_registry_parfile, later_assignments_win) {
  run(registry, "Driver::global_nx = 10\nDriver::global_nx = 20\n");
  EXPECT_EQ(registry.integer("Driver", "global_nx"), 20);
}

TEST_F(parameter_registry_parfile, booleans_in_every_spelling) {
  const std::vector<std::pair<std::string, bool>> cases{
      {"yes", true},    {"no", false},        {"true", true},  {"false", false}, {"1", true},       {"0", false},
      {"YES", true},    {"No", false},        {"TRUE", true},  {"False", false}, {"\"yes\"", true}, {"\"NO\"", false},
      {"'true'", true}, {"\"False\"", false}, {"\"1\"", true}, {"'0'", false}};
  for (const auto& [text, expected] : cases) {
    run(registry, "ActiveThorns = \"HeatEquation\"\nHeatEquation::verbose = " + text + "\n");
    EXPECT_EQ(registry.boolean("HeatEquation", "verbose"), expected) << text;
  }
}

TEST_F(parameter_registry_parfile, keyword_and_string_values_may_be_bare_words_or_numbers) {
  run(registry,
      "IO::verbose = FULL\nIO::out_dir = output_2\nHeatEquation::note = 42\n"
      "ActiveThorns = \"HeatEquation\"\n");
  EXPECT_EQ(registry.text("IO", "verbose"), "full");
  EXPECT_EQ(registry.text("IO", "out_dir"), "output_2");
  EXPECT_EQ(registry.text("HeatEquation", "note"), "42");
}

TEST_F(parameter_registry_parfile, string_ranges_are_regular_expressions) {
  run(registry, "ActiveThorns = \"HeatEquation\"\nHeatEquation::label = \"abc 12\"\n");
  EXPECT_EQ(registry.text("HeatEquation", "label"), "abc 12");
  // An empty pattern accepts anything, as an empty range list does.
  run(registry, "Cactus::cctk_run_title = \"Anything At All!\"\nIO::out_dir = \"/tmp/x y\"\n");
  EXPECT_EQ(registry.text("Cactus", "cctk_run_title"), "Anything At All!");
  EXPECT_EQ(registry.text("IO", "out_dir"), "/tmp/x y");
}

TEST_F(parameter_registry_parfile, numbers_in_quotes_and_integral_reals_are_numbers) {
  run(registry,
      "ActiveThorns = \"HeatEquation\"\n"
      "HeatEquation::steps = 1e3\n"
      "HeatEquation::length = \"2.5\"\n"
      "Cactus::cctk_itlast = \"100\"\n"
      "HeatEquation::order = 2*3.0\n");
  EXPECT_EQ(registry.integer("HeatEquation", "steps"), 1000);
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "length"), 2.5);
  EXPECT_EQ(registry.integer("Cactus", "cctk_itlast"), 100);
  EXPECT_EQ(registry.integer("HeatEquation", "order"), 6);
}

TEST_F(parameter_registry_parfile, huge_numbers) {
  // The largest REAL the build's CCTK_REAL holds (a float build cannot take 1.5e308).
  const bool double_build = sizeof(CCTK_REAL) == sizeof(double);
  run(registry, std::string("ActiveThorns = \"HeatEquation\"\n"
                            "HeatEquation::steps = 2147483647\n") +
                    (double_build ? "HeatEquation::length = 1.5e308\n" : "HeatEquation::length = 3.0e38\n") +
                    "Cactus::cctk_final_time = -2147483648\n"
                    "Cactus::cctk_itlast = 0\n");
  EXPECT_EQ(registry.integer("HeatEquation", "steps"), 2147483647);
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "length"), double_build ? 1.5e308 : 3.0e38);
  run(registry, "HeatEquation::steps = -2147483648\n");
  EXPECT_EQ(registry.integer("HeatEquation", "steps"), -2147483647 - 1);
  EXPECT_EQ(errors_of("HeatEquation::steps = 2147483648\n"
                      "HeatEquation::steps = 99999999999999999999\n"
                      "HeatEquation::steps = -2**40\n"
                      "HeatEquation::length = 1e400\n"
                      "HeatEquation::length = 1e300 * 1e300\n"
                      "HeatEquation::steps = 1e20\n"),
            "2:23: value 2147483648 of 'HeatEquation::steps' does not fit CCTK_INT (-2147483648 to 2147483647)\n"
            "3:23: value 99999999999999999999 of 'HeatEquation::steps' does not fit CCTK_INT (-2147483648 to "
            "2147483647)\n"
            "4:23: value -1099511627776 of 'HeatEquation::steps' does not fit CCTK_INT (-2147483648 to 2147483647)\n"
            "5:24: number 1e400 is too large for a double\n"
            "6:24: the value of the expression is not a finite number\n"
            "7:23: value 1e20 of 'HeatEquation::steps' does not fit CCTK_INT (-2147483648 to 2147483647)\n");
}

// --- expressions ---------------------------------------------------------------------------

TEST_F(parameter_registry_parfile, arithmetic_expressions) {
  const std::vector<std::pair<std::string, double>> cases{
      {"2*pi/64", 2 * 3.14159265358979323846 / 64},
      {"1 + 2 * 3", 7},
      {"(1 + 2) * 3", 9},
      {"2**3**2", 512},  // right associative
      {"-2**2", -4},
      {"2**-1", 0.5},
      {"7/2", 3.5},
      {"0.5 * (1.d-1 + 2**-3)", 0.1125},
      {"sqrt(16)", 4},
      {"SQRT(2)*sqrt(2)", 2},
      {"sin(0) + cos(0) + tan(0)", 1},
      {"exp(0) + log(1)", 1},
      {"abs(-3) + int(7.9) + floor(-1.5) + ceil(1.2)", 3 + 7 - 2 + 2},
      {"min(3, 1, 2) + max(4, 5.5)", 6.5},
      {"-(-3)", 3},
      {"+4", 4},
      {"PI", 3.14159265358979323846},
      {"\"2\" * 3", 6},
      {"-\"2\"", -2},
  };
  for (const auto& [text, expected] : cases) {
    run(registry, "ActiveThorns = \"HeatEquation\"\nHeatEquation::length = " + text + "\n");
    EXPECT_NEAR(real_value(registry, "HeatEquation", "length"), expected, 1e-12) << text;
  }
  run(registry, "HeatEquation::steps = 2**10 - int(2.5) * 3 + 10/5\n");
  EXPECT_EQ(registry.integer("HeatEquation", "steps"), 1024 - 6 + 2);
}

TEST_F(parameter_registry_parfile, chains_apply_left_to_right_and_200000_terms_evaluate) {
  std::string sum = "Cactus::cctk_itlast = 0";
  for (int i = 0; i < 200000; ++i) sum += "+1";
  run(registry, "ActiveThorns = \"HeatEquation\"\n" + sum + "\nHeatEquation::steps = 10 - 3 - 2 + 1\n"
                "HeatEquation::length = 8 / 4 / 2 * 3\n");
  EXPECT_EQ(registry.integer("Cactus", "cctk_itlast"), 200000);
  EXPECT_EQ(registry.integer("HeatEquation", "steps"), 6);
  EXPECT_NEAR(real_value(registry, "HeatEquation", "length"), 3, 1e-12);
  EXPECT_EQ(errors_of("HeatEquation::length = 1 + 2 / 0 - 3\n"), "2:28: division by zero\n");
}

TEST_F(parameter_registry_parfile, references_read_the_value_at_that_point) {
  run(registry,
      "ActiveThorns = \"HeatEquation\"\n"
      "Driver::global_nx = 65\n"
      "HeatEquation::length = 1.0 / (Driver::global_nx - 1)\n"
      "Driver::global_nx = 129\n"
      "HeatEquation::steps = driver::GLOBAL_NX * 2\n"
      "HeatEquation::label = HeatEquation::label\n"
      "IO::out_dir = HeatEquation::scheme\n"
      "HeatEquation::verbose = Cactus::cctk_brief_output\n");
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "length"), 1.0 / 64);
  EXPECT_EQ(registry.integer("HeatEquation", "steps"), 258);
  EXPECT_EQ(registry.text("HeatEquation", "label"), "run 1");
  EXPECT_EQ(registry.text("IO", "out_dir"), "central");
  EXPECT_FALSE(registry.boolean("HeatEquation", "verbose"));
}

TEST_F(parameter_registry_parfile, parfile_variable_is_the_file_name) {
  run(registry, "IO::out_dir = $parfile\n", "par/heat_1d.par");
  EXPECT_EQ(registry.text("IO", "out_dir"), "heat_1d");
  run(registry, "IO::out_dir = ${parfile}\n", "wave.PAR");
  EXPECT_EQ(registry.text("IO", "out_dir"), "wave");
}

TEST_F(parameter_registry_parfile, parfile_in_a_string_is_the_whole_name_and_not_escaped) {
  // The backslash keeps `$parfile` as text; `$parfiles` is another word; CRLF changes nothing.
  run(registry, "IO::out_dir = \"runs/$parfile/${parfile}x \\$parfile \\${parfile} $parfiles $5\"\r\n", "heat.par");
  EXPECT_EQ(registry.text("IO", "out_dir"), "runs/heat/heatx $parfile ${parfile} $parfiles $5");
  run(registry, "IO::out_dir = '$parfile$parfile'\n", "wave.par");
  EXPECT_EQ(registry.text("IO", "out_dir"), "wavewave");
}

// --- arrays --------------------------------------------------------------------------------

TEST_F(parameter_registry_parfile, array_elements_are_set_one_by_one) {
  run(registry,
      "ActiveThorns = \"HeatEquation\"\n"
      "HeatEquation::coeffs[0] = 1\n"
      "HeatEquation::coeffs[1+1] = -2.5\n");
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "coeffs", 0), 1.0);
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "coeffs", 1), 0.0);
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "coeffs", 2), -2.5);
  EXPECT_THROW(real_value(registry, "HeatEquation", "coeffs", 3), std::logic_error);
  EXPECT_THROW(real_value(registry, "HeatEquation", "coeffs"), std::logic_error);
}

// --- errors, one rule each -----------------------------------------------------------------

TEST_F(parameter_registry_parfile, unknown_thorn_with_suggestion) {
  EXPECT_EQ(errors_of("HeatEquaton::alpha = 1\nNothing::x = 1\nNothing::y = 2\n"),
            "2:1: unknown thorn or implementation 'HeatEquaton'; did you mean 'HeatEquation'?\n"
            "3:1: unknown thorn or implementation 'Nothing'; known: Cactus, Driver, Time, IO, HeatEquation\n");
}

TEST_F(parameter_registry_parfile, unknown_parameter_with_suggestion) {
  EXPECT_EQ(errors_of("HeatEquation::alpah = 1\n"),
            "2:15: unknown parameter 'alpah' of thorn 'HeatEquation'; did you mean 'alpha'?\n");
}

TEST_F(parameter_registry_parfile, parameter_of_an_inactive_thorn) {
  EXPECT_EQ(errors(registry, "HeatEquation::alpha = 2\n"),
            "1:1: thorn 'HeatEquation' is not active; add it to ActiveThorns\n");
}

TEST_F(parameter_registry_parfile, value_of_the_wrong_type) {
  EXPECT_EQ(errors_of("HeatEquation::alpha = \"abc\"\n"
                      "HeatEquation::steps = yes\n"
                      "HeatEquation::verbose = maybe\n"
                      "HeatEquation::verbose = 2\n"
                      "HeatEquation::label = 1 + 2\n"
                      "HeatEquation::alpha = yes\n"),
            "2:23: expected a number for REAL parameter 'HeatEquation::alpha', not 'abc'\n"
            "3:23: expected an integer for INT parameter 'HeatEquation::steps', not 'yes'\n"
            "4:25: expected yes, no, true, false, 1 or 0 for BOOLEAN parameter 'HeatEquation::verbose', not 'maybe'\n"
            "5:25: expected yes, no, true, false, 1 or 0 for BOOLEAN parameter 'HeatEquation::verbose', not '2'\n"
            "6:23: expected a quoted string or a word for STRING parameter 'HeatEquation::label', not 3\n"
            "7:23: expected a number for REAL parameter 'HeatEquation::alpha', not 'yes'\n");
}

TEST_F(parameter_registry_parfile, non_integral_value_for_an_int) {
  EXPECT_EQ(errors_of("HeatEquation::steps = 2.5\nHeatEquation::steps = 5/2\nHeatEquation::steps = pi\n"),
            "2:23: expected an integer for INT parameter 'HeatEquation::steps', not '2.5'\n"
            "3:23: expected an integer for INT parameter 'HeatEquation::steps', not '2.5'\n"
            "4:23: expected an integer for INT parameter 'HeatEquation::steps', not 'pi'\n");
}

TEST_F(parameter_registry_parfile, value_outside_every_range_lists_the_ranges) {
  EXPECT_EQ(errors_of("HeatEquation::alpha = 0\n"),
            "2:23: value 0 of 'HeatEquation::alpha' is outside every range: (0:*) :: \"positive\"\n");
  EXPECT_EQ(errors_of("HeatEquation::order = 5\nHeatEquation::order = 10\nTime::dtfac = 1.5\n"),
            "2:23: value 5 of 'HeatEquation::order' is outside every range: 2:8:2 :: \"even\"\n"
            "3:23: value 10 of 'HeatEquation::order' is outside every range: 2:8:2 :: \"even\"\n"
            "4:15: value 1.5 of 'Time::dtfac' is outside every range: (0:1]\n");
  run(registry, "HeatEquation::order = 8\nTime::dtfac = 1\nHeatEquation::alpha = 1e-300\n");
  EXPECT_EQ(registry.integer("HeatEquation", "order"), 8);
}

TEST_F(parameter_registry_parfile, several_ranges_are_all_listed) {
  parameter_registry r;
  add_to(r, thorn("Grid", "grid",
                    {param("n", parameter_type::integer, "1", "",
                           {numeric("1:10", "1", "10", false, false, "small"),
                            numeric("[100:200)", "100", "200", false, true, "large")})}));
  run(r, "ActiveThorns = \"Grid\"\nGrid::n = 150\n");
  EXPECT_EQ(r.integer("Grid", "n"), 150);
  EXPECT_EQ(errors(r, "ActiveThorns = \"Grid\"\nGrid::n = 200\n"),
            "2:11: value 200 of 'Grid::n' is outside every range: 1:10 :: \"small\"; [100:200) :: \"large\"\n");
}

TEST_F(parameter_registry_parfile, keyword_outside_its_choices_lists_them) {
  EXPECT_EQ(errors_of("HeatEquation::scheme = cental\nHeatEquation::scheme = \"leapfrog\"\n"),
            "2:24: value 'cental' of 'HeatEquation::scheme' is not one of upwind, central; did you mean 'central'?\n"
            "3:24: value 'leapfrog' of 'HeatEquation::scheme' is not one of its values: \"upwind\" :: \"first order\"; "
            "\"central\" :: \"second order\"\n");
}

TEST_F(parameter_registry_parfile, string_that_matches_no_pattern) {
  EXPECT_EQ(errors_of("HeatEquation::label = \"Run One\"\n"),
            "2:23: value 'Run One' of 'HeatEquation::label' matches none of the patterns '^[a-z0-9 ]+$'\n");
  // An empty value is said to be one (a pattern means little to whoever left it empty).
  EXPECT_EQ(errors_of("HeatEquation::label = \"\"\n"),
            "2:23: 'HeatEquation::label' may not be empty (its patterns: '^[a-z0-9 ]+$')\n");
}

// STRING ranges are POSIX extended regular expressions, as in Cactus; the matcher does not
// recurse per character, so a value of 200k characters (the ECMAScript matcher's stack overflowed
// at 25-30k) is matched or refused like a short one.
TEST_F(parameter_registry_parfile, very_long_string_values_are_matched_without_overflow) {
  const std::string long_word(200'000, 'a');
  EXPECT_EQ(errors_of("HeatEquation::label = \"" + long_word + "\"\n"), "");
  EXPECT_EQ(registry.text("HeatEquation", "label"), long_word);
  const auto refused = errors_of("HeatEquation::label = \"" + long_word + "!\"\n");
  EXPECT_EQ(refused.rfind("2:23: value 'aaaa", 0), 0u) << refused.substr(0, 80);
  EXPECT_NE(refused.find("!' of 'HeatEquation::label' matches none of the patterns '^[a-z0-9 ]+$'\n"), std::string::npos);
}

TEST(parameter_registry, malformed_string_range_names_the_reason) {
  parameter_registry r;
  try {
    add_to(r, thorn("U", "u", {param("s", parameter_type::string, "", "", {words("\"(\"", {"("}, "")})}));
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("malformed regular expression '(' in the ranges of 'U::s' (", 0), 0u) << e.what();
  }
}

TEST_F(parameter_registry_parfile, array_index_outside_the_array) {
  EXPECT_EQ(errors_of("HeatEquation::coeffs[3] = 1\nHeatEquation::coeffs[-1] = 1\nHeatEquation::coeffs[0.5] = 1\n"),
            "2:22: index 3 of 'HeatEquation::coeffs' is outside [0..2]\n"
            "3:22: index -1 of 'HeatEquation::coeffs' is outside [0..2]\n"
            "4:22: expected an integer index of 'HeatEquation::coeffs', not '0.5'\n");
}

TEST_F(parameter_registry_parfile, array_parameter_needs_an_index) {
  EXPECT_EQ(errors_of("HeatEquation::coeffs = 1\nHeatEquation::alpha[0] = 1\n"),
            "2:15: array parameter 'HeatEquation::coeffs' needs an index [0..2]\n"
            "3:21: parameter 'HeatEquation::alpha' is not an array; remove the index\n");
}

TEST_F(parameter_registry_parfile, division_by_zero_and_other_arithmetic_errors) {
  EXPECT_EQ(errors_of("HeatEquation::length = 1 / 0\n"
                      "HeatEquation::length = 2 * (1 / (3 - 3.0))\n"
                      "HeatEquation::length = 0 ** -1\n"
                      "HeatEquation::length = sqrt(-4)\n"
                      "HeatEquation::length = log(0)\n"
                      "HeatEquation::length = sqrt(1, 2)\n"
                      "HeatEquation::length = max(1)\n"
                      "HeatEquation::length = 1 + \"abc\"\n"
                      "HeatEquation::length = 2 * foo\n"),
            "2:24: division by zero\n"
            "3:29: division by zero\n"
            "4:24: division by zero\n"
            "5:24: sqrt of a negative number (-4)\n"
            "6:24: log of a number that is not positive (0)\n"
            "7:24: function 'sqrt' takes 1 argument, not 2\n"
            "8:24: function 'max' takes at least 2 arguments, not 1\n"
            "9:28: expected a number, not 'abc'\n"
            "10:28: expected a number, not 'foo'\n");
}

TEST_F(parameter_registry_parfile, unknown_function) {
  EXPECT_EQ(errors_of("HeatEquation::length = sqr(2)\nHeatEquation::length = 1 + frob(2)\n"),
            "2:24: unknown function 'sqr'; did you mean 'sqrt' or 'sin'?\n"
            "3:28: unknown function 'frob'; known: sqrt, sin, cos, tan, exp, log, abs, int, floor, ceil, min, max\n");
}

TEST_F(parameter_registry_parfile, unknown_variable) {
  EXPECT_EQ(errors_of("IO::out_dir = $home\n"), "2:15: unknown variable '$home'; the only one is $parfile\n");
}

TEST_F(parameter_registry_parfile, unknown_referenced_parameter) {
  EXPECT_EQ(errors_of("HeatEquation::length = 2 * Driver::global_mx\n"
                      "HeatEquation::length = Drivr::global_nx\n"
                      "HeatEquation::length = HeatEquation::coeffs\n"),
            "2:28: unknown parameter 'global_mx' of thorn 'Driver'; did you mean 'global_nx'?\n"
            "3:24: unknown thorn or implementation 'Drivr'; did you mean 'Driver'?\n"
            "4:24: array parameter 'HeatEquation::coeffs' cannot be used in an expression\n");
}

TEST_F(parameter_registry_parfile, strict_mode_rejects_a_second_assignment) {
  parameter_registry strict(parameter_level::strict);
  for (const auto& t : {driver(), heat_equation()}) add_to(strict, t);
  EXPECT_EQ(errors(strict,
                   "ActiveThorns = \"HeatEquation\"\n"
                   "Driver::global_nx = 10\n"
                   "HeatEquation::coeffs[1] = 1\n"
                   "HeatEquation::coeffs[2] = 1\n"
                   "driver::GLOBAL_NX = 20\n"
                   "HeatEquation::coeffs[1] = 1\n"),
            "5:1: parameter 'Driver::global_nx' is set twice; first at run.par:2:1\n"
            "6:1: parameter 'HeatEquation::coeffs[1]' is set twice; first at run.par:3:1\n");
  EXPECT_EQ(strict.integer("Driver", "global_nx"), 10);
}

TEST_F(parameter_registry_parfile, unread_lists_parameters_set_but_never_read) {
  parameter_registry strict(parameter_level::strict);
  for (const auto& t : {driver(), heat_equation()}) add_to(strict, t);
  run(strict,
      "ActiveThorns = \"HeatEquation\"\n"
      "HeatEquation::alpha = 2\n"
      "Driver::global_nx = 10\n"
      "HeatEquation::coeffs[2] = 1\n");
  (void)strict.real("HeatEquation", "alpha");
  (void)strict.integer("HeatEquation", "order");  // read but not set: fine
  const auto unread = strict.unread();
  EXPECT_EQ(ccl::format_diagnostics(unread),
            "run.par:3:1: error: parameter 'Driver::global_nx' is set but never read\n"
            "Driver::global_nx = 10\n"
            "^\n"
            "run.par:4:1: error: parameter 'HeatEquation::coeffs' is set but never read\n"
            "HeatEquation::coeffs[2] = 1\n"
            "^\n");
  (void)strict.value("driver", "global_nx");
  (void)strict.real("HeatEquation", "coeffs", 0);
  EXPECT_TRUE(strict.unread().empty());
}

TEST_F(parameter_registry_parfile, a_value_found_wrong_later_is_reported_where_the_file_set_it) {
  parameter_registry r;
  for (const auto& t : {driver(), heat_equation()}) add_to(r, t);
  run(r,
      "ActiveThorns = \"HeatEquation\"\r\n"
      "  driver::Global_NX = 10\r\n");
  const auto d = r.diagnostic_where_set("Driver", "global_nx", "no such device");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(ccl::format_diagnostic(*d), "run.par:2:23: error: no such device\n  driver::Global_NX = 10\n                      ^\n");
  // Not set by the file (its default), or no such parameter: no place to point at.
  EXPECT_FALSE(r.diagnostic_where_set("Driver", "global_ny", "x").has_value());
  EXPECT_FALSE(r.diagnostic_where_set("Driver", "no_such", "x").has_value());
}

TEST_F(parameter_registry_parfile, a_word_of_a_list_found_wrong_is_pointed_at) {
  parameter_registry r;
  for (const auto& t : {driver(), heat_equation()}) add_to(r, t);
  run(r,
      "ActiveThorns = \"HeatEquation\"\n"
      "HeatEquation::note = \"heat::uu heat::u\tHEAT::u2\"\n");
  const auto column = [&](std::string_view part) {
    const auto d = r.diagnostic_where_set("HeatEquation", "note", "m", part);
    return d ? d->where.column : 0;
  };
  EXPECT_EQ(column("heat::u"), 32);   // the whole word, not the start of heat::uu
  EXPECT_EQ(column("heat::u2"), 40);  // after a tab, case aside
  EXPECT_EQ(column("heat::uu"), 23);
  EXPECT_EQ(column("heat"), 22);      // not a whole word: the value
  EXPECT_EQ(column(""), 22);
}

TEST_F(parameter_registry_parfile, errors_are_collected_in_file_order_with_places) {
  const std::string text =
      "HeatEquation::alpha = -1\n"
      "ActiveThorns = \"HeatEquation Bogus\"\n"
      "HeatEquation::order = 3\n";
  const ccl::source_file file{"par/heat.par", text};
  try {
    registry.apply(ccl::parse_parfile(file), file);
    FAIL() << "expected errors";
  } catch (const ccl::input_error& e) {
    EXPECT_EQ(ccl::format_diagnostics(e.diagnostics()),
              "par/heat.par:1:23: error: value -1 of 'HeatEquation::alpha' is outside every range: (0:*) :: \"positive\"\n"
              "HeatEquation::alpha = -1\n"
              "                      ^\n"
              "par/heat.par:2:30: error: unknown thorn 'Bogus'; known: Cactus, Driver, Time, IO, HeatEquation\n"
              "ActiveThorns = \"HeatEquation Bogus\"\n"
              "                             ^\n"
              "par/heat.par:3:23: error: value 3 of 'HeatEquation::order' is outside every range: 2:8:2 :: \"even\"\n"
              "HeatEquation::order = 3\n"
              "                      ^\n");
  }
}

// --- USES and EXTENDS ----------------------------------------------------------------------

TEST_F(parameter_registry_parfile, uses_reads_the_sharing_implementation) {
  add_to(registry, thorn("Wave", "wave", {uses("global_nx", parameter_type::integer, "driver")}));
  run(registry, "ActiveThorns = \"Wave\"\nDriver::global_nx = 77\n");
  EXPECT_EQ(registry.integer("driver", "global_nx"), 77);  // as Wave's generated code reads it
  EXPECT_EQ(registry.integer("Wave", "global_nx"), 77);
  run(registry, "Wave::global_nx = 78\n");  // setting it through the user sets the owner
  EXPECT_EQ(registry.integer("Driver", "global_nx"), 78);
}

TEST_F(parameter_registry_parfile, uses_without_an_owner) {
  add_to(registry, 
      thorn("Wave", "wave",
            {uses("global_mx", parameter_type::integer, "driver"), uses("secret", parameter_type::integer, "driver"),
             uses("speed", parameter_type::real, "medium", "extends")}));
  EXPECT_EQ(errors(registry, "ActiveThorns = \"Wave\"\nWave::global_mx = 3\n"),
            "thorns/Wave/param.ccl:4:1: parameter 'Wave::global_mx' uses 'driver::global_mx', which no registered "
            "thorn shares (a global or restricted parameter of implementation 'driver')\n"
            "thorns/Wave/param.ccl:4:1: parameter 'Wave::secret' uses 'driver::secret', which no registered thorn "
            "shares (a global or restricted parameter of implementation 'driver')\n"
            "thorns/Wave/param.ccl:4:1: parameter 'Wave::speed' extends 'medium::speed', which no registered thorn "
            "shares (a global or restricted parameter of implementation 'medium')\n");
  EXPECT_THROW(registry.integer("Wave", "secret"), std::logic_error);
}

TEST_F(parameter_registry_parfile, uses_of_an_inactive_thorn_is_not_checked) {
  add_to(registry, thorn("Wave", "wave", {uses("global_mx", parameter_type::integer, "driver")}));
  EXPECT_EQ(errors(registry, ""), "");
}

TEST_F(parameter_registry_parfile, extends_adds_choices_and_ranges) {
  add_to(registry, 
      thorn("Fast", "fast",
            {uses("mode", parameter_type::keyword, "driver", "extends", {words("\"turbo\"", {"turbo"}, "faster")}),
             uses("global_nx", parameter_type::integer, "driver", "extends",
                  {numeric("-5:-1", "-5", "-1", false, false, "negative")})}));
  EXPECT_EQ(errors(registry, "Driver::mode = turbo\n"),
            "1:16: value 'turbo' of 'Driver::mode' is not one of fast\n");  // Fast is not active
  run(registry, "ActiveThorns = \"Fast\"\nDriver::mode = TURBO\nDriver::global_nx = -3\n");
  EXPECT_EQ(registry.text("driver", "mode"), "turbo");
  EXPECT_EQ(registry.integer("driver", "global_nx"), -3);
  EXPECT_EQ(errors(registry, "Driver::global_nx = 0\n"),
            "1:21: value 0 of 'Driver::global_nx' is outside every range: 1:*; -5:-1 :: \"negative\"\n");
}

// --- files ---------------------------------------------------------------------------------

TEST_F(parameter_registry_parfile, crlf_parfile) {
  run(registry,
      "# heat\r\nActiveThorns = \"HeatEquation\"\r\nHeatEquation::alpha = 0.25\r\n"
      "HeatEquation::scheme = \"upwind\"\r\n");
  EXPECT_DOUBLE_EQ(real_value(registry, "HeatEquation", "alpha"), 0.25);
  EXPECT_EQ(registry.text("HeatEquation", "scheme"), "upwind");
  EXPECT_EQ(errors(registry, "ActiveThorns = \"HeatEquation\"\r\nHeatEquation::alpha = 0\r\n"),
            "2:23: value 0 of 'HeatEquation::alpha' is outside every range: (0:*) :: \"positive\"\n");
}

TEST_F(parameter_registry_parfile, empty_parfile) {
  EXPECT_EQ(errors(registry, ""), "");
  EXPECT_EQ(errors(registry, "# only a comment\n\n"), "");
  EXPECT_EQ(registry.active_thorns(), (std::vector<std::string>{"Cactus", "Driver", "Time", "IO"}));
}

TEST(parameter_registry, real_cacuda_parfile) {
  parameter_registry registry;
  add_to(registry, cactus());
  add_to(registry, time_thorn());
  auto io_thorn = io();
  add_to(registry, io_thorn);
  add_to(registry, thorn("CaCUDALib", "cacudalib",
                           {param("output_banner", parameter_type::boolean, "no", ""),
                            param("output_cudadev_info", parameter_type::boolean, "no", ""),
                            param("min_cuda_capability", parameter_type::real, "1.0", "",
                                  {numeric("1.0:*", "1.0", "", false, false, "")})}));
  add_to(registry, thorn(
      "IOASCII", "ioascii",
      {param("out2D_style", parameter_type::keyword, "gnuplot f(x,y)", "",
             {words("\"gnuplot f(x,y)\", \"gnuplot f(t,x,y)\"", {"gnuplot f(x,y)", "gnuplot f(t,x,y)"}, "")}),
       param("out2D_every", parameter_type::integer, "-1", ""), param("out2D_vars", parameter_type::string, "", ""),
       param("out2D_xyplane_z", parameter_type::real, "0", "")}));
  std::ifstream in(std::string(OPUNTIA_SOURCE_DIR) + "/tests/fixtures/cacuda/cacuda.par", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string expected =
      "1:27: unknown thorn 'SymBase'; known: Cactus, Time, IO, CaCUDALib, IOASCII\n"
      "1:35: unknown thorn 'Boundary'\n"
      "1:44: unknown thorn 'PUGH'\n"
      "1:49: unknown thorn 'PUGHSlab'\n"
      "1:58: unknown thorn 'PUGHReduce'\n"
      "1:69: unknown thorn 'LocalReduce'\n"
      "1:81: unknown thorn 'CaCUDACFD3DWOMOL'\n"
      "1:98: unknown thorn 'CartGrid3D'\n"
      "1:109: unknown thorn 'CoordBase'\n"
      "1:124: unknown thorn 'TimerReport'\n"
      "1:144: unknown thorn 'IOUtil'\n"
      "1:151: unknown thorn 'IOBasic'\n"
      "41:1: unknown thorn or implementation 'Grid'\n"  // CartGrid3D's implementation: reported once
      "70:10: unknown parameter 'out1D_style' of thorn 'IOASCII'; did you mean 'out2D_style'?\n"
      "71:10: unknown parameter 'out1D_every' of thorn 'IOASCII'; did you mean 'out2D_every'?\n"
      "72:10: unknown parameter 'out1D_vars' of thorn 'IOASCII'; did you mean 'out2D_vars'?\n"
      "73:10: unknown parameter 'out1D_yline_x' of thorn 'IOASCII'; known: out2D_style, out2D_every, out2D_vars, out2D_xyplane_z\n"
      "74:10: unknown parameter 'out1D_yline_z' of thorn 'IOASCII'; did you mean 'out2D_xyplane_z'?\n"
      "75:10: unknown parameter 'out1D_xline_z' of thorn 'IOASCII'; did you mean 'out2D_xyplane_z'?\n"
      "76:10: unknown parameter 'out1D_x' of thorn 'IOASCII'\n"
      "77:10: unknown parameter 'out1D_y' of thorn 'IOASCII'\n"
      "78:10: unknown parameter 'out1D_z' of thorn 'IOASCII'\n";
  EXPECT_EQ(errors(registry, text.str(), "cacuda.par"), expected);
  EXPECT_EQ(registry.text("Cactus", "cctk_run_title"), "Cactus CaCUDA Testing Run");
  EXPECT_EQ(registry.text("Cactus", "cctk_timer_output"), "off");
  EXPECT_TRUE(registry.boolean("Cactus", "cctk_show_schedule"));
  EXPECT_EQ(registry.integer("Cactus", "cctk_itlast"), 100);
  EXPECT_TRUE(registry.boolean("CaCUDALib", "output_banner"));
  EXPECT_DOUBLE_EQ(real_value(registry, "CaCUDALib", "min_cuda_capability"), 1.3);
  EXPECT_DOUBLE_EQ(real_value(registry, "Time", "dtfac"), 0.0127);
  EXPECT_EQ(registry.text("IO", "out_dir"), "cacudacfd3d");
  EXPECT_EQ(registry.text("IO", "verbose"), "full");
  EXPECT_EQ(registry.text("IOASCII", "out2D_style"), "gnuplot f(x,y)");
  EXPECT_EQ(registry.integer("IOASCII", "out2D_every"), 10);
  EXPECT_EQ(registry.text("IOASCII", "out2D_vars"), "cacudacfd3dwomol::vx");
  EXPECT_DOUBLE_EQ(real_value(registry, "IOASCII", "out2D_xyplane_z"), 0.5);
  EXPECT_EQ(registry.active_thorns(), (std::vector<std::string>{"Cactus", "Time", "IO", "CaCUDALib", "IOASCII"}));
}

// --- reads, registration, describe -----------------------------------------------------------

TEST_F(parameter_registry_parfile, reading_an_unknown_parameter_or_with_the_wrong_type_is_a_bug) {
  EXPECT_THROW(real_value(registry, "HeatEquation", "nothing"), std::logic_error);
  EXPECT_THROW(real_value(registry, "Nowhere", "alpha"), std::logic_error);
  EXPECT_THROW(registry.integer("HeatEquation", "alpha"), std::logic_error);
  EXPECT_THROW(registry.text("HeatEquation", "verbose"), std::logic_error);
  EXPECT_THROW(registry.boolean("HeatEquation", "scheme"), std::logic_error);
  EXPECT_THROW(real_value(registry, "HeatEquation", "alpha", 0), std::logic_error);
  try {
    registry.integer("HeatEquation", "alpha");
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "parameter 'HeatEquation::alpha' is REAL, not read as INT");
  }
}

TEST(parameter_registry, malformed_defaults_are_bugs_but_defaults_are_not_range_checked) {
  const auto registering = [](parameter_binding p) {
    parameter_registry r;
    add_to(r, thorn("T", "t", {std::move(p)}));
    return r.integer("T", "n");
  };
  EXPECT_EQ(registering(param("n", parameter_type::integer, "0", "", {numeric("1:*", "1", "", false, false, "")})), 0);
  EXPECT_THROW(registering(param("n", parameter_type::integer, "1.5")), std::logic_error);
  EXPECT_THROW(registering(param("n", parameter_type::integer, "3000000000")), std::logic_error);
  EXPECT_THROW(registering(param("n", parameter_type::real, "abc")), std::logic_error);
  EXPECT_THROW(registering(param("n", parameter_type::boolean, "maybe")), std::logic_error);
  try {
    registering(param("n", parameter_type::integer, "ten"));
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(),
                 "malformed default 'ten' of INT parameter 'T::n': expected an integer that fits CCTK_INT "
                 "(thorns/Test/param.ccl:1:1)");
  }
  parameter_registry r;
  add_to(r, thorn("T", "t", {}));
  EXPECT_THROW(add_to(r, thorn("t", "other", {})), std::logic_error);
  auto bad_regex = param("s", parameter_type::string, "", "", {words("\"(\"", {"("}, "")});
  EXPECT_THROW(add_to(r, thorn("U", "u", {bad_regex})), std::logic_error);
}

TEST_F(parameter_registry_parfile, describe_lists_every_parameter) {
  add_to(registry, thorn("Wave", "wave", {uses("global_nx", parameter_type::integer, "driver")}));
  EXPECT_EQ(registry.describe("heatequation"),
            "HeatEquation (implementation heatequation)\n"
            "  alpha  REAL  restricted  default 1.0\n"
            "    thermal diffusivity\n"
            "    range: (0:*)  positive\n"
            "  order  INT  restricted  default 4\n"
            "    finite-difference order\n"
            "    range: 2:8:2  even\n"
            "  scheme  KEYWORD  private  default \"central\"\n"
            "    scheme\n"
            "    range: \"upwind\"  first order\n"
            "    range: \"central\"  second order\n"
            "  label  STRING  private  default \"run 1\"\n"
            "    name\n"
            "    range: \"^[a-z0-9 ]+$\"  lower case\n"
            "  verbose  BOOLEAN  restricted  default yes\n"
            "    talk\n"
            "  steps  INT  restricted  default 10\n"
            "    steps\n"
            "  length  REAL  restricted  default 1.0\n"
            "    length\n"
            "  note  STRING  restricted  default \"\"\n"
            "    anything\n"
            "  coeffs[3]  REAL  private  default 0\n"
            "    stencil coefficients\n");
  EXPECT_EQ(registry.describe("Wave"), "Wave (implementation wave)\n  global_nx  INT  uses driver::global_nx\n");
  add_to(registry, thorn("Empty", "empty", {}));
  EXPECT_EQ(registry.describe("Empty"), "Empty (implementation empty)\n  (no parameters)\n");
  try {
    (void)registry.describe("HeatEqation");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown thorn 'HeatEqation'; did you mean 'HeatEquation'?");
  }
}

// The Markdown of docs/parameters.md comes from the same bindings as the text.
TEST_F(parameter_registry_parfile, describe_in_markdown_shows_the_same_parameters) {
  const auto heat = registry.describe("heatequation", description_format::markdown);
  EXPECT_EQ(heat.rfind("## HeatEquation\n\nImplementation `heatequation`.\n", 0), 0u) << heat;
  for (const char* row : {"| `alpha` | REAL, restricted | `1.0` | `(0:*)` positive | thermal diffusivity |\n",
                          "| `order` | INT, restricted | `4` | `2:8:2` even | finite-difference order |\n",
                          "| `scheme` | KEYWORD, private | `\"central\"` | `\"upwind\"` first order<br>`\"central\"` second "
                          "order | scheme |\n",
                          "| `label` | STRING, private | `\"run 1\"` | `\"^[a-z0-9 ]+$\"` lower case | name |\n",
                          "| `verbose` | BOOLEAN, restricted | `yes` | any | talk |\n",
                          "| `coeffs[3]` | REAL, private | `0` | any | stencil coefficients |\n"}) {
    EXPECT_NE(heat.find(row), std::string::npos) << row << "\nnot in\n" << heat;
  }
  // Every thorn, in the order they were registered, under the page's title.
  const auto all = registry.describe_all(description_format::markdown);
  std::size_t at = all.find("# Thorn parameters\n");
  EXPECT_EQ(at, 0u);
  for (const char* section : {"\n## Cactus\n", "\n## Driver\n", "\n## Time\n", "\n## IO\n", "\n## HeatEquation\n"}) {
    const auto next = all.find(section, at);
    EXPECT_NE(next, std::string::npos) << section;
    at = next;
  }
  EXPECT_EQ(registry.describe_all(), registry.describe("Cactus") + "\n" + registry.describe("Driver") + "\n" +
                                         registry.describe("Time") + "\n" + registry.describe("IO") + "\n" +
                                         registry.describe("HeatEquation"));
}

}  // namespace
