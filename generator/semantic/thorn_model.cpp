#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ccl/grammar/common.hpp"
#include "generator/semantic/thorn_model.hpp"

namespace opuntia::gen {

std::string to_string(kernel_intent intent) {
  switch (intent) {
    case kernel_intent::in: return "in";
    case kernel_intent::out: return "out";
    case kernel_intent::inout: return "inout";
    case kernel_intent::separateinout: return "separateinout";
  }
  return "in";
}

}  // namespace opuntia::gen
