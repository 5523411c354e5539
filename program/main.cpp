// opuntia: runs a simulation from a Cactus-syntax parameter file.
//   opuntia PARFILE                      run
//   opuntia --show-schedule PARFILE      print the schedule tree as the run would execute it
//   opuntia --list-thorns                the thorns of this build
//   opuntia --describe THORN             a thorn's parameters: type, range, default, description
//   opuntia --list-devices [PARFILE]     the devices of every backend, the default (or PARFILE's) marked
//   opuntia --clear-cache [PARFILE]      empties the cache of programs built at run time
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "flesh/runtime/compiled_thorns.hpp"
#include "flesh/runtime/simulation.hpp"
#include "ccl/file_io.hpp"
#include "ccl/parse.hpp"
#include "thorns/CaKernel/src/cakernel_runtime.hpp"
#include "thorns/CaKernel/src/program_cache.hpp"
#include "thorns/Driver/src/single_process_driver.hpp"

namespace {

opuntia::simulation_parts thorn_parts() {
  opuntia::simulation_parts parts;
  parts.make_driver = [](const opuntia::parameter_source& p) -> std::unique_ptr<opuntia::driver> {
    return std::make_unique<opuntia::thorns::Driver::single_process_driver>(p);
  };
  parts.make_runtime = [](const opuntia::parameter_source& p, opuntia::grid_function_store& store) {
    namespace ck = opuntia::thorns::CaKernel;
    return ck::make_kernel_runtime(p.text("CaKernel", "backend"), store, ck::backend_options_from(p));
  };
  return parts;
}

void list_thorns(const std::vector<opuntia::thorn_binding>& thorns) {
  const auto& core = opuntia::parameter_registry::core_thorns();
  fmt::print("{:<18} {:<18} {:>10} {:>8} {:>9}\n", "thorn", "implementation", "parameters", "kernels", "routines");
  for (const auto& t : thorns) {
    const bool is_core = std::find(core.begin(), core.end(), t.name) != core.end();
    fmt::print("{:<18} {:<18} {:>10} {:>8} {:>9}{}\n", t.name, t.implementation, t.parameters.size(), t.kernels.size(),
               t.routines.size(), is_core ? "  (always active)" : "");
  }
}

/// The CaKernel parameters of `parfile` (its defaults when there is none) for the commands that
/// need them without running anything.
opuntia::thorns::CaKernel::backend_options backend_options_of(const std::vector<opuntia::thorn_binding>& thorns,
                                                              const std::string& parfile) {
  opuntia::parameter_registry registry;
  for (const auto& t : thorns) registry.add_thorn(t);
  if (!parfile.empty()) {
    const auto source = opuntia::ccl::read_source(parfile);
    registry.apply(opuntia::ccl::parse_parfile(source), source);
  }
  return opuntia::thorns::CaKernel::backend_options_from(registry);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"opuntia: runs stencil simulations from Cactus-syntax parameter files"};
  std::string parfile;
  bool show_schedule = false;
  bool list = false;
  bool list_devices = false;
  bool clear_cache = false;
  std::string describe;
  std::string level = "normal";
  app.add_option("parfile", parfile, "the parameter file to run");
  app.add_flag("--show-schedule", show_schedule, "print the schedule tree of PARFILE and stop");
  app.add_flag("--list-thorns", list, "list the thorns of this build");
  app.add_flag("--list-devices", list_devices,
               "list the devices of every backend of this build; with PARFILE, mark the one it selects");
  app.add_flag("--clear-cache", clear_cache, "empty the cache of built OpenCL programs (CaKernel::cache_dir of PARFILE)");
  app.add_option("--describe", describe, "print every parameter of THORN: type, range, default, description");
  app.add_option("--parameter-level", level, "strict: a parameter set twice, or set and never read, is an error")
      ->check(CLI::IsMember({"normal", "strict"}))
      ->capture_default_str();
  app.footer(
      "\nExamples:\n"
      "  opuntia parfiles/wavetoy.par                 run a simulation\n"
      "  opuntia --show-schedule parfiles/wavetoy.par what would run, and when\n"
      "  opuntia --describe WaveToy                   a thorn's parameters\n"
      "  opuntia --list-devices                       where kernels can run\n"
      "Parameter files follow Cactus's syntax; see docs/running-a-simulation.md.");
  CLI11_PARSE(app, argc, argv);

  try {
    const auto thorns = opuntia::compiled_thorns();
    if (list) {
      list_thorns(thorns);
      return 0;
    }
    if (list_devices) {
      std::cout << opuntia::thorns::CaKernel::describe_devices(backend_options_of(thorns, parfile));
      return 0;
    }
    if (clear_cache) {
      const opuntia::thorns::CaKernel::program_cache cache(backend_options_of(thorns, parfile).cache_dir);
      const auto cleared = cache.clear();
      if (!cleared.is_cache && cleared.kept > 0) {
        fmt::print(stderr, "opuntia: error: {} is not a cache of built programs (no CACHEDIR.TAG, no entries); "
                   "nothing removed\n", cache.dir().string());
        return 1;
      }
      fmt::print("opuntia: removed {} entr{} from {}{}\n", cleared.removed, cleared.removed == 1 ? "y" : "ies",
                 cache.dir().string(),
                 cleared.kept > 0 ? fmt::format(" (kept {} other file{} there)", cleared.kept, cleared.kept == 1 ? "" : "s")
                                  : "");
      return 0;
    }
    if (!describe.empty()) {
      opuntia::parameter_registry registry;
      for (const auto& t : thorns) registry.add_thorn(t);
      std::cout << registry.describe(describe);
      return 0;
    }
    if (parfile.empty()) {
      std::cerr << app.help();
      return 2;
    }
    const auto source = opuntia::ccl::read_source(parfile);
    const auto parameter_level =
        level == "strict" ? opuntia::parameter_level::strict : opuntia::parameter_level::normal;
    opuntia::simulation sim(thorns, source, parameter_level, thorn_parts(), std::cout);
    if (show_schedule) {
      std::cout << sim.show_schedule();
      return 0;
    }
    sim.run();
    if (parameter_level == opuntia::parameter_level::strict) {
      const auto unread = sim.parameters().unread();
      if (!unread.empty()) {
        std::cerr << opuntia::ccl::format_diagnostics(unread);
        return 1;
      }
    }
    return 0;
  } catch (const opuntia::run_stopped& stopped) {
    return 128 + stopped.signal_number();  // the run printed where it stopped
  } catch (const opuntia::ccl::input_error& e) {
    auto diagnostics = e.diagnostics();
    opuntia::ccl::fill_line_texts_from_disk(diagnostics);
    std::cerr << opuntia::ccl::format_diagnostics(diagnostics);
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "opuntia: error: " << e.what() << '\n';
    return 1;
  }
}
