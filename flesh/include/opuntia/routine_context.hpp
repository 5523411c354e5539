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
//
// A routine that sums over the grid visits the points its rank owns (interior()) and combines
// the ranks' results (sum(), maximum()), so that it gives the same on any number of ranks:
//
//     double squares = 0;
//     context.interior().for_each([&](int i, int j, int k) { squares += u[g.index(i, j, k)] * ...; });
//     const double rms = std::sqrt(context.sum(squares) / context.sum(context.interior().points()));
//
// or lets the flesh reduce a whole grid function, on the device where its data is, with the
// same bits on any number of ranks and wherever it is reduced:
//
//     const auto s = context.statistics("u");  // s.sum, s.minimum, s.maximum, s.max_abs, s.rms
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "opuntia/binding.hpp"
#include "opuntia/exact_sum.hpp"
#include "opuntia/field_reduction.hpp"
#include "opuntia/grid.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/reduction.hpp"

namespace opuntia {

/// A grid function as routine_context::variables() lists it.
struct variable_description {
  std::string name;            // "phi"
  std::string group;           // "scalarevolve"
  std::string implementation;  // "wavetoy": `implementation::name` names it from any thorn
  opuntia::group_type group_type = opuntia::group_type::gf;
  opuntia::data_type data_type = opuntia::data_type::cctk_real;
  int timelevels = 1;
  bool has_storage = false;
};

class routine_context {
public:
  virtual ~routine_context() = default;

  /// The thorn whose routine is running.
  virtual std::string_view thorn() const = 0;
  virtual const grid_layout& grid() const = 0;
  virtual int iteration() const = 0;
  virtual double time() const = 0;
  virtual double dt() const = 0;
  /// Sets the time step from now on, as a Cactus thorn sets cctk_delta_time at CCTK_BASEGRID:
  /// dt() returns it, kernels see it as params.cagh_dt and the iterations advance by it. Only
  /// before the evolution, from CCTK_STARTUP to CCTK_POSTINITIAL (later: an error naming the
  /// routine); positive and finite; every rank calls it with the same value. A recovered run
  /// keeps the checkpoint's dt, whatever a routine set at CCTK_BASEGRID.
  ///   context.set_dt(cfl * context.grid().delta[0] / max_speed);
  virtual void set_dt(double dt) = 0;

  /// This rank, from 0, and the number of ranks of the run (the driver's).
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// The points of this rank's block that it owns: grid() less its ghost zones.
  index_range interior() const { return grid().interior(); }
  /// Combines `local` over every rank; every rank must call it, in the same order.
  virtual double reduce(double local, reduction op) const = 0;
  double sum(double local) const { return reduce(local, reduction::sum); }
  double minimum(double local) const { return reduce(local, reduction::minimum); }
  double maximum(double local) const { return reduce(local, reduction::maximum); }
  /// The exact sum over every rank of each rank's accumulator: the same bits on any number of
  /// ranks and threads, where summing doubles would depend on both.
  virtual double sum(exact_sum& local) const = 0;

  /// The largest |f(i, j, k)| and the root mean square of f over the points every rank owns, its
  /// sum exact: an error norm that gives the same bits however the run is split (both NaN where
  /// f is NaN at a point, as statistics() below).
  struct norms {
    double max_abs = 0;
    double rms = 0;
  };
  template <typename PointValue>
  norms interior_norms(PointValue f) const;

  /// Time level `level` of the real grid function `var` reduced over the points every rank owns:
  /// on the device where its current copy is there alone (one pass, a few hundred bytes back),
  /// else on the host array. Sums exact, minimum and maximum in an order where -0 < +0, so that
  /// a field's figures have the same bits on any number of ranks, reduced on a device or on the
  /// host. A NaN point makes every figure NaN but the counts. The NaN and infinite points are
  /// counted, and the first of them in global index order found: the same point on any number of
  /// ranks (NaNChecker reports it). Every rank calls it, in the same order.
  struct owned_point {
    std::array<int, 3> index{};  // global indices
    int rank = 0;                // the rank that owns the point
  };
  struct field_statistics {
    double sum = 0;
    double minimum = 0;  // +inf and -inf where no rank owns a point
    double maximum = 0;
    double max_abs = 0;
    double rms = 0;  // sqrt(sum of squares / points); 0 without points
    std::uint64_t points = 0;
    std::uint64_t nans = 0;
    std::uint64_t infinities = 0;  // +inf and -inf
    /// The first NaN or infinite point, x fastest then y then z; nullopt where there is none.
    std::optional<owned_point> first_non_finite;
  };
  /// Which figures statistics() computes: `extremes` leaves sum and rms NaN and skips their
  /// exact sums, several times cheaper on the host (a convergence test of an iterative solver
  /// wants max_abs alone, every few iterations).
  enum class reduction_figures { all, extremes };
  field_statistics statistics(std::string_view var, int level = 0, reduction_figures figures = reduction_figures::all);
  /// statistics() one figure at a time (each call reduces the field anew).
  norms field_norms(std::string_view var, int level = 0) {
    const auto s = statistics(var, level);
    return {s.max_abs, s.rms};
  }
  double field_sum(std::string_view var, int level = 0) { return statistics(var, level).sum; }
  double field_minimum(std::string_view var, int level = 0) { return statistics(var, level).minimum; }
  double field_maximum(std::string_view var, int level = 0) { return statistics(var, level).maximum; }

  /// The sum over every rank modulo 2^64.
  virtual std::uint64_t wrapping_sum(std::uint64_t local) const = 0;
  /// Every rank's `local` bytes, in rank order, on rank 0; an empty list on the others: output
  /// that one rank writes. Every rank calls it, in the same order.
  virtual std::vector<std::string> gather(const std::string& local) const = 0;
  /// The global indices the ranks own together, [0, end[d]) along axis d: the global grid less
  /// the periodic images (a periodic axis of n points owns n - 1). Every rank calls it.
  std::array<int, 3> owned_extent() const {
    const auto& g = grid();
    const auto r = interior();
    std::array<int, 3> end{};
    for (int d = 0; d < 3; ++d) end[d] = static_cast<int>(maximum(g.offset[d] + r.end[d]));
    return end;
  }
  /// A 64-bit digest of time level `level` of the real grid function `var` over the points every
  /// rank owns: a sum of a hash of each point's global index and bits, so that it does not depend
  /// on how the grid is split, and two runs whose fields differ in one bit differ in it.
  std::uint64_t digest(std::string_view var, int level = 0);

  /// The grid functions this thorn sees (its own, then those of the implementations it inherits
  /// or is a friend of), in declaration order.
  virtual std::vector<variable_description> variables() const = 0;
  /// What one name of an output parameter names: the variable `impl::var`, or every variable of
  /// the group `impl::group` (`var` and `group` alone as this thorn sees them); throws
  /// std::invalid_argument with the nearest names when it is neither.
  ///   context.variables_named("wavetoy::scalarevolve")  // {phi}
  virtual std::vector<variable_description> variables_named(std::string_view name) const = 0;
  /// The grid functions a blank-separated list names, each once, in the order named, as Cactus's
  /// IO and NaNChecker parameters name them: a grid function (`impl::var`, or `var` as this
  /// thorn sees it) as given, the variables of a group (`impl::group`) as `impl::var`, and for
  /// `all` every real grid function with storage. An unknown name: std::invalid_argument naming
  /// the nearest grid functions and groups.
  virtual std::vector<std::string> grid_functions_named(std::string_view list) const = 0;
  /// grid_functions_named() of the STRING parameter `owner::name` (IO::out_norms_vars), each one
  /// checked to be a real grid function with storage that statistics() reduces; any other name is
  /// a parameter_value_error at the parameter's line, "owner::name: <why>". Every rank calls it,
  /// in the same order (it reduces each grid function once): at CCTK_BASEGRID, before the run.
  std::vector<std::string> checked_grid_functions(std::string_view owner, std::string_view name);

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
  /// A CCTK_INT grid function, brought up to date on the host as read() does.
  virtual std::span<const CCTK_INT> read_integer(std::string_view var, int level = 0) = 0;
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
  /// Prints "WARNING (<Thorn>): message" on rank 0.
  virtual void warn(std::string_view message) = 0;
  /// A warning about parameters ("Time::timestep", or a name of this thorn's own): on rank 0,
  /// "path:line:column: warning: message" at the first of them the parameter file set, naming
  /// where it set the others; as warn() where it set none.
  virtual void warn_about(const std::vector<std::string>& parameters, std::string_view message) = 0;
  /// Ends the run after this iteration, as Cactus's CCTK_TerminateNext: the iteration's other
  /// routines run, then TERMINATE and SHUTDOWN, and the timer report is printed, after the line
  /// "opuntia: terminated after iteration N, time T: <reason>". A request on any rank ends every
  /// rank at the same iteration. `failed`: the run ends because its result is bad (NaNChecker
  /// found a NaN), and `opuntia` exits with status 1 rather than 0. To stop at once instead,
  /// throw (opuntia/collective_error.hpp where every rank finds the error alike).
  virtual void terminate_next(std::string_view reason, bool failed = false) = 0;

protected:
  virtual const void* thorn_parameters() const = 0;
  /// This rank's part of statistics(): its interior() reduced where the current copy is.
  virtual field_reduction local_reduction(std::string_view var, int level, reduction_figures figures) = 0;
  /// Every rank's `local` (its interior() reduced) combined through the driver: every rank must
  /// call it, in the same order.
  field_statistics combine(field_reduction& local) const;
  /// The first point of every rank's `local_first` (an index of this rank's interior() as
  /// field_reduction::first_non_finite holds it; no_point: none here), in global index order.
  owned_point first_point_of(std::uint64_t local_first) const;
};

inline std::uint64_t routine_context::digest(std::string_view var, int level) {
  return wrapping_sum(owned_points_digest(read(var, level).data(), sizeof(CCTK_REAL), grid()));
}

inline routine_context::field_statistics routine_context::combine(field_reduction& local) const {
  field_statistics s;
  s.points = wrapping_sum(local.points);
  // One reduction for both counts where there is neither (a run gone right).
  const std::uint64_t non_finite = wrapping_sum(local.nans + local.infinities);
  if (local.with_sums) {
    s.sum = sum(local.sum);
    const double squares = sum(local.squares);
    s.rms = s.points > 0 ? std::sqrt(squares / static_cast<double>(s.points)) : 0.0;
  } else {
    s.sum = s.rms = std::numeric_limits<double>::quiet_NaN();
  }
  s.max_abs = maximum(local.max_abs);
  // A minimum or maximum of doubles over the ranks may keep either zero when both are there:
  // one more reduction then settles it as one rank's total order does (-0 below +0).
  const bool minus_zero_here = local.minimum == 0 && std::signbit(local.minimum);
  const bool plus_zero_here = local.maximum == 0 && !std::signbit(local.maximum);
  s.minimum = minimum(local.minimum);
  if (s.minimum == 0) s.minimum = maximum(minus_zero_here ? 1.0 : 0.0) > 0 ? -0.0 : 0.0;
  s.maximum = maximum(local.maximum);
  if (s.maximum == 0) s.maximum = maximum(plus_zero_here ? 1.0 : 0.0) > 0 ? 0.0 : -0.0;
  if (non_finite == 0) return s;
  // Rare (a run gone wrong): the reductions that tell which points, only then.
  s.nans = wrapping_sum(local.nans);
  s.infinities = non_finite - s.nans;
  if (s.nans > 0) s.minimum = s.maximum = s.max_abs = std::numeric_limits<double>::quiet_NaN();
  s.first_non_finite = first_point_of(local.first_non_finite);
  return s;
}

inline routine_context::owned_point routine_context::first_point_of(std::uint64_t local_first) const {
  const auto& g = grid();
  const auto box = interior();
  // Each rank's first as a global linear index, x fastest (+inf: none there); the smallest over
  // the ranks is the grid's first. Doubles hold such indices exactly (below 2^53 points).
  const auto global_x = static_cast<std::uint64_t>(g.global[0]), global_y = static_cast<std::uint64_t>(g.global[1]);
  double mine = std::numeric_limits<double>::infinity();
  if (local_first != field_reduction::no_point) {
    const auto size_x = static_cast<std::uint64_t>(box.end[0] - box.begin[0]);
    const auto size_y = static_cast<std::uint64_t>(box.end[1] - box.begin[1]);
    const auto global = [&](int d, std::uint64_t along) {
      return static_cast<std::uint64_t>(g.offset[d] + box.begin[d]) + along;
    };
    const std::uint64_t i = global(0, local_first % size_x), j = global(1, local_first / size_x % size_y),
                        k = global(2, local_first / size_x / size_y);
    mine = static_cast<double>(i + global_x * (j + global_y * k));
  }
  const double first = minimum(mine);
  owned_point p;
  p.rank = static_cast<int>(maximum(mine == first ? rank() : -1));
  const auto linear = static_cast<std::uint64_t>(first);
  p.index = {static_cast<int>(linear % global_x), static_cast<int>(linear / global_x % global_y),
             static_cast<int>(linear / global_x / global_y)};
  return p;
}

/// Throws std::invalid_argument for a word of a variable list that holds a comma: Cactus's
/// lists are blank-separated, and "a::u,a::v" would be reported as one unknown name.
inline void refuse_commas(std::string_view word) {
  if (word.find(',') == std::string_view::npos) return;
  throw std::invalid_argument("'" + std::string(word) +
                              "': the names of a list are separated by blanks, not commas");
}

/// Calls `check(word)` for every blank-separated word of `list`, the value of the parameter
/// `owner::name`: each std::invalid_argument it throws (an unknown name, a variable of the wrong
/// kind, a word with a comma) becomes a parameter_value_error "owner::name: why" at that word,
/// one thrown as a parameter_value_error stays as it is, and all of them are thrown together
/// (parameter_value_errors): every wrong word of the list, not only the first.
template <typename Check>
void check_each_word(std::string_view owner, std::string_view name, std::string_view list, Check&& check) {
  const std::string parameter = std::string(owner) + "::" + std::string(name);
  std::vector<parameter_value_error> errors;
  std::istringstream words{std::string(list)};
  for (std::string word; words >> word;) {
    try {
      refuse_commas(word);
      check(word);
    } catch (const parameter_value_error& e) {
      errors.push_back(e);
    } catch (const std::invalid_argument& e) {
      errors.emplace_back(std::string(owner), std::string(name), parameter + ": " + e.what(), word);
    }
  }
  parameter_value_errors::throw_if_any(std::move(errors));
}

inline std::vector<std::string> routine_context::checked_grid_functions(std::string_view owner, std::string_view name) {
  const std::string list = all_parameters().text(owner, name);
  // Each word alone, so that an unknown one is named as written. Refused, with the reason, is
  // what no statistics can be taken of: an integer, a SCALAR (whose one value has no grid to be
  // reduced over), a grid function without storage, named by the word or in a group it names.
  check_each_word(owner, name, list, [&](const std::string& word) {
    for (const auto& var : grid_functions_named(word)) statistics(var);
  });
  return grid_functions_named(list);
}

inline routine_context::field_statistics routine_context::statistics(std::string_view var, int level,
                                                                     reduction_figures figures) {
  auto local = local_reduction(var, level, figures);
  return combine(local);
}

template <typename PointValue>
routine_context::norms routine_context::interior_norms(PointValue f) const {
  auto local = reduce_box_points(interior(), f);
  const auto s = combine(local);
  return {s.max_abs, s.rms};
}

}  // namespace opuntia
