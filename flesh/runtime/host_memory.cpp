#include "flesh/runtime/host_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <vector>

namespace opuntia {

namespace host_memory_detail {
namespace {

std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<double> parse_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return static_cast<double>(value);
}

}  // namespace

/// The value in bytes of a "Name:   123 kB" line of /proc/meminfo or /proc/self/status.
std::optional<double> kib_field(std::string_view text, std::string_view name) {
  for (std::size_t at = 0; at < text.size();) {
    const auto end = std::min(text.find('\n', at), text.size());
    const auto line = text.substr(at, end - at);
    if (line.size() > name.size() && line.substr(0, name.size()) == name && line[name.size()] == ':') {
      if (const auto kib = parse_number(line.substr(name.size() + 1))) return *kib * 1024;
    }
    at = end + 1;
  }
  return std::nullopt;
}

std::optional<cgroup_path> memory_cgroup(std::string_view proc_self_cgroup) {
  std::optional<cgroup_path> v2;
  std::istringstream lines{std::string(proc_self_cgroup)};
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string_view controllers = std::string_view(line).substr(first + 1, second - first - 1);
    if (controllers.empty()) v2 = cgroup_path{true, line.substr(second + 1)};
    for (std::size_t at = 0; at <= controllers.size();) {
      const auto end = std::min(controllers.find(',', at), controllers.size());
      if (controllers.substr(at, end - at) == "memory") return cgroup_path{false, line.substr(second + 1)};
      at = end + 1;
    }
  }
  return v2;
}

/// The least of limit - usage over the cgroup at `path` under `mount` and its parents.
std::optional<double> cgroup_room(const std::filesystem::path& mount, const cgroup_path& group) {
  const char* limit_file = group.v2 ? "memory.max" : "memory.limit_in_bytes";
  const char* usage_file = group.v2 ? "memory.current" : "memory.usage_in_bytes";
  std::optional<double> room;
  for (std::filesystem::path dir = std::filesystem::path(group.path).relative_path();; dir = dir.parent_path()) {
    const auto limit = read_small_file(mount / dir / limit_file);
    const auto usage = read_small_file(mount / dir / usage_file);
    if (limit && usage) {
      const auto limit_bytes = parse_number(*limit);  // nullopt for "max": no limit here
      const auto usage_bytes = parse_number(*usage);
      if (limit_bytes && usage_bytes) {
        room = std::min(room.value_or(*limit_bytes), std::max(0.0, *limit_bytes - *usage_bytes));
      }
    }
    if (dir.empty()) break;
  }
  return room;
}

}  // namespace host_memory_detail

/// The most memory this process can still allocate on the host, and what sets that limit.
std::optional<memory_limit> host_memory_available() {
  std::vector<memory_limit> limits;
  if (const auto meminfo = host_memory_detail::read_small_file("/proc/meminfo")) {
    if (const auto bytes = host_memory_detail::kib_field(*meminfo, "MemAvailable")) {
      limits.push_back({*bytes, "MemAvailable in /proc/meminfo"});
    }
  }
  const auto status = host_memory_detail::read_small_file("/proc/self/status");
  const struct {
    int resource;
    const char* status_field;  // what the limit already holds
    const char* name;
  } rlimits[] = {{RLIMIT_AS, "VmSize", "RLIMIT_AS"}, {RLIMIT_DATA, "VmData", "RLIMIT_DATA"}};
  for (const auto& r : rlimits) {
    rlimit limit{};
    if (getrlimit(r.resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
    const double used = status ? host_memory_detail::kib_field(*status, r.status_field).value_or(0) : 0;
    limits.push_back({std::max(0.0, static_cast<double>(limit.rlim_cur) - used),
                      std::string(r.name) + " less what the process uses"});
  }
  if (const auto cgroups = host_memory_detail::read_small_file("/proc/self/cgroup")) {
    if (const auto group = host_memory_detail::memory_cgroup(*cgroups)) {
      const std::filesystem::path mount = group->v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
      if (const auto room = host_memory_detail::cgroup_room(mount, *group)) {
        limits.push_back({*room, group->v2 ? "the memory cgroup's memory.max less its usage"
                                           : "the memory cgroup's limit_in_bytes less its usage"});
      }
    }
  }
  if (limits.empty()) return std::nullopt;
  return *std::min_element(limits.begin(), limits.end(),
                           [](const memory_limit& a, const memory_limit& b) { return a.bytes < b.bytes; });
}

}  // namespace opuntia
