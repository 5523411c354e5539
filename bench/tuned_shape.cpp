#include "bench/tuned_shape.hpp"

#include "thorns/CaKernel/src/launch_tuner.hpp"

namespace opuntia::bench {

launch_shape tuned_shape(const std::string& kernel, int n, const std::string& variant, const std::string& device,
                         double seconds, const std::filesystem::path& cache_dir,
                         const std::function<launch_shape(const launch_shape&)>& probe,
                         const std::function<double(const launch_shape&)>& seconds_a_launch,
                         std::vector<std::string>& notes) {
  namespace ck = opuntia::thorns::CaKernel;
  ck::launch_tuner tuner(ck::autotune_mode::always, cache_dir, device, seconds);
  const auto& chosen = tuner.choose(
      kernel, {n, n, n}, {variant}, [&](const std::string&, const launch_shape& shape) { return probe(shape); },
      [&](const ck::launch_choice& choice) { return seconds_a_launch(choice.shape); });
  for (auto& note : tuner.take_notes()) notes.push_back(std::move(note));
  return chosen.shape;
}

}  // namespace opuntia::bench
