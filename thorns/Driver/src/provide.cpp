// Thorn Driver provides the driver of every run (cartesian_driver.hpp): on the ranks mpirun
// started when the build has MPI, else on this process alone.
#include <memory>

#include "cartesian_driver.hpp"
#include "flesh/runtime/providers.hpp"
#if OPUNTIA_DRIVER_WITH_MPI
#include "thorns/Driver/mpi/mpi_communicator.hpp"
#endif

namespace opuntia::thorns::Driver {

namespace {
std::unique_ptr<communicator> ranks_of_this_run() {
#if OPUNTIA_DRIVER_WITH_MPI
  // MPI only under a launcher with several ranks: a plain `opuntia run.par` needs no MPI runtime.
  if (mpi_communicator::launched_with_several_ranks()) return std::make_unique<mpi_communicator>();
#endif
  return std::make_unique<self_communicator>();
}
}  // namespace

void provide(providers& p) {
  p.always_active();
#if OPUNTIA_DRIVER_WITH_MPI
  p.add_process_group({&mpi_communicator::world_rank, &mpi_communicator::world_size, &mpi_communicator::abort_all,
                       &mpi_communicator::all_arrive_within});
#endif
  p.add_driver({[](const parameter_source& s) -> std::unique_ptr<driver> {
    return std::make_unique<cartesian_driver>(s, ranks_of_this_run());
  }});
}

}  // namespace opuntia::thorns::Driver
