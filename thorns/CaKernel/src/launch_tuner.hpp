#pragma once
// Autotuning of a kernel's launch (CaKernel::autotune): which of the variants the generator
// emitted for the run's backend runs (3dblock, 3dstencil, 3dblock_rows, ...), and, where that
// variant's launcher chooses its shape at run time (kernel_call::shape: OpenMP's and OpenCL's 3D
// templates, and CUDA's slabs and lanes), with which tile, pipeline depth (planes loaded ahead,
// OpenCL) and lanes (x points a work-item or thread owns, OpenCL and CUDA). The first launch
// on a grid size measures on scratch copies of the kernel's arrays: each variant with the
// template's own shape, then, from there, the shapes of the fastest variant and of every variant
// within 15% of it, fastest first, one axis at a time (z first: TILE z doubled and halved, one
// slab fewer and one more, a z move taken at once where it is 3% faster; then x and y doubled and
// halved, the depth one more and one less, the lanes doubled and halved, x traded for y and y
// for x; a move kept where it is 3% faster; where none is, but the fastest
// neighbour is within 3%, that one's neighbours are measured once more, so that two moves whose
// first gains too little are made; until no move gains or CaKernel::autotune_seconds have
// passed, one time for all of them; another variant's best shape replaces the choice where it
// is 3% faster). The choice is stored in
// the on-disk cache (program_cache: atomic writes, a damaged entry is measured again, never
// trusted) under a key of the kernel, the candidates, the grid size and the device, so that
// later runs take it without measuring. Every variant and shape computes the same points from the
// same body, so the choice changes the time, never the fields.
#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opuntia/binding.hpp"
#include "program_cache.hpp"

namespace opuntia::thorns::CaKernel {

/// CaKernel::autotune: never (the descriptor's first variant, or CaKernel::variant, with its
/// TILE), from the cache or measured once and cached, or measured at every run (and cached).
enum class autotune_mode { no, cached, always };

/// "no", "cached", "always"; std::invalid_argument otherwise.
autotune_mode autotune_mode_of(const std::string& text);

/// What a launch runs: a variant, and the shape its launcher is asked for (the default one: the
/// template's own; always that for a launcher whose shape is compiled in).
struct launch_choice {
  std::string variant;
  launch_shape shape{};
  bool operator==(const launch_choice&) const = default;
};

class launch_tuner {
 public:
  /// `device`: what the measurements hold for (the backend and its device, as the start-up
  /// report names it); `cache_dir` as CaKernel::cache_dir (empty: program_cache::default_dir());
  /// `search_seconds`: how long the search for a shape may go on (CaKernel::autotune_seconds).
  launch_tuner(autotune_mode mode, const std::filesystem::path& cache_dir, std::string device, double search_seconds);

  /// The shape `variant`'s launcher runs when asked for `shape` (the default one: its own), as the
  /// launcher says without running anything; the default one where its shape is compiled in.
  using shape_probe = std::function<launch_shape(const std::string& variant, const launch_shape& shape)>;
  /// Seconds a launch of `choice` takes, measured on scratch copies; negative: not measured
  /// (no room for the copies), which keeps the first candidate and its own shape.
  using launch_timer = std::function<double(const launch_choice& choice)>;

  /// What `kernel` (thorn::name) launches on a grid of `points`: one of `candidates` (the first
  /// is the descriptor's, or CaKernel::variant alone) and its shape, decided at the first call for
  /// this kernel and size, from the cache or by measuring, then kept for the run. `box`: the
  /// extent of the part of the grid the launch computes, where it computes a part (a SYNC's rim
  /// before the interior), a question of its own: a rim a few planes deep runs fastest with
  /// another variant than the whole grid (a pipeline as deep as the radius-4 ring is filled
  /// and drained for a handful of planes).
  const launch_choice& choose(const std::string& kernel, const std::array<int, 3>& points,
                              const std::vector<std::string>& candidates, const shape_probe& probe,
                              const launch_timer& time_launch, const std::optional<std::array<int, 3>>& box = {});

  /// What was decided since the last call, a line each, for the run's output.
  std::vector<std::string> take_notes();

  autotune_mode mode() const { return mode_; }

 private:
  /// The search of a shape for `variant` (its launcher runs `start` when asked for none), from
  /// `start` measured at `start_seconds`, until `deadline`: the fastest shape found and its
  /// seconds. Appends each shape measured to `measured`; sets `out_of_time` where the deadline
  /// ended it. `start_is_not_own` (a box): the launcher's own launch is measured, and kept where
  /// no shape gains, instead of `start` asked for.
  std::pair<launch_shape, double> search_shape(const std::string& variant, const launch_shape& start,
                                               double start_seconds, const shape_probe& probe,
                                               const launch_timer& time_launch,
                                               std::chrono::steady_clock::time_point deadline,
                                               std::vector<std::string>& measured, bool& out_of_time,
                                               bool start_is_not_own) const;

  autotune_mode mode_;
  program_cache cache_;
  std::string device_;
  double search_seconds_;
  std::map<std::string, launch_choice> chosen_;  // by cache key
  std::vector<std::string> notes_;
};

}  // namespace opuntia::thorns::CaKernel
