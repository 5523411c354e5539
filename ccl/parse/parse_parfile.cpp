#include "ccl/grammar/parfile.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace g = grammar;
namespace pf = grammar::parfile;
using expr = parfile_expression;

struct parfile_state : g::parse_state_base {
  parfile_file result;
  std::vector<expr> values;               // operands of the expression being built
  std::vector<std::string> operators;     // pending binary/unary operators
  std::vector<std::size_t> call_marks;    // where each open call's arguments begin in `values`
  std::vector<source_location> call_places;
  std::vector<std::string> call_names;
  parfile_statement current;
};

template <typename Rule>
struct action : g::common_action<Rule> {};

/// A character of a name (grammar::name_char: letters, digits, '_').
bool continues_a_name(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// The content of a quoted string unquoted, and where in it each `$parfile` or `${parfile}` stood
/// (the token removed). Found in the text as written, so that an escaped `\$parfile` stays
/// text, and only as a whole name (`$parfiles` is text too).
void unquote_marking_parfile(std::string_view quoted_text, expr& e) {
  const std::string_view content = quoted_text.substr(1, quoted_text.size() - 2);
  std::size_t segment = 0;
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (content[i] == '\\') {
      ++i;
      continue;
    }
    if (content[i] != '$') continue;
    for (const std::string_view token : {"${parfile}", "$parfile"}) {
      const std::size_t end = i + token.size();
      if (content.substr(i, token.size()) != token ||
          (token.back() != '}' && end < content.size() && continues_a_name(content[end])))
        continue;
      e.text += g::unquote(content.substr(segment, i - segment));
      e.parfile_at.push_back(e.text.size());
      segment = end;
      i = end - 1;
      break;
    }
  }
  e.text += g::unquote(content.substr(segment));
}

template <expr::kind Kind>
struct leaf {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    expr e;
    e.what = Kind;
    e.text = in.string();
    e.where = s.location(in.position());
    if constexpr (Kind == expr::kind::string) {
      const std::string quoted = std::move(e.text);
      e.text.clear();
      unquote_marking_parfile(quoted, e);
    }
    if constexpr (Kind == expr::kind::parfile) {
      e.text.erase(0, 1);  // '$'
      if (!e.text.empty() && e.text.front() == '{') e.text = e.text.substr(1, e.text.size() - 2);
    }
    s.values.push_back(std::move(e));
  }
};

template <> struct action<pf::number> : leaf<expr::kind::number> {};
template <> struct action<pf::string_value> : leaf<expr::kind::string> {};
template <> struct action<pf::parameter_ref> : leaf<expr::kind::parameter> {};
template <> struct action<pf::parfile_var> : leaf<expr::kind::parfile> {};
template <> struct action<pf::word> : leaf<expr::kind::word> {};

struct remember_operator {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.operators.push_back(in.string());
  }
};
template <> struct action<pf::sign_op> : remember_operator {};
template <> struct action<pf::power_op> : remember_operator {};
template <> struct action<pf::product_op> : remember_operator {};
template <> struct action<pf::sum_op> : remember_operator {};

// Operands are moved, never copied (an initializer list copies): building a node must not copy
// the tree below it, or a long expression parses in quadratic time.

/// `a ** b`: the last two values and the last operator become one node.
struct make_binary {
  template <typename Input>
  static void apply(const Input&, parfile_state& s) {
    expr e;
    e.what = expr::kind::binary;
    e.text = std::move(s.operators.back());
    s.operators.pop_back();
    expr right = std::move(s.values.back());
    s.values.pop_back();
    expr& left = s.values.back();
    e.where = left.where;
    e.operands.reserve(2);
    e.operands.push_back(std::move(left));
    e.operands.push_back(std::move(right));
    left = std::move(e);
  }
};
template <> struct action<pf::power_tail> : make_binary {};

/// `a + b`, `a * b`: appended to the chain `a` already is when it has the same precedence
/// (`a - b + c` is one node), else a new chain. A parenthesised chain on the left, `(a - b) + c`,
/// is extended too: applied left to right it gives the same value, errors at the same places.
struct extend_chain {
  static bool additive(const std::string& op) { return op == "+" || op == "-"; }

  template <typename Input>
  static void apply(const Input&, parfile_state& s) {
    std::string op = std::move(s.operators.back());
    s.operators.pop_back();
    expr right = std::move(s.values.back());
    s.values.pop_back();
    expr& left = s.values.back();
    if (left.what == expr::kind::chain && additive(left.operators.front()) == additive(op)) {
      left.operators.push_back(std::move(op));
      left.operands.push_back(std::move(right));
      return;
    }
    expr e;
    e.what = expr::kind::chain;
    e.where = left.where;
    e.operators.push_back(std::move(op));
    e.operands.reserve(2);
    e.operands.push_back(std::move(left));
    e.operands.push_back(std::move(right));
    left = std::move(e);
  }
};
template <> struct action<pf::product_tail> : extend_chain {};
template <> struct action<pf::sum_tail> : extend_chain {};

template <>
struct action<pf::negation> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    expr e;
    e.what = expr::kind::unary;
    e.text = s.operators.back();
    s.operators.pop_back();
    e.where = s.location(in.position());
    e.operands.push_back(std::move(s.values.back()));
    s.values.back() = std::move(e);
  }
};

template <>
struct action<pf::function_name> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.call_marks.push_back(s.values.size());
    s.call_places.push_back(s.location(in.position()));
    s.call_names.push_back(in.string());
  }
};

template <>
struct action<pf::call> {
  template <typename Input>
  static void apply(const Input&, parfile_state& s) {
    expr e;
    e.what = expr::kind::call;
    e.text = s.call_names.back();
    e.where = s.call_places.back();
    const auto mark = s.call_marks.back();
    for (std::size_t i = mark; i < s.values.size(); ++i) e.operands.push_back(std::move(s.values[i]));
    s.values.resize(mark);
    s.call_marks.pop_back();
    s.call_places.pop_back();
    s.call_names.pop_back();
    s.values.push_back(std::move(e));
  }
};

template <>
struct action<pf::desc_text> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.result.description = g::unquote(in.string());
  }
};

template <>
struct action<pf::active_thorns_kw> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.current = parfile_statement{};
    s.current.what = parfile_statement::kind::active_thorns;
    s.current.where = s.location(in.position());
  }
};

/// Splits the quoted thorn list into names, each with the place it has in the file.
template <>
struct action<pf::thorn_list> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    const std::string text = in.string();
    auto where = s.location(in.position());
    // A backslash that ends a line joins it with the next (SYNTAX.md), here as anywhere: the
    // backslash and the blanks after it are blanks between names.
    const auto joins_lines = [&](std::size_t at) {
      if (text[at] != '\\') return false;
      const auto next = text.find_first_not_of(" \t\r", at + 1);
      return next != std::string::npos && text[next] == '\n';
    };
    std::size_t i = 1;
    ++where.column;  // past the opening quote
    while (i + 1 < text.size()) {
      const char c = text[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || joins_lines(i)) {
        if (c == '\n') {
          ++where.line;
          where.column = 1;
        } else {
          ++where.column;
        }
        ++i;
        continue;
      }
      located_text thorn{{}, where};
      while (i + 1 < text.size() && std::string_view(" \t\r\n,").find(text[i]) == std::string_view::npos &&
             !joins_lines(i)) {
        thorn.text += text[i++];
        ++where.column;
      }
      s.current.thorns.push_back(std::move(thorn));
    }
    s.result.statements.push_back(std::move(s.current));
  }
};

template <>
struct action<pf::implementation> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.current = parfile_statement{};
    s.current.what = parfile_statement::kind::assignment;
    s.current.where = s.location(in.position());
    s.current.implementation = located_text{in.string(), s.current.where};
    s.values.clear();
    s.operators.clear();
  }
};

template <>
struct action<pf::parameter> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.current.name = located_text{in.string(), s.location(in.position())};
  }
};

template <>
struct action<pf::index> {
  template <typename Input>
  static void apply(const Input&, parfile_state& s) {
    s.current.index = std::move(s.values.back());
    s.values.pop_back();
  }
};

template <>
struct action<pf::value> {
  template <typename Input>
  static void apply(const Input& in, parfile_state& s) {
    s.current.value = std::move(s.values.back());
    s.values.pop_back();
    s.current.value_text = in.string();
    s.result.statements.push_back(std::move(s.current));
  }
};

}  // namespace

parfile_file parse_parfile(const source_file& file) {
  parfile_state state;
  state.result.path = file.path;
  g::run_parser<pf::file, action>(file, state);
  return std::move(state.result);
}

}  // namespace opuntia::ccl
