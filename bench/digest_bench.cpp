// What a checkpoint's checksums cost (thorns/IOHDF5/src/checkpoint_file.cpp): owned_points_digest
// (opuntia/grid.hpp) over one rank's block, ghost zones around it, as a checkpoint computes it
// for each time level of each grid function when it writes and again when it reads: one core.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "opuntia/grid.hpp"

namespace {

void owned_points_digest_of_a_block(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  opuntia::grid_layout g;
  g.global = {n, n, n};
  g.local = {n + 2, n + 2, n + 2};
  g.ghosts = {1, 1, 1};
  g.offset = {-1, -1, -1};
  g.physical = {false, false, false, false, false, false};  // a block inside a periodic grid
  std::vector<double> values(g.points());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.5 * static_cast<double>(i);
  for (auto _ : state) benchmark::DoNotOptimize(opuntia::owned_points_digest(values.data(), sizeof(double), g));
  const auto owned = static_cast<std::int64_t>(n) * n * n;
  state.SetBytesProcessed(state.iterations() * owned * static_cast<std::int64_t>(sizeof(double)));
  state.counters["ns_a_point"] =
      benchmark::Counter(static_cast<double>(owned), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(owned_points_digest_of_a_block)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
