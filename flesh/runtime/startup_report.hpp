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

}  // namespace opuntia
