#pragma once
// The grammar of a schedule.ccl condition, the inside of `if (...)`: one struct per construct.
// The flesh evaluates it with parameter values (flesh/schedule/condition.cpp); opuntia-gen reads
// it without them, for its syntax and the parameters it names (read_condition, ccl/parse.hpp).
#include <tao/pegtl.hpp>

#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar::condition {

using namespace tao::pegtl;  // NOLINT: rules read like the spec

// --- blanks: the parser keeps backslash continuations inside the condition text ------------
struct continuation : seq<one<'\\'>, star<one<' ', '\t'>>, opt<one<'\r'>>, one<'\n'>> {};
struct sp : star<sor<one<' ', '\t', '\r', '\n'>, continuation>> {};

// --- operands ------------------------------------------------------------------------------
struct string_open : one<'"'> {};
struct string_body : star<sor<seq<one<'\\'>, any>, not_one<'"', '\\'>>> {};
struct string_close : one<'"'> {};
struct dquoted_string : if_must<string_open, string_body, string_close> {};
struct squote_open : one<'\''> {};
struct squote_body : star<sor<seq<one<'\\'>, any>, not_one<'\'', '\\'>>> {};
struct squote_close : one<'\''> {};
struct squoted_string : if_must<squote_open, squote_body, squote_close> {};
/// "text" or 'text'; a backslash escapes the next character.
struct string_literal : sor<dquoted_string, squoted_string> {};

struct number : seq<opt<one<'+', '-'>>, unsigned_number, not_at<identifier_other>> {};

/// `name` or `impl::name`.
struct parameter_name : seq<identifier, opt<two<':'>, identifier>> {};

struct equals_keyword : seq<TAO_PEGTL_ISTRING("CCTK_Equals"), not_at<identifier_other>> {};
struct equals_open : one<'('> {};
struct equals_argument : sor<string_literal, parameter_name> {};
struct equals_comma : one<','> {};
struct equals_close : one<')'> {};
/// CCTK_Equals(a, b): case-insensitive text comparison.
struct equals_call
    : if_must<equals_keyword, sp, equals_open, sp, equals_argument, sp, equals_comma, sp, equals_argument, sp,
              equals_close> {};

struct expression;
struct paren_open : one<'('> {};
struct paren_close : one<')'> {};
struct parenthesised : if_must<paren_open, sp, expression, sp, paren_close> {};

struct primary : sor<equals_call, parenthesised, string_literal, number, parameter_name> {};

// --- operators, loosest last ---------------------------------------------------------------------
struct operand;
struct not_op : seq<one<'!'>, not_at<one<'='>>> {};
struct negation : if_must<not_op, sp, operand> {};
struct operand : sor<negation, primary> {};

struct comparison_op : sor<two<'='>, string<'!', '='>, string<'<', '='>, string<'>', '='>, one<'<'>, one<'>'>> {};
struct comparison_tail : if_must<comparison_op, sp, operand> {};
struct comparison : seq<operand, opt<sp, comparison_tail>> {};

struct and_op : two<'&'> {};
struct and_tail : if_must<and_op, sp, comparison> {};
struct conjunction : seq<comparison, star<sp, and_tail>> {};

struct or_op : two<'|'> {};
struct or_tail : if_must<or_op, sp, conjunction> {};
struct disjunction : seq<conjunction, star<sp, or_tail>> {};

struct expression : disjunction {};
struct condition_end : eof {};
struct condition : seq<sp, must<expression>, sp, must<condition_end>> {};

}  // namespace opuntia::ccl::grammar::condition

namespace opuntia::ccl::grammar {
namespace cg = condition;
#define OPUNTIA_CONDITION_OPERAND "a parameter, a number, a string, CCTK_Equals(...), '!' or '('"
template <> inline constexpr const char* error_message<cg::expression> = "expected " OPUNTIA_CONDITION_OPERAND;
template <> inline constexpr const char* error_message<cg::operand> =
    "expected an operand: " OPUNTIA_CONDITION_OPERAND;
template <> inline constexpr const char* error_message<cg::comparison> =
    "expected an operand: " OPUNTIA_CONDITION_OPERAND;
template <> inline constexpr const char* error_message<cg::conjunction> =
    "expected an operand: " OPUNTIA_CONDITION_OPERAND;
template <> inline constexpr const char* error_message<cg::equals_open> = "expected '(' after CCTK_Equals";
template <> inline constexpr const char* error_message<cg::equals_argument> =
    "expected a parameter name or a string as argument of CCTK_Equals";
template <> inline constexpr const char* error_message<cg::equals_comma> =
    "expected ',' between the two arguments of CCTK_Equals";
template <> inline constexpr const char* error_message<cg::equals_close> =
    "expected ')' after the two arguments of CCTK_Equals";
template <> inline constexpr const char* error_message<cg::paren_close> = "expected ')' to close a '('";
template <> inline constexpr const char* error_message<cg::string_body> = "malformed string";
template <> inline constexpr const char* error_message<cg::string_close> = "unterminated string: no closing '\"'";
template <> inline constexpr const char* error_message<cg::squote_body> = "malformed string";
template <> inline constexpr const char* error_message<cg::squote_close> = "unterminated string: no closing '''";
template <> inline constexpr const char* error_message<cg::condition_end> =
    "expected '&&', '||', a comparison or the end of the condition";
#undef OPUNTIA_CONDITION_OPERAND
}  // namespace opuntia::ccl::grammar
