// param.ccl -> param_file: actions of the param grammar.
#include <string>
#include <vector>

#include "ccl/grammar/param_ccl.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace g = grammar::param_ccl;
using grammar::syntax_error;
namespace pegtl = tao::pegtl;

const std::vector<std::string>& known_sections() {
  static const std::vector<std::string> names{"private", "restricted", "global", "public", "shares"};
  return names;
}
const std::vector<std::string>& known_types() {
  static const std::vector<std::string> names{"INT",      "REAL",      "KEYWORD",      "STRING",     "BOOLEAN",
                                              "CCTK_INT", "CCTK_REAL", "CCTK_KEYWORD", "CCTK_STRING", "CCTK_BOOLEAN"};
  return names;
}
const std::vector<std::string>& known_options() {
  static const std::vector<std::string> names{"STEERABLE", "ACCUMULATOR", "ACCUMULATOR-BASE"};
  return names;
}

/// The most elements an array parameter may have (the flesh's limit, parameter_registry.cpp).
constexpr long max_array_size = 1'000'000;

bool is_quoted(std::string_view text) { return !text.empty() && (text.front() == '"' || text.front() == '\''); }
std::string value_of(std::string_view text) { return is_quoted(text) ? grammar::unquote(text) : std::string(text); }
bool is_numeric_type(std::string_view type) { return type == "INT" || type == "REAL"; }

template <typename Rule>
bool matches(std::string_view text) {
  pegtl::memory_input<> in(text.data(), text.size(), "");
  return pegtl::parse<Rule>(in);
}

struct param_state : grammar::parse_state_base {
  param_file result;
  param_section section = param_section::private_section;
  std::string shared_from;
  std::string pending_qualifier;
  source_location pending_where;
  bool have_pending_where = false;
  std::string pending_type;
  located_text pending_option;
  std::vector<located_text> pending_words;
  bool line_has_spec = false;

  param_syntax& param() { return result.parameters.back(); }
};

template <typename Rule>
struct action : grammar::common_action<Rule> {};

template <> struct action<g::private_kw> {
  template <typename Input>
  static void apply(const Input&, param_state& s) {
    s.section = param_section::private_section;
    s.shared_from.clear();
  }
};
template <> struct action<g::restricted_kw> {
  template <typename Input>
  static void apply(const Input&, param_state& s) {
    s.section = param_section::restricted_section;
    s.shared_from.clear();
  }
};
template <> struct action<g::global_kw> {
  template <typename Input>
  static void apply(const Input&, param_state& s) {
    s.section = param_section::global_section;
    s.shared_from.clear();
  }
};
template <> struct action<g::public_kw> : action<g::global_kw> {};
template <> struct action<g::shared_implementation> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    s.section = param_section::shares_section;
    s.shared_from = in.string();
  }
};

template <> struct action<g::qualifier> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    s.pending_qualifier = to_lower(in.string_view());
    s.pending_where = s.location(in.position());
    s.have_pending_where = true;
  }
};
template <> struct action<g::param_type> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    std::string type = to_upper(in.string_view());
    if (type.rfind("CCTK_", 0) == 0) type.erase(0, 5);
    s.pending_type = type;
    if (!s.have_pending_where) {
      s.pending_where = s.location(in.position());
      s.have_pending_where = true;
    }
  }
};
template <> struct action<g::param_name> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    param_syntax p;
    p.where = s.pending_where;
    p.section = s.section;
    p.shared_from = s.shared_from;
    p.qualifier = s.pending_qualifier;
    p.type = s.pending_type;
    p.name = located_text{in.string(), s.location(in.position())};
    s.result.parameters.push_back(std::move(p));
    s.pending_qualifier.clear();
    s.have_pending_where = false;
  }
};
template <> struct action<g::array_size> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    std::string size = in.string();
    while (!size.empty() && (size.back() == ' ' || size.back() == '\t')) size.pop_back();
    // Cactus takes a whole number here; the bindings declare std::array<..., size> and the flesh
    // holds at most max_array_size elements, so anything else is an error at the size.
    const bool digits = !size.empty() && size.find_first_not_of("0123456789") == std::string::npos;
    const auto first = size.find_first_not_of('0');
    const bool in_range = digits && first != std::string::npos && size.size() - first <= 7 &&
                          std::stol(size.substr(first)) <= max_array_size;
    if (!in_range) {
      throw syntax_error{"the array size of parameter '" + s.param().name.text + "' must be a positive integer of at "
                             "most " + std::to_string(max_array_size) + ", not '" + size + "'",
                         in.position()};
    }
    s.param().array_size = size.substr(first);
  }
};
template <> struct action<g::description> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    s.param().description = grammar::unquote(in.string_view());
  }
};
template <> struct action<g::alias_name> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    s.param().alias = in.string();
  }
};
template <> struct action<g::option_name> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    if (auto repeated = grammar::repeated_key_message(s.param().options, in.string_view()); !repeated.empty()) {
      throw syntax_error{std::move(repeated), in.position()};
    }
    s.pending_option = located_text{in.string(), s.location(in.position())};
  }
};
template <> struct action<g::option_value> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    const located_text value{value_of(in.string_view()), s.location(in.position())};
    if (iequals(s.pending_option.text, "STEERABLE") && !iequals(value.text, "never") &&
        !iequals(value.text, "always") && !iequals(value.text, "recover")) {
      throw syntax_error{"STEERABLE must be never, always or recover, not '" + value.text + "'", in.position()};
    }
    s.param().options.push_back(key_value{s.pending_option, value});
  }
};
template <> struct action<g::unknown_option> {
  template <typename Input>
  static void apply(const Input& in, param_state&) {
    std::string word = in.string();
    word = word.substr(0, word.find_first_of(" \t\\="));
    throw syntax_error{"unknown parameter option '" + word + "'" + did_you_mean(word, known_options()),
                       in.position()};
  }
};

// --- ranges -------------------------------------------------------------------------------
template <> struct action<g::range_open> : grammar::detail::push_open {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    grammar::detail::push_open::apply(in, s);
    s.param().has_range_block = true;
  }
};
template <> struct action<g::range_close> : grammar::detail::pop_open {};
template <> struct action<g::range_token> {
  // Runs before range_spec's action: the words are collected here and attached there.
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    s.pending_words.push_back(located_text{value_of(in.string_view()), s.location(in.position())});
  }
};
template <> struct action<g::range_spec> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    param_range_syntax range;
    range.where = s.location(in.position());
    range.spec = in.string();
    if (is_numeric_type(s.param().type)) {
      if (!matches<g::numeric_range>(range.spec)) {
        throw syntax_error{"expected a numeric range such as '1:*', '(0:1]', '0:10:2' or '*' for " +
                               s.param().type + " parameter '" + s.param().name.text + "'",
                           in.position()};
      }
    } else {
      range.words = std::move(s.pending_words);
    }
    s.pending_words.clear();
    s.param().ranges.push_back(std::move(range));
    s.line_has_spec = true;
  }
};
template <> struct action<g::double_colon> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    if (!s.line_has_spec) {  // `:: "comment"` with no range before it
      param_range_syntax range;
      range.where = s.location(in.position());
      s.param().ranges.push_back(std::move(range));
    }
  }
};
template <> struct action<g::range_comment> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    std::string text = value_of(in.string_view());
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
    s.param().ranges.back().comment = text;
  }
};
template <> struct action<g::range_line> {
  template <typename Input>
  static void apply(const Input&, param_state& s) { s.line_has_spec = false; }
};

template <> struct action<g::default_value> {
  template <typename Input>
  static void apply(const Input& in, param_state& s) {
    auto& p = s.param();
    if (is_numeric_type(p.type) && !is_quoted(in.string_view()) && !matches<g::numeric_value>(in.string_view())) {
      throw syntax_error{"expected a number as the default of " + p.type + " parameter '" + p.name.text + "'",
                         in.position()};
    }
    p.default_value = located_text{value_of(in.string_view()), s.location(in.position())};
  }
};

// --- misspellings ------------------------------------------------------------------------
template <> struct action<g::unknown_section> {
  template <typename Input>
  static void apply(const Input& in, param_state&) {
    std::string word = in.string();
    word = word.substr(0, word.find_first_of(" \t\\:"));
    throw syntax_error{"unknown section '" + word + ":'" + did_you_mean(word, known_sections()), in.position()};
  }
};
template <> struct action<g::unknown_type_name> {
  template <typename Input>
  static void apply(const Input& in, param_state&) {
    const std::string word = in.string();
    throw syntax_error{"unknown parameter type '" + word + "'; expected INT, REAL, KEYWORD, STRING or BOOLEAN" +
                           did_you_mean(word, known_types()),
                       in.position()};
  }
};

}  // namespace

param_file parse_param_ccl(const source_file& file) {
  param_state state;
  state.result.path = file.path;
  grammar::run_parser<g::file, action>(file, state);
  return std::move(state.result);
}

}  // namespace opuntia::ccl
