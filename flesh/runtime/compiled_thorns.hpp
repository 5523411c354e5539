#pragma once
#include <vector>

#include "opuntia/binding.hpp"

namespace opuntia {
/// Every thorn this build compiled (defined by the build: see opuntia_add_thorn_list()).
std::vector<thorn_binding> compiled_thorns();
}  // namespace opuntia
