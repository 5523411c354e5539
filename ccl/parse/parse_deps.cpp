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

/// The place of each byte of `g::unquote(quoted)` in the file, then that of the closing quote,
/// for a string whose opening quote is at `open`. Follows g::unquote's rules: an escape is one
/// byte, at its backslash; a CRLF inside the string is one newline, at its CR.
std::vector<text_place> unquoted_places(std::string_view quoted, text_place open) {
  std::vector<text_place> places;
  places.reserve(quoted.size());
  text_place at = open;
  const auto advance = [&](char c) {
    if (c == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  };
  advance(quoted.front());  // the opening quote
  const std::string_view content = quoted.substr(1, quoted.size() - 2);
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (content[i] == '\\' && i + 1 < content.size()) {
      places.push_back(at);
      advance(content[i]);
      advance(content[++i]);
    } else if (content[i] == '\r' && i + 1 < content.size() && content[i + 1] == '\n') {
      places.push_back(at);  // the line break, where its line ends
      advance(content[i]);
      advance(content[++i]);
    } else {
      places.push_back(at);
      advance(content[i]);
    }
  }
  places.push_back(at);  // the closing quote
  return places;
}

template <>
struct action<dp::schedule_string> {
  template <typename Input>
  static void apply(const Input& in, deps_state& s) {
    const auto where = s.location(in.position());
    schedule_string_syntax string;
    string.text = g::unquote(in.string());
    string.where = where;
    string.places = unquoted_places(in.string(), text_place{where.line, where.column});
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
