#pragma once
// What thorns provide beyond their bindings: the driver, the kernel runtime, the time step, the
// output folder, checkpoints and commands of the `opuntia` program. A thorn with a src/provide.cpp defines
//
//   void opuntia::thorns::Driver::provide(opuntia::providers& p) {
//     p.always_active();
//     p.add_driver({[](const opuntia::parameter_source& s) { return std::make_unique<my_driver>(s); }});
//   }
//
// and the build's thorn list calls it (compiled_providers(), cmake/opuntia_add_thorn.cmake). The
// flesh asks for what the active thorns provide and names none of them: as in Cactus, the driver
// that runs is the one of the active driver thorn.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/model/parfile_model.hpp"
#include "ccl/source_file.hpp"
#include "flesh/grid/grid_functions.hpp"
#include "flesh/runtime/checkpoint_data.hpp"
#include "flesh/parameters/parameter_registry.hpp"
#include "flesh/runtime/driver.hpp"
#include "flesh/runtime/kernel_runtime.hpp"
#include "flesh/runtime/parameters_error.hpp"
#include "flesh/schedule/schedule_tree.hpp"
#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia {

struct driver_provider {
  /// The driver of a run, from its parameters; a bad combination: parameters_error.
  std::function<std::unique_ptr<driver>(const parameter_source&)> make;
};

struct kernel_runtime_provider {
  /// The runtime from its parameters (its backend and the backend's options).
  std::function<std::unique_ptr<kernel_runtime>(const parameter_source&, grid_function_store&)> make;
  /// The scheduled function that launches a kernel (CaKernel: CAKERNEL_Launch_<kernel>).
  kernel_launch_name launch_routine;
  /// The STRING parameter that picks among a kernel's generated variants (its value empty: each
  /// kernel's first variant).
  parameter_name variant;
};

struct time_step_provider {
  /// The time step on `grid` (Cactus's cctk_delta_time).
  std::function<double(const parameter_source&, const grid_layout& grid)> dt;
  /// The parameters dt comes from, where a diagnostic about the time step points.
  std::function<std::vector<parameter_name>(const parameter_source&)> parameters;
};

struct output_folder_provider {
  /// The STRING parameter that names the run's output folder.
  parameter_name folder;
  /// Cactus's checkpoint parameters (IO::checkpoint_every, ...): the flesh writes checkpoints
  /// and recovers from them as they say, through the active thorn that provides checkpoints.
  struct checkpoint_parameters {
    parameter_name every;         // INT: every this many iterations, in CHECKPOINT; 0: never
    parameter_name keep;          // INT: how many are kept
    parameter_name on_terminate;  // BOOLEAN: one at the end, and when a signal stops the run
    parameter_name recover;       // KEYWORD: no, auto, manual
    parameter_name recover_file;  // STRING: the file of manual
    parameter_name in_background;  // BOOLEAN: a snapshot, written by a second thread while the run goes on
  } checkpoints;
};

/// Checkpoints: one file per checkpoint, <out_dir>/checkpoint.it<iteration><extension>
/// (checkpoint_files.hpp), with every time level of every variable with storage as the global
/// array (checkpoint_data.hpp). As Cactus's IOHDF5 does for IOUtil's parameters.
struct checkpoint_provider {
  std::string extension;  // ".h5"
  /// Writes `contents` to `file` whole or not at all: under a temporary name, flushed to the
  /// disk (file and folder) and renamed to `file` only when complete; a failure throws and
  /// leaves neither. Every rank calls it, `ranks` their routine_context. Where
  /// `writes_in_background`, a run of one rank may call it on a thread of its own while its
  /// routines run (it then calls no collective of `ranks`): what it shares with the thorn's
  /// routines (a library that is not thread-safe) must be serialised by the thorn.
  std::function<void(const std::filesystem::path& file, const checkpoint_contents& contents, routine_context& ranks)>
      write;
  /// The header of `file`; std::runtime_error with the reason where it is no readable checkpoint.
  std::function<checkpoint_header(const std::filesystem::path& file)> read_header;
  /// Fills the values of `into.arrays` from `file`: on each rank its owned points of every grid
  /// function (its ghost zones untouched), and every scalar; std::runtime_error naming an array
  /// the file lacks, whose size differs, or whose values are not those written (a damaged file).
  /// Every rank calls it, `ranks` their routine_context.
  std::function<void(const std::filesystem::path& file, checkpoint_contents& into, routine_context& ranks)> read;
  /// Whether write may run on a thread of its own, as above.
  bool writes_in_background = false;
};

/// The processes of a run (the ranks of mpirun), for the program's last word: an error every
/// rank found alike is printed by rank 0 alone, and one rank's failure ends every rank.
struct process_group_provider {
  std::function<int()> rank;
  std::function<int()> size;
  /// Ends every process of the run with `exit_code` (MPI_Abort), so that none waits for one
  /// that failed; returns only where there is nothing to end.
  std::function<void(int exit_code)> abort;
  /// Whether every process calls it within `seconds`: each calls it where it found an error, so
  /// true means that all found one (a parameter error every rank finds alike). True where no
  /// process can be waiting for another.
  std::function<bool(double seconds)> all_arrive_within;
};

/// A command of the `opuntia` program (`opuntia --list-devices [PARFILE]`).
struct command_provider {
  std::string flag;     // "--list-devices"
  std::string help;     // what `opuntia --help` says of it
  std::string example;  // a line of --help's examples; empty: none
  /// Runs with the parameters of PARFILE (their defaults without one); returns the exit status.
  std::function<int(const parameter_source&, std::ostream& out, std::ostream& err)> run;
};

class providers {
 public:
  /// What one thorn provides.
  template <typename T>
  struct of_thorn {
    std::string thorn;
    T provided;
  };

  /// Runs a thorn's provide(), crediting what it adds to `thorn` (the build's thorn list does).
  void add(std::string_view thorn, void (*provide)(providers&));

  // --- what provide() calls -----------------------------------------------------------------
  /// The thorn is active whatever ActiveThorns says (naming it there changes nothing).
  void always_active();
  void add_driver(driver_provider driver);
  void add_kernel_runtime(kernel_runtime_provider runtime);
  void add_time_step(time_step_provider time_step);
  void add_output_folder(output_folder_provider folder);
  void add_command(command_provider command);
  void add_checkpoints(checkpoint_provider checkpoints);
  void add_process_group(process_group_provider group);

  // --- what the flesh and the program ask ---------------------------------------------------
  bool is_always_active(std::string_view thorn) const;
  /// Thorns always active, in the order they were added.
  const std::vector<std::string>& always_active_thorns() const { return always_active_; }
  const std::vector<of_thorn<driver_provider>>& drivers() const { return drivers_; }
  const std::vector<of_thorn<kernel_runtime_provider>>& kernel_runtimes() const { return kernel_runtimes_; }
  const std::vector<of_thorn<time_step_provider>>& time_steps() const { return time_steps_; }
  const std::vector<of_thorn<output_folder_provider>>& output_folders() const { return output_folders_; }
  const std::vector<of_thorn<command_provider>>& commands() const { return commands_; }
  const std::vector<of_thorn<checkpoint_provider>>& checkpoints() const { return checkpoints_; }
  /// The processes of this run: the first thorn's that provides them; one process if none does.
  process_group_provider process_group() const;

  /// What the one active thorn that provides it provides, once `registry` read the parameter
  /// file `source` (`parfile`: its statements). None or several: ccl::input_error at the
  /// ActiveThorns line, naming the thorns that provide one
  /// ("thorns 'Driver' and 'Other' both provide a driver; activate only one").
  const driver_provider& active_driver(const parameter_registry& registry, const ccl::parfile_file& parfile,
                                       const ccl::source_file& source) const;
  const kernel_runtime_provider& active_kernel_runtime(const parameter_registry& registry,
                                                       const ccl::parfile_file& parfile,
                                                       const ccl::source_file& source) const;
  const time_step_provider& active_time_step(const parameter_registry& registry, const ccl::parfile_file& parfile,
                                             const ccl::source_file& source) const;
  const output_folder_provider& active_output_folder(const parameter_registry& registry,
                                                     const ccl::parfile_file& parfile,
                                                     const ccl::source_file& source) const;

  /// The checkpoints of the one active thorn that provides them; nullptr where none does (a run
  /// that asks for none needs none). Several: ccl::input_error as above.
  const of_thorn<checkpoint_provider>* active_checkpoints(const parameter_registry& registry,
                                                          const ccl::parfile_file& parfile,
                                                          const ccl::source_file& source) const;

  /// A registry of every parameter of `thorns`, those always active activated.
  parameter_registry registry_of(const std::vector<thorn_binding>& thorns,
                                 parameter_level level = parameter_level::normal) const;

 private:
  /// The thorn whose provide() runs; std::logic_error outside one.
  const std::string& current() const;

  std::string current_;
  std::vector<std::string> always_active_;
  std::vector<of_thorn<driver_provider>> drivers_;
  std::vector<of_thorn<kernel_runtime_provider>> kernel_runtimes_;
  std::vector<of_thorn<time_step_provider>> time_steps_;
  std::vector<of_thorn<output_folder_provider>> output_folders_;
  std::vector<of_thorn<command_provider>> commands_;
  std::vector<of_thorn<checkpoint_provider>> checkpoints_;
  std::vector<of_thorn<process_group_provider>> process_groups_;
};

}  // namespace opuntia
