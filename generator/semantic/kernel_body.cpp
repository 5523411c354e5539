#include "generator/semantic/kernel_body.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "ccl/model/common.hpp"

namespace opuntia::gen {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }

/// `text` without blanks at either end, each run of blanks inside (a line break) one space.
std::string collapsed(std::string_view text) {
  std::string out;
  bool blank = false;
  for (const char c : text) {
    if (is_blank(c)) {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

/// A cursor over a body that knows its line and column, and whether only blanks precede it on
/// its line (where a preprocessor directive may start).
class cursor {
public:
  explicit cursor(std::string_view text) : text_(text) {}

  bool done() const { return at_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }
  std::size_t offset() const { return at_; }
  body_position position() const { return {line_, column_}; }
  std::string_view text() const { return text_; }
  bool at_line_start() const { return line_start_; }

  void advance(std::size_t n = 1) {
    for (; n > 0 && at_ < text_.size(); --n, ++at_) {
      if (text_[at_] == '\n') {
        ++line_;
        column_ = 1;
        line_start_ = true;
      } else {
        ++column_;
        line_start_ = line_start_ && is_blank(text_[at_]);
      }
    }
  }

  /// Passes over a comment, a string or character literal, or a preprocessor directive (with
  /// its continuation lines) at the cursor; false where there is none.
  bool skip_ignored() {
    const char c = peek();
    if (c == '/' && peek(1) == '/') {
      while (!done() && peek() != '\n') advance();
    } else if (c == '/' && peek(1) == '*') {
      const auto opened = position();
      advance(2);
      while (!done() && !(peek() == '*' && peek(1) == '/')) advance();
      if (done()) note_unclosed(opened, "unterminated comment: this '/*' has no closing '*/'");
      advance(2);
    } else if (c == '"' || c == '\'') {
      advance();
      while (!done() && peek() != c && peek() != '\n') advance(peek() == '\\' ? 2 : 1);
      advance();
    } else if (c == '#' && line_start_) {
      const auto opened = position();
      if (directive_word(skip_directive()) == "if 0" && !skip_dead_lines()) {
        note_unclosed(opened, "this '#if 0' has no closing '#endif' (nor '#else' or '#elif'): the rest of the body is "
                              "left out");
      }
    } else {
      return false;
    }
    return true;
  }

  /// Passes over a preprocessor directive and its continuation lines; returns its text.
  std::string_view skip_directive() {
    const std::size_t begin = at_;
    while (!done() && peek() != '\n') {
      if (peek() == '\\') {
        advance();
        if (peek() == '\r') advance();
      }
      advance();
    }
    return text_.substr(begin, at_ - begin);
  }

  /// After `#if 0`: the lines up to its `#else`, `#elif` or `#endif`, nested ones skipped whole;
  /// false where the body ends first.
  bool skip_dead_lines() {
    int depth = 0;
    while (!done()) {
      if (peek() != '#' || !line_start_) {
        advance();
        continue;
      }
      const auto word = directive_word(skip_directive());
      if (word.rfind("if", 0) == 0) {
        ++depth;
      } else if (word == "endif" && depth > 0) {
        --depth;
      } else if (depth == 0 && (word == "endif" || word == "else" || word == "elif")) {
        return true;
      }
    }
    return false;
  }

  /// "if 0", "ifdef", "endif", ...: a directive's name, with a 0 after `if` kept.
  static std::string directive_word(std::string_view directive) {
    std::size_t at = 1;  // past '#'
    while (at < directive.size() && is_blank(directive[at])) ++at;
    const std::size_t begin = at;
    while (at < directive.size() && is_identifier_char(directive[at])) ++at;
    std::string word(directive.substr(begin, at - begin));
    if (word != "if") return word;
    while (at < directive.size() && is_blank(directive[at])) ++at;
    const bool zero = at < directive.size() && directive[at] == '0' &&
                      (at + 1 == directive.size() || !is_identifier_char(directive[at + 1]));
    return zero ? "if 0" : word;
  }

  void skip_blanks_and_comments() {
    while (!done() && (is_blank(peek()) || (peek() == '/' && (peek(1) == '/' || peek(1) == '*')))) {
      if (!skip_ignored()) advance();
    }
  }

  /// A number as the preprocessor sees one (1, 0x1f, 1.5e-3, 2.f): passed over whole, so that
  /// its letters are not taken for a name.
  void skip_number() {
    while (!done()) {
      const char c = peek();
      if ((c == '+' || c == '-') && at_ > 0 && std::string_view("eEpP").find(text_[at_ - 1]) != std::string_view::npos) {
        advance();
      } else if (is_identifier_char(c) || c == '.') {
        advance();
      } else {
        break;
      }
    }
  }

  /// Moves to the next identifier outside comments, literals, numbers and preprocessor lines;
  /// false at the end.
  bool to_next_identifier() {
    while (!done()) {
      if (skip_ignored()) continue;
      const char c = peek();
      if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
        skip_number();
      } else if (is_identifier_start(c)) {
        return true;
      } else {
        advance();
      }
    }
    return false;
  }

  std::string_view identifier() {
    const std::size_t begin = at_;
    while (!done() && is_identifier_char(peek())) advance();
    return text_.substr(begin, at_ - begin);
  }

  /// The comment or `#if 0` that the body ended in, where one did: what follows it is not code.
  const std::optional<unclosed_construct>& unclosed() const { return unclosed_; }

private:
  void note_unclosed(body_position where, std::string message) {
    if (!unclosed_) unclosed_ = unclosed_construct{where, std::move(message)};
  }

  std::optional<unclosed_construct> unclosed_;
  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
  std::size_t column_ = 1;
  bool line_start_ = true;
};

/// Whether the cursor stands on `=` (not `==`).
bool at_plain_assignment(const cursor& c) { return c.peek() == '=' && c.peek(1) != '='; }

/// Whether the cursor stands on a compound assignment: `+=`, `<<=`, ...
bool at_compound_assignment(const cursor& c) {
  if (std::string_view("+-*/%&|^").find(c.peek()) != std::string_view::npos) return c.peek(1) == '=';
  return (c.peek() == '<' || c.peek() == '>') && c.peek(1) == c.peek() && c.peek(2) == '=';
}

/// The arguments of an access, the cursor just past its `(`; nullopt where the body ends first.
std::optional<body_access> read_arguments(cursor c) {
  body_access access;
  int depth = 0;
  while (true) {
    c.skip_blanks_and_comments();
    access_argument argument;
    argument.where = c.position();
    const std::size_t begin = c.offset();
    while (!c.done()) {
      if (c.skip_ignored()) continue;
      const char ch = c.peek();
      if (depth == 0 && (ch == ',' || ch == ')')) break;
      if (ch == '(' || ch == '[' || ch == '{') ++depth;
      if (ch == ')' || ch == ']' || ch == '}') --depth;
      c.advance();
    }
    if (c.done()) return std::nullopt;
    argument.text = collapsed(c.text().substr(begin, c.offset() - begin));
    argument.value = integer_constant(argument.text);
    access.arguments.push_back(std::move(argument));
    const char separator = c.peek();
    c.advance();
    if (separator == ')') break;
  }
  c.skip_blanks_and_comments();
  access.writes = at_plain_assignment(c) || at_compound_assignment(c);
  access.reads = !at_plain_assignment(c);
  return access;
}

// GCC's and Clang's 128-bit integer; __extension__ keeps -Wpedantic quiet about it.
__extension__ using wide_integer = __int128;

/// Integer constant expressions by recursive descent: sum := product (+|- product)*,
/// product := unary (* unary)*, unary := (+|-) unary | literal | ( sum ). A literal is C's:
/// decimal, 0x hexadecimal, 0b binary or 0 octal, with digit separators (') and suffixes (u, l,
/// ll, z). Values are exact in 128 bits up to 10^36 (past every literal a C++ compiler takes);
/// beyond that, or for anything else (a name, a call, a float), the offset is no constant this
/// pass knows.
class constant_parser {
public:
  explicit constant_parser(std::string_view text) : text_(text) {}

  std::optional<long long> whole() {
    auto value = sum();
    blanks();
    if (!value || at_ != text_.size()) return std::nullopt;
    // An offset past what a long long holds is reported as the most it holds.
    constexpr wide most = std::numeric_limits<long long>::max();
    return static_cast<long long>(std::clamp<wide>(*value, -most, most));
  }

private:
  using wide = wide_integer;
  static constexpr wide largest = static_cast<wide>(1'000'000'000'000'000'000) * 1'000'000'000'000'000'000;  // 10^36

  static std::optional<wide> bounded(wide v) {
    if (v > largest || v < -largest) return std::nullopt;
    return v;
  }
  void blanks() {
    while (at_ < text_.size() && is_blank(text_[at_])) ++at_;
  }
  bool take(char c) {
    blanks();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  std::optional<wide> sum() {
    auto value = product();
    while (value) {
      if (take('+')) {
        const auto right = product();
        value = right ? bounded(*value + *right) : std::nullopt;
      } else if (take('-')) {
        const auto right = product();
        value = right ? bounded(*value - *right) : std::nullopt;
      } else {
        break;
      }
    }
    return value;
  }
  std::optional<wide> product() {
    auto value = unary();
    while (value && take('*')) {
      const auto right = unary();
      if (!right) return std::nullopt;
      // Both within 10^36: the product's size is checked before it is formed.
      const wide left_size = *value < 0 ? -*value : *value, right_size = *right < 0 ? -*right : *right;
      if (left_size != 0 && right_size > largest / left_size) return std::nullopt;
      value = *value * *right;
    }
    return value;
  }
  std::optional<wide> unary() {
    if (take('+')) return unary();
    if (take('-')) {
      const auto value = unary();
      return value ? std::optional<wide>(-*value) : std::nullopt;
    }
    if (take('(')) {
      const auto value = sum();
      return take(')') ? value : std::nullopt;
    }
    return literal();
  }
  std::optional<wide> literal() {
    blanks();
    const auto at = [&](std::size_t ahead) { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; };
    if (!is_digit(at(0))) return std::nullopt;
    int base = 10;
    if (at(0) == '0' && (at(1) == 'x' || at(1) == 'X')) {
      base = 16;
      at_ += 2;
    } else if (at(0) == '0' && (at(1) == 'b' || at(1) == 'B')) {
      base = 2;
      at_ += 2;
    } else if (at(0) == '0' && (is_digit(at(1)) || at(1) == '\'')) {
      base = 8;
    }
    const auto digit_of = [](char c) {
      if (is_digit(c)) return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return 99;
    };
    wide value = 0;
    int digits = 0;
    bool too_large = false;
    for (; at_ < text_.size(); ++at_) {
      if (text_[at_] == '\'' && digits > 0) continue;
      const int d = digit_of(text_[at_]);
      if (d >= base) break;
      too_large = too_large || value > (largest - d) / base;
      if (!too_large) value = value * base + d;
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    while (at_ < text_.size() && std::string_view("uUlLzZ").find(text_[at_]) != std::string_view::npos) ++at_;
    // 1.5, 1e3, 09 and 1abc are no integer literal this pass reads.
    if (at_ < text_.size() && (is_identifier_char(text_[at_]) || text_[at_] == '.')) return std::nullopt;
    if (too_large) return std::nullopt;
    return value;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

std::string body_access::variable() const {
  if (arguments.empty()) return {};
  const auto& name = arguments.front().text;
  if (name.empty() || !is_identifier_start(name.front())) return {};
  for (const char c : name) {
    if (!is_identifier_char(c)) return {};
  }
  return name;
}

std::string body_access::text() const {
  std::string out = macro + "(";
  for (std::size_t i = 0; i < arguments.size(); ++i) out += (i ? ", " : "") + arguments[i].text;
  return out + ")";
}

std::vector<body_access> find_accesses(std::string_view body) {
  std::vector<body_access> found;
  cursor c(body);
  while (c.to_next_identifier()) {
    const auto where = c.position();
    const auto name = c.identifier();
    if (name != "I3D" && name != "I3D_l") continue;
    cursor call = c;
    call.skip_blanks_and_comments();
    if (call.peek() != '(') continue;
    call.advance();
    if (auto access = read_arguments(call)) {
      access->macro = std::string(name);
      access->where = where;
      found.push_back(std::move(*access));
    }
    c = call;  // on from inside the parentheses: an access among the arguments is one too
  }
  return found;
}

bool directives_name(std::string_view body, std::string_view identifier) {
  cursor c(body);
  while (!c.done()) {
    if (c.peek() != '#' || !c.at_line_start()) {
      if (!c.skip_ignored()) c.advance();
      continue;
    }
    // Every word of the directive, its comments' included: a false yes only costs an optimisation.
    const auto text = c.skip_directive();
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t begin = at;
      if (!is_identifier_char(text[at])) {
        ++at;
        continue;
      }
      while (at < text.size() && is_identifier_char(text[at])) ++at;
      if (!is_digit(text[begin]) && text.substr(begin, at - begin) == identifier) return true;
    }
  }
  return false;
}

std::optional<long long> integer_constant(std::string_view text) { return constant_parser(text).whole(); }

body_frame find_frame_macros(std::string_view body, std::string_view kernel) {
  constexpr std::string_view prefix = "CAKERNEL_";
  // Longest first: _Computations_Begin also ends in _Begin.
  constexpr std::string_view parts[] = {"_Computations_Begin", "_Computations_End", "_Begin", "_End"};
  body_frame found;
  cursor c(body);
  while (c.to_next_identifier()) {
    const auto where = c.position();
    const auto name = c.identifier();
    if (!name.starts_with(prefix)) continue;
    // The kernel's own names first: a kernel named K_Computations has CAKERNEL_K_Computations_Begin,
    // which the longest part alone would read as kernel K's Computations_Begin.
    const auto rest = name.substr(prefix.size());
    const auto own = std::find_if(std::begin(parts), std::end(parts), [&](std::string_view part) {
      return rest.size() == kernel.size() + part.size() && rest.starts_with(kernel) && rest.ends_with(part);
    });
    if (own != std::end(parts)) {
      found.macros.push_back({std::string(kernel), std::string(own->substr(1)), where});
      continue;
    }
    for (const auto part : parts) {
      if (rest.size() > part.size() && rest.ends_with(part)) {
        found.macros.push_back({std::string(rest.substr(0, rest.size() - part.size())), std::string(part.substr(1)), where});
        break;
      }
    }
  }
  found.unclosed = c.unclosed();
  return found;
}

std::vector<ccl::diagnostic> frame_errors(const std::string& kernel, const ccl::source_file& body) {
  const std::vector<std::string> parts{"Begin", "Computations_Begin", "Computations_End", "End"};
  const auto macro = [&](const std::string& part) { return fmt::format("CAKERNEL_{}_{}", kernel, part); };
  std::vector<std::string> names;
  for (const auto& part : parts) names.push_back(macro(part));
  const auto all = ccl::join_names(names);
  const auto [macros, unclosed] = find_frame_macros(body.text, kernel);
  // What the body ended in hides the macros after it: that is the mistake to show.
  if (unclosed) return {body.error_at(unclosed->where.line, unclosed->where.column, unclosed->message)};
  std::size_t next = 0;  // the part expected next
  const frame_macro* previous = nullptr;
  for (const auto& m : macros) {
    const auto at_m = [&](const std::string& message) {
      return std::vector<ccl::diagnostic>{body.error_at(m.where.line, m.where.column, message)};
    };
    const auto name = fmt::format("CAKERNEL_{}_{}", m.kernel, m.part);
    if (m.kernel != kernel) {
      return at_m(fmt::format("'{}' frames the body of kernel '{}', but this is the body of kernel '{}': write {}", name,
                              m.kernel, kernel, macro(m.part)));
    }
    const auto index = static_cast<std::size_t>(std::find(parts.begin(), parts.end(), m.part) - parts.begin());
    if (index < next) return at_m(fmt::format("'{}' again: the frame macros come once each, in the order {}", name, all));
    if (index > next) {
      return at_m(fmt::format("expected {} {}; the frame macros come once each, in the order {}", macro(parts[next]),
                              previous ? "after " + macro(previous->part) : std::string("first"), all));
    }
    previous = &m;
    ++next;
  }
  if (next == parts.size()) return {};
  if (previous == nullptr) {
    return {body.error_at(1, 1, fmt::format("the body of kernel '{}' has none of its frame macros: write {}, once each "
                                            "and in that order, around its computations",
                                            kernel, all))};
  }
  return {body.error_at(previous->where.line, previous->where.column,
                        fmt::format("expected {} after {}; the frame macros come once each, in the order {}",
                                    macro(parts[next]), macro(previous->part), all))};
}

}  // namespace opuntia::gen
