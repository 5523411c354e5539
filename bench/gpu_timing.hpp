#pragma once
// How the GPU benchmarks (bench/gpu_stencil_bench.cu) and experiments (bench/experiments/) time a
// launch, after one launch to warm up, so that module loading stays out of the figures: single
// launches between two CUDA events on the default queue (the experiments' tables), or the mean
// launch of the best of three batches of back-to-back launches by the host's clock, which hides
// each launch's start as a run of steps does (gpu_stencil_bench: every case that way; on an H200
// the two ways put a 256^3 fp64 copy at 0.0685 and 0.0660 ms, bench/RESULTS.md 2026-12-04).
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "thorns/CaKernel/backends/cuda/check.hpp"

namespace opuntia::bench {

/// Milliseconds of each of `reps` launches of f, each between two events.
inline std::vector<float> launch_times(const std::function<void()>& f, int reps) {
  cudaEvent_t start, stop;
  OPUNTIA_CUDA_CHECK(cudaEventCreate(&start));
  OPUNTIA_CUDA_CHECK(cudaEventCreate(&stop));
  f();
  OPUNTIA_CUDA_CHECK(cudaDeviceSynchronize());
  OPUNTIA_CUDA_CHECK(cudaGetLastError());
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    OPUNTIA_CUDA_CHECK(cudaEventRecord(start));
    f();
    OPUNTIA_CUDA_CHECK(cudaEventRecord(stop));
    OPUNTIA_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    OPUNTIA_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  OPUNTIA_CUDA_CHECK(cudaGetLastError());
  OPUNTIA_CUDA_CHECK(cudaEventDestroy(start));
  OPUNTIA_CUDA_CHECK(cudaEventDestroy(stop));
  return times;
}

/// The shortest of `reps` launches of f, in milliseconds.
inline float time_best(const std::function<void()>& f, int reps) {
  const std::vector<float> times = launch_times(f, reps);
  return *std::min_element(times.begin(), times.end());
}

/// Milliseconds per launch of `launch`: the best of three batches of `repetitions` back-to-back
/// launches, each batch ended by `finish` (the device's synchronize: the CUDA runtime's, or a
/// CaKernel backend's, so that every backend's variants run on the same clock).
inline double best_batch_ms(const std::function<void()>& launch, const std::function<void()>& finish, int repetitions) {
  launch();  // warm up (and, for OpenCL, build or load the program)
  finish();
  double best = 1e30;
  for (int batch = 0; batch < 3; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repetitions; ++r) launch();
    finish();
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count() / repetitions);
  }
  return best;
}

/// best_batch_ms of launches on the CUDA runtime's default queue.
inline double best_batch_ms(const std::function<void()>& launch, int repetitions) {
  return best_batch_ms(launch, [] { OPUNTIA_CUDA_CHECK(cudaDeviceSynchronize()); }, repetitions);
}

}  // namespace opuntia::bench
