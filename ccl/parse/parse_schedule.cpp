// schedule.ccl -> schedule_file: actions of the schedule grammar.
#include <algorithm>
#include <string>
#include <vector>

#include "ccl/grammar/schedule_ccl.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace g = grammar::schedule_ccl;
using grammar::syntax_error;

const std::vector<std::string>& known_clauses() {
  static const std::vector<std::string> names{"LANG",   "STORAGE", "TRIGGER", "TRIGGERS", "SYNC",  "SYNCS",
                                              "OPTION", "OPTIONS", "TAGS",    "READS",    "WRITES", "INVALIDATES"};
  return names;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

struct schedule_state : grammar::parse_state_base {
  schedule_file result;
  /// The statement lists being filled, innermost last (the file's, then open if/else branches).
  std::vector<std::vector<schedule_statement_syntax>*> lists;
  /// BEFORE or AFTER names go to this list of the current item.
  std::vector<located_text>* ordered = nullptr;
  /// WHILE, UNTIL or IF scalars go here.
  std::vector<located_text>* scalars = nullptr;

  std::vector<schedule_statement_syntax>& list() { return *lists.back(); }
  schedule_statement_syntax& statement() { return list().back(); }
  schedule_item_syntax& item() { return statement().item; }
};

template <typename Rule>
struct action : grammar::common_action<Rule> {};

// --- STORAGE lines ----------------------------------------------------------------------------
template <> struct action<g::storage_kw> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    schedule_statement_syntax st;
    st.what = schedule_statement_syntax::kind::storage;
    st.where = s.location(in.position());
    s.list().push_back(std::move(st));
  }
};
template <> struct action<g::storage_item> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.statement().storage.push_back(located_text{in.string(), s.location(in.position())});
  }
};

// --- schedule items -----------------------------------------------------------------------------
template <> struct action<g::schedule_kw> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    schedule_statement_syntax st;
    st.what = schedule_statement_syntax::kind::item;
    st.where = s.location(in.position());
    st.item.where = st.where;
    s.list().push_back(std::move(st));
  }
};
template <> struct action<g::group_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.item().is_group = true; }
};
template <> struct action<g::routine_name> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.item().name = located_text{in.string(), s.location(in.position())};
  }
};
template <> struct action<g::placement> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) { s.item().placement = to_lower(in.string_view()); }
};
template <> struct action<g::target_name> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.item().target = located_text{in.string(), s.location(in.position())};
  }
};
template <> struct action<g::alias_name> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) { s.item().alias = in.string(); }
};
template <> struct action<g::while_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.scalars = &s.item().while_vars; }
};
template <> struct action<g::until_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.scalars = &s.item().until_vars; }
};
template <> struct action<g::if_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.scalars = &s.item().if_vars; }
};
template <> struct action<g::scalar_name> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.scalars->push_back(located_text{in.string(), s.location(in.position())});
  }
};
template <> struct action<g::before_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.ordered = &s.item().before; }
};
template <> struct action<g::after_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.ordered = &s.item().after; }
};
template <> struct action<g::ordered_name> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.ordered->push_back(located_text{in.string(), s.location(in.position())});
  }
};
template <> struct action<g::schedule_block_open> : grammar::detail::push_open {};
template <> struct action<g::schedule_block_close> : grammar::detail::pop_open {};
template <> struct action<g::clause_key> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    const std::string key = to_upper(in.string_view());
    bool known = false;
    for (const auto& k : known_clauses()) known = known || k == key;
    if (!known) {
      throw syntax_error{"unknown schedule clause '" + in.string() + "'" + did_you_mean(key, known_clauses()) +
                             " (known: " + join_names(known_clauses()) + ")",
                         in.position()};
    }
    s.item().clauses.push_back(schedule_clause_syntax{located_text{key, s.location(in.position())}, {}});
  }
};
template <> struct action<g::clause_item> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.item().clauses.back().items.push_back(located_text{in.string(), s.location(in.position())});
  }
};
template <> struct action<g::description> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    s.item().description = grammar::unquote(in.string_view());
  }
};

// --- conditionals ---------------------------------------------------------------------------------
template <> struct action<g::conditional_if> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    schedule_statement_syntax st;
    st.what = schedule_statement_syntax::kind::conditional;
    st.where = s.location(in.position());
    s.list().push_back(std::move(st));
  }
};
template <> struct action<g::condition_open> : grammar::detail::push_open {};
template <> struct action<g::condition_close> : grammar::detail::pop_open {};
template <> struct action<g::condition_text> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    const auto text = in.string_view();
    s.statement().condition = trimmed(text);
    // The first character of the trimmed text, past the blanks trimmed() drops.
    auto first = in.position();
    for (const char c : text.substr(0, std::min(text.find_first_not_of(" \t\r\n"), text.size()))) {
      first.column = c == '\n' ? 1 : first.column + 1;
      if (c == '\n') ++first.line;
    }
    s.statement().condition_where = s.location(first);
  }
};
template <> struct action<g::then_open> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    grammar::detail::push_open::apply(in, s);
    auto* branch = &s.statement().then_branch;
    s.lists.push_back(branch);
  }
};
template <> struct action<g::then_close> {
  template <typename Input>
  static void apply(const Input& in, schedule_state& s) {
    grammar::detail::pop_open::apply(in, s);
    s.lists.pop_back();
  }
};
template <> struct action<g::else_kw> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) {
    auto* branch = &s.statement().else_branch;
    s.lists.push_back(branch);
  }
};
template <> struct action<g::else_open> : grammar::detail::push_open {};
template <> struct action<g::else_close> : grammar::detail::pop_open {};
template <> struct action<g::else_part> {
  template <typename Input>
  static void apply(const Input&, schedule_state& s) { s.lists.pop_back(); }
};

}  // namespace

schedule_file parse_schedule_ccl(const source_file& file) {
  schedule_state state;
  state.result.path = file.path;
  state.lists.push_back(&state.result.statements);
  grammar::run_parser<g::file, action>(file, state);
  return std::move(state.result);
}

}  // namespace opuntia::ccl
