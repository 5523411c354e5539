#pragma once
// The grammar of a Cactus interface.ccl file (docs/SYNTAX.md, "interface.ccl").
//
//   implements: <impl>            inherits: a, b        friend: c
//   public: | protected: | private:
//   [CCTK_]REAL <group>[[N]] [KEY=value ...] ["desc"] [{ v1, v2 } ["desc"]]
//   <type> FUNCTION Name(args)    SUBROUTINE Name(args)
//   REQUIRES FUNCTION n           USES FUNCTION n       PROVIDES FUNCTION a WITH b LANGUAGE C
//   USES INCLUDE [SOURCE|HEADER]: f.h                   INCLUDE[S] [SOURCE|HEADER]: a.h IN b.h
#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar {
namespace interface_ccl {

struct colon : one<':'> {};

// --- implementation relations ---------------------------------------------------
struct implements_kw : keyword<TAO_PEGTL_ISTRING("implements")> {};
struct inherits_kw : keyword<TAO_PEGTL_ISTRING("inherits")> {};
struct friend_kw : keyword<TAO_PEGTL_ISTRING("friend")> {};

struct implementation_name : name {};
struct inherited_name : name {};
struct friend_name : name {};
/// Names on one logical line, separated by commas and/or blanks; the list may be empty.
template <typename Name>
struct name_list : opt<Name, star<blanks, opt<one<','>>, blanks, Name>> {};
struct list_end : end_of_line {};

struct implements_line : seq<implements_kw, blanks, must<colon>, blanks, must<implementation_name>, must<list_end>> {};
struct inherits_line : seq<inherits_kw, blanks, must<colon>, blanks, name_list<inherited_name>, must<list_end>> {};
struct friend_line : seq<friend_kw, blanks, must<colon>, blanks, name_list<friend_name>, must<list_end>> {};

// --- access ---------------------------------------------------------------------
struct public_kw : keyword<TAO_PEGTL_ISTRING("public")> {};
struct protected_kw : keyword<TAO_PEGTL_ISTRING("protected")> {};
struct private_kw : keyword<TAO_PEGTL_ISTRING("private")> {};
struct access_kw : sor<public_kw, protected_kw, private_kw> {};
struct access_line : seq<access_kw, blanks, colon> {};

// --- data types -----------------------------------------------------------------
struct cctk_prefix : TAO_PEGTL_ISTRING("CCTK_") {};
struct type_word
    : sor<keyword<TAO_PEGTL_ISTRING("POINTER_TO_CONST")>, keyword<TAO_PEGTL_ISTRING("POINTER")>,
          keyword<TAO_PEGTL_ISTRING("COMPLEX8")>, keyword<TAO_PEGTL_ISTRING("COMPLEX16")>,
          keyword<TAO_PEGTL_ISTRING("COMPLEX32")>, keyword<TAO_PEGTL_ISTRING("COMPLEX")>,
          keyword<TAO_PEGTL_ISTRING("REAL4")>, keyword<TAO_PEGTL_ISTRING("REAL8")>,
          keyword<TAO_PEGTL_ISTRING("REAL16")>, keyword<TAO_PEGTL_ISTRING("REAL")>,
          keyword<TAO_PEGTL_ISTRING("INT1")>, keyword<TAO_PEGTL_ISTRING("INT2")>,
          keyword<TAO_PEGTL_ISTRING("INT4")>, keyword<TAO_PEGTL_ISTRING("INT8")>,
          keyword<TAO_PEGTL_ISTRING("INT")>, keyword<TAO_PEGTL_ISTRING("CHAR")>,
          keyword<TAO_PEGTL_ISTRING("BYTE")>, keyword<TAO_PEGTL_ISTRING("STRING")>> {};
/// `CCTK_REAL`, `REAL`, `cctk_int`, ... (the prefix is optional).
struct data_type : seq<opt<cctk_prefix>, type_word> {};

// --- aliased functions -----------------------------------------------------------
struct function_kw : keyword<TAO_PEGTL_ISTRING("FUNCTION")> {};
struct subroutine_kw : keyword<TAO_PEGTL_ISTRING("SUBROUTINE")> {};
struct void_kw : keyword<TAO_PEGTL_ISTRING("void")> {};
struct return_type : sor<void_kw, data_type> {};
struct function_name : name {};
struct arguments_open : one<'('> {};
struct arguments_close : one<')'> {};
struct nested_arguments : seq<one<'('>, star<sor<nested_arguments, not_one<'(', ')'>>>, one<')'>> {};
struct arguments_text : star<sor<nested_arguments, not_one<'(', ')'>>> {};
/// `(CCTK_INT IN x, CCTK_INT CCTK_FPOINTER IN f(CCTK_INT IN a))`, kept as text; real files may
/// put the '(' on the line after the name.
struct arguments : seq<arguments_open, arguments_text, must<arguments_close>> {};
struct function_declaration
    : seq<return_type, blanks1, function_kw, blanks, must<function_name>, ws, must<arguments>> {};
struct subroutine_declaration : seq<subroutine_kw, blanks, must<function_name>, ws, must<arguments>> {};

struct requires_kw : keyword<TAO_PEGTL_ISTRING("REQUIRES")> {};
struct uses_kw : keyword<TAO_PEGTL_ISTRING("USES")> {};
struct provides_kw : keyword<TAO_PEGTL_ISTRING("PROVIDES")> {};
struct with_kw : keyword<TAO_PEGTL_ISTRING("WITH")> {};
struct language_kw : keyword<TAO_PEGTL_ISTRING("LANGUAGE")> {};
struct provider_name : name {};
struct language_name : name {};
struct requires_function : seq<requires_kw, blanks, must<function_kw>, blanks, must<function_name>> {};
struct uses_function : seq<function_kw, blanks, must<function_name>> {};
struct provides_function
    : seq<provides_kw, blanks, must<function_kw>, blanks, must<function_name>, blanks, must<with_kw>, blanks,
          must<provider_name>, blanks, must<language_kw>, blanks, must<language_name>> {};

// --- includes --------------------------------------------------------------------
struct include_kw : keyword<sor<TAO_PEGTL_ISTRING("INCLUDES"), TAO_PEGTL_ISTRING("INCLUDE")>> {};
struct include_part : sor<keyword<TAO_PEGTL_ISTRING("SOURCE")>, keyword<TAO_PEGTL_ISTRING("HEADER")>> {};
struct in_kw : keyword<TAO_PEGTL_ISTRING("IN")> {};
struct file_name : plus<not_one<' ', '\t', '\r', '\n', '#', '\\'>> {};
struct include_file : file_name {};
struct include_target : file_name {};
/// `INCLUDE[S] [SOURCE|HEADER]: a.h [IN b.h]` (after USES: `USES INCLUDE [SOURCE|HEADER]: f.h`).
struct include_statement
    : seq<include_kw, blanks, opt<include_part, blanks>, must<colon>, blanks, must<include_file>,
          opt<blanks1, in_kw, blanks, must<include_target>>> {};
struct uses_what : sor<include_statement, uses_function> {};
struct uses_statement : seq<uses_kw, blanks, must<uses_what>> {};

// --- variable groups -------------------------------------------------------------
struct group_name : name {};
struct vector_size : plus<not_one<']', '\r', '\n'>> {};
struct vector_close : one<']'> {};
struct vector_part : seq<one<'['>, blanks, must<vector_size>, must<vector_close>> {};
struct option_key : name {};
struct option_assign : seq<option_key, blanks, one<'='>> {};
/// `{vvc}` (CarpetX centering) or a bare word such as `nx+1,ny` or `3`.
struct braced_value : seq<one<'{'>, star<not_one<'}', '\r', '\n'>>, one<'}'>> {};
struct bare_value : plus<sor<braced_value, not_one<' ', '\t', '\r', '\n', '"', '\'', '{', '}', '#', '\\'>>> {};
struct option_value : sor<quoted, bare_value> {};
struct group_option : seq<option_assign, blanks, must<option_value>> {};
struct group_description : dquoted {};
struct variable_name : name {};
struct variable_list_open : brace_open {};
struct variable_list_close : brace_close {};
struct variable_list
    : seq<variable_list_open, ws, star<variable_name, ws, opt<one<','>>, ws>, must<variable_list_close>, blanks,
          opt<group_description>> {};
struct group_header_end : sor<at<one<'{'>>, end_of_line> {};
struct variable_group
    : seq<data_type, blanks1, group_name, opt<vector_part>, star<blanks, group_option>, blanks,
          opt<group_description>, must<group_header_end>, opt<ws, variable_list>> {};

// --- fallbacks that turn a misspelling into a precise message ------------------------
struct unknown_keyword : seq<name, blanks, colon> {};
struct unknown_type : seq<name, blanks1, name> {};

struct statement
    : sor<implements_line, inherits_line, friend_line, access_line, uses_statement, include_statement,
          requires_function, provides_function, function_declaration, subroutine_declaration, variable_group,
          unknown_keyword, unknown_type> {};
struct file : seq<ws, star<not_at<eof>, must<statement>, ws>, eof> {};

}  // namespace interface_ccl

template <> inline constexpr const char* nesting_message<interface_ccl::nested_arguments> =
    "parentheses nested deeper than {limit} levels";

template <> inline constexpr const char* error_message<interface_ccl::colon> = "expected ':'";
template <> inline constexpr const char* error_message<interface_ccl::implementation_name> =
    "expected an implementation name after 'implements:'";
template <> inline constexpr const char* error_message<interface_ccl::list_end> =
    "expected an implementation name or end of line";
template <> inline constexpr const char* error_message<interface_ccl::function_kw> = "expected FUNCTION";
template <> inline constexpr const char* error_message<interface_ccl::function_name> = "expected a function name";
template <> inline constexpr const char* error_message<interface_ccl::arguments> =
    "expected '(' to start the argument list";
template <> inline constexpr const char* error_message<interface_ccl::arguments_close> =
    "expected ')' to close the argument list";
template <> inline constexpr const char* error_message<interface_ccl::with_kw> = "expected WITH and the provider";
template <> inline constexpr const char* error_message<interface_ccl::provider_name> = "expected a provider name";
template <> inline constexpr const char* error_message<interface_ccl::language_kw> =
    "expected LANGUAGE and the provider's language";
template <> inline constexpr const char* error_message<interface_ccl::language_name> = "expected a language name";
template <> inline constexpr const char* error_message<interface_ccl::include_file> = "expected a file name";
template <> inline constexpr const char* error_message<interface_ccl::include_target> =
    "expected a file name after IN";
template <> inline constexpr const char* error_message<interface_ccl::uses_what> =
    "expected INCLUDE or FUNCTION after USES";
template <> inline constexpr const char* error_message<interface_ccl::vector_size> = "expected a vector size";
template <> inline constexpr const char* error_message<interface_ccl::vector_close> =
    "expected ']' after the vector size";
template <> inline constexpr const char* error_message<interface_ccl::option_value> =
    "expected a value after '='";
template <> inline constexpr const char* error_message<interface_ccl::variable_list_close> =
    "expected '}' to close the variable list opened at {open}";
template <> inline constexpr const char* error_message<interface_ccl::group_header_end> =
    "expected a group option (KEY=value), a description or '{'";
template <> inline constexpr const char* error_message<interface_ccl::statement> =
    "expected implements:, inherits:, friend:, an access level, a variable group, a function or an include";

}  // namespace opuntia::ccl::grammar
