#include "variant_tuner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace opuntia::thorns::CaKernel {

autotune_mode autotune_mode_of(const std::string& text) {
  if (text == "no") return autotune_mode::no;
  if (text == "cached") return autotune_mode::cached;
  if (text == "always") return autotune_mode::always;
  throw std::invalid_argument("CaKernel::autotune = \"" + text + "\": expected no, cached or always");
}

variant_tuner::variant_tuner(autotune_mode mode, const std::filesystem::path& cache_dir, std::string device)
    : mode_(mode), cache_(cache_dir), device_(std::move(device)) {}

const std::string& variant_tuner::choose(const std::string& kernel, const std::array<int, 3>& points,
                                         const std::vector<std::string>& candidates,
                                         const variant_timer& time_variant) {
  if (candidates.empty()) throw std::logic_error("variant_tuner::choose: no candidates for " + kernel);
  const std::string size = fmt::format("{}x{}x{}", points[0], points[1], points[2]);
  // The key holds what the measurement depends on; the entry holds the variant's name.
  const std::string key = program_cache::key(
      {fmt::format("autotune 1\n{}\n{}\n{}", kernel, fmt::join(candidates, " "), size), "", "", device_, ""});
  if (const auto known = chosen_.find(key); known != chosen_.end()) return known->second;
  const auto candidate = [&](const std::string& name) {
    return std::find(candidates.begin(), candidates.end(), name) != candidates.end();
  };
  if (mode_ == autotune_mode::no || candidates.size() == 1) return chosen_[key] = candidates.front();
  if (mode_ == autotune_mode::cached) {
    if (const auto stored = cache_.load(key)) {
      const std::string name(stored->begin(), stored->end());
      // An entry naming no candidate (another build's, or damaged past its checksum) is measured again.
      if (candidate(name)) {
        notes_.push_back(fmt::format("autotune: {} on {} points: {} (cached in {})", kernel, size, name,
                                     cache_.path_of(key).string()));
        return chosen_[key] = name;
      }
    }
  }
  std::vector<double> seconds;
  for (const auto& name : candidates) seconds.push_back(time_variant(name));
  std::size_t best = 0;
  for (std::size_t i = 1; i < seconds.size(); ++i) {
    if (seconds[i] >= 0 && (seconds[best] < 0 || seconds[i] < seconds[best])) best = i;
  }
  if (seconds[best] < 0) {
    notes_.push_back(fmt::format("autotune: {} on {} points: {} (not measured: no room for scratch copies)", kernel,
                                 size, candidates.front()));
    return chosen_[key] = candidates.front();
  }
  std::vector<std::string> measured;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    measured.push_back(seconds[i] < 0 ? candidates[i] + " -"
                                      : fmt::format("{} {:.3f} ms", candidates[i], 1e3 * seconds[i]));
  }
  const std::string& name = candidates[best];
  const bool stored = cache_.store(key, std::vector<unsigned char>(name.begin(), name.end()));
  notes_.push_back(fmt::format("autotune: {} on {} points: {} (measured: {}{})", kernel, size, name,
                               fmt::join(measured, ", "), stored ? "" : "; the cache could not be written"));
  return chosen_[key] = name;
}

std::vector<std::string> variant_tuner::take_notes() {
  std::vector<std::string> notes;
  notes.swap(notes_);
  return notes;
}

}  // namespace opuntia::thorns::CaKernel
