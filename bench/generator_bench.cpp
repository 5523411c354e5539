// How long opuntia-gen takes: generating every thorn of the tree (thorns/) with the project's
// templates, and each stage on its own. Reading files is measured apart from the pure function.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "generator/file_io.hpp"
#include "generator/generate.hpp"
#include "ccl/parse.hpp"

namespace {

namespace fs = std::filesystem;
using namespace opuntia::gen;

generator_inputs tree_inputs() {
  generator_inputs inputs;
  const fs::path root(OPUNTIA_SOURCE_DIR);
  for (const auto& entry : fs::directory_iterator(root / "thorns")) {
    if (entry.is_directory() && fs::exists(entry.path() / "interface.ccl")) inputs.thorns.push_back(read_thorn(entry.path()));
  }
  inputs.library = inputs.thorns;
  inputs.deps_ccl = read_source(root / "templates" / "deps.ccl");
  inputs.templates = read_templates(root / "templates");
  return inputs;
}

void generate_all_thorns(benchmark::State& state) {
  const auto inputs = tree_inputs();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto files = generate(inputs);
    bytes = 0;
    for (const auto& f : files) bytes += f.text.size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["thorns"] = static_cast<double>(inputs.thorns.size());
  state.counters["output_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(generate_all_thorns)->Unit(benchmark::kMillisecond);

void read_and_generate_all_thorns(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(generate(tree_inputs()));
}
BENCHMARK(read_and_generate_all_thorns)->Unit(benchmark::kMillisecond);

/// A larger load: every generating golden case (its thorns with its own templates, or the project's).
void generate_every_golden_case(benchmark::State& state) {
  const fs::path cases = fs::path(OPUNTIA_SOURCE_DIR) / "tests" / "generator" / "cases";
  std::vector<generator_inputs> all;
  std::size_t thorns = 0;
  for (const auto& entry : fs::directory_iterator(cases)) {
    if (!fs::exists(entry.path() / "expected")) continue;  // error cases stop early: not a load
    generator_inputs inputs;
    for (const auto& t : fs::directory_iterator(entry.path() / "thorns")) inputs.thorns.push_back(read_thorn(t.path()));
    inputs.library = inputs.thorns;
    const fs::path templates = fs::exists(entry.path() / "templates") ? entry.path() / "templates"
                                                                       : fs::path(OPUNTIA_SOURCE_DIR) / "templates";
    inputs.deps_ccl = read_source(templates / "deps.ccl");
    inputs.templates = read_templates(templates);
    thorns += inputs.thorns.size();
    all.push_back(std::move(inputs));
  }
  for (auto _ : state) {
    for (const auto& inputs : all) benchmark::DoNotOptimize(generate(inputs));
  }
  state.counters["cases"] = static_cast<double>(all.size());
  state.counters["thorns"] = static_cast<double>(thorns);
}
BENCHMARK(generate_every_golden_case)->Unit(benchmark::kMillisecond);

void parse_real_cacuda_files(benchmark::State& state) {
  const fs::path dir = fs::path(OPUNTIA_SOURCE_DIR) / "tests" / "fixtures" / "cacuda";
  const auto cakernel = read_source(dir / "cakernel.ccl");
  const auto deps = read_source(dir / "deps.ccl");
  const auto interface = read_source(dir / "interface.ccl");
  const auto param = read_source(dir / "param.ccl");
  const auto schedule = read_source(dir / "schedule.ccl");
  for (auto _ : state) {
    benchmark::DoNotOptimize(parse_cakernel_ccl(cakernel));
    benchmark::DoNotOptimize(parse_deps_ccl(deps));
    benchmark::DoNotOptimize(parse_interface_ccl(interface));
    benchmark::DoNotOptimize(parse_param_ccl(param));
    benchmark::DoNotOptimize(parse_schedule_ccl(schedule));
  }
}
BENCHMARK(parse_real_cacuda_files)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
