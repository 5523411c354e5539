// libFuzzer target for parameter files (see fuzz_parse.hpp); built with OPUNTIA_BUILD_FUZZERS=ON,
// run with scripts/run_fuzzers.sh.
#include "ccl/parse.hpp"
#include "fuzz_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return opuntia::ccl::fuzz::run(data, size, "run.par", [](const auto& file) { (void)opuntia::ccl::parse_parfile(file); });
}
