#include "launch_tuner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace opuntia::thorns::CaKernel {

namespace {

constexpr launch_shape own_shape{};

std::string size_text(const std::array<int, 3>& points) {
  return fmt::format("{}x{}x{}", points[0], points[1], points[2]);
}

/// " ahead 2 lanes 4" (`separator` " "), ", ahead 2, lanes 4" (", "): the depth and the lanes
/// where the launcher has them to choose.
std::string depth_and_lanes_text(const launch_shape& s, const char* separator) {
  return (s.ahead > 0 ? fmt::format("{}ahead {}", separator, s.ahead) : "") +
         (s.lanes > 0 ? fmt::format("{}lanes {}", separator, s.lanes) : "");
}

/// "64x4x4", or "64x4x4 ahead 2 lanes 4" where the launcher has a depth and lanes to choose: a
/// shape as the list of those measured names it.
std::string shape_text(const launch_shape& s) { return size_text(s.tile) + depth_and_lanes_text(s, " "); }

/// A cache entry: the variant, then its tile, depth and lanes where it has them ("3dstencil 64
/// 8 4 2 4"; 0 for what the launcher does not choose).
std::string entry_of(const launch_choice& c) {
  return c.shape == own_shape ? c.variant
                              : fmt::format("{} {} {} {} {} {}", c.variant, c.shape.tile[0], c.shape.tile[1],
                                            c.shape.tile[2], c.shape.ahead, c.shape.lanes);
}

std::optional<launch_choice> choice_of(const std::string& entry) {
  std::istringstream in(entry);
  launch_choice c;
  if (!(in >> c.variant)) return std::nullopt;
  auto& t = c.shape.tile;
  if (in >> t[0]) {
    if (!(in >> t[1] >> t[2] >> c.shape.ahead >> c.shape.lanes) || std::min({t[0], t[1], t[2]}) < 1 ||
        c.shape.ahead < 0 || c.shape.lanes < 0)
      return std::nullopt;
  }
  std::string rest;
  if (in >> rest) return std::nullopt;
  return c;
}

/// "3dstencil" or "3dstencil, tile 64x8x4" (", ahead 2, lanes 4"): a choice as the run's output
/// names it.
std::string choice_text(const launch_choice& c) {
  if (c.shape == own_shape) return c.variant;
  return c.variant + ", tile " + size_text(c.shape.tile) + depth_and_lanes_text(c.shape, ", ");
}

/// A move must gain this much to be kept: the timings' noise is a few percent.
constexpr double required_gain = 0.97;

/// The shapes of every variant within this factor of the fastest (each with its own shape) are
/// searched, not only the fastest's: a shape can overturn their order. On an H200 the cavity's
/// Jacobi sweep took 0.119 ms on `3dstencil_capped` and 0.122 on `3dblock_ring` with the
/// descriptor's TILE, while slabs of 8 planes took its momentum from 0.280 to 0.259 ms; with a
/// template that loaded the sweep's source a plane ahead, the ring's slabs of 8 planes took
/// 0.116, which a search of the capped variant's shapes alone would not have measured
/// (bench/RESULTS.md, 2026-12-04).
constexpr double near_the_fastest = 1.15;

}  // namespace

autotune_mode autotune_mode_of(const std::string& text) {
  if (text == "no") return autotune_mode::no;
  if (text == "cached") return autotune_mode::cached;
  if (text == "always") return autotune_mode::always;
  throw std::invalid_argument("CaKernel::autotune = \"" + text + "\": expected no, cached or always");
}

launch_tuner::launch_tuner(autotune_mode mode, const std::filesystem::path& cache_dir, std::string device,
                           double search_seconds)
    : mode_(mode), cache_(cache_dir), device_(std::move(device)), search_seconds_(search_seconds) {}

const launch_choice& launch_tuner::choose(const std::string& kernel, const std::array<int, 3>& points,
                                          const std::vector<std::string>& candidates, const shape_probe& probe,
                                          const launch_timer& time_launch,
                                          const std::optional<std::array<int, 3>>& box) {
  if (candidates.empty()) throw std::logic_error("launch_tuner::choose: no candidates for " + kernel);
  const std::string size =
      box ? fmt::format("a {} box of {}", size_text(*box), size_text(points)) : size_text(points);
  // The key holds what the measurement depends on; the entry holds the choice. Its first word
  // names the search: a wider one (5: x and y traded; 6: CUDA's lanes; 7: slabs as asked on
  // CUDA, a slab more and fewer; 8: CUDA's ring one plane deeper; 9: CUDA's other variants'
  // windows one plane deeper; 10: a plateau's fastest neighbour looked past; 11: a z move that
  // gains taken before the other axes are measured) measures again what a narrower one chose.
  const std::string key = program_cache::key(
      {fmt::format("autotune 11\n{}\n{}\n{}", kernel, fmt::join(candidates, " "), size), "", "", device_, ""});
  if (const auto known = chosen_.find(key); known != chosen_.end()) return known->second;
  const launch_choice untuned{candidates.front(), own_shape};
  if (mode_ == autotune_mode::no) return chosen_[key] = untuned;
  // What each candidate runs when asked for nothing: the default shape where it is compiled in.
  std::vector<launch_shape> starts;
  for (const auto& name : candidates) starts.push_back(probe(name, own_shape));
  const bool shapes = std::any_of(starts.begin(), starts.end(), [](const auto& t) { return t != own_shape; });
  if (candidates.size() == 1 && !shapes) return chosen_[key] = untuned;

  if (mode_ == autotune_mode::cached) {
    if (const auto stored = cache_.load(key)) {
      // An entry naming no candidate, or a shape its launcher no longer runs as such (another
      // build's, or damaged past its checksum), is measured again.
      const auto c = choice_of(std::string(stored->begin(), stored->end()));
      const bool candidate = c && std::find(candidates.begin(), candidates.end(), c->variant) != candidates.end();
      if (candidate && (c->shape == own_shape || probe(c->variant, c->shape) == c->shape)) {
        notes_.push_back(fmt::format("autotune: {} on {} points: {} (cached in {})", kernel, size, choice_text(*c),
                                     cache_.path_of(key).string()));
        return chosen_[key] = *c;
      }
    }
  }

  // The variants, each with its own shape.
  std::vector<double> seconds;
  for (const auto& name : candidates) seconds.push_back(time_launch({name, own_shape}));
  std::size_t best = 0;
  for (std::size_t i = 1; i < seconds.size(); ++i) {
    if (seconds[i] >= 0 && (seconds[best] < 0 || seconds[i] < seconds[best])) best = i;
  }
  if (seconds[best] < 0) {
    notes_.push_back(fmt::format("autotune: {} on {} points: {} (not measured: no room for scratch copies)", kernel,
                                 size, candidates.front()));
    return chosen_[key] = untuned;
  }
  std::vector<std::string> measured;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    measured.push_back(seconds[i] < 0 ? candidates[i] + " -"
                                      : fmt::format("{} {:.3f} ms", candidates[i], 1e3 * seconds[i]));
  }
  launch_choice chosen{candidates[best], own_shape};
  double chosen_seconds = seconds[best];
  // The shapes of the variants near the fastest, fastest first, within one search time: another
  // variant's best shape replaces the choice where it gains enough over it.
  std::vector<std::size_t> searched;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (seconds[i] >= 0 && starts[i] != own_shape && seconds[i] <= near_the_fastest * seconds[best])
      searched.push_back(i);
  }
  std::stable_sort(searched.begin(), searched.end(), [&](auto a, auto b) { return seconds[a] < seconds[b]; });
  // A search time past what the clock counts from now (autotune_seconds = 1e300: "no limit")
  // is none; converted as it is, it wrapped into the past and no shape was searched.
  const auto now = std::chrono::steady_clock::now();
  const auto left = std::chrono::duration<double>(std::chrono::steady_clock::time_point::max() - now);
  const auto deadline =
      search_seconds_ >= left.count()
          ? std::chrono::steady_clock::time_point::max()
          : now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(search_seconds_));
  std::string shapes_measured;
  bool out_of_time = false;
  for (const std::size_t i : searched) {
    std::vector<std::string> tried;
    const auto [shape, shape_seconds] =
        search_shape(candidates[i], starts[i], seconds[i], probe, time_launch, deadline, tried, out_of_time, box.has_value());
    shapes_measured += fmt::format("; shapes of {} from {}: {}", candidates[i], shape_text(starts[i]),
                                   tried.empty() ? "none other" : fmt::format("{}", fmt::join(tried, ", ")));
    if (i == best || shape_seconds < chosen_seconds * required_gain) {
      chosen = launch_choice{candidates[i], shape};
      chosen_seconds = shape_seconds;
    }
    if (out_of_time) break;
  }
  if (out_of_time) shapes_measured += fmt::format(" (CaKernel::autotune_seconds = {} reached)", search_seconds_);
  const std::string entry = entry_of(chosen);
  const bool stored = cache_.store(key, std::vector<unsigned char>(entry.begin(), entry.end()));
  notes_.push_back(fmt::format("autotune: {} on {} points: {} (measured: {}{}{})", kernel, size, choice_text(chosen),
                               fmt::join(measured, ", "), shapes_measured,
                               stored ? "" : "; the cache could not be written"));
  return chosen_[key] = chosen;
}

std::pair<launch_shape, double> launch_tuner::search_shape(const std::string& variant, const launch_shape& start,
                                                           double start_seconds, const shape_probe& probe,
                                                           const launch_timer& time_launch,
                                                           std::chrono::steady_clock::time_point deadline,
                                                           std::vector<std::string>& measured,
                                                           bool& out_of_time, bool start_is_not_own) const {
  std::set<launch_shape> tried{start};
  // On a box the own launch may cut the box's own slabs (CUDA's) where the start, which the
  // probe says without the box, asked for, runs the whole grid's evened out over the box: a
  // search of a box measures, and keeps where nothing gains, the own launch.
  const launch_shape start_runs = start_is_not_own ? own_shape : start;
  const auto result = [&](const launch_shape& shape, double seconds) {
    return std::pair{shape == start ? start_runs : shape, seconds};
  };
  // Measured again, as the shape it runs: the variants' round came first, on copies just made.
  const double again = std::chrono::steady_clock::now() < deadline ? time_launch({variant, start_runs}) : -1;
  struct timed_shape {
    launch_shape shape;
    double seconds;
  };
  timed_shape current{start, again >= 0 ? std::min(start_seconds, again) : start_seconds};
  // The fastest neighbour of `from` not measured before ({from, infinity} where none ran). The
  // neighbours: each tile extent doubled and halved, one slab fewer and one more (the nearest z
  // each way that runs as another launch), the depth one more and one less, the lanes doubled and
  // halved, and the tile's x and y traded (x doubled and y halved, and the other way): the same
  // work-group in another aspect, a move that one axis at a time makes in two steps, the first of
  // which may lose (OpenCL's radius-4 ring in fp32 on an H100: 57.7% of copy on 128 x 4 points,
  // 52.6% on 64 x 4, 76.3% on 64 x 16; bench/RESULTS.md, 2026-12-05). The slab steps reach the
  // counts between those that doubling and halving reach where a column is cut into a few slabs
  // (CUDA's radius-4 ring at 256^3 in fp32 on an H100: 5 slabs of 50 planes 84% of copy, 4 slabs
  // 88%, 3 slabs 82%, 2 and 8 slabs 74-76%; bench/RESULTS.md, 2026-12-06).
  // The z moves come first, and one that gains (as the loop below asks of a step) is taken
  // before the others are measured: the slab is what a grid size changes most, and on OpenCL the one move that builds
  // no program (a ring's slab is the launch's), where each other shape costs NVIDIA's compiler
  // 0.15-0.25 s of the search (OpenCL's radius-4 ring in fp32 at 256^3 on an H100, 2 seconds:
  // 64 x 8 x 83 at 82% of copy with z among the others, 64 x 8 x 62 at 85% with z first;
  // bench/RESULTS.md, 2026-12-07, b8dfcc1).
  constexpr int axis_order[7] = {2, 3, 0, 1, 4, 5, 6};
  constexpr int z_places = 2;  // axis_order's first two: TILE z, and the slab fewer or more
  const auto fastest_neighbour = [&](const launch_shape& from) {
    timed_shape fastest{from, std::numeric_limits<double>::infinity()};
    for (int place = 0; place < 7; ++place) {
      const int axis = axis_order[place];
      if (place == z_places && fastest.seconds < current.seconds * required_gain) return fastest;
      for (const bool up : {true, false}) {
        if (std::chrono::steady_clock::now() >= deadline) {
          out_of_time = true;
          return fastest;
        }
        launch_shape wanted = from;
        if (axis < 3) {
          auto& extent = wanted.tile[axis];
          extent = up ? 2 * extent : std::max(1, extent / 2);
        } else if (axis == 3) {
          // The nearest z each way that the launcher runs as another launch: one slab fewer or
          // more a column where it evens its slabs out (CUDA's and OpenCL's; a plane more or
          // less elsewhere). Probes run nothing; at most 2 z of them.
          for (int z = from.tile[2] + (up ? 1 : -1); z >= 1 && z <= 2 * from.tile[2]; z += up ? 1 : -1) {
            wanted.tile[2] = z;
            if (probe(variant, wanted) != from) break;
          }
        } else if (axis == 4) {
          if (from.ahead == 0) continue;  // the launcher has no depth
          wanted.ahead = up ? from.ahead + 1 : std::max(1, from.ahead - 1);
        } else if (axis == 5) {
          if (from.lanes == 0) continue;  // the launcher has no lanes
          wanted.lanes = up ? 2 * from.lanes : std::max(1, from.lanes / 2);
        } else {
          int& widened = wanted.tile[up ? 0 : 1];
          int& narrowed = wanted.tile[up ? 1 : 0];
          if (narrowed < 2) continue;  // nothing to trade
          widened *= 2;
          narrowed /= 2;
        }
        // What the launcher runs for it: a shape it cannot run becomes one it can, often one
        // measured already.
        const launch_shape shape = probe(variant, wanted);
        if (shape == own_shape || !tried.insert(shape).second) continue;
        const double s = time_launch({variant, shape});
        measured.push_back(s < 0 ? shape_text(shape) + " -" : fmt::format("{} {:.3f} ms", shape_text(shape), 1e3 * s));
        if (s >= 0 && s < fastest.seconds) fastest = {shape, s};
      }
    }
    return fastest;
  };
  // The fastest neighbour becomes the current shape where it gains enough. Where none does, but
  // the fastest is within the noise of the current shape (a plateau), its own neighbours are
  // measured once before the search ends: a move of two steps whose first gains too little to
  // be kept (OpenCL's radius-4 ring in fp64 at 256^3 on an H100: 64 x 4 points two planes ahead
  // 80.7% of copy, 32 x 8 about 2% faster, 32 x 8 three planes ahead 89.0%; bench/RESULTS.md,
  // 2026-12-07). Time running out keeps the fastest found where it gained enough.
  for (;;) {
    timed_shape step = fastest_neighbour(current.shape);
    const auto gains = [&](const timed_shape& t) { return t.seconds < current.seconds * required_gain; };
    if (!gains(step) && !out_of_time && step.seconds < current.seconds / required_gain) {
      const timed_shape past = fastest_neighbour(step.shape);
      if (gains(past)) step = past;
    }
    if (!gains(step)) break;
    current = step;
    if (out_of_time) break;
  }
  return result(current.shape, current.seconds);
}

std::vector<std::string> launch_tuner::take_notes() {
  std::vector<std::string> notes;
  notes.swap(notes_);
  return notes;
}

}  // namespace opuntia::thorns::CaKernel
