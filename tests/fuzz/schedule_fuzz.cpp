// libFuzzer target for schedule.ccl: any input parses or fails with a generator_error; anything
// else (another exception, a crash, a hang, runaway memory) is a bug. The diagnostics of a
// failed parse are formatted too, so diagnostic formatting is fuzzed along with the grammar.
// Built by tests/fuzz/CMakeLists.txt (OPUNTIA_BUILD_FUZZERS=ON, preset fuzz); run with
// scripts/run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "generator/diagnostic.hpp"
#include "generator/parse.hpp"
#include "generator/source_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opuntia::gen;
  const source_file file{"schedule.ccl", std::string(reinterpret_cast<const char*>(data), size)};
  try {
    (void)parse_schedule_ccl(file);
  } catch (const generator_error& e) {
    // Every diagnostic has a place in the fuzzed file.
    if (e.diagnostics().empty() || e.diagnostics().front().where.path != file.path) std::abort();
    (void)format_diagnostics(e.diagnostics());
  }
  return 0;
}
