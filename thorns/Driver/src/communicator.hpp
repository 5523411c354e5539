#pragma once
// What the Cartesian driver needs from the ranks around it: point-to-point messages with its
// neighbours, posted together and completed together (non-blocking MPI underneath), and
// reductions. `self_communicator` is the one rank of a run without MPI, whose periodic
// neighbour is itself: the same exchange code serves 1 rank and N.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "opuntia/exact_sum.hpp"

namespace opuntia::thorns::Driver {

/// One message of an exchange: to (or from) rank `peer`, told apart from the others between the
/// same two ranks by `tag`.
struct message {
  int peer = 0;
  int tag = 0;
  std::span<std::byte> bytes;
};

class communicator {
public:
  virtual ~communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Posts every receive and every send, then waits for all of them: on return each receive
  /// buffer holds the bytes its peer sent with the same tag.
  virtual void exchange(std::span<const message> sends, std::span<const message> receives) = 0;
  /// Whether exchange() may be given device memory (CUDA-aware MPI): a device halo then sends
  /// its packed buffers as they are instead of staging them through the host.
  virtual bool accepts_device_memory() const { return false; }
  /// The sum over ranks of every rank's accumulator, exact (limb-wise integer sums).
  virtual void sum(exact_sum& local) = 0;
  virtual double minimum(double local) = 0;
  virtual double maximum(double local) = 0;
  /// The sum over ranks modulo 2^64 (digests of fields).
  virtual std::uint64_t wrapping_sum(std::uint64_t local) = 0;
  /// Every rank's `local` text, in rank order, on rank 0; an empty list on the others. Every
  /// rank calls it (the start-up report).
  virtual std::vector<std::string> gather(const std::string& local) = 0;
  /// The same on every rank.
  virtual std::vector<std::string> all_gather(const std::string& local) = 0;
};

class self_communicator final : public communicator {
public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void exchange(std::span<const message> sends, std::span<const message> receives) override;
  void sum(exact_sum&) override {}
  double minimum(double local) override { return local; }
  double maximum(double local) override { return local; }
  std::uint64_t wrapping_sum(std::uint64_t local) override { return local; }
  std::vector<std::string> gather(const std::string& local) override { return {local}; }
  std::vector<std::string> all_gather(const std::string& local) override { return {local}; }
};

}  // namespace opuntia::thorns::Driver
