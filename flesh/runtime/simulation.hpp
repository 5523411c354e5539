#pragma once
// A run: parameters from the parameter file, the active thorns, the schedule, the grid, the
// kernel runtime, and the main loop STARTUP ... TERMINATE, SHUTDOWN in Cactus order.
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "flesh/parameters/parameter_registry.hpp"
#include "flesh/runtime/driver.hpp"
#include "flesh/runtime/kernel_runtime.hpp"
#include "flesh/schedule/schedule_tree.hpp"
#include "generator/source_file.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

/// How the flesh obtains the parts that live in thorns (Driver, CaKernel).
struct simulation_parts {
  std::function<std::unique_ptr<driver>(const parameter_source&)> make_driver;
  /// Reads CaKernel::backend and the other parameters of the kernel runtime from the source.
  std::function<std::unique_ptr<kernel_runtime>(const parameter_source&, grid_function_store&)> make_runtime;
};

class simulation {
public:
  /// Reads the parameter file and builds the schedule; every problem in the parameter file or
  /// the schedule throws gen::generator_error with its place (nothing has run yet).
  simulation(std::vector<thorn_binding> thorns, const gen::source_file& parfile, parameter_level level,
             simulation_parts parts, std::ostream& out);
  ~simulation();

  /// The schedule tree as the run would execute it.
  std::string show_schedule() const;

  /// Runs to the end. Errors in a routine or kernel propagate as exceptions.
  void run();

  // What the main loop reached (for tests).
  int iteration() const { return iteration_; }
  double time() const { return time_; }
  grid_function_store& store() { return store_; }
  const parameter_registry& parameters() const { return registry_; }

private:
  class context;
  struct timer {
    std::string name;
    std::string thorn;
    long calls = 0;
    double seconds = 0;
  };
  const thorn_binding& thorn(const std::string& name) const;
  const void* thorn_parameters(const std::string& name) const;
  void run_bin(const std::string& bin);
  void run_node(const schedule_node& node);
  void run_routine(const schedule_node& node);
  void sync(const schedule_node& node);
  bool condition_holds(const std::vector<std::string>& scalars, const std::string& thorn);
  bool finished() const;
  void print_progress(double elapsed);
  void print_timer_report(double elapsed);
  kernel_grid grid_for_kernels() const;

  std::vector<thorn_binding> thorns_;
  std::string parfile_name_;
  std::ostream& out_;
  parameter_registry registry_;
  std::vector<const thorn_binding*> active_;
  std::vector<std::pair<std::string, std::shared_ptr<const void>>> typed_parameters_;
  schedule_tree schedule_;
  std::unique_ptr<driver> driver_;
  grid_function_store store_;
  std::unique_ptr<kernel_runtime> runtime_;
  std::vector<timer> timers_;
  std::string variant_;
  int iteration_ = 0;
  double time_ = 0;
  double dt_ = 0;
  double run_start_ = 0;
};

}  // namespace opuntia
