#include "flesh/runtime/kernel_runtime.hpp"

#include "opuntia/field_reduction.hpp"

namespace opuntia {

// Out of line: field_reduction is only declared where the header is read.
std::optional<field_reduction> kernel_runtime::reduce_on_device(grid_variable&, int, const std::array<int, 3>&,
                                                                const index_range&) {
  return std::nullopt;
}

}  // namespace opuntia
