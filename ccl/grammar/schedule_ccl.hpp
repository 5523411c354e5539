#pragma once
// The grammar of a Cactus schedule.ccl file (docs/SYNTAX.md, "schedule.ccl").
//
//   STORAGE: group[, group[timelevels]]
//   schedule [GROUP] <name> [options] AT|IN <where> [AS a] [WHILE v] [UNTIL v] [IF v] [BEFORE|AFTER n|(a b)] ...
//   {
//     LANG: C                     # one clause per line (or several, each starting with KEY:)
//     SYNC: a, b
//   } ["description"]
//   if (<condition>) { statements } [else if (...) { ... }] [else { ... }]
#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar {
namespace schedule_ccl {

struct colon : one<':'> {};
struct double_colon : two<':'> {};
/// `name` or `impl::name`.
struct qualified_name : seq<name, star<double_colon, name>> {};
struct bracket_group : seq<one<'['>, star<not_one<']', '\r', '\n'>>, one<']'>> {};
struct paren_group : seq<one<'('>, star<sor<paren_group, quoted, not_one<'(', ')', '\r', '\n'>>>, one<')'>> {};

// --- STORAGE lines ----------------------------------------------------------------------
struct storage_kw : keyword<TAO_PEGTL_ISTRING("STORAGE")> {};
/// `group`, `impl::group`, `group[3]`, `group[param]`.
struct storage_item : seq<qualified_name, opt<bracket_group>> {};
struct storage_end : end_of_line {};
struct storage_line
    : seq<storage_kw, blanks, must<colon>, blanks, opt<storage_item, star<blanks, opt<one<','>>, blanks, storage_item>>,
          must<storage_end>> {};

// --- schedule items --------------------------------------------------------------------
struct schedule_kw : keyword<TAO_PEGTL_ISTRING("schedule")> {};
struct group_kw : keyword<TAO_PEGTL_ISTRING("group")> {};
struct routine_name : qualified_name {};
struct at_kw : keyword<TAO_PEGTL_ISTRING("AT")> {};
struct in_kw : keyword<TAO_PEGTL_ISTRING("IN")> {};
struct placement : sor<at_kw, in_kw> {};
struct target_name : qualified_name {};

struct as_kw : keyword<TAO_PEGTL_ISTRING("AS")> {};
struct while_kw : keyword<TAO_PEGTL_ISTRING("WHILE")> {};
struct until_kw : keyword<TAO_PEGTL_ISTRING("UNTIL")> {};
struct if_kw : keyword<TAO_PEGTL_ISTRING("IF")> {};
struct before_kw : keyword<TAO_PEGTL_ISTRING("BEFORE")> {};
struct after_kw : keyword<TAO_PEGTL_ISTRING("AFTER")> {};

struct alias_name : name {};
struct scalar_name : qualified_name {};
struct scalar_close : one<')'> {};
/// `impl::v` or `(impl::v)`.
struct scalar_reference : sor<seq<one<'('>, ws, must<scalar_name>, ws, must<scalar_close>>, scalar_name> {};
struct ordered_name : qualified_name {};
struct ordered_close : one<')'> {};
/// `n` or `(a b)` / `(a, b)`.
struct ordered_names
    : sor<seq<one<'('>, ws, star<ordered_name, ws, opt<one<','>>, ws>, must<ordered_close>>, ordered_name> {};

struct as_option : seq<as_kw, ws, must<alias_name>> {};
struct while_option : seq<while_kw, ws, must<scalar_reference>> {};
struct until_option : seq<until_kw, ws, must<scalar_reference>> {};
struct if_option : seq<if_kw, ws, must<scalar_reference>> {};
struct before_option : seq<before_kw, ws, must<ordered_names>> {};
struct after_option : seq<after_kw, ws, must<ordered_names>> {};
struct schedule_option : sor<as_option, while_option, until_option, if_option, before_option, after_option> {};

// --- the block of clauses -------------------------------------------------------------------
struct clause_key : name {};
/// `KEY:` (not `impl::`) begins a clause; an item list stops there.
struct clause_start : seq<name, blanks, colon, not_at<colon>> {};
struct item_char : not_one<' ', '\t', '\r', '\n', ',', '{', '}', '#', '"', '\'', '(', ')', '[', ']', '\\'> {};
/// `C`, `impl::v(everywhere)`, `group[2]`, `key=value`, `key="value"`.
struct clause_item : plus<sor<item_char, paren_group, bracket_group, quoted>> {};
struct clause_items : star<blanks, opt<one<','>>, blanks, not_at<clause_start>, clause_item> {};
struct clause_colon : colon {};
struct clause : seq<clause_key, blanks, must<clause_colon>, clause_items> {};
struct schedule_block_open : brace_open {};
struct schedule_block_close : brace_close {};
/// What cannot begin a clause but begins the next statement (or is a description): the block's
/// `}` is missing, and the error says so rather than "unknown schedule clause 'schedule'".
struct block_left_open : sor<keyword<TAO_PEGTL_ISTRING("schedule")>, seq<if_kw, ws, one<'('>>,
                             keyword<TAO_PEGTL_ISTRING("else")>, one<'"'>> {};
struct schedule_block
    : seq<schedule_block_open, ws, star<not_at<one<'}'>>, not_at<eof>, not_at<block_left_open>, must<clause>, ws>,
          must<schedule_block_close>> {};
struct description : dquoted {};
struct schedule_item
    : seq<schedule_kw, blanks, opt<group_kw, blanks>, must<routine_name>, star<ws, schedule_option>, ws,
          must<placement>, blanks, must<target_name>, star<ws, schedule_option>, ws, must<schedule_block>,
          opt<ws, description>> {};

// --- conditionals -----------------------------------------------------------------------
struct statement;
struct condition_open : one<'('> {};
struct condition_close : one<')'> {};
struct condition_group
    : seq<one<'('>, star<sor<line_continuation, quoted, condition_group, not_one<'(', ')', '\r', '\n'>>>, one<')'>> {};
struct condition_text : star<sor<line_continuation, quoted, condition_group, not_one<'(', ')', '\r', '\n'>>> {};
/// `(CCTK_Equals(initial_data, "lid_driven_cavity"))`: the text inside is kept as written.
struct condition : seq<condition_open, condition_text, must<condition_close>> {};
/// `{ statements }` after a condition or after else.
template <typename Open, typename Close>
struct statement_block : seq<Open, ws, star<not_at<one<'}'>>, not_at<eof>, must<statement>, ws>, must<Close>> {};
struct then_open : brace_open {};
struct then_close : brace_close {};
struct then_block : statement_block<then_open, then_close> {};
struct else_open : brace_open {};
struct else_close : brace_close {};
struct else_block : statement_block<else_open, else_close> {};
struct else_kw : keyword<TAO_PEGTL_ISTRING("else")> {};
struct conditional;
struct else_body : sor<conditional, else_block> {};
struct else_part : seq<else_kw, ws, must<else_body>> {};
struct conditional_if : if_kw {};
struct conditional : seq<conditional_if, ws, must<condition>, ws, must<then_block>, opt<ws, else_part>> {};

struct statement : sor<storage_line, schedule_item, conditional> {};
struct file : seq<ws, star<not_at<eof>, must<statement>, ws>, eof> {};

}  // namespace schedule_ccl

template <> inline constexpr const char* nesting_message<schedule_ccl::paren_group> =
    "parentheses nested deeper than {limit} levels";
template <> inline constexpr const char* nesting_message<schedule_ccl::condition_group> =
    "parentheses nested deeper than {limit} levels";
/// The condition's own parentheses are the first level of its parentheses (if statements count apart).
template <> inline constexpr const char* nesting_message<schedule_ccl::condition> =
    "parentheses nested deeper than {limit} levels";
template <> inline constexpr const char* nesting_message<schedule_ccl::conditional> =
    "if statements nested deeper than {limit} levels (each 'else if' is one more)";

template <> inline constexpr const char* error_message<schedule_ccl::colon> = "expected ':'";
template <> inline constexpr const char* error_message<schedule_ccl::storage_end> =
    "expected a group name or end of line";
template <> inline constexpr const char* error_message<schedule_ccl::routine_name> =
    "expected a routine or group name after 'schedule'";
template <> inline constexpr const char* error_message<schedule_ccl::placement> = "expected AT or IN";
template <> inline constexpr const char* error_message<schedule_ccl::target_name> =
    "expected a bin or group name after AT or IN";
template <> inline constexpr const char* error_message<schedule_ccl::alias_name> = "expected an alias after AS";
template <> inline constexpr const char* error_message<schedule_ccl::scalar_name> =
    "expected an integer scalar such as 'impl::name'";
template <> inline constexpr const char* error_message<schedule_ccl::scalar_reference> =
    "expected an integer scalar such as 'impl::name'";
template <> inline constexpr const char* error_message<schedule_ccl::scalar_close> = "expected ')'";
template <> inline constexpr const char* error_message<schedule_ccl::ordered_names> =
    "expected a routine name or '(' and a list of names";
template <> inline constexpr const char* error_message<schedule_ccl::ordered_close> =
    "expected ')' to close the list of names";
template <> inline constexpr const char* error_message<schedule_ccl::clause> = "expected a clause such as 'LANG: C'";
template <> inline constexpr const char* error_message<schedule_ccl::clause_colon> = "expected ':' after the clause name";
template <> inline constexpr const char* error_message<schedule_ccl::schedule_block> =
    "expected '{' to start the schedule block";
template <> inline constexpr const char* error_message<schedule_ccl::schedule_block_close> =
    "expected '}' to close the schedule block opened at {open}";
template <> inline constexpr const char* error_message<schedule_ccl::condition> = "expected '(' and a condition after if";
template <> inline constexpr const char* error_message<schedule_ccl::condition_close> =
    "expected ')' to close the condition opened at {open}";
template <> inline constexpr const char* error_message<schedule_ccl::then_block> = "expected '{' after the condition";
template <> inline constexpr const char* error_message<schedule_ccl::else_body> = "expected 'if' or '{' after else";
template <> inline constexpr const char* error_message<schedule_ccl::then_close> =
    "expected '}' to close the block opened at {open}";
template <> inline constexpr const char* error_message<schedule_ccl::else_close> =
    "expected '}' to close the block opened at {open}";
template <> inline constexpr const char* error_message<schedule_ccl::statement> =
    "expected 'schedule', 'STORAGE:' or 'if'";

}  // namespace opuntia::ccl::grammar
