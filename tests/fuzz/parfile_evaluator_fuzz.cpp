// libFuzzer target for the parameter-file evaluator (see fuzz_parse.hpp): the input is parsed as
// a parameter file and applied to a parameter_registry holding hand-made thorns with every
// parameter type (arrays, numeric ranges with open ends and steps, keywords, strings checked
// against regular expressions, USES and EXTENDS). It must apply or fail with a input_error;
// another exception (std::logic_error is a bug in a binding or the registry), a crash, a hang
// or a sanitizer report is a bug. Built with OPUNTIA_BUILD_FUZZERS=ON, run with
// scripts/run_fuzzers.sh.
#include <string>
#include <vector>

#include "flesh/parameters/parameter_registry.hpp"
#include "fuzz_parse.hpp"
#include "ccl/parse.hpp"
#include "tests/flesh/parameter_bindings.hpp"

namespace {

using namespace opuntia;
using namespace opuntia::test_bindings;

std::vector<thorn_binding> make_thorns() {
  using type = parameter_type;
  const auto global = parameter_access::global_access;
  return {
      thorn("Cactus", "cactus",
            {param("cctk_itlast", type::integer, "10", "", {numeric("0:*", "0", "", false, false, "")}),
             param("cctk_final_time", type::real, "-1"),
             param("cctk_run_title", type::string, "", "", {words({""})})}),
      thorn("Fuzz", "fuzz",
            {param("n", type::integer, "4", "", {numeric("1:*", "1", "", false, false, "")}, global),
             param("even", type::integer, "2", "", {numeric("0:100:2", "0", "100", false, false, "", "2")}),
             param("x", type::real, "0.5", "", {numeric("(0:1]", "0", "1", true, false, "")}),
             param("y", type::real, "0", "",
                   {numeric("*", "", "", false, false, ""), numeric("-1:1", "-1", "1", false, false, "")}),
             param("mode", type::keyword, "a", "", {words({"a", "b", "c"})}, global),
             param("label", type::string, "run", "", {words({"^[a-z0-9 ]+$", "x$"})}),
             param("free", type::string, ""),
             param("flag", type::boolean, "yes"),
             array_of("4", param("ints", type::integer, "0", "", {numeric("-10:10", "-10", "10", false, false, "")})),
             array_of("3", param("reals", type::real, "0")),
             array_of("2", param("names", type::keyword, "a", "", {words({"a", "b"})}))}),
      thorn("User", "user",
            {uses("n", type::integer, "fuzz", "uses"), uses("mode", type::keyword, "fuzz", "extends", {words({"d"})}),
             param("steps", type::integer, "1", "", {numeric("1:1000", "1", "1000", false, false, "")})}),
  };
}

/// Reads every value of the active thorns the way their typed structs do, and describes them.
void read_everything(const parameter_registry& registry) {
  (void)registry.integer("Cactus", "cctk_itlast");
  (void)registry.real("Cactus", "cctk_final_time");
  (void)registry.text("Cactus", "cctk_run_title");
  if (!registry.is_active("Fuzz")) return;
  (void)registry.integer("Fuzz", "n");
  (void)registry.integer("Fuzz", "even");
  (void)registry.real("Fuzz", "x");
  (void)registry.real("Fuzz", "y");
  (void)registry.text("Fuzz", "mode");
  (void)registry.text("Fuzz", "label");
  (void)registry.text("Fuzz", "free");
  (void)registry.boolean("Fuzz", "flag");
  for (int i = 0; i < 4; ++i) (void)registry.integer("Fuzz", "ints", i);
  for (int i = 0; i < 3; ++i) (void)registry.real("Fuzz", "reals", i);
  for (int i = 0; i < 2; ++i) (void)registry.text("Fuzz", "names", i);
  (void)registry.describe("Fuzz");
  (void)registry.unread();
  if (!registry.is_active("User")) return;
  (void)registry.integer("User", "n");
  (void)registry.text("User", "mode");
  (void)registry.integer("User", "steps");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<thorn_binding> thorns = make_thorns();
  return opuntia::ccl::fuzz::run(data, size, "run.par", [](const opuntia::ccl::source_file& file) {
    const auto parfile = opuntia::ccl::parse_parfile(file);
    // Both levels: strict mode has errors of its own (a parameter set twice).
    for (const auto level : {parameter_level::normal, parameter_level::strict}) {
      parameter_registry registry(level);
      for (const auto& t : thorns) registry.add_thorn(t);
      registry.apply(parfile, file);
      read_everything(registry);
    }
  });
}
