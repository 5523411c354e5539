#include "ccl/grammar/deps_ccl.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace g = grammar;
namespace dp = grammar::deps;

struct deps_state : g::parse_state_base {
  deps_file result;
  // The chain of open groups; templates and subgroups go into the innermost one.
  std::vector<template_group_syntax*> groups;
  template_syntax* current_template = nullptr;
  std::vector<key_value>* keys = nullptr;  // the current template's KEY=value options
  std::vector<located_text>* list = nullptr;
  key_value pending;
  // What the next description belongs to, set when a template or group closes.
  std::string* description_target = nullptr;
};

template <typename Rule>
struct action : g::common_action<Rule> {};

template <>
struct action<dp::group_name> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    auto& siblings = s.groups.empty() ? s.result.groups : s.groups.back()->groups;
    auto& group = siblings.emplace_back();
    group.name = located_text{in.string(), s.location(in.position())};
    s.groups.push_back(&group);
    s.current_template = nullptr;
  }
};

template <>
struct action<dp::template_name> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    auto& t = s.groups.back()->templates.emplace_back();
    t.name = located_text{in.string(), s.location(in.position())};
    s.current_template = &t;
    s.keys = &t.keys;
  }
};

template <> struct action<g::option_key> : g::record_option_key {};
template <> struct action<g::option_value> : g::record_option_value {};

template <>
struct action<dp::kw_triggers> {
  template <typename Input>
  static void apply(const Input&, deps_state& s) {
    s.list = &s.current_template->triggers;
  }
};

template <>
struct action<dp::kw_include> {
  template <typename Input>
  static void apply(const Input&, deps_state& s) {
    s.list = &s.current_template->includes;
  }
};

template <>
struct action<dp::list_item> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    s.list->push_back(located_text{in.string(), s.location(in.position())});
  }
};

/// The place in the file of each byte of unquote_mapped(quoted).text, then that of the closing
/// quote, for a string whose opening quote is at `open`: unquote_mapped's origins (an escape's
/// byte at its backslash, a CRLF's newline at its CR), each turned into a line and column.
std::vector<text_place> unquoted_places(const g::unquoted_text& unquoted, std::string_view quoted, text_place open) {
  std::vector<text_place> place_of_offset;  // of each byte of `quoted`, and of its end
  place_of_offset.reserve(quoted.size() + 1);
  text_place at = open;
  for (const char c : quoted) {
    place_of_offset.push_back(at);
    if (c == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  place_of_offset.push_back(at);
  std::vector<text_place> places;
  places.reserve(unquoted.origins.size());
  for (const std::size_t origin : unquoted.origins) places.push_back(place_of_offset[origin]);
  return places;
}

template <>
struct action<dp::schedule_string> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    const auto where = s.location(in.position());
    schedule_string_syntax string;
    const std::string quoted = in.string();
    auto unquoted = g::unquote_mapped(quoted);
    string.where = where;
    string.places = unquoted_places(unquoted, quoted, text_place{where.line, where.column});
    string.text = std::move(unquoted.text);
    s.current_template->schedules.push_back(std::move(string));
  }
};

template <> struct action<dp::list_open> : g::detail::push_open {};
template <> struct action<dp::list_close> : g::detail::pop_open {};
template <> struct action<dp::schedule_close> : g::detail::pop_open {};
template <> struct action<dp::template_open> : g::detail::push_open {};
template <> struct action<dp::group_open> : g::detail::push_open {};

template <>
struct action<dp::template_close> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    g::detail::pop_open::apply(in, s);
    s.description_target = &s.current_template->description;
  }
};

template <>
struct action<dp::group_close> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    g::detail::pop_open::apply(in, s);
    s.description_target = &s.groups.back()->description;
    s.groups.pop_back();
    s.current_template = nullptr;
  }
};

template <>
struct action<dp::description> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    if (s.description_target != nullptr) *s.description_target = g::unquote(in.string());
  }
};

}  // namespace

deps_file parse_deps_ccl(const source_file& file) {
  deps_state state;
  state.result.path = file.path;
  g::run_parser<dp::file, action>(file, state);
  return std::move(state.result);
}

}  // namespace opuntia::ccl
