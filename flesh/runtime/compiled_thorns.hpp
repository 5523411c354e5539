#pragma once
#include <vector>

#include "flesh/runtime/providers.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {
/// Every thorn this build compiled (defined by the build: see opuntia_add_thorn_list()).
std::vector<thorn_binding> compiled_thorns();
/// What they provide: each thorn's provide(), in the order of compiled_thorns().
providers compiled_providers();
}  // namespace opuntia
