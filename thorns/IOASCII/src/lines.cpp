// IOASCII::out1D_vars: each variable along three lines, parallel to x, y and z, one CSV file per
// variable and axis, <out_dir>/<var>.<axis>.csv. The ranks that own points of a line format them
// (every digit: the text is the same on any number of ranks) and rank 0 writes them in order.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "IOASCII_parameters.hpp"
#include "ccl/file_io.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"
#include "thorns/IO/src/output_variables.hpp"

namespace opuntia::thorns::IOASCII {

namespace {

constexpr double centre_of_the_domain = -424242;  // Carpet's "not set" for a line's coordinate
constexpr std::array<char, 3> axis_names{'x', 'y', 'z'};

std::vector<variable_description> output_variables(const routine_context& context) {
  return IO::output_variables(context, "IOASCII", "out1D_vars", context.parameters<parameters>().out1D_vars);
}

/// The parameter that places the line along `axis` in direction `other`: out1D_xline_y, ...
struct line_parameter {
  std::string name;
  double value = 0;
};
line_parameter placing(const parameters& p, int axis, int other) {
  const std::array<std::array<const tracked_parameter<CCTK_REAL>*, 3>, 3> table{{
      {nullptr, &p.out1D_xline_y, &p.out1D_xline_z},
      {&p.out1D_yline_x, nullptr, &p.out1D_yline_z},
      {&p.out1D_zline_x, &p.out1D_zline_y, nullptr},
  }};
  return {fmt::format("out1D_{}line_{}", axis_names[axis], axis_names[other]),
          *table[static_cast<std::size_t>(axis)][static_cast<std::size_t>(other)]};
}

/// The global indices of the line along `axis` of a variable centred `c` (its entry along
/// `axis` unused): the point nearest the parameter's coordinate, or the domain's centre, half
/// way between two points the upper one. A coordinate with no point of the variable within
/// half a step is a parameter_value_error.
std::array<int, 3> line_through(const routine_context& context, const std::string& variable, const centerings& c,
                                const std::array<int, 3>& extent, int axis) {
  const auto& p = context.parameters<parameters>();
  const auto& g = context.grid();
  std::array<int, 3> at{};
  for (int d = 0; d < 3; ++d) {
    if (d == axis) continue;
    const auto parameter = placing(p, axis, d);
    const double offset = ccl::centering_offset(c[d]);
    if (parameter.value == centre_of_the_domain) {
      // The centre, (global - 1) / 2 vertices up, in halves so that it is exact: 2 index + 2 offset.
      const int twice = g.global[d] - 1 - static_cast<int>(2 * offset);
      at[d] = std::clamp((twice + 1) / 2, 0, extent[d] - 1);
      continue;
    }
    const double index = std::floor((parameter.value - g.origin[d]) / g.delta[d] - offset + 0.5);
    if (!(index >= 0 && index < extent[d])) {
      const double first = g.origin[d] + offset * g.delta[d];
      throw parameter_value_error(
          "IOASCII", parameter.name,
          fmt::format("IOASCII::{} = {:g}: no point of {} is there; its points lie from {} = {:g} to {:g}",
                      parameter.name, parameter.value, variable, axis_names[d], first,
                      first + (extent[d] - 1) * g.delta[d]));
    }
    at[d] = static_cast<int>(index);
  }
  return at;
}

std::string value_text(const std::span<const CCTK_REAL>& values, std::size_t i) {
  return fmt::format("{:.17g}", values[i]);
}
std::string value_text(const std::span<const CCTK_INT>& values, std::size_t i) { return fmt::format("{}", values[i]); }

/// This rank's points of the line along `axis` through global indices `at`, as CSV rows, after
/// a first line with the global index of the first point; empty where the rank owns none.
template <typename Values>
std::string rows_of(routine_context& context, const std::string& variable, const Values& values, int axis,
                    const std::array<int, 3>& at) {
  const auto& g = context.grid();
  const auto owned = context.interior();
  const auto c = context.centering(variable);
  std::array<int, 3> local{};
  for (int d = 0; d < 3; ++d) {
    if (d == axis) continue;
    local[d] = at[d] - g.offset[d];
    if (local[d] < owned.begin[d] || local[d] >= owned.end[d]) return {};
  }
  if (owned.end[axis] <= owned.begin[axis]) return {};
  std::string text = fmt::format("{}\n", g.offset[axis] + owned.begin[axis]);
  for (int i = owned.begin[axis]; i < owned.end[axis]; ++i) {
    local[axis] = i;
    fmt::format_to(std::back_inserter(text), "{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", context.iteration(),
                   context.time(), g.coordinate(0, local[0], c[0]), g.coordinate(1, local[1], c[1]),
                   g.coordinate(2, local[2], c[2]), value_text(values, g.index(local[0], local[1], local[2])));
  }
  return text;
}

/// The rows every rank sent, in the order of their points (on rank 0).
std::string in_order(std::vector<std::string> parts) {
  std::vector<std::pair<long, std::string>> pieces;
  for (auto& part : parts) {
    if (part.empty()) continue;
    const auto newline = part.find('\n');
    pieces.emplace_back(std::stol(part.substr(0, newline)), part.substr(newline + 1));
  }
  std::sort(pieces.begin(), pieces.end());
  std::string rows;
  for (const auto& piece : pieces) rows += piece.second;
  return rows;
}

}  // namespace

void IOASCII_CheckOutputVars(routine_context& context) {
  const auto variables = output_variables(context);
  IO::warn_if_never_written(context, "IOASCII", "out1D_vars", variables.size(), "out1D_every",
                            context.parameters<parameters>().out1D_every);
  if (variables.empty()) return;
  const auto extent = context.owned_extent();
  for (const auto& v : variables) {
    const auto name = v.implementation + "::" + v.name;
    for (int axis = 0; axis < 3; ++axis) line_through(context, name, context.centering(name), extent, axis);
  }
}

void IOASCII_Output1D(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  if (!IO::writes_now(context, p.out1D_every)) return;
  const auto variables = output_variables(context);
  if (variables.empty()) return;
  auto& steps_written = context.integer_scalar("ascii_steps_written");
  const auto dir = context.out_dir();
  const auto extent = context.owned_extent();
  for (const auto& v : variables) {
    const auto name = v.implementation + "::" + v.name;
    const auto c = context.centering(name);
    for (int axis = 0; axis < 3; ++axis) {
      const auto at = line_through(context, name, c, extent, axis);
      const auto rows = v.data_type == data_type::cctk_int ? rows_of(context, name, context.read_integer(name), axis, at)
                                                           : rows_of(context, name, context.read(name), axis, at);
      auto parts = context.gather(rows);
      if (context.rank() != 0) continue;
      const auto file = dir / fmt::format("{}.{}.csv", v.name, axis_names[axis]);
      if (steps_written == 0) {
        ccl::write_file_atomically(file, fmt::format("iteration,time,x,y,z,{}\n", v.name) + in_order(std::move(parts)));
      } else {
        ccl::append_whole(file, in_order(std::move(parts)));
      }
    }
  }
  ++steps_written;
}

}  // namespace opuntia::thorns::IOASCII
