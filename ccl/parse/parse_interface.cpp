// interface.ccl -> interface_file: actions of the interface grammar.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ccl/grammar/interface_ccl.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace g = grammar::interface_ccl;
using grammar::syntax_error;

const std::vector<std::string>& known_group_options() {
  static const std::vector<std::string> names{"TYPE",   "DIM",     "TIMELEVELS", "SIZE",     "DISTRIB",
                                              "GHOSTSIZE", "STAGGER", "TAGS",       "CENTERING"};
  return names;
}

const std::vector<std::string>& known_statements() {
  static const std::vector<std::string> names{"implements", "inherits", "friend", "public", "protected", "private",
                                              "includes",   "include"};
  return names;
}

const std::vector<std::string>& known_types() {
  static const std::vector<std::string> names{
      "CCTK_REAL",    "CCTK_INT",      "CCTK_COMPLEX",  "CCTK_CHAR",      "CCTK_BYTE",      "CCTK_STRING",
      "CCTK_INT1",    "CCTK_INT2",     "CCTK_INT4",     "CCTK_INT8",      "CCTK_REAL4",     "CCTK_REAL8",
      "CCTK_REAL16",  "CCTK_COMPLEX8", "CCTK_COMPLEX16", "CCTK_COMPLEX32", "CCTK_POINTER",  "CCTK_POINTER_TO_CONST"};
  return names;
}

std::string normalised_type(std::string_view written) {
  std::string upper = to_upper(written);
  if (upper.rfind("CCTK_", 0) == 0) upper.erase(0, 5);
  return upper;
}

/// Collapses every run of whitespace (line continuations included) into one blank.
std::string squeeze(std::string_view text) {
  std::string out;
  bool pending_blank = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\') {
      pending_blank = true;
      continue;
    }
    if (pending_blank && !out.empty()) out += ' ';
    pending_blank = false;
    out += c;
  }
  return out;
}

struct interface_state : grammar::parse_state_base {
  interface_file result;
  access_level access = access_level::private_access;
  // Pending pieces of the statement being read; rules that may backtrack only write these.
  std::string pending_type;
  source_location pending_type_where;
  located_text pending_option_key;
  bool in_uses = false;
  std::string include_part;

  variable_group_syntax& group() { return result.groups.back(); }
};

template <typename Rule>
struct action : grammar::common_action<Rule> {};

template <> struct action<g::implementation_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    if (const auto& first = s.result.implements; !first.text.empty()) {
      throw syntax_error{fmt::format("a thorn implements one implementation: '{}' is given at line {}, column {}",
                                     first.text, first.where.line, first.where.column),
                         in.position()};
    }
    s.result.implements = located_text{in.string(), s.location(in.position())};
  }
};
template <> struct action<g::inherited_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.inherits.push_back(located_text{in.string(), s.location(in.position())});
  }
};
template <> struct action<g::friend_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.friends.push_back(located_text{in.string(), s.location(in.position())});
  }
};

template <> struct action<g::public_kw> {
  template <typename Input>
  static void apply(const Input&, interface_state& s) { s.access = access_level::public_access; }
};
template <> struct action<g::protected_kw> {
  template <typename Input>
  static void apply(const Input&, interface_state& s) { s.access = access_level::protected_access; }
};
template <> struct action<g::private_kw> {
  template <typename Input>
  static void apply(const Input&, interface_state& s) { s.access = access_level::private_access; }
};

template <> struct action<g::return_type> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.pending_type = in.string();
    s.pending_type_where = s.location(in.position());
  }
};
template <> struct action<g::data_type> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.pending_type = in.string();
    s.pending_type_where = s.location(in.position());
  }
};

// --- functions -------------------------------------------------------------------
template <> struct action<g::subroutine_kw> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.functions.push_back(
        interface_function_syntax{s.location(in.position()), "function", "", "SUBROUTINE", "", "", ""});
  }
};
template <> struct action<g::requires_kw> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.functions.push_back(interface_function_syntax{s.location(in.position()), "requires", "", "", "", "", ""});
  }
};
template <> struct action<g::provides_kw> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.functions.push_back(interface_function_syntax{s.location(in.position()), "provides", "", "", "", "", ""});
  }
};
template <> struct action<g::uses_kw> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.in_uses = true;
    s.pending_type_where = s.location(in.position());
  }
};
template <> struct action<g::uses_function> {
  template <typename Input>
  static void apply(const Input&, interface_state& s) {
    s.in_uses = false;  // the entry was created by function_name
  }
};
template <> struct action<g::function_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    auto& fs = s.result.functions;
    // `<type> FUNCTION name` and `USES FUNCTION name` have no entry yet.
    if (fs.empty() || !fs.back().name.empty()) {
      if (s.in_uses) {
        fs.push_back(interface_function_syntax{s.pending_type_where, "uses", "", "", "", "", ""});
      } else {
        fs.push_back(interface_function_syntax{s.pending_type_where, "function", "", s.pending_type, "", "", ""});
      }
    }
    fs.back().name = in.string();
  }
};
template <> struct action<g::arguments_text> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.functions.back().arguments = squeeze(in.string_view());
  }
};
template <> struct action<g::provider_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.functions.back().provider = in.string();
  }
};
template <> struct action<g::language_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.functions.back().language = in.string();
  }
};

// --- includes --------------------------------------------------------------------
template <> struct action<g::include_kw> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    if (!s.in_uses) s.pending_type_where = s.location(in.position());
    s.include_part.clear();
  }
};
template <> struct action<g::include_part> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.include_part = to_lower(in.string_view());
  }
};
template <> struct action<g::include_file> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    std::string kind = s.in_uses ? "uses" : "includes";
    if (!s.include_part.empty()) kind += " " + s.include_part;
    s.result.includes.push_back(interface_include_syntax{s.pending_type_where, kind, in.string(), ""});
    s.in_uses = false;
  }
};
template <> struct action<g::include_target> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.result.includes.back().target = in.string();
  }
};

// --- variable groups ---------------------------------------------------------------
template <> struct action<g::group_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    variable_group_syntax group;
    group.where = s.pending_type_where;
    group.access = s.access;
    group.data_type = normalised_type(s.pending_type);
    group.name = located_text{in.string(), s.location(in.position())};
    s.result.groups.push_back(std::move(group));
  }
};
template <> struct action<g::vector_size> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    std::string size = in.string();
    while (!size.empty() && (size.back() == ' ' || size.back() == '\t')) size.pop_back();
    s.group().vector_size = size;
  }
};
template <> struct action<g::option_key> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    if (auto repeated = grammar::repeated_key_message(s.group().options, in.string_view()); !repeated.empty()) {
      throw syntax_error{std::move(repeated), in.position()};
    }
    s.pending_option_key = located_text{in.string(), s.location(in.position())};
  }
};
template <> struct action<g::option_assign> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    const auto& key = s.pending_option_key;
    bool known = false;
    for (const auto& k : known_group_options()) known = known || iequals(k, key.text);
    if (!known) {
      auto where = in.position();
      throw syntax_error{"unknown group option '" + key.text + "'" + did_you_mean(key.text, known_group_options()) +
                             " (known: " + join_names(known_group_options()) + ")",
                         where};
    }
    s.group().options.push_back(key_value{key, {}});
  }
};
template <> struct action<g::option_value> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    auto& option = s.group().options.back();
    const std::string text = in.string();
    const bool is_quoted = !text.empty() && (text.front() == '"' || text.front() == '\'');
    option.value = located_text{is_quoted ? grammar::unquote(text) : text, s.location(in.position())};
    if (iequals(option.key.text, "TYPE") && !iequals(option.value.text, "GF") &&
        !iequals(option.value.text, "ARRAY") && !iequals(option.value.text, "SCALAR")) {
      throw syntax_error{"group TYPE must be GF, ARRAY or SCALAR, not '" + option.value.text + "'", in.position()};
    }
  }
};
template <> struct action<g::group_description> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.group().description = grammar::unquote(in.string_view());
  }
};
template <> struct action<g::variable_list_open> : grammar::detail::push_open {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    grammar::detail::push_open::apply(in, s);
    s.group().has_variable_list = true;
  }
};
template <> struct action<g::variable_list_close> : grammar::detail::pop_open {};
template <> struct action<g::variable_name> {
  template <typename Input>
  static void apply(const Input& in, interface_state& s) {
    s.group().variables.push_back(located_text{in.string(), s.location(in.position())});
  }
};

// --- misspellings ------------------------------------------------------------------
template <> struct action<g::unknown_keyword> {
  template <typename Input>
  static void apply(const Input& in, interface_state&) {
    std::string word = in.string();
    word = word.substr(0, word.find_first_of(" \t:"));
    throw syntax_error{"unknown statement '" + word + ":'" + did_you_mean(word, known_statements()), in.position()};
  }
};
template <> struct action<g::unknown_type> {
  template <typename Input>
  static void apply(const Input& in, interface_state&) {
    std::string word = in.string();
    word = word.substr(0, word.find_first_of(" \t\\#"));
    throw syntax_error{"unknown data type '" + word + "'" + did_you_mean(word, known_types()), in.position()};
  }
};

}  // namespace

interface_file parse_interface_ccl(const source_file& file) {
  interface_state state;
  state.result.path = file.path;
  grammar::run_parser<g::file, action>(file, state);
  return std::move(state.result);
}

}  // namespace opuntia::ccl
