#pragma once
// What autotuning (thorns/CaKernel/src/launch_tuner.hpp) chooses for one variant of a kernel, for
// benchmarks that drive a launcher themselves: gpu_stencil_bench's "tuned" rows. A plain C++17
// interface, so that nvcc need not compile the tuner's C++20 header.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "opuntia/binding.hpp"

namespace opuntia::bench {

/// The shape launch_tuner chooses for `variant` of `kernel` alone on an n^3 grid, measuring
/// afresh (CaKernel::autotune = "always") for at most `seconds` of search: `probe` says what the
/// launcher runs when asked for a shape, `seconds_a_launch` times it. `device` names what the
/// measurements hold for in the tuner's cache, kept in `cache_dir`. Appends the tuner's lines
/// (what it measured) to `notes`.
launch_shape tuned_shape(const std::string& kernel, int n, const std::string& variant, const std::string& device,
                         double seconds, const std::filesystem::path& cache_dir,
                         const std::function<launch_shape(const launch_shape&)>& probe,
                         const std::function<double(const launch_shape&)>& seconds_a_launch,
                         std::vector<std::string>& notes);

}  // namespace opuntia::bench
