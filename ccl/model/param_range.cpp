#include "ccl/model/param_range.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ccl/grammar/common.hpp"

namespace opuntia::ccl {


namespace {
/// Whether all of `text` (blanks around it aside) matches `Rule`.
template <typename Rule>
bool matches(const std::string& text) {
  const std::string trimmed = trim(text);
  grammar::pegtl::memory_input in(trimmed, "");
  return grammar::pegtl::parse<grammar::seq<Rule, grammar::eof>>(in);
}
}  // namespace

bool is_integer_literal(const std::string& text) {
  return matches<grammar::seq<grammar::opt<grammar::one<'+', '-'>>, grammar::plus<grammar::digit>>>(text);
}

bool is_real_literal(const std::string& text) {
  // The same numbers the param.ccl and parameter-file grammars read.
  return matches<grammar::seq<grammar::opt<grammar::one<'+', '-'>>, grammar::unsigned_number>>(text);
}

std::string c_real_literal(const std::string& text) {
  std::string out = trim(text);
  for (auto& c : out) {
    if (c == 'd' || c == 'D') c = 'e';
  }
  // A C literal needs a '.' or an exponent to be floating-point.
  if (out.find_first_of(".eE") == std::string::npos) out += ".0";
  return out;
}

std::optional<numeric_range> parse_numeric_range(const std::string& spec_text) {
  std::string spec = trim(spec_text);
  numeric_range range;
  if (spec.empty()) return std::nullopt;
  if (spec == "*" || spec == ":") return range;
  if (spec.front() == '(' || spec.front() == '[') {
    range.lower_open = spec.front() == '(';
    spec.erase(0, 1);
  }
  if (!spec.empty() && (spec.back() == ')' || spec.back() == ']')) {
    range.upper_open = spec.back() == ')';
    spec.pop_back();
  }
  const auto first = spec.find(':');
  const auto is_bound = [](const std::string& s) { return s.empty() || s == "*" || is_real_literal(s); };
  if (first == std::string::npos) {
    const auto value = trim(spec);
    if (!is_real_literal(value)) return std::nullopt;
    range.lower = range.upper = value;
    return range;
  }
  const auto second = spec.find(':', first + 1);
  const auto lower = trim(spec.substr(0, first));
  const auto upper = trim(spec.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1));
  const auto step = second == std::string::npos ? std::string() : trim(spec.substr(second + 1));
  if (!is_bound(lower) || !is_bound(upper) || (!step.empty() && !is_real_literal(step))) return std::nullopt;
  range.lower = lower == "*" ? "" : lower;
  range.upper = upper == "*" ? "" : upper;
  range.step = step;
  return range;
}

std::optional<double> numeric_value(const std::string& text) {
  if (!is_real_literal(text)) return std::nullopt;
  return std::strtod(c_real_literal(text).c_str(), nullptr);
}

numeric_bounds bounds_of(const numeric_range& range) {
  return {numeric_value(range.lower), numeric_value(range.upper), range.lower_open, range.upper_open,
          numeric_value(range.step)};
}

namespace {

/// 2^53: beyond it a double holds no odd integers, so a step can be checked only below it (the
/// flesh checks none beyond it either).
constexpr double exact_integers = 9007199254740992.0;

/// The ends of a range as numbers: an absent end is infinite.
struct range_ends {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  std::optional<long long> step;  // an INT step the flesh applies (a whole number >= 1)
};

range_ends ends_of(const numeric_bounds& range, bool integer) {
  range_ends ends;
  if (range.lower) ends.lower = *range.lower;
  if (range.upper) ends.upper = *range.upper;
  if (const auto& step = range.step; integer && step && *step >= 1 && *step < exact_integers) {
    ends.step = static_cast<long long>(*step);
  }
  return ends;
}

/// The first value from `from` up that a step admits: base + k * step.
double first_on_step(double from, double base, long long step) {
  return base + std::ceil((from - base) / static_cast<double>(step)) * static_cast<double>(step);
}

}  // namespace

bool range_contains(const numeric_bounds& range, double value, bool integer) {
  const auto ends = ends_of(range, integer);
  if (range.lower_open ? value <= ends.lower : value < ends.lower) return false;
  if (range.upper_open ? value >= ends.upper : value > ends.upper) return false;
  if (ends.step && std::fabs(value) < exact_integers) {
    const double base = std::isfinite(ends.lower) ? std::trunc(ends.lower) : 0;
    return first_on_step(value, base, *ends.step) == value;
  }
  return true;
}

bool range_is_empty(const numeric_bounds& range, bool integer) {
  const auto ends = ends_of(range, integer);
  if (!integer) {
    return ends.lower > ends.upper || (ends.lower == ends.upper && (range.lower_open || range.upper_open));
  }
  double lowest = std::ceil(ends.lower);
  if (range.lower_open && lowest == ends.lower) ++lowest;
  double highest = std::floor(ends.upper);
  if (range.upper_open && highest == ends.upper) --highest;
  if (ends.step && std::isfinite(lowest) && std::fabs(lowest) < exact_integers) {
    lowest = first_on_step(lowest, std::trunc(ends.lower), *ends.step);
  }
  return lowest > highest;
}

}  // namespace opuntia::ccl
