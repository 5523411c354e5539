// schedule.ccl conditions: a PEGTL grammar (one struct per construct) whose actions evaluate
// as they parse, on a stack of values kept as text ("1"/"0" for truth values).
#include "flesh/schedule/condition.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include <tao/pegtl.hpp>

#include "ccl/diagnostic.hpp"
#include "ccl/grammar/condition.hpp"
#include "ccl/parse.hpp"
#include "ccl/model/common.hpp"

namespace opuntia::detail {
namespace {

namespace cg = ccl::grammar::condition;
namespace pegtl = tao::pegtl;

/// A semantic error (unknown parameter, not a number) at a byte offset of the condition.
struct condition_failure {
  std::string message;
  std::size_t offset = 0;
};

/// Numbers, and yes/no/true/false as 1/0 (parameter values are text); nullopt otherwise.
std::optional<double> as_number(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return std::nullopt;
  const auto last = text.find_last_not_of(" \t");
  std::string t = ccl::to_lower(text.substr(first, last - first + 1));
  if (t == "yes" || t == "true") return 1.0;
  if (t == "no" || t == "false") return 0.0;
  std::replace(t.begin(), t.end(), 'd', 'e');  // Fortran exponents: 1.d-3
  char* end = nullptr;
  const double value = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) return std::nullopt;
  return value;
}

struct state {
  std::string_view text;
  std::string_view thorn;
  const condition_evaluator* parameters = nullptr;
  const std::vector<std::string>* known = nullptr;
  std::vector<std::string> values;
  std::vector<std::string> operators;

  std::string pop() {
    std::string v = std::move(values.back());
    values.pop_back();
    return v;
  }
  bool truth(const std::string& v, std::size_t offset) const {
    const auto n = as_number(v);
    if (!n) {
      throw condition_failure{"'" + v + "' is not a number or a boolean; compare text with CCTK_Equals(...)", offset};
    }
    return *n != 0.0;
  }
  void push(bool b) { values.emplace_back(b ? "1" : "0"); }
};

template <typename Rule>
struct action : pegtl::nothing<Rule> {};

template <>
struct action<cg::string_literal> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    s.values.push_back(ccl::grammar::unquote(in.string_view()));
  }
};
template <>
struct action<cg::number> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    s.values.push_back(in.string());
  }
};
template <>
struct action<cg::parameter_name> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    const std::string name = in.string();
    auto value = s.parameters->parameter_text(s.thorn, name);
    if (!value) {
      throw condition_failure{"unknown parameter '" + name + "' of thorn " + std::string(s.thorn) +
                                  ccl::did_you_mean(name, *s.known),
                              in.position().byte};
    }
    s.values.push_back(std::move(*value));
  }
};
template <>
struct action<cg::equals_call> {
  template <typename ActionInput>
  static void apply(const ActionInput&, state& s) {
    const std::string b = s.pop();
    const std::string a = s.pop();
    s.push(ccl::iequals(a, b));
  }
};
template <>
struct action<cg::negation> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    s.push(!s.truth(s.pop(), in.position().byte));
  }
};
template <>
struct action<cg::comparison_op> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    s.operators.push_back(in.string());
  }
};
template <>
struct action<cg::comparison_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    const std::string op = std::move(s.operators.back());
    s.operators.pop_back();
    const std::string b = s.pop();
    const std::string a = s.pop();
    const auto x = as_number(a);
    const auto y = as_number(b);
    if (op == "==" || op == "!=") {
      const bool equal = x && y ? *x == *y : ccl::iequals(a, b);
      s.push(op == "==" ? equal : !equal);
      return;
    }
    if (!x || !y) {
      throw condition_failure{"'" + (x ? b : a) + "' is not a number; '" + op + "' compares numbers",
                              in.position().byte};
    }
    if (op == "<") s.push(*x < *y);
    if (op == "<=") s.push(*x <= *y);
    if (op == ">") s.push(*x > *y);
    if (op == ">=") s.push(*x >= *y);
  }
};
template <>
struct action<cg::and_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    const bool b = s.truth(s.pop(), in.position().byte);
    const bool a = s.truth(s.pop(), in.position().byte);
    s.push(a && b);
  }
};
template <>
struct action<cg::or_tail> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, state& s) {
    const bool b = s.truth(s.pop(), in.position().byte);
    const bool a = s.truth(s.pop(), in.position().byte);
    s.push(a || b);
  }
};

std::string where(std::string_view text, std::size_t offset) {
  return "in condition (" + std::string(text) + ") at character " + std::to_string(offset + 1) + ": ";
}

}  // namespace

condition_outcome evaluate_condition(std::string_view text, std::string_view thorn,
                                     const condition_evaluator& parameters,
                                     const std::vector<std::string>& known_parameters) {
  // The syntax first, with the messages opuntia-gen gives for the same text; then the values.
  if (const auto reading = ccl::read_condition(text); reading.error) {
    return {false, where(text, reading.error->offset) + reading.error->message};
  }
  state s{text, thorn, &parameters, &known_parameters, {}, {}};
  pegtl::memory_input<pegtl::tracking_mode::eager, pegtl::eol::lf_crlf> in(text.data(), text.size(), "condition");
  try {
    pegtl::parse<cg::condition, action, ccl::grammar::control>(in, s);
    return {s.truth(s.values.back(), 0), {}};
  } catch (const condition_failure& e) {
    return {false, where(text, e.offset) + e.message};
  }
}

}  // namespace opuntia::detail
