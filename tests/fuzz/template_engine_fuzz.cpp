// libFuzzer target: any input renders to text or fails with a input_error; anything
// else (another exception, a crash, a hang, runaway memory) is a bug.
//   clang++ -std=c++20 -fsanitize=fuzzer,address -I. tests/fuzz/template_engine_fuzz.cpp \
//     generator/template_engine.cpp ccl/diagnostic.cpp ccl/source_file.cpp \
//     ccl/grammar/common.cpp -lfmt -o /tmp/tfuzz && /tmp/tfuzz -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ccl/diagnostic.hpp"
#include "ccl/source_file.hpp"
#include "generator/template_engine.hpp"

namespace {

using namespace opuntia::gen;

template_scope make_scope() {
  template_scope scope;
  scope.values = {{"name", "heat"},
                  {"stencil_zn", "1"},
                  {"stencil_zp", "2"},
                  {"full", "%{name}_%{vname}"},           // re-expanded
                  {"loop", "%a"},                         // a cycle: loop -> a -> loop
                  {"a", "%loop"},
                  {"unroll", "%for_loop(i,'0','%{stencil_zp}')%[x%var(i)]%"}};
  template_loop vars;
  vars.keys = {"intent", "cached"};
  vars.items = {template_scope{{{"vname", "u"}, {"intent", "in"}, {"cached", "yes"}}, {}},
                template_scope{{{"vname", "v"}, {"intent", "out"}, {"cached", "no"}}, {}}};
  scope.loops["var_loop"] = vars;
  return scope;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const template_scope scope = make_scope();
  render_options options;
  options.max_expansion_depth = 4;
  options.align_continuations = (size % 2) == 0;
  const source_file file{"fuzz.tpl", std::string(reinterpret_cast<const char*>(data), size)};
  try {
    const std::string out = render_template(file, scope, options);
    // Rendering is a pure function: the same input renders the same way.
    if (render_template(file, scope, options) != out) std::abort();
  } catch (const input_error& e) {
    // Every diagnostic has a place in the fuzzed file.
    if (e.diagnostics().empty() || e.diagnostics().front().where.path != "fuzz.tpl") std::abort();
    (void)format_diagnostics(e.diagnostics());
  }
  (void)escape_template_text(file.text);
  (void)align_continuations(file.text);
  return 0;
}
