#pragma once
// How much memory this process can still take on the host, so a run that cannot fit is refused
// before it allocates rather than killed by the kernel's OOM killer half-way: the least of what
// the system has free (MemAvailable), what RLIMIT_AS and RLIMIT_DATA leave, and what the limits
// of the process's memory cgroups leave (v2 memory.max, v1 memory.limit_in_bytes, the cgroup's
// own and its parents'). Linux files; where none can be read, nullopt (nothing is refused).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace opuntia {

struct memory_limit {
  double bytes = 0;
  std::string source;  // where the figure comes from, for messages: "MemAvailable in /proc/meminfo"
};

/// The most memory this process can still allocate on the host, and what sets that limit.
std::optional<memory_limit> host_memory_available();

namespace host_memory_detail {

/// The value in bytes of a "Name:   123 kB" line of /proc/meminfo or /proc/self/status.
std::optional<double> kib_field(std::string_view text, std::string_view name);

/// The memory cgroup of this process from /proc/self/cgroup: the v1 hierarchy that has the
/// memory controller ("4:memory:/path", possibly "4:cpu,memory:/path"), else the v2 one ("0::/path").
struct cgroup_path {
  bool v2 = false;
  std::string path;
};
std::optional<cgroup_path> memory_cgroup(std::string_view proc_self_cgroup);

/// The least of limit - usage over the cgroup at `path` under `mount` and its parents.
std::optional<double> cgroup_room(const std::filesystem::path& mount, const cgroup_path& group);

}  // namespace host_memory_detail
}  // namespace opuntia
