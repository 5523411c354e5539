#include "launch_tuner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace opuntia::thorns::CaKernel {

namespace {

constexpr std::array<int, 3> no_tile{};

std::string tile_text(const std::array<int, 3>& tile) { return fmt::format("{}x{}x{}", tile[0], tile[1], tile[2]); }

/// A cache entry: the variant, then its tile where it has one ("3dstencil 64 8 4").
std::string entry_of(const launch_choice& c) {
  return c.tile == no_tile ? c.variant : fmt::format("{} {} {} {}", c.variant, c.tile[0], c.tile[1], c.tile[2]);
}

std::optional<launch_choice> choice_of(const std::string& entry) {
  std::istringstream in(entry);
  launch_choice c;
  if (!(in >> c.variant)) return std::nullopt;
  if (in >> c.tile[0]) {
    if (!(in >> c.tile[1] >> c.tile[2]) || std::min({c.tile[0], c.tile[1], c.tile[2]}) < 1) return std::nullopt;
  }
  std::string rest;
  if (in >> rest) return std::nullopt;
  return c;
}

/// "3dstencil" or "3dstencil, tile 64x8x4": a choice as the run's output names it.
std::string choice_text(const launch_choice& c) {
  return c.tile == no_tile ? c.variant : c.variant + ", tile " + tile_text(c.tile);
}

/// A move must gain this much to be kept: the timings' noise is a few percent.
constexpr double required_gain = 0.97;

}  // namespace

autotune_mode autotune_mode_of(const std::string& text) {
  if (text == "no") return autotune_mode::no;
  if (text == "cached") return autotune_mode::cached;
  if (text == "always") return autotune_mode::always;
  throw std::invalid_argument("CaKernel::autotune = \"" + text + "\": expected no, cached or always");
}

launch_tuner::launch_tuner(autotune_mode mode, const std::filesystem::path& cache_dir, std::string device,
                           double tile_seconds)
    : mode_(mode), cache_(cache_dir), device_(std::move(device)), tile_seconds_(tile_seconds) {}

const launch_choice& launch_tuner::choose(const std::string& kernel, const std::array<int, 3>& points,
                                          const std::vector<std::string>& candidates, const tile_probe& probe,
                                          const launch_timer& time_launch) {
  if (candidates.empty()) throw std::logic_error("launch_tuner::choose: no candidates for " + kernel);
  const std::string size = tile_text(points);
  // The key holds what the measurement depends on; the entry holds the choice.
  const std::string key = program_cache::key(
      {fmt::format("autotune 2\n{}\n{}\n{}", kernel, fmt::join(candidates, " "), size), "", "", device_, ""});
  if (const auto known = chosen_.find(key); known != chosen_.end()) return known->second;
  const launch_choice untuned{candidates.front(), no_tile};
  if (mode_ == autotune_mode::no) return chosen_[key] = untuned;
  // What each candidate runs when asked for no tile: zeros where its tile is compiled in.
  std::vector<std::array<int, 3>> starts;
  for (const auto& name : candidates) starts.push_back(probe(name, no_tile));
  const bool tiles = std::any_of(starts.begin(), starts.end(), [](const auto& t) { return t != no_tile; });
  if (candidates.size() == 1 && !tiles) return chosen_[key] = untuned;

  if (mode_ == autotune_mode::cached) {
    if (const auto stored = cache_.load(key)) {
      // An entry naming no candidate, or a tile its launcher no longer runs as such (another
      // build's, or damaged past its checksum), is measured again.
      const auto c = choice_of(std::string(stored->begin(), stored->end()));
      const bool candidate = c && std::find(candidates.begin(), candidates.end(), c->variant) != candidates.end();
      if (candidate && (c->tile == no_tile || probe(c->variant, c->tile) == c->tile)) {
        notes_.push_back(fmt::format("autotune: {} on {} points: {} (cached in {})", kernel, size, choice_text(*c),
                                     cache_.path_of(key).string()));
        return chosen_[key] = *c;
      }
    }
  }

  // The variants, each with the descriptor's TILE.
  std::vector<double> seconds;
  for (const auto& name : candidates) seconds.push_back(time_launch({name, no_tile}));
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
  launch_choice chosen{candidates[best], no_tile};
  std::string tiles_measured;
  if (starts[best] != no_tile) {
    std::vector<std::string> tried;
    bool out_of_time = false;
    chosen.tile = search_tile(chosen.variant, starts[best], seconds[best], probe, time_launch, tried, out_of_time);
    tiles_measured = fmt::format("; tiles of {} from {}: {}{}", chosen.variant, tile_text(starts[best]),
                                 tried.empty() ? "none other" : fmt::format("{}", fmt::join(tried, ", ")),
                                 out_of_time ? fmt::format(" (CaKernel::autotune_seconds = {} reached)", tile_seconds_)
                                             : "");
  }
  const std::string entry = entry_of(chosen);
  const bool stored = cache_.store(key, std::vector<unsigned char>(entry.begin(), entry.end()));
  notes_.push_back(fmt::format("autotune: {} on {} points: {} (measured: {}{}{})", kernel, size, choice_text(chosen),
                               fmt::join(measured, ", "), tiles_measured,
                               stored ? "" : "; the cache could not be written"));
  return chosen_[key] = chosen;
}

std::array<int, 3> launch_tuner::search_tile(const std::string& best, const std::array<int, 3>& start,
                                             double start_seconds, const tile_probe& probe,
                                             const launch_timer& time_launch, std::vector<std::string>& measured,
                                             bool& out_of_time) const {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(tile_seconds_);
  std::set<std::array<int, 3>> tried{start};
  std::array<int, 3> current = start;
  // Measured again, as the tile it runs: the variants' round came first, on copies just made.
  const double again = std::chrono::steady_clock::now() < deadline ? time_launch({best, start}) : -1;
  double current_seconds = again >= 0 ? std::min(start_seconds, again) : start_seconds;
  for (bool moved = true; moved;) {
    moved = false;
    // The neighbours of the current tile: each extent doubled and halved. The fastest of them
    // becomes the current tile where it gains enough; the search ends where none does.
    std::array<int, 3> next = current;
    double next_seconds = current_seconds * required_gain;
    for (int axis = 0; axis < 3; ++axis) {
      for (const bool doubled : {true, false}) {
        if (std::chrono::steady_clock::now() >= deadline) {
          out_of_time = true;
          return next;  // the fastest found, where one gained enough
        }
        std::array<int, 3> wanted = current;
        wanted[axis] = doubled ? 2 * wanted[axis] : std::max(1, wanted[axis] / 2);
        // What the launcher runs for it: a tile it cannot run becomes one it can, often one
        // measured already.
        const std::array<int, 3> tile = probe(best, wanted);
        if (tile == no_tile || !tried.insert(tile).second) continue;
        const double s = time_launch({best, tile});
        measured.push_back(s < 0 ? tile_text(tile) + " -" : fmt::format("{} {:.3f} ms", tile_text(tile), 1e3 * s));
        if (s >= 0 && s < next_seconds) {
          next = tile;
          next_seconds = s;
        }
      }
    }
    if (next != current) {
      current = next;
      current_seconds = next_seconds;
      moved = true;
    }
  }
  return current;
}

std::vector<std::string> launch_tuner::take_notes() {
  std::vector<std::string> notes;
  notes.swap(notes_);
  return notes;
}

}  // namespace opuntia::thorns::CaKernel
