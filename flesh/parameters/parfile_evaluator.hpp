#pragma once
// Evaluates the value expressions of a parameter file (numbers, text, `+ - * / **`, functions,
// `pi`, references to other parameters, `$parfile`). Types are decided later, by the
// parameter the value is for; here a value is an integer, a real, text or a boolean.
//
//   auto v = detail::evaluate(statement.value, "wave", resolve);   // 2*pi/64 -> real 0.098...
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ccl/diagnostic.hpp"
#include "ccl/model/parfile_model.hpp"

namespace opuntia::detail {

/// A value while a parfile expression is evaluated.
struct parfile_value {
  enum class kind { integer, real, text, boolean };
  kind what = kind::integer;
  long long integer = 0;
  double real = 0;
  std::string text;
  bool boolean = false;
  bool is_word = false;  // text from a bare word (yes, full, pi), not a quoted string
  std::string literal;   // a number as written, when the value is that one literal

  bool is_number() const { return what == kind::integer || what == kind::real; }
  double as_double() const { return what == kind::integer ? static_cast<double>(integer) : real; }
  /// How error messages show it: the literal as written, else the computed value.
  std::string shown() const;
};

/// An error at a place of the parameter file (the caller turns it into a diagnostic).
struct evaluation_error {
  ccl::source_location where;
  std::string message;
};

/// Gives the current value of the parameter a `parameter` node names, or throws evaluation_error.
using reference_resolver = std::function<parfile_value(const ccl::parfile_expression&)>;

/// The value of `e`; `parfile_name` is what `$parfile` stands for.
parfile_value evaluate(const ccl::parfile_expression& e, std::string_view parfile_name,
                       const reference_resolver& resolve);

/// `128`, `-1.5`, `1.d-3`, `2E+10`: one number literal with an optional sign, else nullopt.
/// Integers too large for long long become reals; a real too large for a double is infinite.
std::optional<parfile_value> parse_number(std::string_view text);

/// `v` as a number: integers and reals pass, the word `pi` and quoted numbers convert;
/// anything else throws evaluation_error at `where`.
parfile_value as_number(const parfile_value& v, const ccl::source_location& where);

/// The file name without directory and `.par`: "par/wave.par" -> "wave".
std::string parfile_name_of(std::string_view path);

}  // namespace opuntia::detail
