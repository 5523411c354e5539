// libFuzzer target for deps.ccl and the template tree built from it (see fuzz_parse.hpp); built
// with OPUNTIA_BUILD_FUZZERS=ON, run with scripts/run_fuzzers.sh.
#include <vector>

#include "ccl/parse.hpp"
#include "generator/semantic/template_tree.hpp"
#include "fuzz_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace opuntia::gen;
  return fuzz::run(data, size, "deps.ccl", [](const auto& file) {
    // The semantic pass on every tree the grammar accepts; it too may only throw input_error.
    const template_tree tree = build_template_tree(parse_deps_ccl(file));
    std::vector<std::size_t> all(tree.templates.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    (void)tree.closure(all);
    for (const auto& backend : tree.backends) (void)tree.match("*/3dblock|boundary", backend);
  });
}
