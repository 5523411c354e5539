#pragma once
// The grammar of a Cactus param.ccl file (docs/SYNTAX.md, "param.ccl").
//
//   private: | restricted: | global: | public: | shares: <impl>
//   [USES|EXTENDS] [CCTK_]INT|REAL|KEYWORD|STRING|BOOLEAN <name>[[len]] ["desc"] [AS alias]
//       [STEERABLE=never|always|recover] [ACCUMULATOR=expr] [ACCUMULATOR-BASE=name]
//   {
//     <range> [:: "comment"]
//   } <default>                      # the default is required unless USES/EXTENDS
#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar {
namespace param_ccl {

struct colon : one<':'> {};
struct double_colon : two<':'> {};

// --- sections ----------------------------------------------------------------------
struct private_kw : keyword<TAO_PEGTL_ISTRING("private")> {};
struct restricted_kw : keyword<TAO_PEGTL_ISTRING("restricted")> {};
struct global_kw : keyword<TAO_PEGTL_ISTRING("global")> {};
struct public_kw : keyword<TAO_PEGTL_ISTRING("public")> {};  // the old spelling of global
struct shares_kw : keyword<TAO_PEGTL_ISTRING("shares")> {};
struct section_kw : sor<private_kw, restricted_kw, global_kw, public_kw> {};
struct section_header : seq<section_kw, blanks, colon, not_at<colon>> {};
struct shared_implementation : name {};
struct shares_header : seq<shares_kw, blanks, colon, blanks, must<shared_implementation>> {};

// --- numbers (also used to check INT/REAL ranges and defaults) -----------------------
struct sign : one<'+', '-'> {};
/// `1`, `-2.5`, `.5`, `1.0e-10`, `1.d-3` (Fortran exponent); any number of digits.
struct number : seq<opt<sign>, unsigned_number> {};
struct range_bound : sor<one<'*'>, number> {};
/// `*`, `N`, `lo:hi`, `lo:hi:step`, `(lo:hi]`, `[lo:*)`, `1:`, `(0:*` — checked after the fact.
struct numeric_range
    : seq<blanks, opt<one<'(', '['>>, blanks, opt<range_bound>, blanks,
          opt<colon, blanks, opt<range_bound>, blanks, opt<colon, blanks, opt<range_bound>, blanks>>,
          opt<one<')', ']'>>, blanks, eof> {};
struct numeric_value : seq<number, eof> {};

// --- declarations --------------------------------------------------------------------
struct uses_kw : keyword<TAO_PEGTL_ISTRING("USES")> {};
struct extends_kw : keyword<TAO_PEGTL_ISTRING("EXTENDS")> {};
struct qualifier : sor<uses_kw, extends_kw> {};
struct cctk_prefix : TAO_PEGTL_ISTRING("CCTK_") {};
struct param_type
    : seq<opt<cctk_prefix>,
          sor<keyword<TAO_PEGTL_ISTRING("INT")>, keyword<TAO_PEGTL_ISTRING("REAL")>,
              keyword<TAO_PEGTL_ISTRING("KEYWORD")>, keyword<TAO_PEGTL_ISTRING("STRING")>,
              keyword<TAO_PEGTL_ISTRING("BOOLEAN")>>> {};
struct param_name : name {};
struct array_size : plus<not_one<']', '\r', '\n'>> {};
struct array_close : one<']'> {};
struct array_part : seq<one<'['>, blanks, must<array_size>, must<array_close>> {};
struct description : dquoted {};
struct as_kw : keyword<TAO_PEGTL_ISTRING("AS")> {};
struct alias_name : name {};
struct alias : seq<as_kw, blanks, must<alias_name>> {};
struct option_name
    : sor<keyword<TAO_PEGTL_ISTRING("STEERABLE")>, keyword<TAO_PEGTL_ISTRING("ACCUMULATOR-BASE")>,
          keyword<TAO_PEGTL_ISTRING("ACCUMULATOR")>> {};
struct paren_group : seq<one<'('>, star<sor<paren_group, not_one<'(', ')', '\r', '\n'>>>, one<')'>> {};
struct option_value : sor<quoted, plus<sor<paren_group, not_one<' ', '\t', '\r', '\n', '{', '}', '"', '\'', '#'>>>> {};
struct option : seq<option_name, blanks, one<'='>, blanks, must<option_value>> {};
struct unknown_option : seq<name, blanks, one<'='>> {};
struct attribute : sor<description, alias, option, unknown_option> {};
struct declaration_head
    : seq<opt<qualifier, blanks1>, param_type, blanks1, must<param_name>, opt<array_part>, star<blanks, attribute>> {};

// --- range block ----------------------------------------------------------------------
struct bare_range_token
    : plus<not_at<double_colon>, not_one<' ', '\t', '\r', '\n', '"', '\'', ',', '{', '}', '#'>> {};
struct range_token : sor<quoted, bare_range_token> {};
struct range_spec : seq<range_token, star<blanks, opt<one<','>>, blanks, range_token>> {};
struct range_comment : sor<dquoted, plus<not_one<'\r', '\n', '#', '}'>>> {};
struct range_description : seq<double_colon, blanks, opt<range_comment>> {};
struct range_line : seq<sor<seq<range_spec, blanks, opt<range_description>>, range_description>> {};
struct range_open : brace_open {};
struct range_close : brace_close {};
struct range_block : seq<range_open, ws, star<not_at<one<'}'>>, not_at<eof>, must<range_line>, ws>, must<range_close>> {};

// --- defaults ---------------------------------------------------------------------------
struct default_value : sor<quoted, plus<not_one<' ', '\t', '\r', '\n', '#', '{', '}', '"', '\''>>> {};
struct declaration_end : end_of_line {};
/// USES/EXTENDS: block and default optional.
struct shared_declaration
    : seq<at<qualifier>, declaration_head, opt<ws, range_block>, blanks, opt<default_value>, must<declaration_end>> {};
/// A new parameter: the default is required (after the range block when there is one).
struct new_declaration
    : seq<declaration_head, sor<seq<ws, range_block>, success>, blanks, must<default_value>, must<declaration_end>> {};
struct declaration : sor<shared_declaration, new_declaration> {};

// --- fallbacks that turn a misspelling into a precise message ----------------------------
struct unknown_section : seq<name, blanks, colon, not_at<colon>> {};
struct unknown_type_name : name {};
struct unknown_declaration : seq<opt<qualifier, blanks1>, unknown_type_name> {};

struct item : sor<shares_header, section_header, declaration, unknown_section, unknown_declaration> {};
struct file : seq<ws, star<not_at<eof>, must<item>, ws>, eof> {};

}  // namespace param_ccl

template <> inline constexpr const char* nesting_message<param_ccl::paren_group> =
    "parentheses nested deeper than {limit} levels";

template <> inline constexpr const char* error_message<param_ccl::shared_implementation> =
    "expected an implementation name after 'shares:'";
template <> inline constexpr const char* error_message<param_ccl::param_name> = "expected a parameter name";
template <> inline constexpr const char* error_message<param_ccl::array_size> = "expected an array size";
template <> inline constexpr const char* error_message<param_ccl::array_close> = "expected ']' after the array size";
template <> inline constexpr const char* error_message<param_ccl::alias_name> = "expected an alias name after AS";
template <> inline constexpr const char* error_message<param_ccl::option_value> = "expected a value after '='";
template <> inline constexpr const char* error_message<param_ccl::range_line> =
    "expected a range (such as '1:*', '\"word\"' or '*') or '::'";
template <> inline constexpr const char* error_message<param_ccl::range_close> =
    "expected '}' to close the range block opened at {open}";
template <> inline constexpr const char* error_message<param_ccl::default_value> = "expected a default value";
template <> inline constexpr const char* error_message<param_ccl::declaration_end> =
    "expected end of line after the declaration";
template <> inline constexpr const char* error_message<param_ccl::item> =
    "expected a section (private:, restricted:, global:, shares:) or a parameter declaration";

}  // namespace opuntia::ccl::grammar
