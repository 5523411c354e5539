#pragma once
// Autotuning of a kernel's variant (CaKernel::autotune): where the generator emitted several
// variants of a kernel for the run's backend (3dblock, 3dstencil, 3dblock_rows, ...), the first
// launch on a grid size measures each on scratch copies of the kernel's arrays and keeps the
// fastest; the choice is stored in the on-disk cache (program_cache: atomic writes, a damaged
// entry is measured again, never trusted) under a key of the kernel, the candidates, the grid
// size and the device, so that later runs take it without measuring. Every variant computes the
// same points from the same body, so the choice changes the time, never the fields.
#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "program_cache.hpp"

namespace opuntia::thorns::CaKernel {

/// CaKernel::autotune: never (the descriptor's first variant, or CaKernel::variant), from the
/// cache or measured once and cached, or measured at every run (and cached).
enum class autotune_mode { no, cached, always };

/// "no", "cached", "always"; std::invalid_argument otherwise.
autotune_mode autotune_mode_of(const std::string& text);

class variant_tuner {
 public:
  /// `device`: what the measurements hold for (the backend and its device, as the start-up
  /// report names it); `cache_dir` as CaKernel::cache_dir (empty: program_cache::default_dir()).
  variant_tuner(autotune_mode mode, const std::filesystem::path& cache_dir, std::string device);

  /// Seconds a launch of `variant` takes, measured on scratch copies; negative: not measured
  /// (no room for the copies), which keeps the first candidate.
  using variant_timer = std::function<double(const std::string& variant)>;

  /// The variant of `kernel` (thorn::name) to launch on a grid of `points`, one of `candidates`
  /// (the first is the descriptor's): decided at the first call for this kernel and size, from
  /// the cache or by `time_variant` on each candidate, then kept for the run.
  const std::string& choose(const std::string& kernel, const std::array<int, 3>& points,
                            const std::vector<std::string>& candidates, const variant_timer& time_variant);

  /// What was decided since the last call, a line each, for the run's output.
  std::vector<std::string> take_notes();

  autotune_mode mode() const { return mode_; }

 private:
  autotune_mode mode_;
  program_cache cache_;
  std::string device_;
  std::map<std::string, std::string> chosen_;  // by cache key
  std::vector<std::string> notes_;
};

}  // namespace opuntia::thorns::CaKernel
