#include "generator/template_engine.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tao/pegtl.hpp>

#include "ccl/diagnostic.hpp"
#include "ccl/grammar/common.hpp"
#include "generator/grammar/template_language.hpp"
#include "ccl/model/common.hpp"

namespace opuntia::gen {
namespace {

namespace pegtl = tao::pegtl;

// Bounds that keep a hostile or mistaken template from hanging or eating memory. Real
// templates stay far below them.
constexpr unsigned long long max_loop_iterations = 100000;
constexpr std::size_t max_output_bytes = std::size_t{16} << 20;
constexpr std::uint64_t max_steps = 4000000;
constexpr int max_expression_nesting = 100;

// --- syntax tree ------------------------------------------------------------------

enum class node_kind { text, value, var, for_loop, scope_loop, group };

struct loop_filter {
  std::string key;
  std::string value;  // alternatives separated by '|'
  std::size_t key_offset = 0;  // where the key starts in the parsed text
  // Where each byte of the value was written in the parsed text (through the string's escapes),
  // then the closing quote: value_origins.size() == value.size() + 1.
  std::vector<std::size_t> value_origins;
};

struct node {
  node_kind kind = node_kind::text;
  std::size_t offset = 0;  // of the directive's '%' (a text node's start), in the text that was parsed
  std::string text;      // literal text; value, variable or loop name
  /// Text nodes: (index into text, byte offset in the parsed text) where each run of text that
  /// was written as it reads begins ('%%' is one byte of text from two of the source).
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::string variable;  // for_loop: the loop variable
  std::vector<node> lo;  // for_loop bounds, themselves templates
  std::vector<node> hi;
  std::vector<loop_filter> filters;
  std::optional<std::string> delimit;
  std::vector<node> body;
};
using nodes = std::vector<node>;

// --- parsing --------------------------------------------------------------------------

struct parse_state : grammar::parse_state_base {
  nodes root;
  std::vector<node> open_nodes;  // blocks being parsed, innermost last
  std::optional<node> pending;   // a loop whose '%[' comes next
  std::size_t directive_offset = 0;
  std::string var_name;

  nodes& current() { return open_nodes.empty() ? root : open_nodes.back().body; }

  void add_text(std::string_view text, const pegtl::position& where) {
    nodes& list = current();
    if (list.empty() || list.back().kind != node_kind::text) {
      node n;
      n.offset = where.byte;
      list.push_back(std::move(n));
    }
    node& n = list.back();
    n.runs.emplace_back(n.text.size(), where.byte);
    n.text += text;
  }

  void add_directive(node_kind kind, std::string name) {
    node n;
    n.kind = kind;
    n.offset = directive_offset;
    n.text = std::move(name);
    current().push_back(std::move(n));
  }
};

nodes parse_nodes(std::string_view text, const std::string& source);

template <typename Rule>
struct action : grammar::common_action<Rule> {};

template <>
struct action<tpl::literal_text> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.add_text(in.string(), in.position());
  }
};

template <>
struct action<tpl::escaped_percent> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.add_text("%", in.position());
  }
};

template <>
struct action<tpl::lone_percent> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.add_text("%", in.position());
  }
};

template <>
struct action<tpl::directive_percent> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.directive_offset = in.position().byte;
  }
};

template <>
struct action<tpl::plain_value> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.add_directive(node_kind::value, in.string().substr(1));
  }
};

template <>
struct action<tpl::var_name> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.var_name = in.string();
  }
};

template <>
struct action<tpl::var_ref> {
  template <typename ActionInput>
  static void apply(const ActionInput&, parse_state& state) {
    state.add_directive(node_kind::var, state.var_name);
  }
};

template <>
struct action<tpl::braced_content> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    const std::string content = in.string();
    if (content.find('(') != std::string::npos) {
      state.add_directive(node_kind::var, state.var_name);
    } else {
      state.add_directive(node_kind::value, content);
    }
  }
};

template <>
struct action<tpl::for_loop_start> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    node n;
    n.kind = node_kind::for_loop;
    n.offset = in.position().byte;
    n.text = "for_loop";
    state.pending = std::move(n);
  }
};

template <>
struct action<tpl::scope_loop_start> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    node n;
    n.kind = node_kind::scope_loop;
    n.offset = in.position().byte;
    n.text = in.string().substr(1);
    state.pending = std::move(n);
  }
};

template <>
struct action<tpl::loop_variable> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.pending->variable = in.string();
  }
};

template <typename ActionInput>
nodes parse_bound(const ActionInput& in, const char* which) {
  const std::string text = grammar::unquote(in.string());
  try {
    return parse_nodes(text, in.input().source());
  } catch (const grammar::syntax_error& e) {
    throw grammar::syntax_error{std::string("in the ") + which + " bound: " + e.message, in.position()};
  }
}

template <>
struct action<tpl::lo_bound> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.pending->lo = parse_bound(in, "lower");
  }
};

template <>
struct action<tpl::hi_bound> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    state.pending->hi = parse_bound(in, "upper");
  }
};

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

template <>
struct action<tpl::loop_filter> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    const auto unquoted = grammar::unquote_mapped(in.string());
    const std::string& text = unquoted.text;
    const auto equals = text.find('=');
    const std::string key = equals == std::string::npos ? std::string() : trim(text.substr(0, equals));
    if (key.empty()) {
      throw grammar::syntax_error{"a loop filter reads \"key=value\", not \"" + text + "\"", in.position()};
    }
    node& loop = *state.pending;
    std::string value = text.substr(equals + 1);
    // The places of key and value: where their bytes were written, through the string's escapes.
    const auto offset_of = [&](std::size_t index) { return in.position().byte + unquoted.origins[index]; };
    const auto key_index = text.find_first_not_of(" \t");
    if (key == "delimit") {
      if (loop.delimit) throw grammar::syntax_error{"a second \"delimit=\" for one loop", in.position()};
      loop.delimit = std::move(value);
    } else if (loop.kind == node_kind::for_loop) {
      throw grammar::syntax_error{"for_loop takes no filter \"" + text + "\"; its only option is \"delimit=...\"",
                                  in.position()};
    } else {
      std::vector<std::size_t> value_origins;
      for (std::size_t index = equals + 1; index <= text.size(); ++index) value_origins.push_back(offset_of(index));
      loop.filters.push_back(loop_filter{key, std::move(value), offset_of(key_index), std::move(value_origins)});
    }
  }
};

template <>
struct action<tpl::block_open> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    grammar::detail::push_open::apply(in, state);
    if (state.pending) {
      state.open_nodes.push_back(std::move(*state.pending));
      state.pending.reset();
    } else {
      node n;
      n.kind = node_kind::group;
      n.offset = in.position().byte;
      state.open_nodes.push_back(std::move(n));
    }
  }
};

template <>
struct action<tpl::block_close> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, parse_state& state) {
    grammar::detail::pop_open::apply(in, state);
    node n = std::move(state.open_nodes.back());
    state.open_nodes.pop_back();
    state.current().push_back(std::move(n));
  }
};

/// Parses template text; throws grammar::syntax_error with a place inside `text`.
nodes parse_nodes(std::string_view text, const std::string& source) {
  parse_state state;
  pegtl::memory_input<pegtl::tracking_mode::eager, pegtl::eol::lf_crlf> in(text.data(), text.data() + text.size(),
                                                                            source);
  if (!pegtl::parse<tpl::template_text, action, grammar::control>(in, state)) {
    throw grammar::syntax_error{"syntax error", in.position()};
  }
  return std::move(state.root);
}

// --- integer expressions ----------------------------------------------------------------

/// `+ - * / %`, parentheses and unary minus over 64-bit integers, with C's truncating division.
class expression_evaluator {
public:
  explicit expression_evaluator(std::string_view text) : text_(text) {}

  /// The value, or nullopt with error() saying why.
  std::optional<long long> evaluate() {
    skip_blanks();
    if (at_end()) return fail("empty expression");
    long long value = 0;
    if (!sum(value)) return std::nullopt;
    skip_blanks();
    if (!at_end()) return fail("unexpected " + found() + " after the expression");
    return value;
  }

  const std::string& error() const { return error_; }

private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;

  bool at_end() const { return pos_ >= text_.size(); }
  void skip_blanks() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string found() const {
    if (at_end()) return "the end";
    const unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x20 || c >= 0x7f) return "a byte " + std::to_string(c);
    return "'" + std::string(1, static_cast<char>(c)) + "'";
  }
  std::nullopt_t fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return std::nullopt;
  }
  bool fail_bool(std::string message) {
    fail(std::move(message));
    return false;
  }

  bool sum(long long& value) {
    if (!product(value)) return false;
    for (;;) {
      skip_blanks();
      if (at_end() || (text_[pos_] != '+' && text_[pos_] != '-')) return true;
      const char op = text_[pos_++];
      long long rhs = 0;
      if (!product(rhs)) return false;
      const bool overflow = op == '+' ? __builtin_add_overflow(value, rhs, &value)
                                      : __builtin_sub_overflow(value, rhs, &value);
      if (overflow) return fail_bool("integer overflow");
    }
  }

  bool product(long long& value) {
    if (!unary(value)) return false;
    for (;;) {
      skip_blanks();
      if (at_end() || (text_[pos_] != '*' && text_[pos_] != '/' && text_[pos_] != '%')) return true;
      const char op = text_[pos_++];
      long long rhs = 0;
      if (!unary(rhs)) return false;
      if (op == '*') {
        if (__builtin_mul_overflow(value, rhs, &value)) return fail_bool("integer overflow");
        continue;
      }
      if (rhs == 0) return fail_bool("division by zero");
      if (value == std::numeric_limits<long long>::min() && rhs == -1) return fail_bool("integer overflow");
      value = op == '/' ? value / rhs : value % rhs;
    }
  }

  bool unary(long long& value) {
    skip_blanks();
    if (!at_end() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      const bool negate = text_[pos_++] == '-';
      if (++depth_ > max_expression_nesting) return fail_bool("expression nested too deeply");
      const bool ok = unary(value);
      --depth_;
      if (!ok) return false;
      if (negate && __builtin_sub_overflow(0LL, value, &value)) return fail_bool("integer overflow");
      return true;
    }
    return primary(value);
  }

  bool primary(long long& value) {
    skip_blanks();
    if (at_end()) return fail_bool("expected a number at the end");
    if (text_[pos_] == '(') {
      ++pos_;
      if (++depth_ > max_expression_nesting) return fail_bool("expression nested too deeply");
      if (!sum(value)) return false;
      --depth_;
      skip_blanks();
      if (at_end() || text_[pos_] != ')') return fail_bool("expected ')', found " + found());
      ++pos_;
      return true;
    }
    if (!std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      return fail_bool("expected a number, found " + found());
    }
    value = 0;
    while (!at_end() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int digit = text_[pos_++] - '0';
      if (__builtin_mul_overflow(value, 10LL, &value) || __builtin_add_overflow(value, digit, &value)) {
        return fail_bool("integer overflow");
      }
    }
    return true;
  }
};

// --- rendering ----------------------------------------------------------------------

/// True when `value` equals one of the '|'-separated alternatives, ignoring case.
bool matches_alternatives(std::string_view value, std::string_view alternatives) {
  for (;;) {
    const auto bar = alternatives.find('|');
    if (iequals(trim(value), trim(alternatives.substr(0, bar)))) return true;
    if (bar == std::string_view::npos) return false;
    alternatives.remove_prefix(bar + 1);
  }
}

struct parsed_value {
  nodes tree;
  std::optional<grammar::syntax_error> error;
};

using scope_chain = std::vector<const template_scope*>;
using loop_variables = std::vector<std::pair<std::string, long long>>;

/// Where an error inside expanded text is reported, and how the message explains it.
struct expansion_context {
  std::size_t offset = 0;  // in the template: where the expansion began
  bool is_value = false;  // a value's expansion (else a for_loop bound)
  std::string label;      // the value's name, or "in the lower bound of for_loop 'i'"
  scope_chain chain;      // for values: the state it was expanded in, to spot cycles
  loop_variables variables;
};

class renderer {
public:
  renderer(const source_file& tpl, const template_scope& scope, const render_options& options)
      : tpl_(tpl), options_(options), chain_{&scope} {}

  /// Records, for each byte appended to `out`, the byte offset in the template it came from.
  void map_origins(const std::string& out, std::vector<std::size_t>& origins) {
    mapped_out_ = &out;
    origins_ = &origins;
  }

  void render(const nodes& list, std::string& out) {
    for (const node& n : list) {
      tick(n);
      switch (n.kind) {
        case node_kind::text: append_text(n, out); break;
        case node_kind::value: render_value(n, out); break;
        case node_kind::var: append(n, out, std::to_string(variable(n))); break;
        case node_kind::for_loop: render_for_loop(n, out); break;
        case node_kind::scope_loop: render_scope_loop(n, out); break;
        case node_kind::group: render(n.body, out); break;
      }
    }
  }

private:
  const source_file& tpl_;
  const render_options& options_;
  scope_chain chain_;  // outermost first
  loop_variables variables_;
  std::vector<expansion_context> contexts_;
  std::map<std::string, std::shared_ptr<const parsed_value>, std::less<>> parsed_values_;
  std::uint64_t steps_ = 0;
  const std::string* mapped_out_ = nullptr;  // the output whose origins are recorded, if any
  std::vector<std::size_t>* origins_ = nullptr;

  /// The place in the template file: the directive itself, or the one whose expansion led here.
  std::size_t site(const node& n) const { return contexts_.empty() ? n.offset : contexts_.front().offset; }

  std::string describe_contexts() const {
    std::vector<std::string> parts;
    bool last_was_value = false;
    for (const auto& c : contexts_) {
      if (c.is_value && last_was_value) {
        parts.back() += " -> " + c.label;
      } else if (c.is_value) {
        parts.push_back("expanding " + c.label);
      } else {
        parts.push_back(c.label);
      }
      last_was_value = c.is_value;
    }
    return join_names(parts, "; ");
  }

  [[noreturn]] void fail_plain(const node& n, std::string message) const {
    throw input_error(tpl_.error_at_offset(site(n), std::move(message)));
  }

  [[noreturn]] void fail(const node& n, std::string message) const {
    if (!contexts_.empty()) message += " (" + describe_contexts() + ")";
    fail_plain(n, std::move(message));
  }

  /// An error at a place inside directive `n` (a filter of a loop), or where `n`'s expansion began.
  [[noreturn]] void fail_at(const node& n, std::size_t offset, std::string message) const {
    if (!contexts_.empty()) fail(n, std::move(message));
    throw input_error(tpl_.error_at_offset(offset, std::move(message)));
  }

  void tick(const node& n) {
    if (++steps_ > max_steps) {
      fail(n, "template expansion is too large: more than " + std::to_string(max_steps) + " steps");
    }
  }

  void append(const node& n, std::string& out, std::string_view text) const {
    if (out.size() + text.size() > max_output_bytes) {
      fail(n, "generated text exceeds " + std::to_string(max_output_bytes) + " bytes");
    }
    out += text;
    if (&out == mapped_out_) origins_->resize(out.size(), site(n));
  }

  /// Literal text maps byte for byte to where it was written, unless it is part of an expansion.
  void append_text(const node& n, std::string& out) const {
    append(n, out, n.text);
    if (&out != mapped_out_ || !contexts_.empty()) return;
    const std::size_t start = out.size() - n.text.size();
    for (std::size_t r = 0; r < n.runs.size(); ++r) {
      const auto [index, offset] = n.runs[r];
      const std::size_t end = r + 1 < n.runs.size() ? n.runs[r + 1].first : n.text.size();
      for (std::size_t i = index; i < end; ++i) (*origins_)[start + i] = offset + (i - index);
    }
  }

  // --- values ---
  const std::string* find_value(const std::string& name) const {
    for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
      const auto found = (*it)->values.find(name);
      if (found != (*it)->values.end()) return &found->second;
    }
    return nullptr;
  }

  std::vector<std::string> visible_value_names() const {
    std::set<std::string> names;
    for (const auto* scope : chain_) {
      for (const auto& [name, value] : scope->values) names.insert(name);
    }
    return {names.begin(), names.end()};
  }

  std::shared_ptr<const parsed_value> parse_value(const std::string& text) {
    const auto cached = parsed_values_.find(text);
    if (cached != parsed_values_.end()) return cached->second;
    auto parsed = std::make_shared<parsed_value>();
    try {
      parsed->tree = parse_nodes(text, "value");
    } catch (const grammar::syntax_error& e) {
      parsed->error = e;
    }
    parsed_values_.emplace(text, parsed);
    return parsed;
  }

  void check_expansion(const node& n) const {
    std::vector<std::string> names;
    bool cycle = false;
    for (const auto& c : contexts_) {
      if (!c.is_value) continue;
      names.push_back(c.label);
      if (c.label == n.text && c.chain == chain_ && c.variables == variables_) cycle = true;
    }
    if (!cycle && names.size() < static_cast<std::size_t>(std::max(options_.max_expansion_depth, 0))) return;
    names.push_back(n.text);
    const std::string chain = join_names(names, " -> ");
    if (cycle) fail_plain(n, "template expansion does not terminate: " + chain);
    fail_plain(n, "template expansion is deeper than " + std::to_string(options_.max_expansion_depth) +
                      " levels: " + chain);
  }

  void render_value(const node& n, std::string& out) {
    const std::string* value = find_value(n.text);
    if (value == nullptr) fail(n, "unknown name '" + n.text + "'" + did_you_mean_or_known(n.text, visible_value_names()));
    if (value->find('%') == std::string::npos) {
      append(n, out, *value);
      return;
    }
    check_expansion(n);
    const auto parsed = parse_value(*value);
    if (parsed->error) {
      fail(n, "the value of '" + n.text + "' is not a valid template: " + parsed->error->message +
                  " (at line " + std::to_string(parsed->error->where.line) + ", column " +
                  std::to_string(parsed->error->where.column) + " of the value)");
    }
    contexts_.push_back(expansion_context{site(n), true, n.text, chain_, variables_});
    render(parsed->tree, out);
    contexts_.pop_back();
  }

  // --- for_loop ---
  long long variable(const node& n) const {
    for (auto it = variables_.rbegin(); it != variables_.rend(); ++it) {
      if (it->first == n.text) return it->second;
    }
    if (variables_.empty()) fail(n, "unknown for_loop variable '" + n.text + "': no for_loop encloses it");
    std::vector<std::string> names;
    for (const auto& v : variables_) names.push_back(v.first);
    fail(n, "unknown for_loop variable '" + n.text + "'" + did_you_mean(n.text, names));
  }

  long long bound(const node& n, const nodes& tree, const std::string& which) {
    contexts_.push_back(
        expansion_context{site(n), false, "in the " + which + " bound of for_loop '" + n.variable + "'", {}, {}});
    std::string text;
    render(tree, text);
    contexts_.pop_back();
    expression_evaluator evaluator(text);
    const auto value = evaluator.evaluate();
    if (!value) {
      fail(n, "bad " + which + " bound '" + text + "' of for_loop '" + n.variable + "': " + evaluator.error());
    }
    return *value;
  }

  void render_for_loop(const node& n, std::string& out) {
    const long long lo = bound(n, n.lo, "lower");
    const long long hi = bound(n, n.hi, "upper");
    const bool up = hi >= lo;
    const unsigned long long count = up ? static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo)
                                        : static_cast<unsigned long long>(lo) - static_cast<unsigned long long>(hi);
    if (count > max_loop_iterations) {
      fail(n, "for_loop '" + n.variable + "' from " + std::to_string(lo) + " to " + std::to_string(hi) +
                  " would run " + std::to_string(count) + " iterations; at most " +
                  std::to_string(max_loop_iterations) + " are allowed");
    }
    variables_.emplace_back(n.variable, lo);
    for (unsigned long long i = 0; i < count; ++i) {
      const auto offset = static_cast<long long>(i);
      variables_.back().second = up ? lo + offset : lo - offset;
      if (i > 0 && n.delimit) append(n, out, *n.delimit);
      tick(n);
      render(n.body, out);
    }
    variables_.pop_back();
  }

  // --- %<x>_loop ---
  const template_loop* find_loop(const std::string& name) const {
    for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
      const auto found = (*it)->loops.find(name);
      if (found != (*it)->loops.end()) return &found->second;
    }
    return nullptr;
  }

  /// Each alternative of a filter on a key with a closed set of values must be one of them (or
  /// empty: an item without the value).
  void check_filter_values(const node& n, const template_loop& loop, const std::string& key,
                           const loop_filter& f) const {
    const auto known = loop.values.find(key);
    if (known == loop.values.end()) return;
    std::string_view alternatives = f.value;
    std::size_t at = 0;  // of the alternative in f.value
    for (;;) {
      const auto bar = alternatives.find('|');
      const std::string_view raw = alternatives.substr(0, bar);
      const std::string alternative = trim(raw);
      const bool ok = alternative.empty() || std::any_of(known->second.begin(), known->second.end(),
                                                         [&](const std::string& v) { return iequals(v, alternative); });
      if (!ok) {
        const auto lead = raw.find_first_not_of(" \t");
        fail_at(n, f.value_origins[at + lead],
                "unknown value '" + alternative + "' for filter key '" + key + "' of " + n.text + " (its values: " +
                    join_names(known->second) + ")" + did_you_mean(alternative, known->second));
      }
      if (bar == std::string_view::npos) return;
      alternatives.remove_prefix(bar + 1);
      at += bar + 1;
    }
  }

  void render_scope_loop(const node& n, std::string& out) {
    const template_loop* loop = find_loop(n.text);
    if (loop == nullptr) {
      std::set<std::string> names{"for_loop"};
      for (const auto* scope : chain_) {
        for (const auto& [name, l] : scope->loops) names.insert(name);
      }
      const std::vector<std::string> known(names.begin(), names.end());
      fail(n, "unknown loop '" + n.text + "' (loops here: " + join_names(known) + ")" + did_you_mean(n.text, known));
    }
    // Each filter resolved to the loop's own spelling of its key.
    std::vector<std::pair<const std::string*, const loop_filter*>> filters;
    for (const auto& f : n.filters) {
      const auto key = std::find_if(loop->keys.begin(), loop->keys.end(),
                                    [&](const std::string& k) { return iequals(k, f.key); });
      if (key == loop->keys.end()) {
        std::vector<std::string> keys = loop->keys;
        keys.push_back("delimit");
        fail_at(n, f.key_offset,
                "unknown filter key '" + f.key + "' for " + n.text + " (its keys: " + join_names(keys) + ")" +
                    did_you_mean(f.key, keys));
      }
      check_filter_values(n, *loop, *key, f);
      filters.emplace_back(&*key, &f);
    }
    bool first = true;
    for (const template_scope& item : loop->items) {
      tick(n);
      const bool selected = std::all_of(filters.begin(), filters.end(), [&](const auto& filter) {
        const auto value = item.values.find(*filter.first);
        return matches_alternatives(value == item.values.end() ? std::string_view() : value->second,
                                    filter.second->value);
      });
      if (!selected) continue;
      if (!first && n.delimit) append(n, out, *n.delimit);
      first = false;
      chain_.push_back(&item);
      render(n.body, out);
      chain_.pop_back();
    }
  }
};

/// Display width of a line: UTF-8 continuation bytes take no column.
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

/// The template's nodes; a syntax error becomes a diagnostic at its place.
nodes parsed(const source_file& tpl) {
  try {
    return parse_nodes(tpl.text, tpl.path);
  } catch (const grammar::syntax_error& e) {
    throw input_error(grammar::diagnostic_of(tpl, e));
  }
}

}  // namespace

std::string render_template(const source_file& tpl, const template_scope& scope, const render_options& options) {
  const nodes tree = parsed(tpl);
  std::string out;
  renderer(tpl, scope, options).render(tree, out);
  return options.align_continuations ? align_continuations(out) : out;
}

std::string render_template_mapped(const source_file& tpl, const template_scope& scope,
                                   std::vector<std::size_t>& origins, const render_options& options) {
  const nodes tree = parsed(tpl);
  std::string out;
  origins.clear();
  renderer r(tpl, scope, options);
  r.map_origins(out, origins);
  r.render(tree, out);
  return out;
}

std::string align_continuations(const std::string& text) {
  struct line {
    std::string_view content;  // without the end of line
    std::string_view ending;   // "\n", "\r\n" or "" (last line)
  };
  std::vector<line> lines;
  const std::string_view all(text);
  for (std::size_t begin = 0; begin < all.size();) {
    const auto newline = all.find('\n', begin);
    if (newline == std::string_view::npos) {
      lines.push_back({all.substr(begin), {}});
      break;
    }
    const bool crlf = newline > begin && all[newline - 1] == '\r';
    const std::size_t end = crlf ? newline - 1 : newline;
    lines.push_back({all.substr(begin, end - begin), all.substr(end, newline + 1 - end)});
    begin = newline + 1;
  }
  const auto continued = [](std::string_view content) { return !content.empty() && content.back() == '\\'; };
  const auto stem = [](std::string_view content) {
    content.remove_suffix(1);
    const auto last = content.find_last_not_of(" \t");
    return last == std::string_view::npos ? std::string_view() : content.substr(0, last + 1);
  };

  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < lines.size();) {
    if (!continued(lines[i].content)) {
      out += lines[i].content;
      out += lines[i].ending;
      ++i;
      continue;
    }
    std::size_t end = i;
    std::size_t width = 0;
    for (; end < lines.size() && continued(lines[end].content); ++end) {
      width = std::max(width, display_width(stem(lines[end].content)));
    }
    for (; i < end; ++i) {
      const auto s = stem(lines[i].content);
      out += s;
      out.append(width - display_width(s) + 1, ' ');
      out += '\\';
      out += lines[i].ending;
    }
  }
  return out;
}

std::string escape_template_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '%') out += '%';
    out += c;
  }
  return out;
}

}  // namespace opuntia::gen
