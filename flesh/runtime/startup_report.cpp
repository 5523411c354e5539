#include "flesh/runtime/startup_report.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <omp.h>

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

namespace {

/// This process's threads running or ready to run now: OpenMP's workers spin a while after a
/// parallel loop before they sleep, and /proc/loadavg counts them with everything else.
int own_runnable_threads() {
  int runnable = 0;
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    // "1234 (opuntia) R 1 ...": the state follows the name's closing parenthesis.
    std::ifstream stat(task.path() / "stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');
    if (close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'R') ++runnable;
  }
  return std::max(1, runnable);  // this thread, reading
}

}  // namespace

rank_threads this_rank_threads() {
  rank_threads r;
  r.host = host_name();
  r.threads = omp_get_max_threads();
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &mask)) r.cpus.push_back(cpu);
    }
  }
  if (r.cpus.empty()) {
    for (unsigned cpu = 0; cpu < std::max(1u, std::thread::hardware_concurrency()); ++cpu) {
      r.cpus.push_back(static_cast<int>(cpu));
    }
  }
  // "1.63 3.12 3.05 3/91 9500": the load averages over 1, 5 and 15 minutes, then the tasks
  // runnable now (this process's among them) of all there are. The fewest of five readings 10 ms
  // apart: work that keeps a core busy is runnable in each, a shell or `make` that wakes for a
  // moment is not (one reading after a build took `make run`'s one other core from it).
  for (int reading = 0; reading < 5; ++reading) {
    if (reading > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream loadavg("/proc/loadavg");
    double load = 0, five = 0, fifteen = 0;
    int runnable = 0;
    if (loadavg >> load) r.load = load;
    if (!(loadavg >> five >> fifteen >> runnable)) break;
    const int others = std::max(0, runnable - own_runnable_threads());
    r.others_running = r.others_running < 0 ? others : std::min(r.others_running, others);
  }
  return r;
}

namespace {

/// The ranks of one host, and what its first rank read of the host's load.
struct host_threads {
  int ranks = 0;
  int threads = 0;
  std::set<int> cpus;
  double load = -1;
  int others_running = -1;

  int cores() const { return std::max(1, static_cast<int>(cpus.size())); }
  /// The cores other work keeps busy: the load average, rounded, counts the tasks that ran or
  /// waited to over the last minute, before this run began; the tasks runnable now, those still
  /// at work. The smaller of the two: a build that has just ended still weighs on the average,
  /// and this run's other ranks, starting now, are runnable but not other work. Both are the
  /// whole machine's, where the ranks may be bound to a few of its cores: an estimate.
  int free_cores() const {
    int busy = load > 0 ? static_cast<int>(std::lround(load)) : 0;
    if (others_running >= 0) busy = std::min(busy, others_running);
    return std::max(0, cores() - busy);
  }
  /// " (load average 1.60, 3 other tasks running now)", or nothing where the load is unknown.
  std::string load_text() const {
    if (load < 0) return "";
    return fmt::format(" (load average {:.2f}{})", load,
                       others_running < 0 ? ""
                                          : fmt::format(", {} other task{} running now", others_running,
                                                        others_running == 1 ? "" : "s"));
  }
};

/// The hosts of `ranks`, in the order of their first rank, and each rank's host among them
/// (every rank plans for all of them at start-up: no search through the hosts a rank).
struct hosts_and_ranks {
  std::vector<std::pair<std::string, host_threads>> hosts;
  std::vector<std::size_t> host_of;  // by rank: an index into hosts
};
hosts_and_ranks hosts_of(const std::vector<rank_threads>& ranks) {
  hosts_and_ranks out;
  std::map<std::string, std::size_t> position;
  for (const auto& r : ranks) {
    const auto [at, first] = position.try_emplace(r.host, out.hosts.size());
    if (first) {
      out.hosts.push_back({r.host, host_threads{}});
      out.hosts.back().second.load = r.load;
      out.hosts.back().second.others_running = r.others_running;
    }
    out.host_of.push_back(at->second);
    auto& h = out.hosts[at->second].second;
    ++h.ranks;
    h.threads += r.threads;
    h.cpus.insert(r.cpus.begin(), r.cpus.end());
  }
  return out;
}

}  // namespace

std::string oversubscription_warnings(const std::vector<rank_threads>& ranks) {
  std::string out;
  for (const auto& [host, h] : hosts_of(ranks).hosts) {
    // An estimate, and so a warning, never an error.
    const int free_cores = h.free_cores();
    if (h.threads <= h.ranks || h.threads <= free_cores) continue;
    const int cores = h.cores();
    const auto who = h.ranks == 1 ? fmt::format("{} OpenMP threads", h.threads)
                                  : fmt::format("{} ranks run {} OpenMP threads", h.ranks, h.threads);
    out += fmt::format("opuntia: warning: {} on {} core{} of {}, about {} free{}: threads beyond the free cores wait "
                       "for each other at every parallel loop; set OMP_NUM_THREADS={}\n",
                       who, cores, cores == 1 ? "" : "s", host, free_cores, h.load_text(),
                       std::max(1, free_cores / h.ranks));
  }
  return out;
}

thread_plan plan_threads(const std::vector<rank_threads>& ranks, bool chosen_by_user) {
  thread_plan plan;
  for (const auto& r : ranks) plan.threads.push_back(r.threads);
  if (chosen_by_user) {
    plan.warnings = oversubscription_warnings(ranks);
    return plan;
  }
  const auto [hosts, host_of] = hosts_of(ranks);
  // Each rank's share of its host's free cores, one at least and no more than its own mask holds.
  std::vector<int> share(hosts.size()), fewer(hosts.size());  // fewer: ranks below the runtime's default
  for (std::size_t h = 0; h < hosts.size(); ++h) share[h] = std::max(1, hosts[h].second.free_cores() / hosts[h].second.ranks);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const int own = std::max(1, static_cast<int>(ranks[r].cpus.size()));
    plan.threads[r] = std::min({ranks[r].threads, share[host_of[r]], own});
    if (plan.threads[r] < ranks[r].threads) ++fewer[host_of[r]];
  }
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (fewer[i] == 0) continue;
    const auto& [host, h] = hosts[i];
    const int cores = h.cores();
    const auto who = h.ranks == 1 ? std::string() : fmt::format("{} ranks share ", h.ranks);
    plan.notes += fmt::format("  note: {}{} core{} of {}, about {} free{}: {} OpenMP thread{}{} (OMP_NUM_THREADS "
                              "sets another count)\n",
                              who, cores, cores == 1 ? "" : "s", host, h.free_cores(), h.load_text(), share[i],
                              share[i] == 1 ? "" : "s", h.ranks == 1 ? "" : " each");
  }
  return plan;
}

thread_plan choose_threads(const driver& ranks) {
  const auto mine = this_rank_threads();
  // "host|threads|load others|cpu cpu ...": host names hold no '|'.
  std::string cpus;
  for (const int cpu : mine.cpus) cpus += fmt::format("{} ", cpu);
  const auto texts =
      ranks.all_gather(fmt::format("{}|{}|{} {}|{}", mine.host, mine.threads, mine.load, mine.others_running, cpus));
  std::vector<rank_threads> all;
  for (const auto& text : texts) {
    std::istringstream fields(text);
    std::string host, threads, loads, masks;
    std::getline(fields, host, '|');
    std::getline(fields, threads, '|');
    std::getline(fields, loads, '|');
    std::getline(fields, masks);
    rank_threads t{host, std::stoi(threads), {}, -1, -1};
    std::istringstream(loads) >> t.load >> t.others_running;
    std::istringstream words(masks);
    for (int cpu = 0; words >> cpu;) t.cpus.push_back(cpu);
    all.push_back(std::move(t));
  }
  // Every rank plans from the same readings, and so alike; each takes its own count.
  const char* asked = std::getenv("OMP_NUM_THREADS");
  auto plan = plan_threads(all, asked != nullptr && *asked != '\0');
  const int own = plan.threads.at(static_cast<std::size_t>(ranks.rank()));
  if (own != mine.threads) omp_set_num_threads(own);
  if (ranks.rank() != 0) plan.notes.clear(), plan.warnings.clear();
  return plan;
}

}  // namespace opuntia
