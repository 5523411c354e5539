#pragma once
// The driver of every run, on one rank or many: the grid split over a Cartesian topology of
// ranks (cartesian_topology.hpp), each rank holding one block with ghost zones where a face
// has a neighbour, filled by halo_exchange. One rank without MPI is the same driver with a
// self_communicator: a periodic direction then exchanges with itself through the same path.
#include <memory>

#include "communicator.hpp"
#include "cartesian_topology.hpp"
#include "flesh/runtime/driver.hpp"
#include "halo_exchange.hpp"
#include "opuntia/binding.hpp"

namespace opuntia::thorns::Driver {

class cartesian_driver final : public opuntia::driver {
public:
  /// The layout from Driver::global_n*, x/y/zmin/max, ghost_size*, periodic* and
  /// processor_topology*. Refuses, with parameters_error naming the parameters: fewer than two
  /// points along an axis, an empty domain or a spacing that is not a normal double, a periodic
  /// direction without ghost zones, a topology that does not split the ranks, a block thinner
  /// than its ghost zones, rows past an int and point counts past an array index.
  cartesian_driver(const parameter_source& parameters, std::unique_ptr<communicator> ranks);
  std::string name() const override;
  int rank() const override { return ranks_->rank(); }
  int size() const override { return ranks_->size(); }
  const grid_layout& layout() const override { return block_.layout; }
  std::vector<parameter_name> size_parameters() const override {
    return {{"Driver", "global_nx"}, {"Driver", "global_ny"}, {"Driver", "global_nz"}};
  }
  void sync(const std::vector<grid_variable*>& variables, halo_memory& memory, halo_extent what) override;
  bool exchanges() const override { return halo_->exchanges(); }
  std::array<int, 6> exchanged_ghost_widths() const override;
  std::array<bool, 6> periodic_faces() const override {
    return {periodic_[0], periodic_[0], periodic_[1], periodic_[1], periodic_[2], periodic_[2]};
  }
  std::array<int, 6> physical_face_blocks() const override;
  std::vector<phase_timer> sync_timers() const override;
  bool overlaps_sync() const override { return overlap_sync_; }
  bool syncs_faces_only() const override { return sync_faces_only_; }
  void check_stencils(const std::array<int, 6>& widest, const std::array<std::string, 6>& kernel) const override;
  /// Sums are exact (exact_sum): the same bits on any number of ranks.
  double reduce(double local, reduction op) const override;
  std::uint64_t wrapping_sum(std::uint64_t local) const override { return ranks_->wrapping_sum(local); }
  double sum(exact_sum& local) const override {
    ranks_->sum(local);
    return local.value();
  }
  std::vector<std::string> gather(const std::string& local) const override { return ranks_->gather(local); }
  std::vector<std::string> all_gather(const std::string& local) const override { return ranks_->all_gather(local); }

  const std::array<int, 3>& topology() const { return topology_; }
  const std::array<int, 6>& neighbours() const { return block_.neighbours; }

private:
  std::unique_ptr<communicator> ranks_;
  std::array<int, 3> topology_{1, 1, 1};
  std::array<bool, 3> periodic_{};
  rank_block block_;
  std::unique_ptr<halo_exchange> halo_;
  bool overlap_sync_ = true;
  bool sync_faces_only_ = true;
};

}  // namespace opuntia::thorns::Driver
