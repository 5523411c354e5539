// Thorn Cactus holds the flesh's own parameters: always active, as in Cactus.
#include "flesh/runtime/providers.hpp"

namespace opuntia::thorns::Cactus {

void provide(providers& p) { p.always_active(); }

}  // namespace opuntia::thorns::Cactus
