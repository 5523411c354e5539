#pragma once
// The communicator of a run under mpirun: MPI_COMM_WORLD, point-to-point messages posted
// non-blocking and completed together, exact sums as limb-wise integer sums (MPI_INT64_T,
// MPI_SUM), so that every rank count gives the same bits. MPI is initialised on first use,
// if the program has not done it, and finalised at exit.
#include "thorns/Driver/src/communicator.hpp"

namespace opuntia::thorns::Driver {

class mpi_communicator final : public communicator {
public:
  mpi_communicator();
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(std::span<const message> sends, std::span<const message> receives) override;
  /// What the MPI library says at run time (Open MPI's MPIX_Query_cuda_support); false for a
  /// library that cannot say.
  bool accepts_device_memory() const override { return cuda_aware_; }
  void sum(exact_sum& local) override;
  double minimum(double local) override;
  double maximum(double local) override;
  std::uint64_t wrapping_sum(std::uint64_t local) override;
  /// The lengths first (MPI_Gather), then the texts (MPI_Gatherv).
  std::vector<std::string> gather(const std::string& local) override;
  std::vector<std::string> all_gather(const std::string& local) override;

  /// Whether this process was started by mpirun (or another MPI launcher) with more than one
  /// rank, read from the environment without initialising MPI.
  static bool launched_with_several_ranks();
  /// This process's rank and the number of ranks: from MPI once it is initialised, else from the
  /// launcher's environment (0 and 1 without one).
  static int world_rank();
  static int world_size();
  /// Ends every rank with `exit_code` (MPI_Abort) when MPI is initialised; returns otherwise.
  static void abort_all(int exit_code);
  /// Whether every rank calls it within `seconds`: a non-blocking barrier on a communicator of
  /// its own (it never matches a collective the other ranks are in), polled until then. Under a
  /// launcher of several ranks it initialises MPI if nothing has (a failure before the driver);
  /// true where this process is alone or MPI has ended: no rank can be waiting for another.
  static bool all_arrive_within(double seconds);

private:
  int rank_ = 0;
  int size_ = 1;
  bool cuda_aware_ = false;
};

}  // namespace opuntia::thorns::Driver
