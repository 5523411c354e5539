#pragma once
// Numeric ranges and literals as param.ccl writes them: read by opuntia-gen to check defaults and
// by the flesh to check values, with one rule for both.
#include <optional>
#include <string>

namespace opuntia::ccl {

/// A numeric range of param.ccl: `*`, `5`, `1:10`, `(0:1]`, `0:*:2`.
struct numeric_range {
  std::string lower;  // empty: unbounded
  std::string upper;  // empty: unbounded
  bool lower_open = false;
  bool upper_open = false;
  std::string step;   // empty: none
};

/// A numeric range's ends as numbers: what the bindings carry (opuntia::range_binding) and
/// range_contains checks, so that opuntia-gen and the flesh apply one rule.
struct numeric_bounds {
  std::optional<double> lower;  // nullopt: unbounded
  std::optional<double> upper;  // nullopt: unbounded
  bool lower_open = false;
  bool upper_open = false;
  std::optional<double> step;   // nullopt: none
};

/// Interprets an INT/REAL range spec; nullopt when it is not one.
std::optional<numeric_range> parse_numeric_range(const std::string& spec);

/// The ends of a well-formed range as numbers.
numeric_bounds bounds_of(const numeric_range& range);

/// A number as param.ccl writes it (`1.d-3` too); nullopt when `text` is not one.
std::optional<double> numeric_value(const std::string& text);

/// Whether `value` lies in `range` as the flesh checks a parameter's value: each end open or
/// closed or absent; for an INT with a step, only base + k * step (base: the lower end, else 0).
bool range_contains(const numeric_bounds& range, double value, bool integer);

/// Whether no value (no integer, for an INT) lies in `range`: `5:1`, `(1:1]`, INT `(0:1)`.
bool range_is_empty(const numeric_bounds& range, bool integer);

/// Whether `text` is an integer / a real number as param.ccl and parfiles write them
/// (Fortran exponents `1.d-3` and `1.0D+2` included).
bool is_integer_literal(const std::string& text);
bool is_real_literal(const std::string& text);
/// `1.d-3` -> `1.e-3`: a REAL literal in C syntax.
std::string c_real_literal(const std::string& text);

}  // namespace opuntia::ccl
