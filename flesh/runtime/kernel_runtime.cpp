#include "flesh/runtime/kernel_runtime.hpp"

#include <cstring>
#include <new>

#include "opuntia/field_reduction.hpp"

namespace opuntia {

// Out of line: field_reduction is only declared where the header is read.
std::optional<field_reduction> kernel_runtime::reduce_on_device(grid_variable&, int, const std::array<int, 3>&,
                                                                const index_range&) {
  return std::nullopt;
}

void* kernel_runtime::allocate_host(std::size_t bytes) { return ::operator new(bytes == 0 ? 1 : bytes); }

void kernel_runtime::release_host(void* host) noexcept { ::operator delete(host); }

kernel_runtime::snapshot_copy kernel_runtime::copy_for_snapshot(grid_variable& v, int level, const void* host,
                                                                void* into) {
  ensure_host(v, level);
  std::memcpy(into, host, v.count * v.element_size());
  return {nullptr, snapshot_route::host_copy};
}

}  // namespace opuntia
