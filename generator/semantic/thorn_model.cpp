#include <cctype>

#include "generator/grammar/common.hpp"
#include "generator/semantic/thorn_model.hpp"

namespace opuntia::gen {

std::string to_string(kernel_intent intent) {
  switch (intent) {
    case kernel_intent::in: return "in";
    case kernel_intent::out: return "out";
    case kernel_intent::inout: return "inout";
    case kernel_intent::separateinout: return "separateinout";
  }
  return "in";
}

namespace {
std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}
}  // namespace

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

}  // namespace opuntia::gen
