#include "flesh/grid/grid_functions.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "ccl/diagnostic.hpp"
#include "ccl/model/common.hpp"

namespace opuntia {

using ccl::iequals;

void field_buffer::free_aligned::operator()(void* p) const { std::free(p); }

field_buffer::field_buffer(std::size_t count, std::size_t element_size, int number) : number_(number) {
  constexpr std::size_t alignment = 64;
  bytes_ = count * element_size;
  const std::size_t rounded = (bytes_ + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
  if (p == nullptr) throw std::bad_alloc();
  data_.reset(p);
  // First touch: the same threads and static schedule as the kernels write each page first.
  auto* bytes = static_cast<unsigned char*>(p);
  const auto n = static_cast<long long>(rounded);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) bytes[i] = 0;
}

void memory_need::add(const grid_variable& v, int levels, bool scratch) {
  const double array = static_cast<double>(v.count) * static_cast<double>(v.element_size());
  ++variables_;
  levels_ += static_cast<std::size_t>(levels);
  levels_each_ = levels_each_ < 0 || levels_each_ == levels ? levels : 0;
  scratch_ += scratch ? 1 : 0;
  bytes_ += array * (levels + (scratch ? 1 : 0));
  largest_ = std::max(largest_, array);
}

std::string memory_need::arrays() const {
  const auto counted = [](std::size_t n, std::string_view what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  std::string text = levels_each_ > 0 ? fmt::format("{} x {}", counted(variables_, "variable"),
                                                    counted(static_cast<std::size_t>(levels_each_), "time level"))
                                      : fmt::format("{} with {} in all", counted(variables_, "variable"),
                                                    counted(levels_, "time level"));
  if (scratch_ > 0) text += " and " + counted(scratch_, "scratch buffer");
  return text;
}

std::string byte_text(double bytes) {
  if (bytes < 1024) return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
  std::size_t unit = 0;
  for (bytes /= 1024; bytes >= 1024 && unit + 1 < std::size(units); bytes /= 1024) ++unit;
  return fmt::format("{:.1f} {}", bytes, units[unit]);
}

namespace {
std::size_t points_of(const group_binding& g, const grid_layout& layout) {
  if (g.group_type == group_type::gf) return layout.elements();
  return 1;  // SCALAR (ARRAY groups are not distributed yet: one value)
}

std::pair<std::string_view, std::string_view> split_qualified(std::string_view name) {
  const auto colons = name.find("::");
  if (colons == std::string_view::npos) return {{}, name};
  return {name.substr(0, colons), name.substr(colons + 2)};
}

/// `group[3]` -> `group`
std::string_view strip_levels(std::string_view group) { return group.substr(0, group.find('[')); }
}  // namespace

void grid_function_store::add_thorn(const thorn_binding& thorn, const grid_layout& layout) {
  std::vector<std::string> seen{thorn.implementation};
  for (const auto& i : thorn.inherits) seen.push_back(i);
  for (const auto& f : thorn.friends) seen.push_back(f);
  thorn_scope_.emplace_back(thorn.name, seen);
  for (const auto& g : thorn.groups) {
    int levels = 1;
    try {
      levels = std::max(1, std::stoi(g.timelevels));
    } catch (const std::exception&) {
      levels = 1;  // a parameter name: not supported yet, one level
    }
    for (const auto& v : g.variables) {
      grid_variable var;
      var.id = variables_.size();
      var.name = v;
      var.group = g.name;
      var.thorn = thorn.name;
      var.implementation = thorn.implementation;
      var.data_type = g.data_type;
      var.group_type = g.group_type;
      var.centering = g.centering;
      var.timelevels = levels;
      var.count = points_of(g, layout);
      by_name_[ccl::to_lower(var.name)].push_back(variables_.size());
      variables_.push_back(std::move(var));
    }
  }
}

bool grid_function_store::sees(std::string_view thorn, const grid_variable& v) const {
  const auto scope = std::find_if(thorn_scope_.begin(), thorn_scope_.end(),
                                  [&](const auto& s) { return iequals(s.first, thorn); });
  return scope != thorn_scope_.end() &&
         std::any_of(scope->second.begin(), scope->second.end(),
                     [&](const std::string& impl) { return iequals(impl, v.implementation); });
}

grid_variable* grid_function_store::try_find(std::string_view thorn, std::string_view name) {
  const auto [qualifier, var] = split_qualified(name);
  const auto named = by_name_.find(ccl::to_lower(var));
  if (named == by_name_.end()) return nullptr;
  // Own variables first, then those of implementations the thorn sees, then any qualified one.
  for (int pass = 0; pass < 3; ++pass) {
    for (const std::size_t index : named->second) {
      auto& v = variables_[index];
      if (!qualifier.empty() && !iequals(qualifier, v.implementation) && !iequals(qualifier, v.thorn)) continue;
      const bool own = iequals(v.thorn, thorn);
      if ((pass == 0 && own) || (pass == 1 && sees(thorn, v)) || (pass == 2 && !qualifier.empty())) return &v;
    }
  }
  return nullptr;
}

std::vector<const grid_variable*> grid_function_store::visible_to(std::string_view thorn) const {
  std::vector<const grid_variable*> out;
  for (const auto& v : variables_) {
    if (iequals(v.thorn, thorn)) out.push_back(&v);
  }
  for (const auto& v : variables_) {
    if (!iequals(v.thorn, thorn) && sees(thorn, v)) out.push_back(&v);
  }
  return out;
}

grid_variable& grid_function_store::find(std::string_view thorn, std::string_view name) {
  if (auto* v = try_find(thorn, name)) return *v;
  throw std::invalid_argument(
      fmt::format("unknown grid function '{}' in thorn {}{}", name, thorn, suggestions(thorn, name, true, false)));
}

std::vector<grid_variable*> grid_function_store::variables_named(std::string_view thorn, std::string_view name) {
  if (auto* v = try_find(thorn, name)) return {v};
  auto members = group(thorn, name);
  if (!members.empty()) return members;
  throw std::invalid_argument(fmt::format("unknown grid function or group '{}' in thorn {}{}", name, thorn,
                                          suggestions(thorn, name, true, true)));
}

std::string grid_function_store::suggestions(std::string_view thorn, std::string_view name, bool variables,
                                             bool groups) {
  // Compare like with like: a bare name with bare names, `impl::var` with qualified ones (the
  // `impl::` prefix alone would put every candidate past the typo threshold).
  const bool qualified = !split_qualified(name).first.empty();
  std::vector<std::string> candidates;
  const auto add = [&](std::vector<std::string>& to, std::string text) {
    if (std::find(to.begin(), to.end(), text) == to.end()) to.push_back(std::move(text));
  };
  for (const auto& v : variables_) {
    if (variables) add(candidates, qualified ? v.implementation + "::" + v.name : v.name);
    if (groups) add(candidates, qualified ? v.implementation + "::" + v.group : v.group);
  }
  if (qualified) return ccl::did_you_mean(name, candidates);
  // A bare name this thorn does not see is suggested with the implementation that has it
  // (`u` from a thorn that does not inherit HeatEquation: 'heatequation::u').
  std::vector<std::string> shown;
  for (const auto& near : ccl::nearest_names(name, candidates)) {
    if ((variables && try_find(thorn, near) != nullptr) || (groups && !group(thorn, near).empty())) {
      add(shown, near);
      continue;
    }
    for (const auto& v : variables_) {
      if ((variables && iequals(v.name, near)) || (groups && iequals(v.group, near)))
        add(shown, v.implementation + "::" + near);
    }
  }
  return ccl::did_you_mean_text(shown);
}

std::vector<grid_variable*> grid_function_store::group(std::string_view thorn, std::string_view group_text) {
  const auto [qualifier, name] = split_qualified(strip_levels(group_text));
  std::vector<grid_variable*> members;
  for (auto& v : variables_) {
    if (!iequals(v.group, name)) continue;
    if (qualifier.empty() ? !iequals(v.thorn, thorn) && try_find(thorn, v.name) != &v
                          : !iequals(qualifier, v.implementation) && !iequals(qualifier, v.thorn)) {
      continue;
    }
    members.push_back(&v);
  }
  return members;
}

void grid_function_store::enable_storage(std::string_view thorn, std::string_view group_text) {
  const auto members = group(thorn, group_text);
  if (members.empty()) {
    throw std::invalid_argument(fmt::format("unknown group '{}' in STORAGE of thorn {}{}", group_text, thorn,
                                            suggestions(thorn, strip_levels(group_text), false, true)));
  }
  for (auto* v : members) {
    if (!v->levels.empty()) continue;
    for (int l = 0; l < v->timelevels; ++l) v->levels.emplace_back(v->count, v->element_size(), l);
  }
}

void* grid_function_store::data(grid_variable& v, int level) {
  if (v.levels.empty()) {
    throw std::invalid_argument(fmt::format("grid function {}::{} has no storage: add 'STORAGE: {}' to the "
                                            "schedule.ccl of thorn {}", v.implementation, v.name, v.group, v.thorn));
  }
  if (level < 0 || level >= static_cast<int>(v.levels.size())) {
    throw std::invalid_argument(fmt::format("grid function {}::{} has {} time level(s); level {} does not exist",
                                            v.implementation, v.name, v.levels.size(), level));
  }
  return v.levels[static_cast<std::size_t>(level)].data();
}

void* grid_function_store::scratch(grid_variable& v) {
  if (!v.scratch) {
    v.scratch = field_buffer(v.count, v.element_size(), v.timelevels);
    // Points a kernel does not write (boundaries) keep their values across the swap.
    std::memcpy(v.scratch.data(), data(v, 0), v.scratch.bytes());
  }
  return v.scratch.data();
}

buffer_key grid_function_store::key(grid_variable& v, int level) {
  data(v, level);  // the same checks
  return {v.id, v.levels[static_cast<std::size_t>(level)].number()};
}

buffer_key grid_function_store::scratch_key(grid_variable& v) {
  scratch(v);
  return {v.id, v.scratch.number()};
}

void grid_function_store::swap_with_scratch(grid_variable& v) { std::swap(v.levels.at(0), v.scratch); }

void grid_function_store::rotate_timelevels() {
  for (auto& v : variables_) {
    if (v.levels.size() < 2) continue;
    std::rotate(v.levels.rbegin(), v.levels.rbegin() + 1, v.levels.rend());
  }
}

}  // namespace opuntia
