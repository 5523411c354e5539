// The schedule tree, built in passes as Cactus does: collect every statement taken (if-blocks
// decided once), index the groups, place each item in its bin or group, check functions, then
// order each list of siblings by BEFORE/AFTER (ties: registration order).
#include "flesh/schedule/schedule_tree.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ccl/model/common.hpp"
#include "ccl/model/schedule_model.hpp"

#include "flesh/schedule/condition.hpp"

namespace opuntia {

const std::vector<std::string>& schedule_bins() {
  static const std::vector<std::string> bins(ccl::schedule_bin_names.begin(), ccl::schedule_bin_names.end());
  return bins;
}

namespace {

using bin_list = std::vector<std::pair<std::string, std::vector<schedule_node>>>;

using ccl::iequals;
using ccl::to_lower;

/// One item statement that was taken, with where it goes.
struct item {
  const thorn_binding* thorn = nullptr;
  const schedule_binding* statement = nullptr;
  schedule_node node;        // without children
  int bin = -1;              // placed in this bin...
  long parent_group = -1;    // ...or in this group (index into items)
  bool placed = false;
};

class builder {
public:
  builder(const std::vector<const thorn_binding*>& thorns, const condition_evaluator& parameters,
          const kernel_launch_name& launch_name)
      : thorns_(thorns), parameters_(parameters), launch_name_(launch_name) {}

  bin_list build(std::vector<std::string>& storage) {
    for (const auto* thorn : thorns_) collect(*thorn, thorn->schedule, storage);
    index_groups();
    place_items();
    check_functions();
    reject_nested_cycles();
    drop_repeated_routines();
    bin_list bins;
    const auto& names = schedule_bins();
    for (std::size_t b = 0; b < names.size(); ++b) {
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (items_[i].placed && items_[i].bin == static_cast<int>(b)) members.push_back(i);
      }
      bins.emplace_back(names[b], nodes(members, names[b]));
    }
    sink_.throw_if_any();
    return bins;
  }

private:
  void error(const std::string& origin, std::string message) {
    sink_.add(ccl::error_at(split_origin(origin), std::move(message)));
  }

  /// `name` as impl::name: unqualified names are `thorn`'s own; a thorn name as qualifier
  /// becomes that thorn's implementation.
  std::string qualify(std::string name, const thorn_binding& thorn) const {
    const auto bracket = name.find('[');  // STORAGE: group[timelevels]
    if (bracket != std::string::npos) name.erase(bracket);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    const auto colons = name.find("::");
    if (colons == std::string::npos) return thorn.implementation + "::" + name;
    const std::string owner = name.substr(0, colons);
    for (const auto* t : thorns_) {
      if (iequals(t->implementation, owner)) return t->implementation + name.substr(colons);
    }
    for (const auto* t : thorns_) {
      if (iequals(t->name, owner)) return t->implementation + name.substr(colons);
    }
    return name;
  }

  std::vector<std::string> qualify_all(const std::vector<std::string>& names, const thorn_binding& thorn) const {
    std::vector<std::string> out;
    for (const auto& n : names) out.push_back(qualify(n, thorn));
    return out;
  }

  void collect(const thorn_binding& thorn, const std::vector<schedule_binding>& statements,
               std::vector<std::string>& storage) {
    for (const auto& s : statements) {
      switch (s.what) {
        case schedule_binding::kind::storage:
          for (const auto& g : s.storage) {
            std::string q = qualify(g, thorn);
            if (std::find(storage.begin(), storage.end(), q) == storage.end()) storage.push_back(std::move(q));
          }
          break;
        case schedule_binding::kind::conditional: {
          std::vector<std::string> known;
          for (const auto& p : thorn.parameters) known.push_back(p.name);
          const auto outcome = detail::evaluate_condition(s.condition, thorn.name, parameters_, known);
          if (!outcome.error.empty()) {
            error(s.origin, outcome.error);
          } else {
            collect(thorn, outcome.value ? s.then_branch : s.else_branch, storage);
          }
          break;
        }
        case schedule_binding::kind::item:
          items_.push_back(make_item(thorn, s));
          break;
      }
    }
  }

  item make_item(const thorn_binding& thorn, const schedule_binding& s) const {
    item it;
    it.thorn = &thorn;
    it.statement = &s;
    schedule_node& n = it.node;
    n.what = s.is_group ? schedule_node::kind::group : schedule_node::kind::routine;
    n.name = s.alias.empty() ? s.name : s.alias;
    if (!s.is_group) n.function = s.name;
    n.thorn = thorn.name;
    n.description = s.description;
    n.while_vars = qualify_all(s.while_vars, thorn);
    n.if_vars = qualify_all(s.if_vars, thorn);
    n.until_vars = qualify_all(s.until_vars, thorn);
    n.origin = s.origin;
    for (const auto& c : s.clauses) {
      const std::string key = to_lower(c.key);
      if (key == "sync") {
        for (auto& g : qualify_all(c.items, thorn)) n.sync.push_back(std::move(g));
      } else if (key == "storage") {
        for (auto& g : qualify_all(c.items, thorn)) n.storage.push_back(std::move(g));
      } else if (key == "triggers") {
        for (auto& g : qualify_all(c.items, thorn)) n.triggers.push_back(std::move(g));
      } else if (key == "reads") {
        n.reads.insert(n.reads.end(), c.items.begin(), c.items.end());
      } else if (key == "writes") {
        n.writes.insert(n.writes.end(), c.items.begin(), c.items.end());
      } else if (key == "lang" && !c.items.empty()) {
        n.lang = c.items.front();
      }
    }
    return it;
  }

  // Group names are global across thorns: one group, one place.
  void index_groups() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const item& it = items_[i];
      if (it.node.what != schedule_node::kind::group) continue;
      const auto [at, inserted] = groups_.emplace(to_lower(it.node.name), i);
      if (!inserted) {
        const item& first = items_[at->second];
        error(it.node.origin, "group '" + it.node.name + "' is already scheduled at " + first.node.origin +
                                  " by thorn " + first.thorn->name);
      }
    }
  }

  void place_items() {
    std::vector<std::string> group_names;
    for (const auto& [key, index] : groups_) group_names.push_back(items_[index].node.name);
    for (std::size_t i = 0; i < items_.size(); ++i) {
      item& it = items_[i];
      if (it.node.what == schedule_node::kind::group && groups_.at(to_lower(it.node.name)) != i) continue;
      const std::string& target = it.statement->target;
      if (const int b = ccl::schedule_bin_index(target); b >= 0) {
        it.bin = b;
        it.placed = true;
      } else if (const auto g = groups_.find(to_lower(target)); g != groups_.end()) {
        it.parent_group = static_cast<long>(g->second);
        it.placed = true;
      } else {
        auto candidates = ccl::schedule_bins_spelled_like(target);
        candidates.insert(candidates.end(), group_names.begin(), group_names.end());
        error(it.node.origin, "unknown schedule bin or group '" + target + "'" + ccl::did_you_mean(target, candidates));
      }
    }
  }

  void check_functions() {
    for (auto& it : items_) {
      if (it.node.what != schedule_node::kind::routine) continue;
      const std::string& f = it.node.function;
      std::vector<std::string> known;
      bool found = false;
      for (const auto& r : it.thorn->routines) {
        found = found || r.name == f;
        known.push_back(r.name);
      }
      for (const auto& k : it.thorn->kernels) {
        if (!launch_name_) break;
        auto launch = launch_name_(k.name);
        if (launch == f && it.node.kernel.empty()) {
          it.node.kernel = k.name;
          found = true;
        }
        known.push_back(std::move(launch));
      }
      if (!found) {
        error(it.node.origin, "routine '" + f + "' of thorn " + it.thorn->name + " has no function: define void " +
                                  f + "(opuntia::routine_context&) in the thorn's src/" + ccl::did_you_mean(f, known));
      }
    }
  }

  /// A group inside itself (A in B, B in A) would never end: report it and leave it out.
  void reject_nested_cycles() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      if (!items_[i].placed || items_[i].node.what != schedule_node::kind::group) continue;
      std::vector<std::size_t> chain{i};
      long p = items_[i].parent_group;
      while (p >= 0 && items_[p].placed && std::find(chain.begin(), chain.end(), static_cast<std::size_t>(p)) == chain.end()) {
        chain.push_back(static_cast<std::size_t>(p));
        p = items_[p].parent_group;
      }
      if (p != static_cast<long>(i)) continue;
      std::string path;
      for (auto c : chain) path += items_[c].node.name + " in ";
      error(items_[i].node.origin, "group '" + items_[i].node.name + "' is scheduled inside itself: " + path +
                                       items_[i].node.name);
      for (auto c : chain) items_[c].placed = false;
    }
  }

  /// The same routine scheduled again in the same place by the same thorn (a deps.ccl template
  /// schedule repeating the thorn's own auto-generated part) runs once, as the first one says.
  void drop_repeated_routines() {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      item& it = items_[i];
      if (!it.placed || it.node.what != schedule_node::kind::routine) continue;
      for (std::size_t j = 0; j < i; ++j) {
        const item& first = items_[j];
        if (first.placed && first.thorn == it.thorn && first.bin == it.bin && first.parent_group == it.parent_group &&
            first.node.what == schedule_node::kind::routine && iequals(first.node.name, it.node.name)) {
          it.placed = false;
          break;
        }
      }
    }
  }

  /// The nodes of `members` (item indices in registration order), ordered by BEFORE/AFTER.
  std::vector<schedule_node> nodes(const std::vector<std::size_t>& members, const std::string& where) {
    const std::size_t n = members.size();
    const auto names_of = [&](std::size_t k) {
      const auto& node = items_[members[k]].node;
      std::vector<std::string> names{to_lower(node.name)};
      if (!node.function.empty() && !iequals(node.function, node.name)) names.push_back(to_lower(node.function));
      return names;
    };
    std::multimap<std::string, std::size_t> by_name;
    for (std::size_t k = 0; k < n; ++k) {
      for (auto& name : names_of(k)) by_name.emplace(std::move(name), k);
    }
    std::vector<std::vector<bool>> edge(n, std::vector<bool>(n, false));  // edge[a][b]: a runs before b
    for (std::size_t k = 0; k < n; ++k) {
      const auto* s = items_[members[k]].statement;
      for (const auto& b : s->before) {
        const auto [lo, hi] = by_name.equal_range(to_lower(b));
        for (auto m = lo; m != hi; ++m) {
          if (m->second != k) edge[k][m->second] = true;
        }
      }
      for (const auto& a : s->after) {
        const auto [lo, hi] = by_name.equal_range(to_lower(a));
        for (auto m = lo; m != hi; ++m) {
          if (m->second != k) edge[m->second][k] = true;
        }
      }
    }
    std::vector<std::size_t> pending(n, 0);
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) pending[b] += edge[a][b] ? 1 : 0;
    }
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
    for (std::size_t k = 0; k < n; ++k) {
      if (pending[k] == 0) ready.push(k);
    }
    std::vector<std::size_t> order;
    std::vector<bool> done(n, false);
    while (order.size() < n) {
      if (ready.empty()) {
        report_cycle(members, edge, done, where);
        for (std::size_t k = 0; k < n; ++k) {
          if (!done[k]) order.push_back(k);
        }
        break;
      }
      const std::size_t k = ready.top();
      ready.pop();
      order.push_back(k);
      done[k] = true;
      for (std::size_t b = 0; b < n; ++b) {
        if (edge[k][b] && --pending[b] == 0) ready.push(b);
      }
    }
    std::vector<schedule_node> out;
    for (const std::size_t k : order) {
      schedule_node node = items_[members[k]].node;
      if (node.what == schedule_node::kind::group) {
        std::vector<std::size_t> children;
        for (std::size_t i = 0; i < items_.size(); ++i) {
          if (items_[i].placed && items_[i].parent_group == static_cast<long>(members[k])) children.push_back(i);
        }
        node.children = nodes(children, "group " + node.name);
      }
      out.push_back(std::move(node));
    }
    return out;
  }

  /// Every member left has a predecessor left: walk predecessors back until one repeats.
  void report_cycle(const std::vector<std::size_t>& members, const std::vector<std::vector<bool>>& edge,
                    const std::vector<bool>& done, const std::string& where) {
    const std::size_t n = members.size();
    std::size_t at = 0;
    while (done[at]) ++at;
    std::vector<std::size_t> walk;
    while (std::find(walk.begin(), walk.end(), at) == walk.end()) {
      walk.push_back(at);
      for (std::size_t p = 0; p < n; ++p) {
        if (!done[p] && edge[p][at]) {
          at = p;
          break;
        }
      }
    }
    std::vector<std::size_t> cycle(std::find(walk.begin(), walk.end(), at), walk.end());
    std::reverse(cycle.begin(), cycle.end());  // walked backwards; a cycle runs forwards
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    std::string text;
    for (const auto k : cycle) text += items_[members[k]].node.name + " -> ";
    text += items_[members[cycle.front()]].node.name;
    error(items_[members[cycle.front()]].node.origin, "schedule cycle in " + where + ": " + text);
  }

  const std::vector<const thorn_binding*>& thorns_;
  const condition_evaluator& parameters_;
  const kernel_launch_name& launch_name_;
  std::vector<item> items_;
  std::map<std::string, std::size_t> groups_;  // lower-case group name -> item
  ccl::diagnostic_sink sink_;
};

void show_nodes(const std::vector<schedule_node>& nodes, std::size_t depth, std::size_t width, std::string& out) {
  const auto vars = [](const char* word, const std::vector<std::string>& names) {
    return names.empty() ? std::string() : std::string("  ") + word + " " + ccl::join_names(names);
  };
  for (const auto& node : nodes) {
    std::string line(2 * depth, ' ');
    if (node.what == schedule_node::kind::group) {
      line += "group " + node.name;
    } else {
      line += node.function == node.name ? node.name : node.function + " AS " + node.name;
      line.resize(std::max(width, line.size() + 2), ' ');
      line += "[" + node.thorn + "]";
    }
    line += vars("while", node.while_vars) + vars("until", node.until_vars) + vars("if", node.if_vars) +
            vars("sync", node.sync);
    out += line + "\n";
    show_nodes(node.children, depth + 1, width, out);
  }
}

std::size_t label_width(const std::vector<schedule_node>& nodes, std::size_t depth) {
  std::size_t width = 0;
  for (const auto& node : nodes) {
    if (node.what == schedule_node::kind::routine) {
      const std::size_t label =
          node.function == node.name ? node.name.size() : node.function.size() + 4 + node.name.size();
      width = std::max(width, 2 * depth + label + 2);
    }
    width = std::max(width, label_width(node.children, depth + 1));
  }
  return width;
}

}  // namespace

ccl::source_location split_origin(const std::string& origin) {
  ccl::source_location where{origin, 0, 0};
  const auto is_number = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  };
  const auto last = origin.rfind(':');
  if (last == std::string::npos || last == 0) return where;
  const auto middle = origin.rfind(':', last - 1);
  if (middle == std::string::npos) return where;
  const std::string line = origin.substr(middle + 1, last - middle - 1);
  const std::string column = origin.substr(last + 1);
  if (!is_number(line) || !is_number(column)) return where;
  where.path = origin.substr(0, middle);
  where.line = std::stoul(line);
  where.column = std::stoul(column);
  return where;
}


schedule_tree schedule_tree::build(const std::vector<const thorn_binding*>& thorns,
                                   const condition_evaluator& parameters, const kernel_launch_name& launch_name) {
  schedule_tree tree;
  tree.bins_ = builder(thorns, parameters, launch_name).build(tree.storage_);
  return tree;
}

const std::vector<schedule_node>& schedule_tree::bin(std::string_view name) const {
  static const std::vector<schedule_node> none;
  const int b = ccl::schedule_bin_index(name);
  if (b < 0) throw std::out_of_range("unknown schedule bin '" + std::string(name) + "'");
  return static_cast<std::size_t>(b) < bins_.size() ? bins_[static_cast<std::size_t>(b)].second : none;
}

void schedule_tree::for_each_node(const std::function<void(const schedule_node&)>& visit) const {
  std::vector<const schedule_node*> pending;  // depth first, without recursion
  for (const auto& [name, nodes] : bins_) {
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) pending.push_back(&*it);
    while (!pending.empty()) {
      const schedule_node& node = *pending.back();
      pending.pop_back();
      visit(node);
      for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) pending.push_back(&*it);
    }
  }
}

std::string schedule_tree::show() const {
  std::size_t width = 0;
  for (const auto& [name, nodes] : bins_) width = std::max(width, label_width(nodes, 1));
  std::string out;
  for (const auto& [name, nodes] : bins_) {
    if (nodes.empty()) continue;
    out += name + "\n";
    show_nodes(nodes, 1, width, out);
  }
  return out;
}

}  // namespace opuntia
