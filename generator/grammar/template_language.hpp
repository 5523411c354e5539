#pragma once
// The template language of docs/SYNTAX.md ("Template language"), as PEGTL rules: one struct per
// construct. The actions that build the syntax tree live in template_engine.cpp.
//
//   literal text, '%%', '%{name}', '%{var(v)}', '%name', '%var(v)',
//   '%for_loop(v, 'lo', 'hi'[, "delimit=s"]) %[ ... ]%',
//   '%<x>_loop("key=a|b", ...) %[ ... ]%', and a bare '%[ ... ]%' group.
// A '%' that starts none of these is literal text (C's `a % b` needs no escape).
// ']%' closes a block; ']%%' is a literal ']' followed by the escape '%%', so that
// escape_template_text() of "a[i]%n" stays literal.
#include <tao/pegtl.hpp>

#include "ccl/grammar/common.hpp"

namespace opuntia::gen::tpl {

using namespace opuntia::ccl::grammar;

// --- layout --------------------------------------------------------------------
/// Blanks, newlines and backslash continuations between a directive's parts.
struct gap : star<sor<one<' ', '\t', '\r', '\n'>, line_continuation>> {};
struct inline_blanks : star<one<' ', '\t'>> {};

// --- literal text --------------------------------------------------------------
/// ']' is text unless it starts a block close ']%' (']%%' is ']' and an escaped '%').
struct text_char : sor<not_one<'%', ']'>, seq<one<']'>, sor<not_at<one<'%'>>, at<two<'%'>>>>> {};
struct literal_text : plus<text_char> {};
/// "%%": one literal '%'.
struct escaped_percent : two<'%'> {};
/// A '%' that starts no directive is kept as written.
struct lone_percent : one<'%'> {};

// --- names -----------------------------------------------------------------------
/// The '%' that starts a directive; its position is the directive's place.
struct directive_percent : one<'%'> {};
struct value_name : identifier {};
struct var_name : identifier {};
struct loop_suffix : seq<TAO_PEGTL_STRING("_loop"), not_at<identifier_other>> {};
/// Any identifier that ends in "_loop" (var_loop, param_loop, ...).
struct loop_name : seq<identifier_first, star<not_at<loop_suffix>, identifier_other>, loop_suffix> {};
struct for_keyword : seq<TAO_PEGTL_STRING("for_loop"), not_at<identifier_other>> {};
struct var_keyword : TAO_PEGTL_STRING("var") {};

// --- values --------------------------------------------------------------------------
struct var_close : one<')'> {};
/// "%var(v)": the current value of the for_loop variable v.
struct var_ref_start : seq<directive_percent, var_keyword, one<'('>> {};
struct var_ref : seq<var_ref_start, inline_blanks, must<var_name>, inline_blanks, must<var_close>> {};
/// "var(v)" inside braces.
struct braced_var : seq<var_keyword, inline_blanks, one<'('>, inline_blanks, must<var_name>, inline_blanks,
                        must<var_close>> {};
struct braced_content : sor<braced_var, value_name> {};
struct braced_close : one<'}'> {};
/// "%{name}" or "%{var(v)}".
struct braced_value : seq<directive_percent, one<'{'>, inline_blanks, must<braced_content>, inline_blanks,
                          must<braced_close>> {};
/// "%name".
struct plain_value : seq<directive_percent, value_name> {};

// --- blocks ----------------------------------------------------------------------
struct block_open : seq<one<'%'>, one<'['>> {};
struct block_close : seq<one<']'>, one<'%'>, not_at<one<'%'>>> {};
struct element;
struct body : star<element> {};

// --- loops -----------------------------------------------------------------------
struct args_open : one<'('> {};
struct args_close : one<')'> {};
struct comma : one<','> {};
struct loop_variable : identifier {};
/// The bounds are templates in quotes: '-%{stencil_zn}'.
struct lo_bound : quoted {};
struct hi_bound : quoted {};
/// "key=value", "key=a|b" or "delimit=s".
struct loop_filter : quoted {};

struct for_loop_start : seq<directive_percent, for_keyword> {};
/// "%for_loop(v, 'lo', 'hi'[, "delimit=s"]) %[ body ]%".
struct for_loop
    : seq<for_loop_start, gap, must<args_open>, gap, must<loop_variable>, gap, must<comma>, gap,
          must<lo_bound>, gap, must<comma>, gap, must<hi_bound>, gap,
          opt<comma, gap, must<loop_filter>, gap>, must<args_close>, gap, must<block_open>, body,
          must<block_close>> {};

struct filter_list : seq<loop_filter, star<gap, comma, gap, must<loop_filter>>> {};
struct loop_arguments : seq<args_open, gap, opt<filter_list>, gap, must<args_close>> {};
struct scope_loop_start : seq<directive_percent, loop_name> {};
/// "%<x>_loop("key=value", ...) %[ body ]%"; the arguments may be left out.
struct scope_loop
    : seq<scope_loop_start, opt<gap, loop_arguments>, gap, must<block_open>, body, must<block_close>> {};

/// A bare "%[ body ]%": renders its body.
struct group : seq<block_open, body, must<block_close>> {};

struct element : sor<literal_text, escaped_percent, group, braced_value, var_ref, for_loop, scope_loop,
                     plain_value, lone_percent> {};

/// Only a stray ']%' can stop the top-level elements before the end.
struct end_of_template : eof {};
struct template_text : seq<body, must<end_of_template>> {};

}  // namespace opuntia::gen::tpl

// The messages of the template grammar's rules, in the namespace of ccl/'s control that reads them.
namespace opuntia::ccl::grammar {
namespace tpl = opuntia::gen::tpl;

// clang-format off
template <> inline constexpr const char* nesting_message<tpl::group> = "blocks nested deeper than {limit} levels";
template <> inline constexpr const char* nesting_message<tpl::for_loop> = "blocks nested deeper than {limit} levels";
template <> inline constexpr const char* nesting_message<tpl::scope_loop> = "blocks nested deeper than {limit} levels";
template <> inline constexpr const char* error_message<tpl::var_name> =
    "expected a for_loop variable name in '%var(...)'";
template <> inline constexpr const char* error_message<tpl::var_close> = "expected ')' to close '%var('";
template <> inline constexpr const char* error_message<tpl::braced_content> =
    "expected a name or var(v) after '%{'";
template <> inline constexpr const char* error_message<tpl::braced_close> = "expected '}' to close '%{'";
template <> inline constexpr const char* error_message<tpl::args_open> = "expected '(' after the loop name";
template <> inline constexpr const char* error_message<tpl::args_close> =
    "expected ')' to close the loop arguments";
template <> inline constexpr const char* error_message<tpl::comma> = "expected ','";
template <> inline constexpr const char* error_message<tpl::loop_variable> =
    "expected the for_loop variable name";
template <> inline constexpr const char* error_message<tpl::lo_bound> =
    "expected the lower bound as a quoted expression, like '0'";
template <> inline constexpr const char* error_message<tpl::hi_bound> =
    "expected the upper bound as a quoted expression, like '%{stencil_zp}'";
template <> inline constexpr const char* error_message<tpl::loop_filter> =
    "expected a quoted loop filter, like \"key=value\"";
template <> inline constexpr const char* error_message<tpl::block_open> = "expected '%[' to open the loop body";
template <> inline constexpr const char* error_message<tpl::block_close> =
    "unterminated block: the '%[' at {open} has no closing ']%'";
template <> inline constexpr const char* error_message<tpl::end_of_template> =
    "unmatched ']%': no '%[' is open";
// clang-format on

}  // namespace opuntia::ccl::grammar
