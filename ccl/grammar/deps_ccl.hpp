#pragma once
// templates/deps.ccl: the template hierarchy (docs/SYNTAX.md, CaKernel paper Fig. 3).
//
//   CCTK_KERNEL_TEMPLATE_GROUP <group>
//   {
//     CCTK_KERNEL_TEMPLATE <name> scope=group|file compile=yes|no file="<file>" [replace=no]
//     {
//       triggers { a, b }
//       schedule { "<schedule.ccl text>" }
//       include  { a, b }
//     } ["description"]
//     CCTK_KERNEL_TEMPLATE_GROUP <subgroup> { ... }
//   } ["description"]
#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar::deps {

struct kw_group : keyword<TAO_PEGTL_ISTRING("CCTK_KERNEL_TEMPLATE_GROUP")> {};
struct kw_template : keyword<TAO_PEGTL_ISTRING("CCTK_KERNEL_TEMPLATE")> {};
struct kw_triggers : keyword<TAO_PEGTL_ISTRING("triggers")> {};
struct kw_schedule : keyword<TAO_PEGTL_ISTRING("schedule")> {};
struct kw_include : keyword<TAO_PEGTL_ISTRING("include")> {};

/// Template names may start with a digit and carry a `$suffix`: 3dblock$comp.
struct template_name_char : sor<name_char, one<'$'>> {};
struct description : quoted {};
struct optional_description : opt<ws, description> {};

struct list_item : plus<template_name_char> {};
struct list_close : one<'}'> {};
struct list_open : one<'{'> {};
struct name_list : seq<list_open, star<ws, sor<one<','>, list_item>>, ws, must<list_close>> {};
struct triggers_block : if_must<kw_triggers, ws, name_list> {};
struct include_block : if_must<kw_include, ws, name_list> {};

struct schedule_string : dquoted {};
struct schedule_close : one<'}'> {};
struct schedule_block : if_must<kw_schedule, ws, list_open, star<ws, schedule_string>, ws, must<schedule_close>> {};

struct template_name : plus<template_name_char> {};
struct template_open : one<'{'> {};
struct template_close : one<'}'> {};
struct template_body : seq<template_open, star<ws, sor<triggers_block, schedule_block, include_block>>, ws,
                           must<template_close>> {};
struct template_decl : if_must<kw_template, ws, template_name, options, ws, template_body, optional_description> {};

struct group_decl;
struct group_name : name {};
struct group_open : one<'{'> {};
struct group_close : one<'}'> {};
struct group_body : seq<group_open, star<ws, sor<template_decl, group_decl>>, ws, must<group_close>> {};
struct group_decl : if_must<kw_group, ws, group_name, ws, group_body, optional_description> {};

struct end_of_groups : eof {};
struct file : seq<ws, star<group_decl, ws>, must<end_of_groups>> {};

}  // namespace opuntia::ccl::grammar::deps

namespace opuntia::ccl::grammar {
template <> inline constexpr const char* nesting_message<deps::group_decl> =
    "template groups nested deeper than {limit} levels";
template <> inline constexpr const char* error_message<deps::name_list> = "expected '{' to begin the list of templates";
template <> inline constexpr const char* error_message<deps::list_open> = "expected '{' to begin the block";
template <> inline constexpr const char* error_message<deps::list_close> =
    "expected a template name, ',' or '}' to close the list opened at {open}";
template <> inline constexpr const char* error_message<deps::schedule_close> =
    "expected a quoted schedule string or '}' to close the schedule block opened at {open}";
template <> inline constexpr const char* error_message<deps::template_name> = "expected the template's name";
template <> inline constexpr const char* error_message<deps::template_body> =
    "expected KEY=value or '{' to begin the template";
template <> inline constexpr const char* error_message<deps::template_close> =
    "expected triggers, schedule, include or '}' to close the template opened at {open}";
template <> inline constexpr const char* error_message<deps::group_name> = "expected the template group's name";
template <> inline constexpr const char* error_message<deps::group_body> = "expected '{' to begin the template group";
template <> inline constexpr const char* error_message<deps::group_close> =
    "expected CCTK_KERNEL_TEMPLATE, CCTK_KERNEL_TEMPLATE_GROUP or '}' to close the group opened at {open}";
template <> inline constexpr const char* error_message<deps::end_of_groups> =
    "expected CCTK_KERNEL_TEMPLATE_GROUP at top level";
}  // namespace opuntia::ccl::grammar
