#pragma once
// What a scheduled host routine sees: the grid, the time, its thorn's parameters and the grid
// functions, in the spirit of Cactus's CCTK_ARGUMENTS but typed.
//
//   void HeatEquation_Init(opuntia::routine_context& context) {
//     const auto& p = context.parameters<opuntia::thorns::HeatEquation::parameters>();
//     auto u = context.write("u");                    // host values; the device copy becomes stale
//     const auto& g = context.grid();
//     for (int k = 0; k < g.local[2]; ++k) ... u[g.index(i, j, k)] = ...;
//   }
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"

namespace opuntia {

class routine_context {
public:
  virtual ~routine_context() = default;

  /// The thorn whose routine is running.
  virtual std::string_view thorn() const = 0;
  virtual const grid_layout& grid() const = 0;
  virtual int iteration() const = 0;
  virtual double time() const = 0;
  virtual double dt() const = 0;

  /// This thorn's typed parameters (the generated `opuntia::thorns::<Thorn>::parameters`).
  template <typename Parameters>
  const Parameters& parameters() const {
    return *static_cast<const Parameters*>(thorn_parameters());
  }
  /// Any parameter, by owner and name.
  virtual const parameter_source& all_parameters() const = 0;

  /// A real grid function of this thorn (or one it inherits), `var` or `impl::var`, at time
  /// level `level` (0: current). `read` brings the host copy up to date; `write` does too and
  /// marks the device copy stale, so the next kernel that reads it gets the new values.
  virtual std::span<const CCTK_REAL> read(std::string_view var, int level = 0) = 0;
  virtual std::span<CCTK_REAL> write(std::string_view var, int level = 0) = 0;
  /// An integer scalar (a TYPE=SCALAR CCTK_INT group), e.g. the variable of a WHILE loop.
  virtual CCTK_INT& integer_scalar(std::string_view var) = 0;
  virtual CCTK_REAL& real_scalar(std::string_view var) = 0;

  /// Where the points of grid function `var` sit along x, y and z (its group's CENTERING).
  virtual centerings centering(std::string_view var) = 0;
  /// The coordinate of local index i of `var` along axis d, honouring its centering:
  /// `context.coordinate("p", 0, i)` is the x of p's point i, a cell centre if p is {c..}.
  double coordinate(std::string_view var, int d, int i) { return grid().coordinate(d, i, centering(var)[d]); }

  /// The run's output folder (IO::out_dir), created and checked when the run starts.
  virtual std::filesystem::path out_dir() = 0;
  /// Prints "INFO (<Thorn>): message" on rank 0.
  virtual void info(std::string_view message) = 0;

protected:
  virtual const void* thorn_parameters() const = 0;
};

}  // namespace opuntia
