#include "generator/semantic/template_tree.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <map>

#include <fmt/format.h>

namespace opuntia::gen {

std::string template_node::path() const {
  std::string out;
  for (const auto& group : group_path) out += group + "/";
  return out + name;
}

namespace {

const std::vector<std::string> known_template_keys{"scope", "compile", "file", "replace", "auto"};

struct builder {
  template_tree tree;
  diagnostic_sink sink;
  // For each template: the chain of group indices (innermost last) to resolve names in.
  std::vector<std::vector<std::string>> scopes;
  std::vector<const template_syntax*> syntax;

  void add_group(const template_group_syntax& group, std::vector<std::string> path) {
    path.push_back(group.name.text);
    for (const auto& t : group.templates) {
      const bool duplicate = std::any_of(tree.templates.begin(), tree.templates.end(), [&](const template_node& other) {
        return other.group_path == path && iequals(other.name, t.name.text);
      });
      if (duplicate) {
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
        if (kv.value.text.empty()) sink.add(error_at(kv.value.where, "file must name a template file"));
        node.file = join_names(path, "/") + "/" + kv.value.text;
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
    auto path = tree.templates[from].group_path;
    while (!path.empty()) {
      for (std::size_t i = 0; i < tree.templates.size(); ++i) {
        if (tree.templates[i].group_path == path && iequals(tree.templates[i].name, name)) return i;
      }
      path.pop_back();
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

  void reject_cycles() {
    enum class mark { none, active, done };
    std::vector<mark> marks(tree.templates.size(), mark::none);
    std::vector<std::size_t> stack;
    std::function<void(std::size_t)> visit = [&](std::size_t i) {
      marks[i] = mark::active;
      stack.push_back(i);
      // Only triggers order evaluation; an include back to the including template (a launcher
      // including its own header) is not a cycle.
      for (const auto next : tree.templates[i].triggers) {
        if (marks[next] == mark::active) {
          const auto start = std::find(stack.begin(), stack.end(), next);
          std::vector<std::string> names;
          for (auto it = start; it != stack.end(); ++it) names.push_back(tree.templates[*it].name);
          names.push_back(tree.templates[next].name);
          sink.add(error_at(tree.templates[next].where, "trigger cycle: " + join_names(names, " -> ")));
        } else if (marks[next] == mark::none) {
          visit(next);
        }
      }
      stack.pop_back();
      marks[i] = mark::done;
    };
    for (std::size_t i = 0; i < tree.templates.size(); ++i) {
      if (marks[i] == mark::none) visit(i);
    }
  }
};

/// Glob match of one path segment: '*' matches any run of characters; case-insensitive.
bool glob_match(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return text.empty();
  if (pattern.front() == '*') {
    for (std::size_t skip = 0; skip <= text.size(); ++skip) {
      if (glob_match(pattern.substr(1), text.substr(skip))) return true;
    }
    return false;
  }
  return !text.empty() && iequals(pattern.substr(0, 1), text.substr(0, 1)) &&
         glob_match(pattern.substr(1), text.substr(1));
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

bool segment_matches(const std::string& segment_pattern, const std::string& name) {
  for (const auto& alternative : split(segment_pattern, '|')) {
    if (glob_match(alternative, name)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::size_t> template_tree::match(const std::string& type_pattern, const std::string& backend) const {
  const auto segments = split(type_pattern, '/');
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < templates.size(); ++i) {
    const auto& t = templates[i];
    if (!iequals(t.backend(), backend) || !t.selectable()) continue;
    if (segments.size() == 1) {
      if (segment_matches(segments[0], t.name)) out.push_back(i);
      continue;
    }
    if (segments.size() != t.group_path.size() + 1) continue;
    bool all = segment_matches(segments.back(), t.name);
    for (std::size_t s = 0; all && s + 1 < segments.size(); ++s) all = segment_matches(segments[s], t.group_path[s]);
    if (all) out.push_back(i);
  }
  return out;
}

std::vector<std::size_t> template_tree::closure(const std::vector<std::size_t>& roots) const {
  std::vector<std::size_t> order;
  std::vector<bool> seen(templates.size(), false);
  std::function<void(std::size_t)> visit = [&](std::size_t i) {
    if (seen[i]) return;
    seen[i] = true;
    order.push_back(i);
    for (const auto next : templates[i].triggers) visit(next);
    for (const auto next : templates[i].includes) visit(next);
  };
  for (const auto root : roots) visit(root);
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
