#pragma once
// A driver for the flesh's tests (providers_test.cpp, routine_context_test.cpp): a name, a
// layout and a rank given by the test, no exchange, and reductions a test can recognise (a sum
// adds 100, a maximum doubles, a minimum halves), as if other ranks had answered; or, where a
// test needs them, reductions that give each value back, as if this rank were alone.
#include <string>
#include <utility>
#include <vector>

#include "flesh/runtime/driver.hpp"

namespace opuntia::test_support {

class test_driver final : public driver {
 public:
  explicit test_driver(std::string name, grid_layout layout = {}, int rank = 0, int size = 1,
                       bool recognisable_reductions = true)
      : name_(std::move(name)), layout_(layout), rank_(rank), size_(size), recognisable_(recognisable_reductions) {}
  std::string name() const override { return name_; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const grid_layout& layout() const override { return layout_; }
  std::vector<parameter_name> size_parameters() const override { return {}; }
  void sync(const std::vector<grid_variable*>&, halo_memory&, halo_extent) override {}
  bool exchanges() const override { return false; }
  double reduce(double local, reduction op) const override {
    if (!recognisable_) return local;
    switch (op) {
      case reduction::sum:
        return local + 100;
      case reduction::maximum:
        return local * 2;
      case reduction::minimum:
        return local / 2;
    }
    return local;
  }
  /// Every rank of the pretended run read what this one did.
  std::vector<std::string> all_gather(const std::string& local) const override {
    return std::vector<std::string>(static_cast<std::size_t>(size_), local);
  }

 private:
  std::string name_;
  grid_layout layout_;
  int rank_, size_;
  bool recognisable_;
};

}  // namespace opuntia::test_support
