#pragma once
// The driver of a run on one process: the whole grid in one block. Non-periodic faces are
// physical boundaries with no ghost zones; a periodic direction gets ghost zones on both sides,
// filled by sync() from the other end (vertex-centred: point n-1 is point 0 again).
#include <memory>

#include "flesh/runtime/driver.hpp"
#include "opuntia/binding.hpp"

namespace opuntia::thorns::Driver {

class single_process_driver final : public opuntia::driver {
public:
  /// The layout from Driver::global_n*, x/y/zmin/max, ghost_size*, periodic*. Refuses, with
  /// parameters_error naming the parameters: fewer than two points along an axis, an empty
  /// domain (xmax <= xmin) or a spacing that is not a normal double, rows past an int and point
  /// counts past an array index.
  explicit single_process_driver(const parameter_source& parameters);
  std::string name() const override { return "single process"; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  const grid_layout& layout() const override { return layout_; }
  std::vector<parameter_name> size_parameters() const override {
    return {{"Driver", "global_nx"}, {"Driver", "global_ny"}, {"Driver", "global_nz"}};
  }
  void sync(const std::vector<grid_variable*>& variables, grid_function_store& store) override;
  double reduce(double local, reduction) const override { return local; }
  bool exchanges() const override { return periodic_[0] || periodic_[1] || periodic_[2]; }

private:
  grid_layout layout_;
  std::array<bool, 3> periodic_{};
};

}  // namespace opuntia::thorns::Driver
