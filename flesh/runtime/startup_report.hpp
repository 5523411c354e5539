#pragma once
// The lines of the start-up report after the grid line: where each rank runs and what it holds,
// and which devices several ranks of one host share. Rank 0 prints them for every rank.
#include <string>
#include <vector>

#include "flesh/runtime/driver.hpp"
#include "flesh/runtime/kernel_runtime.hpp"
#include "opuntia/grid.hpp"

namespace opuntia {

/// What the start-up report says of one rank.
struct rank_summary {
  std::string host;    // host_name()
  std::string block;   // describe_block() of its layout
  std::string device;  // kernel_runtime::device_description()
};

/// The points `layout` owns as global index ranges, and its array sizes where ghost zones widen
/// them: "x 0..96, y 0..96, z 49..96 (97x97x48 points, 97x97x49 with ghost zones)".
std::string describe_block(const grid_layout& layout);

/// One line per rank, "  rank 1 on node7: <block>; <device>", for every rank where there are at
/// most 16, else for the first and last 4 around a line that counts the others; then, with
/// `note_shared_devices`, one note for each device that several ranks of one host share:
/// "  note: 2 ranks on node7 share cuda device 0: NVIDIA H100 80GB HBM3 (ranks 0, 2)".
std::string describe_ranks(const std::vector<rank_summary>& ranks, bool note_shared_devices);

/// This machine's name (gethostname).
std::string host_name();

/// describe_ranks() of every rank's summary, gathered through the driver, on rank 0; empty on
/// the other ranks. Every rank calls it. Devices are noted as shared where kernels work on
/// device copies (a GPU), not where they run on the host's cores.
std::string startup_report(const driver& ranks, const kernel_runtime& runtime);

/// What one rank runs OpenMP threads on, for oversubscription_warnings().
struct rank_threads {
  std::string host;       // host_name()
  int threads = 1;        // omp_get_max_threads(): what each parallel loop starts
  std::vector<int> cpus;  // the CPUs the process may run on (its affinity mask)
  double load = -1;       // the host's load average over the last minute; negative: unknown
  int others_running = -1;  // the host's other tasks running or ready to; negative: unknown
};

/// This process's rank_threads: sched_getaffinity (std::thread::hardware_concurrency where it
/// fails) and /proc/loadavg (its first field, and the fourth's runnable tasks less this
/// process's runnable threads: the fewest of five readings 10 ms apart).
rank_threads this_rank_threads();

/// One line for each host where the ranks run more OpenMP threads than it has free cores, and
/// more than one thread a rank (a rank's one thread is the MPI launcher's choice, not OpenMP's):
///   "opuntia: warning: 5 OpenMP threads on 2 cores of node7, about 1 free (load average 1.20, 1
///    other task running now): threads beyond the free cores wait for each other at every
///    parallel loop; set OMP_NUM_THREADS=1"
/// The cores are those the host's ranks may run on (the union of their affinity masks); the free
/// ones, those less the cores other work keeps busy (see the definition): an estimate.
std::string oversubscription_warnings(const std::vector<rank_threads>& ranks);

/// How many OpenMP threads each rank runs. Where OMP_NUM_THREADS is not set, each rank takes its
/// share of its host's free cores (at least one, at most its own affinity mask's and the
/// runtime's default): threads beyond the free cores wait for each other at every parallel loop,
/// and four ranks of 8 threads on 16 cores ran a test over 30 times as long as with one thread
/// a rank (bench/RESULTS.md, 2026-11-27). `notes` says where a host's ranks got fewer threads
/// than the default, one line a host:
///   "  note: 4 ranks share 16 cores of node7, about 12 free (load average 4.10, 4 other tasks
///    running now): 3 OpenMP threads each (OMP_NUM_THREADS sets another count)"
/// Where OMP_NUM_THREADS is set, its count stays, and `warnings` holds oversubscription_warnings().
struct thread_plan {
  std::vector<int> threads;  // by rank
  std::string notes;         // for the start-up report, after the ranks' lines
  std::string warnings;      // for standard error
};
thread_plan plan_threads(const std::vector<rank_threads>& ranks, bool chosen_by_user);

/// plan_threads() of every rank's this_rank_threads(), gathered through the driver: sets this
/// rank's count (omp_set_num_threads) before anything runs, and returns the plan's notes and
/// warnings on rank 0 (empty on the others). Every rank calls it.
thread_plan choose_threads(const driver& ranks);

}  // namespace opuntia
