#pragma once
// What every grammar fuzzer does: feed the bytes as a named file to `work` (a parser, perhaps
// followed by a semantic pass). Any input must either pass or fail with a input_error whose
// diagnostics name the fuzzed file; another exception, a crash, a hang or runaway memory is a bug.
// The diagnostics are formatted too, so formatting is fuzzed along with the grammar.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ccl/diagnostic.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::ccl::fuzz {

template <typename Work>
int run(const std::uint8_t* data, std::size_t size, const char* path, Work work) {
  const source_file file{path, std::string(reinterpret_cast<const char*>(data), size)};
  try {
    work(file);
  } catch (const input_error& e) {
    if (e.diagnostics().empty() || e.diagnostics().front().where.path != file.path) std::abort();
    (void)format_diagnostics(e.diagnostics());
  }
  return 0;
}

}  // namespace opuntia::ccl::fuzz
