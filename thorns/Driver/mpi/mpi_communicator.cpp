#include "mpi_communicator.hpp"

#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

namespace opuntia::thorns::Driver {

namespace {

void check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw std::runtime_error(fmt::format("{} failed: {}", call, std::string(text, static_cast<std::size_t>(length))));
}

void initialise_once() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) return;
  int provided = 0;
  // FUNNELED: OpenMP threads compute, the run's thread alone calls MPI. Checkpoints of several
  // ranks are therefore written while the run waits, never by the background writer, whose
  // collective writes would need MULTIPLE (flesh/runtime/simulation_checkpoints.cpp says why not).
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  std::atexit([] {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised) MPI_Finalize();
  });
}

int byte_count(std::size_t bytes, const char* what = "a halo message") {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error(fmt::format("{} of {} bytes is larger than one MPI message carries", what, bytes));
  }
  return static_cast<int>(bytes);
}

double reduced(double local, MPI_Op op) {
  double result = 0;
  check(MPI_Allreduce(&local, &result, 1, MPI_DOUBLE, op, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

MPI_Comm arrivals = MPI_COMM_NULL;  // all_arrive_within's own, apart from the exchanges'

/// MPI initialised and all_arrive_within's communicator made, once. Collective: every rank's
/// driver calls it at the same point, and so does every rank that fails before it has one (an
/// error in the parameter file, found alike by every rank before any driver exists).
void join_the_ranks() {
  initialise_once();
  if (arrivals == MPI_COMM_NULL) check(MPI_Comm_dup(MPI_COMM_WORLD, &arrivals), "MPI_Comm_dup");
}

}  // namespace

mpi_communicator::mpi_communicator() {
  join_the_ranks();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  // The macro says what the library was built with; the call what the one loaded now supports.
  cuda_aware_ = MPIX_Query_cuda_support() == 1;
#endif
}

namespace {
/// The first of the launchers' variables that is set, as a number; `otherwise` if none is.
int launcher_variable(std::initializer_list<const char*> names, int otherwise) {
  for (const char* name : names) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return otherwise;
}
bool mpi_is_running() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}
}  // namespace

bool mpi_communicator::launched_with_several_ranks() { return world_size() > 1; }

int mpi_communicator::world_rank() {
  if (mpi_is_running()) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
  }
  return launcher_variable({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK"}, 0);
}

int mpi_communicator::world_size() {
  if (mpi_is_running()) {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
  }
  return launcher_variable({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MV2_COMM_WORLD_SIZE"}, 1);
}

void mpi_communicator::abort_all(int exit_code) {
  if (mpi_is_running()) MPI_Abort(MPI_COMM_WORLD, exit_code);
}

bool mpi_communicator::all_arrive_within(double seconds) {
  // Under a launcher of several ranks a failure before the driver still meets the other ranks:
  // answering "all arrived" without MPI let ranks 1.. end at once, and the launcher, seeing a
  // rank fail, could end rank 0 before it printed the error they had all found.
  if (!mpi_is_running()) {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (finalised || !launched_with_several_ranks()) return true;
    try {
      join_the_ranks();
    } catch (const std::runtime_error&) {
      return false;
    }
  }
  MPI_Request request = MPI_REQUEST_NULL;
  if (arrivals == MPI_COMM_NULL || MPI_Ibarrier(arrivals, &request) != MPI_SUCCESS) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    int arrived = 0;
    if (MPI_Test(&request, &arrived, MPI_STATUS_IGNORE) != MPI_SUCCESS) return false;
    if (arrived) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void mpi_communicator::exchange(std::span<const message> sends, std::span<const message> receives) {
  std::vector<MPI_Request> requests(sends.size() + receives.size(), MPI_REQUEST_NULL);
  std::size_t r = 0;
  for (const auto& m : receives) {
    check(MPI_Irecv(m.bytes.data(), byte_count(m.bytes.size()), MPI_BYTE, m.peer, m.tag, MPI_COMM_WORLD, &requests[r++]),
          "MPI_Irecv");
  }
  for (const auto& m : sends) {
    check(MPI_Isend(m.bytes.data(), byte_count(m.bytes.size()), MPI_BYTE, m.peer, m.tag, MPI_COMM_WORLD, &requests[r++]),
          "MPI_Isend");
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void mpi_communicator::sum(exact_sum& local) {
  local.normalize();
  const auto limbs = local.limbs();
  check(MPI_Allreduce(MPI_IN_PLACE, limbs.data(), static_cast<int>(limbs.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  local.normalize();
}

double mpi_communicator::minimum(double local) { return reduced(local, MPI_MIN); }
double mpi_communicator::maximum(double local) { return reduced(local, MPI_MAX); }

std::uint64_t mpi_communicator::wrapping_sum(std::uint64_t local) {
  std::uint64_t result = 0;  // unsigned: MPI_SUM wraps modulo 2^64
  check(MPI_Allreduce(&local, &result, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

namespace {

/// The texts of `all` at `starts`, `lengths` bytes each.
std::vector<std::string> split_texts(const std::string& all, const std::vector<int>& starts, const std::vector<int>& lengths) {
  std::vector<std::string> texts;
  for (std::size_t r = 0; r < lengths.size(); ++r) texts.push_back(all.substr(starts[r], lengths[r]));
  return texts;
}

/// Where each rank's text starts in the gathered bytes, and their total.
std::pair<std::vector<int>, std::size_t> starts_of(const std::vector<int>& lengths) {
  std::vector<int> starts(lengths.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    starts[r] = byte_count(total, "the gathered texts");
    total += static_cast<std::size_t>(lengths[r]);
  }
  return {starts, total};
}

}  // namespace

std::vector<std::string> mpi_communicator::gather(const std::string& local) {
  const int length = byte_count(local.size(), "a gathered text");
  const bool root = rank_ == 0;
  std::vector<int> lengths(root ? size_ : 0);
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  const auto [starts, total] = starts_of(lengths);
  std::string all(total, '\0');
  check(MPI_Gatherv(local.data(), length, MPI_CHAR, all.data(), lengths.data(), starts.data(), MPI_CHAR, 0,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  return split_texts(all, starts, lengths);
}

std::vector<std::string> mpi_communicator::all_gather(const std::string& local) {
  const int length = byte_count(local.size(), "a gathered text");
  std::vector<int> lengths(size_);
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  const auto [starts, total] = starts_of(lengths);
  std::string all(total, '\0');
  check(MPI_Allgatherv(local.data(), length, MPI_CHAR, all.data(), lengths.data(), starts.data(), MPI_CHAR,
                       MPI_COMM_WORLD),
        "MPI_Allgatherv");
  return split_texts(all, starts, lengths);
}

}  // namespace opuntia::thorns::Driver
