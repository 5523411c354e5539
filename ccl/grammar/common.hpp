#pragma once
// Lexical rules shared by every CCL grammar (cakernel.ccl, deps.ccl, interface.ccl,
// param.ccl, schedule.ccl), the error-reporting control and the parse driver.
//
// Conventions for grammar authors:
//  * one `struct` per construct, named as in docs/SYNTAX.md;
//  * `must<>` (or `if_must<>`) wherever backtracking should become an error;
//    every rule that can be raised needs `error_message<Rule>` (checked at compile time);
//  * a message may contain "{open}", replaced by the place where the innermost
//    still-open block or string began ("line 3, column 5");
//  * every rule through which the grammar recurses needs `nesting_message<Rule>` (see below),
//    so that no input nests deeper than `max_nesting_depth`;
//  * keywords are case-insensitive (`keyword<TAO_PEGTL_ISTRING("implements")>`);
//  * `ws` skips blanks, newlines, comments, backslash continuations; `blanks` stays on the line.
#include <cstddef>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <tao/pegtl.hpp>

#include "ccl/diagnostic.hpp"
#include "ccl/model/common.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::ccl::grammar {

namespace pegtl = tao::pegtl;
using namespace tao::pegtl;  // NOLINT: grammar files read like the spec with unqualified rule names

// --- characters ----------------------------------------------------------------
// A NUL byte stands on a line of the shipped CaCUDA schedule.ccl; real tools skip it.
struct blank_char : one<' ', '\t', '\0', '\f', '\v'> {};
/// A backslash at the end of a line joins it with the next one.
struct line_continuation : seq<one<'\\'>, star<one<' ', '\t'>>, eol> {};
struct comment : seq<one<'#'>, until<at<eolf>>> {};
/// Whitespace that stays on the current (logical) line.
struct blanks : star<sor<blank_char, line_continuation, comment>> {};
struct blanks1 : plus<sor<blank_char, line_continuation, comment>> {};
/// Any whitespace, newlines and comments included.
struct ws : star<sor<blank_char, line_continuation, comment, eol>> {};
/// The end of a logical line (or of the file), blanks and comment before it skipped.
struct end_of_line : seq<blanks, sor<eol, eof>> {};

// --- words ---------------------------------------------------------------------
struct name_char : identifier_other {};
struct name : identifier {};
/// A case-insensitive keyword that is not the prefix of a longer word.
template <typename IString>
struct keyword : seq<IString, not_at<name_char>> {};

// --- numbers -------------------------------------------------------------------
/// `e-10`, `D+2`: Fortran's `d` exponent too, as Cactus files write it (`1.d-3`).
struct exponent : seq<one<'e', 'E', 'd', 'D'>, opt<one<'+', '-'>>, plus<digit>> {};
/// `1`, `2.5`, `1.`, `.5`, `1.0e-10`, `1.d-3`: no sign (each grammar decides where one goes).
struct unsigned_number : seq<sor<seq<plus<digit>, opt<one<'.'>, star<digit>>>, seq<one<'.'>, plus<digit>>>,
                             opt<exponent>> {};

// --- strings -------------------------------------------------------------------
struct escaped_char : seq<one<'\\'>, any> {};
struct dquote_open : one<'"'> {};
struct dquote_close : one<'"'> {};
struct dquote_content : star<sor<escaped_char, not_one<'"', '\\'>>> {};
/// A double-quoted string; it may span lines; backslash escapes the next character.
struct dquoted : if_must<dquote_open, dquote_content, dquote_close> {};
struct squote_open : one<'\''> {};
struct squote_close : one<'\''> {};
struct squote_content : star<sor<escaped_char, not_one<'\'', '\\'>>> {};
struct squoted : if_must<squote_open, squote_content, squote_close> {};
struct quoted : sor<dquoted, squoted> {};

// --- blocks --------------------------------------------------------------------
struct brace_open : one<'{'> {};
struct brace_close : one<'}'> {};

// --- KEY=value options (cakernel.ccl, deps.ccl) ------------------------------------
// A bare value runs to the next blank: `*/3dblock`, `1,1,1,1,1,1`, `a|b`, `yes`.
struct option_key : name {};
struct option_bare_value : plus<not_one<' ', '\t', '\r', '\n', '{', '}', '"', '\'', '#', '=', '\\', '\0'>> {};
struct option_value : sor<quoted, option_bare_value> {};
struct option : seq<option_key, blanks, one<'='>, blanks, must<option_value>> {};
struct options : star<ws, option> {};

// --- error messages ----------------------------------------------------------------
/// What a failed `must<Rule>` reports. nullptr: the rule may not be raised.
template <typename Rule>
inline constexpr const char* error_message = nullptr;

template <> inline constexpr const char* error_message<dquote_content> = "malformed string";
template <> inline constexpr const char* error_message<dquote_close> =
    "unterminated string: this '\"' has no closing '\"'";
template <> inline constexpr const char* error_message<squote_content> = "malformed string";
template <> inline constexpr const char* error_message<squote_close> =
    "unterminated string: this ''' has no closing '''";
template <> inline constexpr const char* error_message<brace_close> =
    "expected '}' to close the block opened at {open}";
template <> inline constexpr const char* error_message<eof> = "expected end of file";
template <> inline constexpr const char* error_message<option_value> =
    "expected a value after '=' (a word or a quoted string)";

// --- nesting -------------------------------------------------------------------------
/// How deep recursive constructs (parentheses, expressions, if blocks, template groups) may nest.
/// The parser, the semantic passes, the emitters and the parameter-file evaluator recurse once
/// per level, so without a bound a hostile file overflows the stack; real files nest below 10.
inline constexpr std::size_t max_nesting_depth = 256;

/// Marks `Rule` as one that nests: every match of it counts one level while it lasts. The
/// message says what crossed the limit; "{limit}" stands for `max_nesting_depth`.
/// Rules with the same message count together and rules with different messages apart: 256
/// nested `if` blocks of schedule.ccl, each with a condition two parentheses deep, nest if
/// statements 256 deep and parentheses two deep, and the message names what went too deep.
/// One level past the limit is tried without recursing further: it is an error only if the rule
/// begins there (matches, raises, or tries to nest again), so a file that nests exactly to the
/// limit stays valid where the grammar tries, and fails, to open another level at its deepest.
template <typename Rule>
inline constexpr const char* nesting_message = nullptr;

// --- parse state ---------------------------------------------------------------
/// Where a block or string began, for "unterminated ..." messages.
struct open_mark {
  std::size_t line = 0;
  std::size_t column = 0;
  std::size_t byte = 0;
};

/// Errors of `Rule` are placed where the innermost open block or string began, not where the
/// parser stopped: an unterminated string is found at the end of the file, but the quote that
/// opened it is what the reader must see.
template <typename Rule>
inline constexpr bool reported_where_opened = false;
template <> inline constexpr bool reported_where_opened<dquote_close> = true;
template <> inline constexpr bool reported_where_opened<squote_close> = true;

/// Every grammar's parse state derives from this.
struct parse_state_base {
  const source_file* file = nullptr;
  std::vector<open_mark> open;
  /// Nesting rules being matched, counted per nesting_message text (see nesting_message); a
  /// map, so that a level's counter stays in place while other kinds are added.
  std::map<std::string_view, std::size_t> depths;
  /// Where the last string that closed began, and the line of its closing quote. Strings may
  /// span lines, so a string whose closing quote is missing closes at the next quote, lines
  /// later, and the parse fails there: an error on that line names where the string began.
  open_mark last_string;
  std::size_t last_string_closing_line = 0;

  source_location location(const pegtl::position& p) const {
    return file ? file->place_of(p.line, p.column) : source_location{p.source, p.line, p.column};
  }
};

/// Describes the text at the failure point: "'CCTK_KERNEL'", "end of line", "end of file".
template <typename ParseInput>
std::string describe_found(const ParseInput& in) {
  if (in.empty()) return "end of file";
  const char* p = in.current();
  const char* end = in.end();
  if (*p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n')) return "end of line";
  std::string word;
  const auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  // Word processors turn " and ' into typographic quotes (UTF-8 E2 80 98/99/9C/9D).
  if (end - p >= 3 && static_cast<unsigned char>(p[0]) == 0xe2 && static_cast<unsigned char>(p[1]) == 0x80) {
    const auto third = static_cast<unsigned char>(p[2]);
    if (third == 0x9c || third == 0x9d) return "'" + std::string(p, 3) + "', a typographic quote: write \"";
    if (third == 0x98 || third == 0x99) return "'" + std::string(p, 3) + "', a typographic quote: write '";
  }
  if (is_word(*p)) {
    while (p < end && is_word(*p) && word.size() < 40) word += *p++;
  } else if (static_cast<unsigned char>(*p) < 0x20 || static_cast<unsigned char>(*p) >= 0x7f) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned char>(*p));
    return std::string("byte '") + buffer + "'";
  } else {
    word = *p;
  }
  return "'" + word + "'";
}

/// Thrown by the control; converted into a diagnostic by `run_parser`.
struct syntax_error {
  std::string message;
  pegtl::position where;
};

namespace detail {
// Rules that never fail (star, opt, and must, which raises instead) need no message even when
// if_must<> wraps them in must<>.
template <typename... R> std::true_type never_fails(const star<R...>*);
template <typename... R> std::true_type never_fails(const opt<R...>*);
template <typename... R> std::true_type never_fails(const must<R...>*);
std::false_type never_fails(...);
template <typename Rule>
inline constexpr bool never_fails_v = decltype(never_fails(static_cast<const Rule*>(nullptr)))::value;

/// The parse state among a parse's states: a nesting rule keeps its depth there.
template <typename State, typename... Rest>
parse_state_base& nesting_state(State& state, Rest&... rest) {
  if constexpr (std::is_base_of_v<parse_state_base, std::decay_t<State>>) {
    return state;
  } else {
    static_assert(sizeof...(Rest) > 0, "a grammar with nesting rules needs a state derived from parse_state_base");
    return nesting_state(rest...);
  }
}

/// Leaves one level when the rule's match ends, whether it matched, failed or raised.
struct nesting_level {
  std::size_t& depth;
  explicit nesting_level(std::size_t& d) : depth(d) { ++depth; }
  ~nesting_level() { --depth; }
  nesting_level(const nesting_level&) = delete;
  nesting_level& operator=(const nesting_level&) = delete;
};

std::string nesting_limit_text(const char* message);
}  // namespace detail

/// Raises `error_message<Rule>` with the found text appended, and stops a nesting rule
/// (`nesting_message<Rule>`) from going deeper than `max_nesting_depth`.
template <typename Rule>
struct control : normal<Rule> {
  template <apply_mode A, rewind_mode M, template <typename...> class Action, template <typename...> class Control,
            typename ParseInput, typename... States>
  [[nodiscard]] static bool match(ParseInput& in, States&&... states) {
    if constexpr (nesting_message<Rule> != nullptr) {
      parse_state_base& state = detail::nesting_state(states...);
      std::size_t& depth = state.depths[std::string_view(nesting_message<Rule>)];
      // Two levels too deep: only reached from the trial below, which reports it.
      if (depth > max_nesting_depth) throw syntax_error{{}, in.position()};
      const detail::nesting_level level(depth);
      if (depth <= max_nesting_depth) return normal<Rule>::template match<A, M, Action, Control>(in, states...);
      auto where = in.position();
      try {
        if (!normal<Rule>::template match<A, M, Action, Control>(in, states...)) return false;
      } catch (const syntax_error&) {  // it began here and failed further on, or nested again
      }
      throw syntax_error{detail::nesting_limit_text(nesting_message<Rule>), std::move(where)};
    } else {
      return normal<Rule>::template match<A, M, Action, Control>(in, states...);
    }
  }

  template <typename ParseInput, typename... States>
  [[noreturn]] static void raise(const ParseInput& in, States&&... states) {
    static_assert(error_message<Rule> != nullptr || detail::never_fails_v<Rule>,
                  "a rule used under must<> needs an error_message<Rule> specialisation");
    std::string message = error_message<Rule> != nullptr ? error_message<Rule> : "syntax error";
    const auto placeholder = message.find("{open}");
    if (placeholder != std::string::npos) {
      std::string where = "an earlier line";
      (
          [&](auto& state) {
            if constexpr (std::is_base_of_v<parse_state_base, std::decay_t<decltype(state)>>) {
              if (!state.open.empty()) {
                const auto opened = state.location(
                    pegtl::position(state.open.back().byte, state.open.back().line, state.open.back().column, ""));
                where = "line " + std::to_string(opened.line) + ", column " + std::to_string(opened.column);
              }
            }
          }(states),
          ...);
      message.replace(placeholder, 6, where);
    }
    message += "; found " + describe_found(in);
    // A string left open ends at the next string's opening quote, and the parse fails in that
    // string's text, whose closing quote then stands later on the line: only then the hint (a
    // string meant to span lines, with something wrong after it, has none there).
    const auto quote_later_on_the_line = [&] {
      for (const char* p = in.current(); p < in.end() && *p != '\n'; ++p) {
        if (*p == '"' || *p == '\'') return true;
      }
      return false;
    };
    (
        [&](auto& state) {
          if constexpr (std::is_base_of_v<parse_state_base, std::decay_t<decltype(state)>>) {
            if (state.last_string_closing_line > state.last_string.line &&
                in.position().line == state.last_string_closing_line && quote_later_on_the_line()) {
              const auto opened = state.location(
                  pegtl::position(state.last_string.byte, state.last_string.line, state.last_string.column, ""));
              message += "; the string opened at line " + std::to_string(opened.line) + ", column " +
                         std::to_string(opened.column) + " closes only on this line: is its closing quote missing?";
            }
          }
        }(states),
        ...);
    if constexpr (reported_where_opened<Rule>) {
      const open_mark* opened = nullptr;
      (
          [&](auto& state) {
            if constexpr (std::is_base_of_v<parse_state_base, std::decay_t<decltype(state)>>) {
              if (!state.open.empty()) opened = &state.open.back();
            }
          }(states),
          ...);
      if (opened != nullptr) {
        throw syntax_error{std::move(message), pegtl::position(opened->byte, opened->line, opened->column, in.position().source)};
      }
    }
    throw syntax_error{std::move(message), in.position()};
  }
};

/// Actions every grammar shares: remember where blocks and strings open.
template <typename Rule>
struct common_action : nothing<Rule> {};

namespace detail {
struct push_open {
  template <typename ActionInput, typename State>
  static void apply(const ActionInput& in, State& state) {
    const auto p = in.position();
    state.open.push_back(open_mark{p.line, p.column, p.byte});
  }
};
struct pop_open {
  template <typename ActionInput, typename State>
  static void apply(const ActionInput&, State& state) {
    if (!state.open.empty()) state.open.pop_back();
  }
};
/// A string's closing quote: its opening leaves the open marks and becomes the last string.
struct close_string {
  template <typename ActionInput, typename State>
  static void apply(const ActionInput& in, State& state) {
    if (state.open.empty()) return;
    state.last_string = state.open.back();
    state.last_string_closing_line = in.position().line;
    state.open.pop_back();
  }
};
}  // namespace detail

/// "TYPE is given twice: first at line 4, column 11" where `key` is among `given` (in any case),
/// else empty. A key given twice is an error in every CCL file: which one wins would be a guess.
std::string repeated_key_message(const std::vector<key_value>& given, std::string_view key);

/// KEY=value options go to `state.keys` (when set) via `state.pending`, quotes removed.
struct record_option_key {
  template <typename ActionInput, typename State>
  static void apply(const ActionInput& in, State& state) {
    if (state.keys != nullptr) {
      if (auto repeated = repeated_key_message(*state.keys, in.string_view()); !repeated.empty()) {
        throw syntax_error{std::move(repeated), in.position()};
      }
    }
    state.pending = key_value{located_text{in.string(), state.location(in.position())}, {}};
  }
};
struct record_option_value {
  template <typename ActionInput, typename State>
  static void apply(const ActionInput& in, State& state);
};

template <> struct common_action<dquote_open> : detail::push_open {};
template <> struct common_action<dquote_close> : detail::close_string {};
template <> struct common_action<squote_open> : detail::push_open {};
template <> struct common_action<squote_close> : detail::close_string {};
template <> struct common_action<brace_open> : detail::push_open {};
template <> struct common_action<brace_close> : detail::pop_open {};

/// The text between the quotes with backslash escapes resolved (`\"` -> `"`, `\n` -> newline) and
/// each CRLF line break a newline.
std::string unquote(std::string_view quoted_text);

/// unquote()'s text and where each of its bytes was written: `origins[i]` is the offset in
/// `quoted_text` of the byte that gave text[i] (an escape's backslash, a CRLF's CR), and one more
/// entry, the closing quote's offset (the text's end), so that `origins.size() == text.size() + 1`.
/// Places inside a string (a loop filter's value, a deps.ccl schedule string) come from it.
struct unquoted_text {
  std::string text;
  std::vector<std::size_t> origins;
};
unquoted_text unquote_mapped(std::string_view quoted_text);

template <typename ActionInput, typename State>
void record_option_value::apply(const ActionInput& in, State& state) {
  const std::string text = in.string();
  const bool is_quoted = text.front() == '"' || text.front() == '\'';
  state.pending.value = located_text{is_quoted ? unquote(text) : text, state.location(in.position())};
  if (state.keys != nullptr) state.keys->push_back(std::move(state.pending));
}

/// The diagnostic of a syntax error `e` in `file`. One found at the end of the file stands just
/// after its last word: the end's own place is a line past the last one where the file ends
/// with a line break, shown as an empty line.
inline diagnostic diagnostic_of(const source_file& file, const syntax_error& e) {
  if (e.where.byte >= file.text.size()) {
    const auto last = file.text.find_last_not_of(" \t\r\n");
    if (last != std::string::npos) return file.error_at_offset(last + 1, e.message);
  }
  return file.error_at(e.where.line, e.where.column, e.message);
}

/// Parses `file` with `Grammar`, applying `Action` into `state`; syntax errors become
/// a input_error whose diagnostic points at the failure.
template <typename Grammar, template <typename> class Action, typename State>
void run_parser(const source_file& file, State& state) {
  state.file = &file;
  pegtl::memory_input<pegtl::tracking_mode::eager, pegtl::eol::lf_crlf> in(file.text, file.path);
  try {
    if (!pegtl::parse<Grammar, Action, control>(in, state)) {
      throw input_error(file.error_at(1, 1, "syntax error"));
    }
  } catch (const syntax_error& e) {
    throw input_error(diagnostic_of(file, e));
  }
}

}  // namespace opuntia::ccl::grammar
