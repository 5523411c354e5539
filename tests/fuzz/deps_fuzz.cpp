// libFuzzer target for deps.ccl: any input parses or fails with a generator_error; anything
// else (another exception, a crash, a hang, runaway memory) is a bug. The diagnostics of a
// failed parse are formatted too, so diagnostic formatting is fuzzed along with the grammar.
// Built by tests/fuzz/CMakeLists.txt (OPUNTIA_BUILD_FUZZERS=ON, preset fuzz); run with
// scripts/run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "generator/diagnostic.hpp"
#include "generator/parse.hpp"
#include "generator/source_file.hpp"
#include "generator/semantic/template_tree.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opuntia::gen;
  const source_file file{"deps.ccl", std::string(reinterpret_cast<const char*>(data), size)};
  try {
    const deps_file deps = parse_deps_ccl(file);
    // The semantic pass on every tree the grammar accepts; it too may only throw
    // generator_error.
    const template_tree tree = build_template_tree(deps);
    std::vector<std::size_t> all(tree.templates.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    (void)tree.closure(all);
    for (const auto& backend : tree.backends) (void)tree.match("*/3dblock|boundary", backend);
  } catch (const generator_error& e) {
    // Every diagnostic has a place in the fuzzed file.
    if (e.diagnostics().empty() || e.diagnostics().front().where.path != file.path) std::abort();
    (void)format_diagnostics(e.diagnostics());
  }
  return 0;
}
