#pragma once
// A run: parameters from the parameter file, the active thorns, the schedule, the grid, the
// kernel runtime, and the main loop STARTUP ... TERMINATE, SHUTDOWN in Cactus order.
#include <deque>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "flesh/parameters/parameter_registry.hpp"
#include "flesh/runtime/checkpoint_data.hpp"
#include "flesh/runtime/checkpoint_pace.hpp"
#include "flesh/runtime/checkpoint_snapshot.hpp"
#include "flesh/runtime/driver.hpp"
#include "flesh/runtime/ghost_depths.hpp"
#include "flesh/runtime/kernel_runtime.hpp"
#include "flesh/runtime/parameters_error.hpp"
#include "flesh/runtime/providers.hpp"
#include "flesh/schedule/schedule_tree.hpp"
#include "ccl/source_file.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

class stop_signal_handlers;
class checkpoint_writer;

/// simulation::run() throws it when SIGINT or SIGTERM stopped the run, after flushing the output
/// and printing what() ("opuntia: stopped by SIGTERM at iteration 12, time 0.0012"); a program
/// exits with 128 + signal_number(), as a shell reports a process the signal killed.
class run_stopped : public std::runtime_error {
public:
  run_stopped(int signal_number, const std::string& message)
      : std::runtime_error(message), signal_number_(signal_number) {}
  int signal_number() const { return signal_number_; }

private:
  int signal_number_;
};

class simulation {
public:
  /// Reads the parameter file, builds the schedule and allocates the grid functions; every
  /// problem in the parameter file or the schedule throws ccl::input_error with its place
  /// (nothing has run yet), a grid too large for the host's or the device's memory included
  /// (refused before anything is allocated). The driver, the kernel runtime, the time step and
  /// the output folder come from the active thorns that provide them (`provided`), exactly one
  /// of each: none or several is an error at the ActiveThorns line.
  simulation(std::vector<thorn_binding> thorns, providers provided, const ccl::source_file& parfile,
             parameter_level level, std::ostream& out);
  ~simulation();

  /// The schedule tree as the run would execute it.
  std::string show_schedule() const;

  /// Runs to the end. Errors in a routine or kernel propagate as exceptions; an unusable
  /// output folder (IO::out_dir), and a checkpoint to recover from that is missing, damaged or
  /// written with other values of parameters that may not change, are a ccl::input_error at
  /// their lines before anything runs. SIGINT or SIGTERM stop the run at the next routine or
  /// iteration boundary (with IO::checkpoint_on_terminate, at the end of the iteration, after a
  /// checkpoint): run_stopped.
  void run();

  /// Whether the run ended early because a routine found its result bad
  /// (routine_context::terminate_next with `failed`): the program then exits with status 1.
  bool terminated_on_failure() const { return termination_.failed; }

  // What the main loop reached (for tests).
  int iteration() const { return iteration_; }
  double time() const { return time_; }
  grid_function_store& store() { return store_; }
  /// This rank's grid, as its driver laid it out.
  const grid_layout& layout() const { return driver_->layout(); }
  const parameter_registry& parameters() const { return registry_; }
  /// The parameters the file sets that no rank read (--parameter-level strict), the same on
  /// every rank: one that a single rank reads (rank 0's timer report) counts as read.
  std::vector<ccl::diagnostic> parameters_no_rank_read() const;

private:
  class context;
  struct timer {
    std::string name;
    std::string thorn;
    long calls = 0;
    double seconds = 0;
    /// A launch timed on the device: the events before and after it, and the launches its time
    /// stands for (itself and the untimed ones since the last timed one).
    struct timed_launch {
      queue_event_ptr before, after;
      long launches = 1;
    };
    /// Kernels still counted on the device, oldest first.
    std::deque<timed_launch> on_device;
    /// Launches since the last timed one (kernel_runtime::timing_stride), counted at the time of
    /// the last one read until the next timed one stands for them.
    long untimed = 0;
    double last_timed_seconds = 0;
  };
  const thorn_binding& thorn(const std::string& name) const;
  const void* thorn_parameters(const std::string& name) const;
  void run_bin(const std::string& bin);
  void run_node(const schedule_node& node);
  void run_routine(const schedule_node& node);
  /// The kernel a schedule item launches; nullptr for a host routine.
  const kernel_binding* launched_kernel(const schedule_node& node) const;
  /// The SYNC of `node`, exchanging `variables` (stale_synced); `after`: an event the exchange
  /// waits for (the kernel's rim), null: none.
  void sync(const schedule_node& node, const std::vector<grid_variable*>& variables, queue_event* after);
  /// The variables the SYNC of `node` must exchange: those whose ghost zones are current on
  /// fewer layers than their readers reach (every one where the driver exchanges and depths are
  /// not tracked); empty when the driver exchanges nothing.
  /// Before `kernel` (the node's, null for a host routine) runs: the buffers it leaves as level 0.
  std::vector<grid_variable*> stale_synced(const schedule_node& node, const kernel_binding* kernel = nullptr);
  /// The ghost layers of `v` a SYNC must make current: the widest STENCIL of the scheduled kernels
  /// that read it, the whole ghost zones where a host routine READS it everywhere, at least one.
  ghost_depths::faces reach_of(const grid_variable& v) const;
  /// Before `kernel` runs: refuses a read of stale ghosts (a missing SYNC), and records the
  /// layers it leaves current in the buffers it writes.
  void track_ghosts(const schedule_node& node, const kernel_binding& kernel);
  /// The readers' reach of every variable (reach_of), and which are read off the axes, from the schedule.
  void find_reaches();
  /// What the SYNC of `variables` fills: the faces only where every reader of each reads along
  /// the axes and the ghost zones are no wider than they reach (wider ones skip exchanges by
  /// computing layers again, which needs the edges and corners).
  halo_extent extent_for(const std::vector<grid_variable*>& variables) const;
  /// The start-up line naming the synced variables whose SYNC fills the faces only; empty: none.
  std::string faces_only_report();
  bool condition_holds(const std::vector<std::string>& scalars, const std::string& thorn);
  bool finished() const;
  /// Whether a routine on any rank asked to end the run (routine_context::terminate_next); every
  /// rank calls it once an iteration, and rank 0 prints the reason when one did.
  bool termination_agreed();
  /// The progress line, `elapsed` seconds into the evolution loop.
  void print_progress(double elapsed);
  /// The evolution loop's iterations and wall time, its last kernels included.
  struct evolution_time {
    int iterations = 0;
    double seconds = 0;
  };
  /// A line of the timer report: a routine, a checkpoint's part or a SYNC's phase.
  struct report_row {
    std::string name, thorn;
    long calls = 0;
    double seconds = 0;
    /// What names the row from one report to the next where `name` changes (a rate in it): the
    /// steady state's share is this report's row less the same row's at the steady state's start.
    std::string key = {};
    const std::string& identity() const { return key.empty() ? name : key; }
  };
  /// The timer report's lines as they stand, routines first (slowest first); reads the device
  /// timers, waiting for them.
  std::vector<report_row> report_rows();
  /// The per-routine timers, after `elapsed` seconds of run, and the evolution's time an
  /// iteration; then the same from the steady-state start on, where the run got there.
  void print_timer_report(double elapsed, const evolution_time& evolution);
  /// The first iterations of an evolution pay for what happens once (a kernel's first launch
  /// loads its code, a first exchange sets up its buffers): the steady-state figures of the
  /// progress line and the timer report count from the end of this many iterations.
  static constexpr int steady_after_iterations = 10;
  /// The run when the steady state began: its iteration (-1: not yet), wall clock (with every
  /// kernel launched before done) and timer report lines.
  struct steady_start {
    int iteration = -1;
    double wall = 0;
    std::vector<report_row> rows;
  };
  steady_start steady_;
  int evolution_first_iteration_ = 0;  // the iteration the evolution loop started from
  double evolution_end_ = 0;           // the wall clock when its last kernel had finished
  /// Adds the device time of the kernels that have finished to their timers; `wait`: of all.
  void read_device_timers(bool wait);
  kernel_grid grid_for_kernels() const;
  /// `message` as a diagnostic at the value of the first of `parameters` the parameter file
  /// set (at its word `part`, where given: parameter_registry::diagnostic_where_set), naming
  /// where it set the others; nullopt when it set none.
  std::optional<ccl::diagnostic> place_of(const std::vector<parameter_name>& parameters, const std::string& message,
                                          std::string_view part = {}) const;
  /// On rank 0: "path:line:column: warning: message" at the first of `parameters` the file set,
  /// naming where it set the others; `unplaced` and the message where it set none.
  void warn_at(const std::vector<parameter_name>& parameters, const std::string& message,
               std::string_view unplaced) const;
  /// Throws place_of's diagnostic; a collective_error, the message alone, when the file set none
  /// of `parameters` (printed once where every rank finds it, with the rank where one does).
  [[noreturn]] void fail_at(const std::vector<parameter_name>& parameters, const std::string& message,
                            std::string_view part = {}) const;
  /// Runs `work`; a parameter_value_error or parameters_error it throws (a value found wrong
  /// only now, by the run or by a routine) becomes fail_at's diagnostic at the parameters' lines,
  /// parameter_value_errors one diagnostic each.
  template <typename Work>
  void at_parameter_lines(Work&& work) const;
  /// The parameters the time step comes from (Time::timestep, or Time::dtfac when that is 0);
  /// none once a routine or a checkpoint set it.
  std::vector<parameter_name> time_step_parameters() const;
  /// "dt = 0.001", and who set it where not the parameters: "dt = 0.001 (set by Thorn::Routine at CCTK_BASEGRID)".
  std::string dt_text() const;
  /// routine_context::set_dt of `routine` (Thorn::Routine); every rank calls it.
  void set_dt(double dt, const std::string& routine);
  /// Reads the variant parameter of the kernel runtime: empty, or a variant generated for the
  /// backend by some kernel of the active thorns (parameter_value_error otherwise).
  void check_variant();
  /// Refuses a run whose arrays (every time level, scratch buffers, device copies) exceed what
  /// the host or the device has, before anything is allocated. `storage`: the groups to allocate.
  void check_memory(const std::vector<std::string>& storage);
  /// The run's output folder (IO::out_dir).
  std::filesystem::path output_folder() const;
  /// Creates the output folder and checks that a file can be written there.
  /// and, on rank 0, locks it for the run (out_dir_lock_): a second run given the same folder
  /// waits, saying for whom, until the first has ended, rather than write over its files.
  void prepare_output_folder();
  /// After a run that failed: the output folder's lock and the folders prepare_output_folder
  /// made, where the run wrote nothing into them (a parameter found wrong at BASEGRID left
  /// `runs/a/b/.opuntia.lock` behind).
  void remove_unused_output_folder();
  /// run(), which removes what this leaves unused where it throws.
  void run_from_the_start();
  /// A run that ends at Cactus::cctk_final_time but cannot get there in a plausible number of
  /// steps, or that ends by a Cactus::max_runtime that sets no limit, says so before it starts;
  /// `after_time_step_set`: again where a routine has set the time step, only what that changes.
  void warn_if_final_time_out_of_reach(bool after_time_step_set) const;
  /// The warning line of a run that would compute nothing: no active thorn declares a grid
  /// function (an application thorn does; the infrastructure keeps scalars at most), or nothing
  /// is scheduled in CCTK_EVOL while the run has iterations to go; empty otherwise.
  std::string idle_run_warning() const;
  /// time + dt, or an error where dt no longer changes the time.
  double next_time() const;
  /// After a routine, or at the end of an iteration (`iteration_done`): stops the run when a
  /// signal asked for it. With IO::checkpoint_on_terminate only at the end of an iteration, where
  /// the ranks agree on it and a checkpoint is written first.
  void stop_if_signalled(bool iteration_done = false);
  /// A routine_context for the host code of `thorn`.
  std::unique_ptr<routine_context> context_for(const std::string& thorn);

  // Checkpoints and recovery (simulation_checkpoints.cpp).
  /// The IO parameters of checkpoints; a run that asks for checkpoints or recovery without an
  /// active thorn that provides them is refused at the parameter's line.
  void read_checkpoint_settings();
  /// IO::recover: finds the checkpoint (auto: the newest in the output folder; manual:
  /// IO::recover_file) and refuses one that cannot be read or whose parameters may not be those
  /// of this run, at the parameters' lines; sets recovery_.
  void prepare_recovery();
  /// At RECOVER_VARIABLES: every time level of every variable with storage from the checkpoint,
  /// the iteration, time and dt; ghost zones exchanged, device copies stale.
  void recover_variables();
  /// The checkpoint of this iteration (every rank), once the one before is complete; keeps
  /// IO::checkpoint_keep of them. In the background (checkpoint_mode_) a snapshot, written by
  /// writer_ while the run goes on; `run_waits`: the run waits for it anyway (it ends, or a
  /// signal stops it), so it is written at once from the run's arrays.
  void write_checkpoint(bool run_waits = false);
  /// The outcome of the checkpoint writer_ writes: its line and timers once it is complete, or
  /// the run's failure naming the file; `wait`: waiting for it, else only where it has ended.
  void collect_checkpoint_write(bool wait);
  /// On the way out of a run that failed: waits for the write in flight, so that its file is
  /// complete (and the output folder locked) until then; a failure of it is printed.
  void abandon_checkpoint_write() noexcept;
  /// Once checkpoint `file` (`bytes`) is complete, `seconds` after its write began, and the older
  /// ones `removed`: says so with `how` (how the run met it).
  void checkpoint_written(const std::filesystem::path& file, double bytes, double seconds, const std::string& how,
                          const std::vector<std::filesystem::path>& removed);
  /// What removes, once the checkpoint of `iteration` is complete, the older ones that
  /// IO::checkpoint_keep lets go (on rank 0; nothing on the others) and returns them: a function
  /// of its own values, which the writer's thread may call while the run goes on.
  std::function<std::vector<std::filesystem::path>()> older_checkpoints_remover(int iteration) const;
  /// Decides checkpoint_mode_ as the run starts; the start-up report's line about it (empty
  /// where the run writes no checkpoint every so many iterations).
  std::string choose_checkpoint_mode();
  /// With checkpoints in the background: the snapshot's host memory allocated before the
  /// evolution, so that the first checkpoint does not stall the run to allocate it.
  void reserve_checkpoint_snapshot();
  /// Says what each checkpoint in `costs` cost the device (checkpoint_pace) and counts it for
  /// the timer report.
  void report_checkpoint_costs(const std::vector<checkpoint_pace::cost>& costs);
  /// Every time level of every variable with storage, as a checkpoint holds them; `sources`:
  /// where each comes from.
  checkpoint_contents checkpoint_arrays(std::vector<checkpoint_snapshot::source>* sources = nullptr);
  /// Whether checkpoints are written at the end of the run and when a signal stops it.
  bool checkpoints_on_terminate() const { return checkpoints_ != nullptr && checkpoint_.on_terminate; }

  std::vector<thorn_binding> thorns_;
  providers provided_;
  const kernel_runtime_provider* runtime_provider_ = nullptr;
  const time_step_provider* time_step_ = nullptr;
  const output_folder_provider* output_ = nullptr;
  std::string parfile_name_;
  std::ostream& out_;
  parameter_registry registry_;
  std::vector<const thorn_binding*> active_;
  /// Whether the run updates no grid point (idle_run_warning warned of it; rank 0 only): its
  /// progress lines show no GLUP/s.
  bool idle_run_ = false;
  std::vector<std::pair<std::string, std::shared_ptr<const void>>> typed_parameters_;
  schedule_tree schedule_;
  std::unique_ptr<driver> driver_;
  grid_function_store store_;
  std::unique_ptr<kernel_runtime> runtime_;
  host_halo_memory host_halo_{[this](grid_variable& v) { return store_.data(v, 0); }};  // SYNC of host arrays
  std::vector<timer> timers_;
  std::optional<ghost_depths> ghost_depths_;    // where the driver exchanges
  std::map<std::size_t, ghost_depths::faces> reach_;  // by variable id
  std::set<std::size_t> read_off_axes_;  // variables some reader reads off the axes (edges, corners)
  long skipped_syncs_ = 0;
  // The host's side of the kernel launches (the events around each and the launch itself): what
  // a launch costs the host, apart from the kernel's device time in the routine's timer.
  long launches_ = 0;
  double launch_host_seconds_ = 0;
  // Autotuning's measurements before first launches (kernel_runtime::prepare), apart from the
  // routines' times.
  long tuned_launches_ = 0;
  double tuning_seconds_ = 0;
  std::string variant_;
  const stop_signal_handlers* stop_signals_ = nullptr;  // while run() runs
  struct termination_request {
    bool asked = false;
    bool failed = false;
    std::string reason;  // "NaNChecker asked: ..."
  } termination_;
  std::optional<ccl::source_file> parfile_;       // where diagnostics about recovery point
  std::optional<ccl::source_location> active_thorns_at_;  // the first ActiveThorns statement
  std::vector<ccl::located_text> active_thorn_names_;     // every thorn ActiveThorns names, where
  const providers::of_thorn<checkpoint_provider>* checkpoints_ = nullptr;  // the active thorn's
  struct {
    int every = 0;
    int keep = 1;
    bool on_terminate = false;
    std::string recover = "no";
    bool in_background = true;
  } checkpoint_;
  /// How this run writes checkpoints: a snapshot written in the background, or while the run
  /// waits (`why`: the reason, for the start-up report).
  struct {
    bool background = false;
    std::string why;
  } checkpoint_mode_;
  /// The checkpoint writer_ writes, until its outcome is collected.
  struct checkpoint_in_flight {
    std::filesystem::path file;
    double bytes = 0;
    double host_seconds = 0;                // the run's thread, taking the snapshot
    double waited_for_previous = 0;         // the run's thread, waiting for the write before to end
    queue_event_ptr before, after;          // around the snapshot's copies on the run's queue (a device)
    double bytes_allocated = 0, seconds_allocating = 0;  // snapshot memory, at the first one
    std::size_t arrays = 0, unchanged = 0;  // its arrays, and those the snapshot did not copy again
    /// The older checkpoints the writer removed once this one was complete, and the seconds that
    /// took, which the writer's time does not count.
    struct removal {
      std::vector<std::filesystem::path> files;
      double seconds = 0;
    };
    std::shared_ptr<removal> removed = std::make_shared<removal>();
  };
  std::optional<checkpoint_in_flight> in_flight_;
  bool said_snapshots_skip_the_device_ = false;
  /// The timer report's lines about checkpoints: those written in the background, those the run waited for.
  struct checkpoint_totals {
    long count = 0;
    double stalled = 0;  // the run's own time: the snapshots (in the background), or the writes
    double writing = 0;
    double bytes = 0;
    long previous_waits = 0;         // in the background: checkpoints due while the write before still ran,
    double waited_for_previous = 0;  // and the run's time waiting for those writes to end
    long paced = 0;                  // in the background on a device: checkpoints checkpoint_pace measured,
    double device_cost = 0;          // and what they cost the device beyond the steps' pace
  } in_background_, waited_for_;
  struct recovery {
    std::filesystem::path file;
    checkpoint_header header;
  };
  std::optional<recovery> recovery_;  // the checkpoint this run recovers from
  int last_checkpoint_ = -1;          // the iteration of the last checkpoint written or recovered
  int iteration_ = 0;
  double time_ = 0;
  double dt_ = 0;
  std::string dt_set_by_;  // who set dt where not the time-step parameters: a routine, or a checkpoint
  std::string dt_fixed_;   // why routines may no longer set dt; empty while they may
  std::string bin_;        // the bin running, as run_bin names it: "BASEGRID"
  double run_start_ = 0;
  /// The open lock file of the output folder (rank 0), -1: none. Closing it, or the end of the
  /// process however it ends, releases the lock.
  struct folder_lock {
    int fd = -1;
    folder_lock() = default;
    folder_lock(const folder_lock&) = delete;
    folder_lock& operator=(const folder_lock&) = delete;
    ~folder_lock();
  } out_dir_lock_;
  std::vector<std::filesystem::path> created_output_folders_;  // by prepare_output_folder, deepest first
  // Declared last: the writer (destroyed first) ends its write while the snapshot it reads, the
  // output folder's lock and the kernel runtime that gave the snapshot memory are still there.
  std::unique_ptr<checkpoint_snapshot> snapshot_;
  std::unique_ptr<checkpoint_pace> pace_;  // in the background on a device
  std::unique_ptr<checkpoint_writer> writer_;
};

}  // namespace opuntia
