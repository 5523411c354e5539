#include "generator/semantic/template_tree.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace opuntia::gen {

std::string template_node::path() const {
  std::string out;
  for (const auto& group : group_path) out += group + "/";
  return out + name;
}

namespace {

/// `file=` of a template in group `openmp`: `kernel.h.tpl` -> `openmp/kernel.h.tpl`, and
/// `../shared/kernel.h.tpl` -> `shared/kernel.h.tpl`, a file several backends' groups share.
/// Lexical only (no I/O); nullopt when the path leaves the templates directory.
std::optional<std::string> template_file_path(const std::vector<std::string>& group_path, const std::string& file) {
  std::filesystem::path joined;
  for (const auto& group : group_path) joined /= group;
  const auto normal = (joined / file).lexically_normal();
  if (std::filesystem::path(file).is_absolute() || normal.empty() || *normal.begin() == "..") return std::nullopt;
  return normal.generic_string();
}

/// Depth-first search over `count` nodes whose edges `edges(i)` lists, in the order given,
/// without recursion (a chain of templates may be as long as the file). Calls
/// `closes_cycle(path, edge)` for each edge that leads back into the current path: `path` runs
/// from the node it returns to up to the node whose `edge`-th edge that is.
template <typename Edges, typename Report>
void find_cycles(std::size_t count, Edges edges, Report closes_cycle) {
  enum class mark { none, active, done };
  std::vector<mark> marks(count, mark::none);
  struct frame {
    std::size_t node;
    std::size_t next_edge;
  };
  std::vector<frame> stack;
  std::vector<std::size_t> path;  // the nodes of `stack`
  for (std::size_t root = 0; root < count; ++root) {
    if (marks[root] != mark::none) continue;
    marks[root] = mark::active;
    stack.push_back({root, 0});
    path.push_back(root);
    while (!stack.empty()) {
      const std::size_t node = stack.back().node;
      const auto& out = edges(node);
      if (stack.back().next_edge == out.size()) {
        marks[node] = mark::done;
        stack.pop_back();
        path.pop_back();
        continue;
      }
      const std::size_t edge = stack.back().next_edge++;
      const std::size_t next = out[edge];
      if (marks[next] == mark::active) {
        const auto start = std::find(path.begin(), path.end(), next);
        closes_cycle(std::vector<std::size_t>(start, path.end()), edge);
      } else if (marks[next] == mark::none) {
        marks[next] = mark::active;
        stack.push_back({next, 0});
        path.push_back(next);
      }
    }
  }
}

const std::vector<std::string> known_template_keys{"scope", "compile", "file", "replace", "auto"};

struct builder {
  template_tree tree;
  diagnostic_sink sink;
  // For each template: the chain of group indices (innermost last) to resolve names in.
  std::vector<std::vector<std::string>> scopes;
  std::vector<const template_syntax*> syntax;
  /// Each template by its group path and lower-case name: lookups stay fast in a long file.
  std::map<std::pair<std::vector<std::string>, std::string>, std::size_t> by_place;

  void add_group(const template_group_syntax& group, std::vector<std::string> path) {
    path.push_back(group.name.text);
    for (const auto& t : group.templates) {
      if (!by_place.emplace(std::pair{path, to_lower(t.name.text)}, tree.templates.size()).second) {
        sink.add(error_at(t.name.where, fmt::format("template '{}' is declared twice in group '{}'", t.name.text,
                                              join_names(path, "/"))));
        continue;
      }
      tree.templates.push_back(interpret(t, path));
      syntax.push_back(&t);
    }
    for (const auto& sub : group.groups) add_group(sub, path);
  }

  template_node interpret(const template_syntax& t, const std::vector<std::string>& path) {
    template_node node;
    node.name = t.name.text;
    node.stem = node.name.substr(0, node.name.find('$'));
    node.group_path = path;
    node.schedules = t.schedules;
    node.description = t.description;
    node.where = t.name.where;
    bool has_file = false;
    for (const auto& kv : t.keys) {
      const auto key = to_lower(kv.key.text);
      if (key == "scope") {
        const auto v = to_lower(kv.value.text);
        if (v == "file") {
          node.scope = template_scope_kind::file;
        } else if (v == "group") {
          node.scope = template_scope_kind::group;
        } else {
          sink.add(error_at(kv.value.where, fmt::format("scope must be 'file' or 'group', not '{}'", kv.value.text)));
        }
      } else if (key == "compile" || key == "replace" || key == "auto") {
        const auto flag = boolean_word(kv.value.text);
        if (!flag) {
          sink.add(error_at(kv.value.where, fmt::format("{} must be 'yes' or 'no', not '{}'", key, kv.value.text)));
        } else if (key == "compile") {
          node.compile = *flag;
        } else if (key == "replace") {
          node.replace = *flag;
        }
        // `auto` (seen in the shipped CaCUDA deps.ccl) has no effect here: every template is
        // evaluated only when a kernel's TYPE or a trigger asks for it.
      } else if (key == "file") {
        node.file_as_written = kv.value;
        if (kv.value.text.empty()) {
          sink.add(error_at(kv.value.where, "file must name a template file"));
        } else if (const auto file = template_file_path(path, kv.value.text)) {
          node.file = *file;
        } else {
          sink.add(error_at(kv.value.where, fmt::format("file \"{}\" leaves the templates directory; a file shared by "
                                                        "several groups lies beside them, e.g. \"../shared/{}\"",
                                                        kv.value.text, std::filesystem::path(kv.value.text).filename().generic_string())));
        }
        has_file = true;
      } else {
        sink.add(error_at(kv.key.where, fmt::format("unknown template key '{}'{}; known keys: {}", kv.key.text,
                                              did_you_mean(kv.key.text, known_template_keys),
                                              join_names(known_template_keys))));
      }
    }
    if (!has_file) sink.add(error_at(t.name.where, fmt::format("template '{}' has no file=\"...\"", t.name.text)));
    return node;
  }

  /// Resolves `name` from the group of template `from`, innermost group outwards.
  std::optional<std::size_t> resolve(std::size_t from, const std::string& name) const {
    std::pair key{tree.templates[from].group_path, to_lower(name)};
    while (!key.first.empty()) {
      const auto found = by_place.find(key);
      if (found != by_place.end()) return found->second;
      key.first.pop_back();
    }
    return std::nullopt;
  }

  std::vector<std::string> visible_names(std::size_t from) const {
    std::vector<std::string> names;
    for (const auto& t : tree.templates) {
      const auto& p = tree.templates[from].group_path;
      if (t.group_path.size() <= p.size() && std::equal(t.group_path.begin(), t.group_path.end(), p.begin())) {
        names.push_back(t.name);
      }
    }
    return names;
  }

  void resolve_links() {
    for (std::size_t i = 0; i < tree.templates.size(); ++i) {
      const auto link = [&](const std::vector<located_text>& names, std::vector<std::size_t>& out, const char* what) {
        for (const auto& n : names) {
          if (auto target = resolve(i, n.text)) {
            out.push_back(*target);
          } else {
            sink.add(error_at(n.where, fmt::format("unknown template '{}' in the {} of '{}'{}", n.text, what,
                                             tree.templates[i].name, did_you_mean(n.text, visible_names(i)))));
          }
        }
      };
      link(syntax[i]->triggers, tree.templates[i].triggers, "triggers");
      link(syntax[i]->includes, tree.templates[i].includes, "includes");
    }
  }

  /// "a -> b -> a" for a cycle that runs through `path` and back to its start.
  std::string cycle_text(const std::vector<std::size_t>& path) const {
    std::vector<std::string> names;
    for (const auto i : path) names.push_back(tree.templates[i].name);
    names.push_back(tree.templates[path.front()].name);
    return join_names(names, " -> ");
  }

  // Triggers and includes are checked apart: a trigger one way and an include back (a launcher
  // including the header that triggered it) is no cycle.
  void reject_cycles() {
    const auto count = tree.templates.size();
    find_cycles(count, [&](std::size_t i) -> const auto& { return tree.templates[i].triggers; },
                [&](const std::vector<std::size_t>& path, std::size_t) {
                  sink.add(error_at(tree.templates[path.front()].where, "trigger cycle: " + cycle_text(path)));
                });
    // A file that includes itself, directly or not: reported at the include that closes it.
    find_cycles(count, [&](std::size_t i) -> const auto& { return tree.templates[i].includes; },
                [&](const std::vector<std::size_t>& path, std::size_t edge) {
                  sink.add(error_at(syntax[path.back()]->includes[edge].where, "include cycle: " + cycle_text(path)));
                });
  }
};

/// Glob match of one path segment: '*' matches any run of characters; case-insensitive.
/// Iterative, going back only to the last '*': no recursion, no exponential backtracking on a
/// TYPE such as `*a*a*a*a*b`.
bool glob_match(std::string_view pattern, std::string_view text) {
  constexpr auto none = std::string_view::npos;
  std::size_t p = 0, t = 0;
  std::size_t star = none, star_text = 0;  // the last '*' seen and where its run of text ends
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (p < pattern.size() && iequals(pattern.substr(p, 1), text.substr(t, 1))) {
      ++p;
      ++t;
    } else if (star != none) {
      p = star + 1;  // let the last '*' take one more character
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const auto end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return parts;
}

/// The index of the first of the segment's alternatives that `name` matches, or -1.
int matching_alternative(const std::string& segment_pattern, const std::string& name) {
  const auto alternatives = split(segment_pattern, '|');
  for (std::size_t a = 0; a < alternatives.size(); ++a) {
    if (glob_match(alternatives[a], name)) return static_cast<int>(a);
  }
  return -1;
}

bool segment_matches(const std::string& segment_pattern, const std::string& name) {
  return matching_alternative(segment_pattern, name) >= 0;
}

}  // namespace

std::vector<std::size_t> template_tree::match(const std::string& type_pattern, const std::string& backend) const {
  const auto segments = split(type_pattern, '/');
  std::vector<std::pair<int, std::size_t>> found;  // (the name's alternative, template), deps.ccl order
  for (std::size_t i = 0; i < templates.size(); ++i) {
    const auto& t = templates[i];
    if (!iequals(t.backend(), backend) || !t.selectable()) continue;
    if (segments.size() != 1 && segments.size() != t.group_path.size() + 1) continue;
    const int alternative = matching_alternative(segments.back(), t.name);
    bool all = alternative >= 0;
    for (std::size_t s = 0; all && s + 1 < segments.size(); ++s)
      all = segment_matches(segments[s], t.group_path[s]);
    if (all) found.emplace_back(alternative, i);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> out;
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

std::vector<std::string> type_alternatives(const std::string& type_pattern) {
  const auto slash = type_pattern.find_last_of('/');
  const auto groups = slash == std::string::npos ? std::string() : type_pattern.substr(0, slash + 1);
  std::vector<std::string> out;
  for (const auto& name : split(type_pattern.substr(slash == std::string::npos ? 0 : slash + 1), '|'))
    out.push_back(groups + name);
  return out;
}

std::vector<std::size_t> template_tree::match_name(const std::string& type_pattern) const {
  const auto name = type_pattern.substr(type_pattern.find_last_of('/') + 1);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < templates.size(); ++i) {
    if (templates[i].selectable() && segment_matches(name, templates[i].name)) out.push_back(i);
  }
  return out;
}

std::vector<std::size_t> template_tree::closure(const std::vector<std::size_t>& roots) const {
  // Depth first, each template before what it triggers and then what it includes; with a
  // stack of its own, not recursion.
  std::vector<std::size_t> order;
  std::vector<bool> seen(templates.size(), false);
  struct frame {
    std::size_t node;
    std::size_t next_edge;  // into triggers, then on into includes
  };
  std::vector<frame> stack;
  const auto enter = [&](std::size_t i) {
    if (seen[i]) return;
    seen[i] = true;
    order.push_back(i);
    stack.push_back({i, 0});
  };
  for (const auto root : roots) {
    enter(root);
    while (!stack.empty()) {
      const auto& t = templates[stack.back().node];
      const std::size_t edge = stack.back().next_edge++;
      if (edge < t.triggers.size()) {
        enter(t.triggers[edge]);
      } else if (edge < t.triggers.size() + t.includes.size()) {
        enter(t.includes[edge - t.triggers.size()]);
      } else {
        stack.pop_back();
      }
    }
  }
  return order;
}

template_tree build_template_tree(const deps_file& deps) {
  builder b;
  b.tree.deps_path = deps.path;
  for (const auto& group : deps.groups) {
    if (std::find(b.tree.backends.begin(), b.tree.backends.end(), group.name.text) == b.tree.backends.end()) {
      b.tree.backends.push_back(group.name.text);
    }
    b.add_group(group, {});
  }
  b.sink.throw_if_any();
  b.resolve_links();
  b.sink.throw_if_any();
  b.reject_cycles();
  b.sink.throw_if_any();
  return std::move(b.tree);
}

}  // namespace opuntia::gen
