#pragma once
// A kernel runtime for the flesh's tests (routine_context_test.cpp, startup_report_test.cpp): no
// device, no kernels; a run's host routines work on the host arrays alone.
#include <memory>
#include <optional>
#include <string>

#include "flesh/runtime/kernel_runtime.hpp"

namespace opuntia::test_support {

/// Not final: a test overrides what it records (routine_context_test.cpp).
class host_runtime : public kernel_runtime {
 public:
  std::string backend_name() const override { return "host"; }
  launched_events launch(const thorn_binding&, const kernel_binding&, const void*, const kernel_grid&,
                         const std::string&, const launch_parts&, launch_timing) override {
    return {};
  }
  void ensure_host(grid_variable&, int) override {}
  void host_wrote(grid_variable&, int) override {}
  void synchronize() override {}
  queue_event_ptr record() override { return std::make_shared<no_event>(); }
  double elapsed_seconds(queue_event&, queue_event&) override { return 0; }

 private:
  struct no_event final : queue_event {  // nothing runs asynchronously here
    void wait() override {}
    bool done() override { return true; }
  };
};

}  // namespace opuntia::test_support
