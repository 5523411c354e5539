#pragma once
// How the experiments time a launch: every launch between two CUDA events on the default queue,
// after one launch to warm up, so that module loading stays out of the figures. Their tables
// give the best of these (copy_probe also the median, beside batches of back-to-back launches).
#include <algorithm>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "thorns/CaKernel/backends/cuda/check.hpp"

namespace experiments {

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

}  // namespace experiments
