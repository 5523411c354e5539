#include "flesh/runtime/startup_report.hpp"

#include <unistd.h>

#include <array>
#include <climits>
#include <cstddef>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace opuntia {

namespace {

// Thousands of ranks would bury the run's output: beyond this many, the first and last few.
constexpr std::size_t ranks_listed_at_most = 16;
constexpr std::size_t ranks_at_each_end = 4;
constexpr std::size_t shared_devices_noted_at_most = 4;
constexpr std::size_t ranks_named_in_a_note = 8;

std::string rank_line(std::size_t rank, const rank_summary& summary) {
  return fmt::format("  rank {} on {}: {}; {}\n", rank, summary.host, summary.block, summary.device);
}

/// "0, 2, 4", or the first few and how many more: "0, 8, 16, 24, 32, 40, 48, 56 and 4 more".
std::string rank_list(const std::vector<std::size_t>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size() && i < ranks_named_in_a_note; ++i) {
    out += fmt::format("{}{}", i ? ", " : "", ranks[i]);
  }
  if (ranks.size() > ranks_named_in_a_note) out += fmt::format(" and {} more", ranks.size() - ranks_named_in_a_note);
  return out;
}

}  // namespace

std::string describe_block(const grid_layout& layout) {
  const auto owned = layout.interior();
  constexpr const char* axes[] = {"x", "y", "z"};
  std::string out;
  std::array<int, 3> points{};
  for (int d = 0; d < 3; ++d) {
    points[d] = owned.end[d] - owned.begin[d];
    out += fmt::format("{}{} {}..{}", d ? ", " : "", axes[d], layout.offset[d] + owned.begin[d],
                       layout.offset[d] + owned.end[d] - 1);
  }
  out += fmt::format(" ({}x{}x{} points", points[0], points[1], points[2]);
  if (points != layout.local) {
    out += fmt::format(", {}x{}x{} with ghost zones", layout.local[0], layout.local[1], layout.local[2]);
  }
  return out + ")";
}

std::string describe_ranks(const std::vector<rank_summary>& ranks, bool note_shared_devices) {
  std::string out;
  const bool all_listed = ranks.size() <= ranks_listed_at_most;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const bool listed = all_listed || r < ranks_at_each_end || r >= ranks.size() - ranks_at_each_end;
    if (listed) out += rank_line(r, ranks[r]);
    if (!all_listed && r == ranks_at_each_end) {
      const std::size_t left_out = ranks.size() - 2 * ranks_at_each_end;
      out += fmt::format("  ... {} ranks more, {} to {}\n", left_out, r, r + left_out - 1);
    }
  }
  if (!note_shared_devices) return out;
  // Devices in the order of their first rank: (host, device) -> its ranks.
  std::vector<std::pair<std::string, std::string>> devices;
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> ranks_of;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    auto key = std::make_pair(ranks[r].host, ranks[r].device);
    auto& on_device = ranks_of[key];
    if (on_device.empty()) devices.push_back(std::move(key));
    on_device.push_back(r);
  }
  std::size_t shared = 0;
  for (const auto& device : devices) {
    const auto& on_device = ranks_of[device];
    if (on_device.size() < 2) continue;
    if (++shared <= shared_devices_noted_at_most) {
      out += fmt::format("  note: {} ranks on {} share {} (ranks {})\n", on_device.size(), device.first, device.second,
                         rank_list(on_device));
    }
  }
  if (shared > shared_devices_noted_at_most) {
    out += fmt::format("  note: {} more devices are shared by several ranks each\n",
                       shared - shared_devices_noted_at_most);
  }
  return out;
}

std::string host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "an unnamed host";
  return name;
}

std::string startup_report(const driver& ranks, const kernel_runtime& runtime) {
  const auto hosts = ranks.gather(host_name());
  const auto blocks = ranks.gather(describe_block(ranks.layout()));
  const auto devices = ranks.gather(runtime.device_description());
  std::vector<rank_summary> summaries;
  for (std::size_t r = 0; r < hosts.size(); ++r) summaries.push_back({hosts[r], blocks[r], devices[r]});
  return summaries.empty() ? std::string() : describe_ranks(summaries, runtime.mirrors_on_device());
}

}  // namespace opuntia
