// Thorn Driver provides the driver of a run on one process (single_process_driver.hpp).
#include <memory>

#include "flesh/runtime/providers.hpp"
#include "single_process_driver.hpp"

namespace opuntia::thorns::Driver {

void provide(providers& p) {
  p.always_active();
  p.add_driver({[](const parameter_source& s) -> std::unique_ptr<driver> {
    return std::make_unique<single_process_driver>(s);
  }});
}

}  // namespace opuntia::thorns::Driver
