#pragma once
// Cactus parameter files (docs/SYNTAX.md, "Parameter files"): one statement per logical line.
//
//   !DESC "what this run is"
//   ActiveThorns = "Driver CaKernel LidDrivenCavity"      # may appear more than once
//   Driver::global_nx = 128
//   Thorn::array_param[2] = 5
//   Time::dtfac = 0.5 * (1.d-1 + 2**-3)                    # arithmetic, Fortran exponents
//   IO::out_dir = $parfile                                  # the parameter file's name
#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar::parfile {

// --- leaves --------------------------------------------------------------------------
/// `128`, `1.5`, `.5`, `1.`, `1.d-3`, `2E+10` (no sign: that is an operator).
struct number : seq<unsigned_number, not_at<name_char>> {};
struct string_value : quoted {};
struct parameter_ref : seq<name, two<':'>, name> {};
struct parfile_var : seq<one<'$'>, sor<seq<one<'{'>, name, one<'}'>>, name>> {};
struct word : name {};

// --- expressions ---------------------------------------------------------------------
struct expression;
struct group_close : one<')'> {};
struct group : seq<one<'('>, blanks, must<expression>, blanks, must<group_close>> {};
struct function_name : name {};
struct argument_close : one<')'> {};
struct arguments : opt<expression, star<blanks, one<','>, blanks, must<expression>>> {};
struct call : seq<at<name, blanks, one<'('>>, function_name, blanks, one<'('>, blanks, arguments, blanks,
                  must<argument_close>> {};
struct primary : sor<number, string_value, group, call, parameter_ref, parfile_var, word> {};
struct sign_op : one<'+', '-'> {};
struct unary;
struct negation : seq<sign_op, blanks, must<unary>> {};
struct power;
struct unary : sor<negation, power> {};
struct power_op : two<'*'> {};
struct power_tail : seq<blanks, power_op, blanks, must<unary>> {};
struct power : seq<primary, opt<power_tail>> {};
struct product_op : sor<seq<one<'*'>, not_at<one<'*'>>>, one<'/'>> {};
struct product_tail : seq<blanks, product_op, blanks, must<unary>> {};
struct product : seq<unary, star<product_tail>> {};
struct sum_op : one<'+', '-'> {};
struct sum_tail : seq<blanks, sum_op, blanks, must<product>> {};
struct expression : seq<product, star<sum_tail>> {};

// --- statements ----------------------------------------------------------------------
struct desc_kw : keyword<TAO_PEGTL_ISTRING("!DESC")> {};
struct desc_text : quoted {};
struct description : if_must<desc_kw, blanks, desc_text> {};

struct equals : one<'='> {};
struct active_thorns_kw : keyword<TAO_PEGTL_ISTRING("ActiveThorns")> {};
struct thorn_list : quoted {};
struct active_thorns : if_must<active_thorns_kw, blanks, equals, blanks, thorn_list> {};

struct implementation : name {};
struct parameter : name {};
struct index_close : one<']'> {};
struct index : seq<one<'['>, blanks, must<expression>, blanks, must<index_close>> {};
struct value : expression {};
struct qualified_name : seq<implementation, two<':'>, must<parameter>> {};
struct assignment : seq<qualified_name, opt<index>, blanks, must<equals>, blanks, must<value>> {};

struct statement_end : sor<eol, eof> {};
struct statement : seq<sor<description, active_thorns, assignment>, blanks, must<statement_end>> {};
struct end_of_parfile : eof {};
struct file : seq<ws, star<statement, ws>, must<end_of_parfile>> {};

}  // namespace opuntia::ccl::grammar::parfile

namespace opuntia::ccl::grammar {
// Every recursion of the expression grammar (parentheses, signs, powers, calls) goes through unary.
template <> inline constexpr const char* nesting_message<parfile::unary> = "expressions nested deeper than {limit} levels";
template <> inline constexpr const char* error_message<parfile::expression> =
    "expected a value: a number, a quoted string, a word, impl::name, $parfile or an expression";
template <> inline constexpr const char* error_message<parfile::unary> = "expected a value after the operator";
template <> inline constexpr const char* error_message<parfile::product> = "expected a value after the operator";
template <> inline constexpr const char* error_message<parfile::value> =
    "expected a value: a number, a quoted string, a word, impl::name, $parfile or an expression";
template <> inline constexpr const char* error_message<parfile::group_close> = "expected ')' to close the parenthesis";
template <> inline constexpr const char* error_message<parfile::argument_close> =
    "expected ',' or ')' after a function argument";
template <> inline constexpr const char* error_message<parfile::index_close> = "expected ']' after the array index";
template <> inline constexpr const char* error_message<parfile::equals> = "expected '=' after the parameter name";
template <> inline constexpr const char* error_message<parfile::thorn_list> =
    "expected a quoted list of thorn names after ActiveThorns =";
template <> inline constexpr const char* error_message<parfile::desc_text> = "expected a quoted description after !DESC";
template <> inline constexpr const char* error_message<parfile::parameter> =
    "expected the parameter's name after '::'";
template <> inline constexpr const char* error_message<parfile::statement_end> =
    "expected the end of the line after the value (one assignment per line)";
template <> inline constexpr const char* error_message<parfile::end_of_parfile> =
    "expected ActiveThorns = \"...\" or an assignment implementation::parameter = value";
}  // namespace opuntia::ccl::grammar
