#include "flesh/parameters/parfile_evaluator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <vector>

#include "ccl/model/common.hpp"

namespace opuntia::detail {
namespace {

using expr = ccl::parfile_expression;

[[noreturn]] void fail(const ccl::source_location& where, std::string message) {
  throw evaluation_error{where, std::move(message)};
}

parfile_value integer_value(long long i) {
  parfile_value v;
  v.what = parfile_value::kind::integer;
  v.integer = i;
  return v;
}

parfile_value real_value(double r) {
  parfile_value v;
  v.what = parfile_value::kind::real;
  v.real = r;
  return v;
}

/// A real result that is a whole number small enough stays a real: INT parameters accept it.
parfile_value checked_real(double r, const ccl::source_location& where) {
  if (!std::isfinite(r)) fail(where, "the value of the expression is not a finite number");
  return real_value(r);
}

/// floor/ceil/int results: an integer when it fits, else the (whole) real.
parfile_value whole(double r, const ccl::source_location& where) {
  if (!std::isfinite(r)) fail(where, "the value of the expression is not a finite number");
  if (r >= -9.2e18 && r <= 9.2e18) return integer_value(static_cast<long long>(r));
  return real_value(r);
}

bool digits(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  return i > start;
}

// --- arithmetic --------------------------------------------------------------------------
parfile_value power(const parfile_value& a, const parfile_value& b, const ccl::source_location& where) {
  if (a.what == parfile_value::kind::integer && b.what == parfile_value::kind::integer && b.integer >= 0) {
    long long result = 1, base = a.integer, e = b.integer;
    bool overflow = false;
    while (e != 0 && !overflow) {
      if ((e & 1) != 0) overflow = __builtin_mul_overflow(result, base, &result);
      e >>= 1;
      if (e != 0 && !overflow) overflow = __builtin_mul_overflow(base, base, &base);
    }
    if (!overflow) return integer_value(result);
  }
  if (a.as_double() == 0 && b.as_double() < 0) fail(where, "division by zero");
  return checked_real(std::pow(a.as_double(), b.as_double()), where);
}

parfile_value binary(const std::string& op, const parfile_value& a, const parfile_value& b,
                     const ccl::source_location& where) {
  if (op == "**") return power(a, b, where);
  const bool integers = a.what == parfile_value::kind::integer && b.what == parfile_value::kind::integer;
  if (op == "/") {
    if (b.as_double() == 0) fail(where, "division by zero");
    // Integers that divide exactly stay integers; 7/2 is 3.5 (not C's 3), as a user expects.
    if (integers && b.integer != -1 && a.integer % b.integer == 0) return integer_value(a.integer / b.integer);
    return checked_real(a.as_double() / b.as_double(), where);
  }
  if (integers) {
    long long r = 0;
    bool overflow = true;
    if (op == "+") overflow = __builtin_add_overflow(a.integer, b.integer, &r);
    if (op == "-") overflow = __builtin_sub_overflow(a.integer, b.integer, &r);
    if (op == "*") overflow = __builtin_mul_overflow(a.integer, b.integer, &r);
    if (!overflow) return integer_value(r);
  }
  const double x = a.as_double(), y = b.as_double();
  if (op == "+") return checked_real(x + y, where);
  if (op == "-") return checked_real(x - y, where);
  return checked_real(x * y, where);
}

// --- functions ---------------------------------------------------------------------------
const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names{"sqrt", "sin", "cos",   "tan",  "exp", "log",
                                              "abs",  "int", "floor", "ceil", "min", "max"};
  return names;
}

parfile_value call(const expr& e, const std::vector<parfile_value>& args) {
  const auto name = ccl::to_lower(e.text);
  bool known = false;
  for (const auto& f : function_names()) known = known || f == name;
  if (!known) {
    fail(e.where, fmt::format("unknown function '{}'{}", e.text, ccl::did_you_mean_or_known(e.text, function_names())));
  }
  if (name == "min" || name == "max") {
    if (args.size() < 2) {
      fail(e.where, fmt::format("function '{}' takes at least 2 arguments, not {}", name, args.size()));
    }
    parfile_value best = args.front();
    bool integers = true;
    for (const auto& a : args) {
      integers = integers && a.what == parfile_value::kind::integer;
      if (name == "min" ? a.as_double() < best.as_double() : a.as_double() > best.as_double()) best = a;
    }
    if (!integers) best = real_value(best.as_double());
    best.literal.clear();
    return best;
  }
  if (args.size() != 1) fail(e.where, fmt::format("function '{}' takes 1 argument, not {}", name, args.size()));
  const auto& a = args.front();
  const double x = a.as_double();
  if (name == "abs") {
    if (a.what == parfile_value::kind::integer && a.integer != std::numeric_limits<long long>::min()) {
      return integer_value(a.integer < 0 ? -a.integer : a.integer);
    }
    return real_value(std::fabs(x));
  }
  if (name == "int")
    return a.what == parfile_value::kind::integer ? integer_value(a.integer) : whole(std::trunc(x), e.where);
  if (name == "floor")
    return a.what == parfile_value::kind::integer ? integer_value(a.integer) : whole(std::floor(x), e.where);
  if (name == "ceil")
    return a.what == parfile_value::kind::integer ? integer_value(a.integer) : whole(std::ceil(x), e.where);
  if (name == "sqrt") {
    if (x < 0) fail(e.where, fmt::format("sqrt of a negative number ({})", a.shown()));
    return checked_real(std::sqrt(x), e.where);
  }
  if (name == "log") {
    if (x <= 0) fail(e.where, fmt::format("log of a number that is not positive ({})", a.shown()));
    return checked_real(std::log(x), e.where);
  }
  if (name == "sin") return checked_real(std::sin(x), e.where);
  if (name == "cos") return checked_real(std::cos(x), e.where);
  if (name == "tan") return checked_real(std::tan(x), e.where);
  return checked_real(std::exp(x), e.where);  // exp
}

}  // namespace

std::string parfile_value::shown() const {
  switch (what) {
    case kind::integer:
      return literal.empty() ? std::to_string(integer) : literal;
    case kind::real:
      return literal.empty() ? fmt::format("{}", real) : literal;
    case kind::text:
      return text;
    case kind::boolean:
      return boolean ? "yes" : "no";
  }
  return {};
}

std::optional<parfile_value> parse_number(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const std::size_t body = i;
  const bool whole_part = digits(text, i);
  bool is_real = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    is_real = true;
    if (!digits(text, i) && !whole_part) return std::nullopt;
  } else if (!whole_part) {
    return std::nullopt;
  }
  if (i < text.size() && std::string_view("eEdD").find(text[i]) != std::string_view::npos) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits(text, i)) return std::nullopt;
    is_real = true;
  }
  if (i != text.size() || body == text.size()) return std::nullopt;
  if (!is_real) {
    long long value = 0;
    const char* first = text.data() + (text[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size()) {
      auto v = integer_value(value);
      v.literal = std::string(text);
      return v;
    }
  }
  std::string c(text);
  for (auto& ch : c) {
    if (ch == 'd' || ch == 'D') ch = 'e';
  }
  errno = 0;
  auto v = real_value(std::strtod(c.c_str(), nullptr));
  v.literal = std::string(text);
  return v;
}

parfile_value as_number(const parfile_value& v, const ccl::source_location& where) {
  if (v.is_number()) return v;
  if (v.what == parfile_value::kind::text) {
    if (v.is_word && ccl::iequals(v.text, "pi")) return real_value(std::numbers::pi);
    if (!v.is_word) {
      if (auto n = parse_number(v.text); n && std::isfinite(n->as_double())) return *n;
    }
    fail(where, fmt::format("expected a number, not '{}'", v.text));
  }
  fail(where, fmt::format("expected a number, not {}", v.shown()));
}

parfile_value evaluate(const expr& e, std::string_view parfile_name, const reference_resolver& resolve) {
  switch (e.what) {
    case expr::kind::number: {
      auto v = parse_number(e.text);
      if (!v) fail(e.where, fmt::format("malformed number '{}'", e.text));
      if (!std::isfinite(v->as_double())) fail(e.where, fmt::format("number {} is too large for a double", e.text));
      return *v;
    }
    case expr::kind::string:
    case expr::kind::word: {
      parfile_value v;
      v.what = parfile_value::kind::text;
      v.text = e.text;
      v.is_word = e.what == expr::kind::word;
      // Inside a quoted string, $parfile and ${parfile} become the parameter file's name
      // ("runs/$parfile"), as a user of IO::out_dir expects; the parser marked where they stood.
      for (auto at = e.parfile_at.rbegin(); at != e.parfile_at.rend(); ++at) v.text.insert(*at, parfile_name);
      return v;
    }
    case expr::kind::parameter:
      return resolve(e);
    case expr::kind::parfile: {
      if (!ccl::iequals(e.text, "parfile")) {
        fail(e.where, fmt::format("unknown variable '${}'; the only one is $parfile", e.text));
      }
      parfile_value v;
      v.what = parfile_value::kind::text;
      v.text = std::string(parfile_name);
      return v;
    }
    case expr::kind::unary: {
      auto v = as_number(evaluate(e.operands.at(0), parfile_name, resolve), e.operands.at(0).where);
      const std::string literal = v.literal.empty() ? std::string() : e.text + v.literal;
      if (e.text == "-") {
        if (v.what == parfile_value::kind::integer && v.integer != std::numeric_limits<long long>::min()) {
          v.integer = -v.integer;
        } else if (v.what == parfile_value::kind::integer) {
          v = real_value(-static_cast<double>(v.integer));
        } else {
          v.real = -v.real;
        }
      }
      v.literal = literal;
      return v;
    }
    case expr::kind::binary:
    case expr::kind::chain: {
      // A chain `a - b + c` is applied left to right in this loop, not by recursion.
      const auto& first = e.operands.at(0);
      auto value = as_number(evaluate(first, parfile_name, resolve), first.where);
      for (std::size_t i = 1; i < e.operands.size(); ++i) {
        const auto& r = e.operands[i];
        const auto b = as_number(evaluate(r, parfile_name, resolve), r.where);
        value = binary(e.what == expr::kind::chain ? e.operators.at(i - 1) : e.text, value, b, e.where);
      }
      return value;
    }
    case expr::kind::call: {
      std::vector<parfile_value> args;
      // Check the name before the arguments: `sqr(x)` should say "unknown function" first.
      if (std::find(function_names().begin(), function_names().end(), ccl::to_lower(e.text)) ==
          function_names().end()) {
        call(e, args);
      }
      for (const auto& operand : e.operands)
        args.push_back(as_number(evaluate(operand, parfile_name, resolve), operand.where));
      return call(e, args);
    }
  }
  fail(e.where, "malformed expression");
}

std::string parfile_name_of(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
  if (name.size() > 4 && ccl::iequals(std::string_view(name).substr(name.size() - 4), ".par")) {
    name.resize(name.size() - 4);
  }
  return name;
}

}  // namespace opuntia::detail
