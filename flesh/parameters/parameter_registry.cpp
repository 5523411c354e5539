#include "flesh/parameters/parameter_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <variant>

#include "flesh/parameters/parameter_description.hpp"
#include "flesh/parameters/parfile_evaluator.hpp"
#include "flesh/parameters/string_pattern.hpp"
#include "ccl/model/common.hpp"
#include "ccl/model/param_range.hpp"

namespace opuntia {
namespace {

using detail::evaluation_error;
using detail::parfile_value;
using ccl::iequals;
using ccl::to_lower;
using ccl::boolean_word;

constexpr long long cctk_int_min = std::numeric_limits<CCTK_INT>::min();
constexpr long long cctk_int_max = std::numeric_limits<CCTK_INT>::max();

const char* type_word(parameter_type t) {
  switch (t) {
    case parameter_type::integer:
      return "INT";
    case parameter_type::real:
      return "REAL";
    case parameter_type::keyword:
      return "KEYWORD";
    case parameter_type::string:
      return "STRING";
    case parameter_type::boolean:
      return "BOOLEAN";
  }
  return "";
}

const char* access_word(parameter_access a) {
  switch (a) {
    case parameter_access::private_access:
      return "private";
    case parameter_access::restricted_access:
      return "restricted";
    case parameter_access::global_access:
      return "global";
    case parameter_access::shared:
      return "shared";
  }
  return "";
}

bool is_text_type(parameter_type t) { return t == parameter_type::keyword || t == parameter_type::string; }

/// USES and EXTENDS (and a shares: section without either) hold no value of their own.
bool is_shared_use(const parameter_binding& b) { return !b.qualifier.empty() || b.access == parameter_access::shared; }

std::string trim(std::string_view s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const auto end = s.find_last_not_of(" \t");
  return std::string(s.substr(begin, end - begin + 1));
}

/// "(0:*) positive" — how an out-of-range error and --describe show a range.
/// A range as param.ccl writes it, `1:10 :: "small"`: its description quoted, so that one with a
/// colon or a semicolon of its own ("-1: IO::out_every; 0: never") is not read as more ranges.
std::string range_text(const range_binding& r) {
  return r.description.empty() ? r.spec : fmt::format("{} :: \"{}\"", r.spec, r.description);
}

/// Every range of a parameter as range_text shows it, "; " between them.
std::string ranges_text(const std::vector<range_binding>& ranges) {
  std::vector<std::string> texts;
  for (const auto& r : ranges) texts.push_back(range_text(r));
  return ccl::join_names(texts, "; ");
}

std::vector<std::string> range_words(const std::vector<range_binding>& ranges) {
  std::vector<std::string> words;
  for (const auto& r : ranges) words.insert(words.end(), r.words.begin(), r.words.end());
  return words;
}

/// The rule opuntia-gen checks defaults with (ccl::range_contains), so that a default the
/// generator accepts is a value the flesh accepts. opuntia-gen wrote the bounds as numbers.
bool in_range(double value, bool integer, const range_binding& r) { return ccl::range_contains(r.bounds, value, integer); }

std::string origin_text(const parameter_binding& b) { return b.origin.empty() ? b.name : b.origin; }

/// "path:line:column" of a binding as a place; the path alone when it has no numbers.
ccl::source_location location_of(const std::string& origin) {
  ccl::source_location where;
  const auto last = origin.rfind(':');
  const auto middle = last == std::string::npos || last == 0 ? std::string::npos : origin.rfind(':', last - 1);
  if (middle == std::string::npos) {
    where.path = origin;
    return where;
  }
  std::size_t line = 0, column = 0;
  const auto* s = origin.data();
  const bool ok = std::from_chars(s + middle + 1, s + last, line).ec == std::errc() &&
                  std::from_chars(s + last + 1, s + origin.size(), column).ec == std::errc();
  where.path = ok ? origin.substr(0, middle) : origin;
  if (ok) {
    where.line = line;
    where.column = column;
  }
  return where;
}

}  // namespace

bool parameter_registry::is_always_active(std::string_view thorn) const {
  return std::any_of(always_active_.begin(), always_active_.end(),
                     [&](const std::string& name) { return iequals(name, thorn); });
}

// --- registration ------------------------------------------------------------------------

void parameter_registry::add_thorn(const thorn_binding& thorn, activation active) {
  for (const auto& name : thorn_names_) {
    if (iequals(name, thorn.name)) throw std::logic_error(fmt::format("thorn '{}' is registered twice", thorn.name));
  }
  std::vector<entry> added;
  for (const auto& p : thorn.parameters) {
    const std::string qualified = thorn.name + "::" + p.name;
    for (const auto& other : added) {
      if (iequals(other.binding.name, p.name)) {
        throw std::logic_error(fmt::format("parameter '{}' is declared twice ({})", qualified, origin_text(p)));
      }
    }
    entry e;
    e.thorn = thorn.name;
    e.implementation = thorn.implementation;
    e.binding = p;
    e.ranges = p.ranges;
    std::size_t size = 1;
    if (!p.array_size.empty()) {
      const auto n = detail::parse_number(trim(p.array_size));
      if (!n || n->what != parfile_value::kind::integer || n->integer < 1 || n->integer > 1'000'000) {
        throw std::logic_error(fmt::format("array size '{}' of parameter '{}' is not a positive number ({})",
                                           p.array_size, qualified, origin_text(p)));
      }
      size = static_cast<std::size_t>(n->integer);
    }
    // STRING ranges must be well formed even though defaults are not checked against them
    // (numeric ones are numbers already).
    for (const auto& r : p.ranges) {
      if (p.type == parameter_type::string) {
        for (const auto& pattern : r.words) {
          try {
            detail::string_pattern check(pattern);
          } catch (const std::invalid_argument& bad) {
            throw std::logic_error(fmt::format("malformed regular expression '{}' in the ranges of '{}' ({}): {}",
                                               pattern, qualified, origin_text(p), bad.what()));
          }
        }
      }
    }
    if (!is_shared_use(p)) {
      const auto malformed = [&](const char* expected) {
        return std::logic_error(fmt::format("malformed default '{}' of {} parameter '{}': expected {} ({})",
                                            p.default_value, type_word(p.type), qualified, expected, origin_text(p)));
      };
      parameter_value value;
      const auto number = detail::parse_number(trim(p.default_value));
      switch (p.type) {
        case parameter_type::integer:
          if (!number || number->what != parfile_value::kind::integer || number->integer < cctk_int_min ||
              number->integer > cctk_int_max) {
            throw malformed("an integer that fits CCTK_INT");
          }
          value = number->integer;
          break;
        case parameter_type::real:
          if (!number || !std::isfinite(number->as_double())) throw malformed("a number");
          value = number->as_double();
          break;
        case parameter_type::boolean: {
          const auto b = boolean_word(trim(p.default_value));
          if (!b) throw malformed("yes, no, true, false, 1 or 0");
          value = *b;
          break;
        }
        case parameter_type::keyword:
        case parameter_type::string:
          value = p.default_value;
          break;
      }
      e.values.assign(size, value);
      e.set.assign(size, false);
      e.set_at.assign(size, {});
      e.value_at.assign(size, {});
    }
    added.push_back(std::move(e));
  }
  thorn_names_.push_back(thorn.name);
  implementation_of_[to_lower(thorn.name)] = thorn.implementation;
  if (active == activation::always) always_active_.push_back(thorn.name);
  for (auto& e : added) entries_.push_back(std::move(e));
  forget_lookups();
}

// --- lookup ------------------------------------------------------------------------------

bool parameter_registry::is_active(std::string_view thorn) const {
  const auto active_name = [&](const std::string& name) {
    return is_always_active(name) || std::any_of(active_.begin(), active_.end(), [&](const auto& a) { return a == name; });
  };
  for (const auto& name : thorn_names_) {
    if (iequals(name, thorn)) return active_name(name);
  }
  for (const auto& name : thorn_names_) {
    if (iequals(implementation_of_.at(to_lower(name)), thorn) && active_name(name)) return true;
  }
  return false;
}

std::vector<std::string> parameter_registry::active_thorns() const {
  std::vector<std::string> out = always_active_;
  out.insert(out.end(), active_.begin(), active_.end());
  return out;
}

std::vector<std::string> parameter_registry::thorns() const {
  auto out = thorn_names_;
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> parameter_registry::thorns_for(std::string_view owner) const {
  std::vector<std::string> out;
  for (const auto& name : thorn_names_) {
    if (iequals(name, owner)) out.push_back(name);
  }
  if (out.empty()) {
    for (const auto& name : thorn_names_) {
      if (iequals(implementation_of_.at(to_lower(name)), owner)) out.push_back(name);
    }
  }
  std::stable_partition(out.begin(), out.end(), [&](const std::string& t) { return is_active(t); });
  return out;
}

const parameter_registry::entry* parameter_registry::declared(std::string_view thorn, std::string_view name) const {
  for (const auto& e : entries_) {
    if (e.thorn == thorn && iequals(e.binding.name, name)) return &e;
  }
  return nullptr;
}

const parameter_registry::entry* parameter_registry::owner_of(const entry& e) const {
  if (!is_shared_use(e.binding)) return &e;
  for (const auto& thorn : thorns_for(e.binding.shared_from)) {
    if (!iequals(implementation_of_.at(to_lower(thorn)), e.binding.shared_from)) continue;
    const auto* owner = declared(thorn, e.binding.name);
    if (owner != nullptr && !is_shared_use(owner->binding) &&
        (owner->binding.access == parameter_access::global_access ||
         owner->binding.access == parameter_access::restricted_access)) {
      return owner;
    }
  }
  return nullptr;
}

const parameter_registry::entry* parameter_registry::find(std::string_view owner, std::string_view name) const {
  if (const auto known = found_.find(name_pair_less::view{owner, name}); known != found_.end()) {
    return &entries_[known->second];
  }
  for (const auto& thorn : thorns_for(owner)) {
    if (const auto* e = declared(thorn, name)) {
      const auto* shared = owner_of(*e);
      if (shared != nullptr) {
        found_.emplace(std::pair{std::string(owner), std::string(name)}, static_cast<std::size_t>(shared - entries_.data()));
      }
      return shared;
    }
  }
  return nullptr;
}

void parameter_registry::forget_lookups() {
  found_.clear();
}

parameter_registry::entry* parameter_registry::find(std::string_view owner, std::string_view name) {
  return const_cast<entry*>(static_cast<const parameter_registry*>(this)->find(owner, name));
}

// --- typed reads -------------------------------------------------------------------------

const parameter_registry::entry& parameter_registry::readable(std::string_view owner, std::string_view name, int index,
                                                              const char* as) const {
  const auto* e = find(owner, name);
  if (e == nullptr) throw std::logic_error(fmt::format("unknown parameter '{}::{}'", owner, name));
  // The names of the messages put together only for them: reads come every iteration.
  const auto qualified = [&] { return e->thorn + "::" + e->binding.name; };
  const bool text = std::string_view(as) == "text";
  if (text ? !is_text_type(e->binding.type) : std::string_view(type_word(e->binding.type)) != as) {
    throw std::logic_error(fmt::format("parameter '{}' is {}, not read as {}", qualified(), type_word(e->binding.type), as));
  }
  const auto size = static_cast<int>(e->values.size());
  if (e->binding.array_size.empty() ? index != -1 : (index < 0 || index >= size)) {
    throw std::logic_error(
        e->binding.array_size.empty()
            ? fmt::format("parameter '{}' is not an array, read with index {}", qualified(), index)
            : fmt::format("index {} of array parameter '{}' is outside [0..{}]", index, qualified(), size - 1));
  }
  e->read = true;
  return *e;
}

CCTK_INT parameter_registry::integer(std::string_view owner, std::string_view name, int index) const {
  const auto& e = readable(owner, name, index, "INT");
  return static_cast<CCTK_INT>(std::get<long long>(e.values[static_cast<std::size_t>(std::max(index, 0))]));
}

CCTK_REAL parameter_registry::real(std::string_view owner, std::string_view name, int index) const {
  const auto& e = readable(owner, name, index, "REAL");
  return static_cast<CCTK_REAL>(std::get<double>(e.values[static_cast<std::size_t>(std::max(index, 0))]));
}

std::string parameter_registry::text(std::string_view owner, std::string_view name, int index) const {
  const auto& e = readable(owner, name, index, "text");
  return std::get<std::string>(e.values[static_cast<std::size_t>(std::max(index, 0))]);
}

bool parameter_registry::boolean(std::string_view owner, std::string_view name, int index) const {
  const auto& e = readable(owner, name, index, "BOOLEAN");
  return std::get<bool>(e.values[static_cast<std::size_t>(std::max(index, 0))]);
}

const parameter_value& parameter_registry::value(std::string_view owner, std::string_view name, int index) const {
  const auto* e = find(owner, name);
  if (e == nullptr) throw std::logic_error(fmt::format("unknown parameter '{}::{}'", owner, name));
  const auto& checked =
      readable(owner, name, index, is_text_type(e->binding.type) ? "text" : type_word(e->binding.type));
  return checked.values[static_cast<std::size_t>(std::max(index, 0))];
}

bool parameter_registry::was_set(std::string_view owner, std::string_view name) const {
  const auto* e = find(owner, name);
  if (e == nullptr) throw std::logic_error(fmt::format("unknown parameter '{}::{}'", owner, name));
  return std::find(e->set.begin(), e->set.end(), true) != e->set.end();
}

namespace {
/// The 1-based column of `word` as a whole word (between blanks, quotes or the line's ends) in
/// `line` at or after `from`, compared without case; 0 where it is not there.
std::size_t column_of_word(const std::string& line, std::size_t from, std::string_view word) {
  const auto separates = [](char c) { return c == ' ' || c == '\t' || c == '"' || c == '\''; };
  for (std::size_t at = from > 0 ? from - 1 : 0; !word.empty() && at + word.size() <= line.size(); ++at) {
    const bool starts = at == 0 || separates(line[at - 1]);
    const bool ends = at + word.size() == line.size() || separates(line[at + word.size()]);
    if (starts && ends && ccl::iequals(std::string_view(line).substr(at, word.size()), word)) return at + 1;
  }
  return 0;
}
}  // namespace

std::optional<ccl::diagnostic> parameter_registry::first_set(const entry& e, std::string message, bool at_value,
                                                             std::string_view part) const {
  const auto set = std::find(e.set.begin(), e.set.end(), true);
  if (set == e.set.end()) return std::nullopt;
  const auto element = static_cast<std::size_t>(set - e.set.begin());
  auto d = ccl::error_at(at_value ? e.value_at[element] : e.set_at[element], std::move(message));
  for (const auto& file : sources_) {
    if (file.path == d.where.path) d.line_text = file.line_text(d.where.line);
  }
  if (at_value && !part.empty()) {
    if (const auto column = column_of_word(d.line_text, d.where.column, part)) d.where.column = column;
  }
  return d;
}

std::optional<ccl::diagnostic> parameter_registry::diagnostic_where_set(std::string_view owner, std::string_view name,
                                                                        std::string message, std::string_view part) const {
  const auto* e = find(owner, name);
  return e == nullptr ? std::nullopt : first_set(*e, std::move(message), true, part);
}

std::vector<ccl::diagnostic> parameter_registry::unread() const {
  std::vector<ccl::diagnostic> out;
  for (const auto& e : entries_) {
    if (e.read) continue;
    if (auto d = first_set(e, fmt::format("parameter '{}::{}' is set but never read", e.thorn, e.binding.name), false)) {
      out.push_back(std::move(*d));
    }
  }
  ccl::sort_by_place(out);
  return out;
}

std::vector<parameter_setting> parameter_registry::settings() const {
  std::vector<parameter_setting> out;
  for (const auto& e : entries_) {
    if (is_shared_use(e.binding) || !is_active(e.thorn)) continue;
    const bool array = !e.binding.array_size.empty();
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      out.push_back({e.thorn, e.binding.name, array ? static_cast<int>(i) : -1, parameter_text(e.values[i]),
                     e.binding.steerable.empty() ? "never" : e.binding.steerable});
    }
  }
  return out;
}

std::string parameter_text(const parameter_value& value) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "yes" : "no";
        } else {
          return fmt::format("{}", x);
        }
      },
      value);
}

// --- describe ----------------------------------------------------------------------------

thorn_description parameter_registry::description_of(const std::string& thorn) const {
  thorn_description out{thorn, implementation_of_.at(to_lower(thorn)), {}};
  for (const auto& e : entries_) {
    if (e.thorn != thorn) continue;
    const auto& b = e.binding;
    parameter_description p;
    p.name = b.array_size.empty() ? b.name : b.name + "[" + b.array_size + "]";
    p.type = type_word(b.type);
    if (is_shared_use(b)) {
      p.shared = fmt::format("{} {}::{}", b.qualifier.empty() ? "uses" : b.qualifier, b.shared_from, b.name);
    } else {
      p.access = access_word(b.access);
      p.default_value = is_text_type(b.type) ? "\"" + b.default_value + "\"" : b.default_value;
    }
    if (b.steerable != "never") p.steerable = b.steerable;
    p.description = b.description;
    for (const auto& r : b.ranges) p.ranges.push_back({r.spec, r.description});
    out.parameters.push_back(std::move(p));
  }
  return out;
}

std::string parameter_registry::describe(std::string_view thorn, description_format format) const {
  const auto named = thorns_for(thorn);
  if (named.empty()) {
    throw std::invalid_argument(fmt::format("unknown thorn '{}'{}", thorn, ccl::did_you_mean_or_known(thorn, thorns())));
  }
  return format_description(description_of(named.front()), format);
}

std::string parameter_registry::describe_all(description_format format) const {
  std::vector<thorn_description> all;
  for (const auto& name : thorn_names_) all.push_back(description_of(name));
  return format_descriptions(all, format);
}

// --- apply -------------------------------------------------------------------------------

struct parameter_registry::applier {
  parameter_registry& registry;
  const ccl::parfile_file& parfile;
  const ccl::source_file& source;
  std::vector<ccl::diagnostic> binding_errors;  // USES/EXTENDS: they point into param.ccl files
  std::vector<ccl::diagnostic> errors;          // the parameter file's, sorted by place at the end
  std::set<std::string> unknown;                // names already reported unknown (lower case)
  bool thorns_listed = false;                    // an unknown thorn's error has listed the known ones
  std::set<std::string> parameters_listed;       // thorns whose parameters an error has listed

  /// "; did you mean ..." for an unknown thorn, or the known thorns, listed at the first such
  /// error only (a Cactus parameter file names a dozen thorns this program does not have).
  std::string thorn_suggestions(std::string_view name, const std::vector<std::string>& known) {
    const auto near = ccl::did_you_mean(name, known);
    if (!near.empty() || thorns_listed) return near;
    thorns_listed = true;
    return ccl::did_you_mean_or_known(name, known);
  }

  void error(const ccl::source_location& where, std::string message) {
    errors.push_back(ccl::error_at(source, where, std::move(message)));
  }

  static std::string qualified(const entry& e) { return e.thorn + "::" + e.binding.name; }

  void run() {
    for (const auto& st : parfile.statements) {
      if (st.what == ccl::parfile_statement::kind::active_thorns) activate(st);
    }
    resolve_shared();
    for (const auto& st : parfile.statements) {
      if (st.what != ccl::parfile_statement::kind::assignment) continue;
      try {
        assign(st);
      } catch (const evaluation_error& e) {
        error(e.where, e.message);
      }
    }
    ccl::sort_by_place(errors);  // one file's: by line and column
    binding_errors.insert(binding_errors.end(), errors.begin(), errors.end());
    if (!binding_errors.empty()) throw ccl::input_error(std::move(binding_errors));
  }

  void activate(const ccl::parfile_statement& st) {
    for (const auto& thorn : st.thorns) {
      if (registry.is_always_active(thorn.text)) continue;
      const auto known = std::find_if(registry.thorn_names_.begin(), registry.thorn_names_.end(),
                                      [&](const std::string& n) { return iequals(n, thorn.text); });
      if (known == registry.thorn_names_.end()) {
        // ActiveThorns names thorns; an implementation's name there is a common slip.
        const auto providers = registry.thorns_for(thorn.text);
        if (providers.empty()) unknown.insert(to_lower(thorn.text));
        error(thorn.where, providers.empty()
                               ? fmt::format("unknown thorn '{}'{}", thorn.text,
                                             thorn_suggestions(thorn.text, registry.thorn_names_))
                               : fmt::format("unknown thorn '{}'; implementation '{}' is provided by thorn '{}'",
                                             thorn.text, thorn.text, providers.front()));
        continue;
      }
      if (registry.is_active(*known)) continue;
      const auto& implementation = registry.implementation_of_.at(to_lower(*known));
      const auto rival = std::find_if(registry.thorn_names_.begin(), registry.thorn_names_.end(), [&](const auto& n) {
        return n != *known && registry.is_active(n) &&
               iequals(registry.implementation_of_.at(to_lower(n)), implementation);
      });
      if (rival != registry.thorn_names_.end()) {
        error(thorn.where, fmt::format("thorns '{}' and '{}' both provide implementation '{}'; activate only one",
                                       *rival, *known, implementation));
        continue;
      }
      registry.active_.push_back(*known);
      registry.forget_lookups();
    }
  }

  /// Checks the USES/EXTENDS of active thorns and adds the EXTENDS ranges to their owners.
  void resolve_shared() {
    for (auto& e : registry.entries_) e.ranges = e.binding.ranges;
    for (const auto& e : registry.entries_) {
      if (!is_shared_use(e.binding) || !registry.is_active(e.thorn)) continue;
      const auto* owner = registry.owner_of(e);
      const auto how = e.binding.qualifier.empty() ? std::string("uses") : e.binding.qualifier;
      if (owner == nullptr) {
        binding_errors.push_back(ccl::error_at(
            location_of(e.binding.origin),
            fmt::format("parameter '{}' {} '{}::{}', which no registered thorn shares (a global or restricted "
                        "parameter of implementation '{}')",
                        qualified(e), how, e.binding.shared_from, e.binding.name, e.binding.shared_from)));
        continue;
      }
      if (how == "extends") {
        auto& target = const_cast<entry&>(*owner);
        target.ranges.insert(target.ranges.end(), e.binding.ranges.begin(), e.binding.ranges.end());
      }
    }
  }

  /// The entry `thorn_name::name` stands for; reports why and returns nullptr when there is none.
  entry* lookup(const ccl::located_text& thorn_name, const ccl::located_text& name, bool must_be_active) {
    const auto thorns = registry.thorns_for(thorn_name.text);
    if (thorns.empty()) {
      unknown.insert(to_lower(thorn_name.text));  // later assignments to it stay quiet
      auto known = registry.thorn_names_;
      for (const auto& t : registry.thorn_names_) {
        const auto& implementation = registry.implementation_of_.at(to_lower(t));
        if (!iequals(implementation, t)) known.push_back(implementation);
      }
      error(thorn_name.where, fmt::format("unknown thorn or implementation '{}'{}", thorn_name.text,
                                          thorn_suggestions(thorn_name.text, known)));
      return nullptr;
    }
    const auto& thorn = thorns.front();
    if (must_be_active && !registry.is_active(thorn)) {
      error(thorn_name.where, fmt::format("thorn '{}' is not active; add it to ActiveThorns", thorn));
      return nullptr;
    }
    const auto* declared = registry.declared(thorn, name.text);
    if (declared == nullptr) {
      std::vector<std::string> names;
      for (const auto& e : registry.entries_) {
        if (e.thorn == thorn) names.push_back(e.binding.name);
      }
      // The thorn's parameters are listed at its first unknown one that is close to none.
      auto near = ccl::did_you_mean(name.text, names);
      if (near.empty() && parameters_listed.insert(to_lower(thorn)).second)
        near = ccl::did_you_mean_or_known(name.text, names);
      error(name.where, fmt::format("unknown parameter '{}' of thorn '{}'{}", name.text, thorn, near));
      return nullptr;
    }
    // A USES without owner was reported once, at its declaration.
    return const_cast<entry*>(registry.owner_of(*declared));
  }

  parfile_value reference(const ccl::parfile_expression& ref) {
    const auto colons = ref.text.find("::");
    ccl::located_text thorn{ref.text.substr(0, colons), ref.where};
    ccl::located_text name{ref.text.substr(colons + 2), ref.where};
    const auto before = errors.size();
    const auto* e = lookup(thorn, name, false);
    if (e == nullptr) {
      if (errors.size() > before) {  // turn the report into this statement's one error
        auto d = errors.back();
        errors.pop_back();
        throw evaluation_error{d.where, d.message};
      }
      throw evaluation_error{ref.where, fmt::format("'{}' has no value", ref.text)};
    }
    if (!e->binding.array_size.empty()) {
      throw evaluation_error{ref.where,
                             fmt::format("array parameter '{}' cannot be used in an expression", qualified(*e))};
    }
    parfile_value v;
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, long long>) {
            v.what = parfile_value::kind::integer;
            v.integer = x;
          } else if constexpr (std::is_same_v<T, double>) {
            v.what = parfile_value::kind::real;
            v.real = x;
          } else if constexpr (std::is_same_v<T, std::string>) {
            v.what = parfile_value::kind::text;
            v.text = x;
          } else {
            v.what = parfile_value::kind::boolean;
            v.boolean = x;
          }
        },
        e->values.front());
    return v;
  }

  parfile_value evaluate(const ccl::parfile_expression& e) {
    return detail::evaluate(e, detail::parfile_name_of(source.path),
                            [this](const ccl::parfile_expression& ref) { return reference(ref); });
  }

  /// A number for a numeric parameter: numbers, `pi`, quoted numbers.
  static std::optional<parfile_value> number_of(const parfile_value& v) {
    try {
      return detail::as_number(v, {});
    } catch (const evaluation_error&) {
      return std::nullopt;
    }
  }

  parameter_value convert(const entry& e, const parfile_value& v, const ccl::source_location& where) {
    const auto q = qualified(e);
    const auto type = e.binding.type;
    const auto fail = [&](std::string message) -> parameter_value {
      throw evaluation_error{where, std::move(message)};
    };
    switch (type) {
      case parameter_type::integer: {
        const auto n = number_of(v);
        const bool whole = n && (n->what == parfile_value::kind::integer || std::trunc(n->real) == n->real);
        if (!whole) return fail(fmt::format("expected an integer for INT parameter '{}', not '{}'", q, v.shown()));
        const bool fits =
            n->what == parfile_value::kind::integer
                ? n->integer >= cctk_int_min && n->integer <= cctk_int_max
                : n->real >= static_cast<double>(cctk_int_min) && n->real <= static_cast<double>(cctk_int_max);
        if (!fits) {
          return fail(fmt::format("value {} of '{}' does not fit CCTK_INT ({} to {})", v.shown(), q, cctk_int_min,
                                  cctk_int_max));
        }
        const long long i = n->what == parfile_value::kind::integer ? n->integer : static_cast<long long>(n->real);
        check_range(e, static_cast<double>(i), true, v, where);
        return i;
      }
      case parameter_type::real: {
        const auto n = number_of(v);
        if (!n) return fail(fmt::format("expected a number for REAL parameter '{}', not '{}'", q, v.shown()));
        const double r = n->as_double();
        // A float build (OPUNTIA_REAL_PRECISION=float) cannot hold every double.
        if (std::isfinite(r) && !std::isfinite(static_cast<CCTK_REAL>(r))) {
          return fail(fmt::format("value {} of REAL parameter '{}' does not fit CCTK_REAL ({} bytes)", v.shown(), q,
                                  sizeof(CCTK_REAL)));
        }
        check_range(e, r, false, v, where);
        return r;
      }
      case parameter_type::boolean: {
        if (v.what == parfile_value::kind::boolean) return v.boolean;
        std::optional<bool> b;
        if (v.what == parfile_value::kind::text) b = boolean_word(v.text);
        if (v.what == parfile_value::kind::integer && (v.integer == 0 || v.integer == 1)) b = v.integer == 1;
        if (!b) {
          return fail(
              fmt::format("expected yes, no, true, false, 1 or 0 for BOOLEAN parameter '{}', not '{}'", q, v.shown()));
        }
        return *b;
      }
      case parameter_type::keyword:
      case parameter_type::string: {
        std::string text;
        if (v.what == parfile_value::kind::text) {
          text = v.text;
        } else if (v.is_number() && !v.literal.empty()) {
          text = v.literal;  // `order = 4` for a KEYWORD "2", "4"
        } else {
          return fail(fmt::format("expected a quoted string or a word for {} parameter '{}', not {}", type_word(type),
                                  q, v.shown()));
        }
        return type == parameter_type::keyword ? keyword(e, text, where) : string(e, text, where);
      }
    }
    return fail("unknown parameter type");
  }

  std::string keyword(const entry& e, const std::string& text, const ccl::source_location& where) {
    const auto words = range_words(e.ranges);
    if (words.empty()) return text;
    for (const auto& w : words) {
      if (iequals(w, text)) return w;  // the declared spelling
    }
    // A likely typo gets the word it meant; a value with no near word gets what each one means,
    // as param.ccl writes them (a description says what a bare name does not).
    const auto meant = ccl::did_you_mean(text, words);
    const bool described = std::any_of(e.ranges.begin(), e.ranges.end(), [](const auto& r) { return !r.description.empty(); });
    if (meant.empty() && described) {
      throw evaluation_error{where, fmt::format("value '{}' of '{}' is not one of its values: {}", text, qualified(e),
                                                ranges_text(e.ranges))};
    }
    throw evaluation_error{where, fmt::format("value '{}' of '{}' is not one of {}{}", text, qualified(e),
                                              ccl::join_names(words), meant)};
  }

  std::string string(const entry& e, const std::string& text, const ccl::source_location& where) {
    const auto patterns = range_words(e.ranges);
    if (patterns.empty()) return text;
    for (const auto& p : patterns) {
      if (p.empty() || detail::string_pattern(p).found_in(text)) return text;
    }
    std::vector<std::string> quoted;
    for (const auto& p : patterns) quoted.push_back("'" + p + "'");
    if (text.empty()) {
      throw evaluation_error{where, fmt::format("'{}' may not be empty (its patterns: {})", qualified(e),
                                                ccl::join_names(quoted))};
    }
    throw evaluation_error{where, fmt::format("value '{}' of '{}' matches none of the patterns {}", text, qualified(e),
                                              ccl::join_names(quoted))};
  }

  void check_range(const entry& e, double value, bool integer, const parfile_value& shown,
                   const ccl::source_location& where) {
    if (e.ranges.empty()) return;
    const auto q = qualified(e);
    for (const auto& r : e.ranges) {
      if (in_range(value, integer, r)) return;
    }
    throw evaluation_error{where, fmt::format("value {} of '{}' is outside every range: {}", shown.shown(), q,
                                              ranges_text(e.ranges))};
  }

  void assign(const ccl::parfile_statement& st) {
    if (unknown.count(to_lower(st.implementation.text)) != 0) return;  // reported where it was named
    auto* e = lookup(st.implementation, st.name, true);
    if (e == nullptr) return;
    const auto q = qualified(*e);
    const auto size = e->values.size();
    std::size_t element = 0;
    std::string shown_name = q;
    if (!e->binding.array_size.empty()) {
      if (!st.index) {
        error(st.name.where, fmt::format("array parameter '{}' needs an index [0..{}]", q, size - 1));
        return;
      }
      const auto index = evaluate(*st.index);
      const auto n = number_of(index);
      if (!n || (n->what == parfile_value::kind::real && std::trunc(n->real) != n->real)) {
        error(st.index->where, fmt::format("expected an integer index of '{}', not '{}'", q, index.shown()));
        return;
      }
      const double i = n->as_double();
      if (i < 0 || i >= static_cast<double>(size)) {
        error(st.index->where, fmt::format("index {} of '{}' is outside [0..{}]", index.shown(), q, size - 1));
        return;
      }
      element = static_cast<std::size_t>(i);
      shown_name = fmt::format("{}[{}]", q, element);
    } else if (st.index) {
      error(st.index->where, fmt::format("parameter '{}' is not an array; remove the index", q));
      return;
    }
    if (registry.level_ == parameter_level::strict && e->set[element]) {
      const auto& first = e->set_at[element];
      error(st.where, fmt::format("parameter '{}' is set twice; first at {}:{}:{}", shown_name, first.path, first.line,
                                  first.column));
      return;
    }
    const auto value = convert(*e, evaluate(st.value), st.value.where);
    e->values[element] = value;
    e->set[element] = true;
    e->set_at[element] = st.where;
    e->value_at[element] = st.value.where;
  }
};

bool* parameter_registry::read_flag(std::string_view owner, std::string_view name) const {
  const auto* e = find(owner, name);
  return e == nullptr ? nullptr : &e->read;
}

void parameter_registry::reset_reads() {
  for (auto& e : entries_) e.read = false;
}

void parameter_registry::apply(const ccl::parfile_file& parfile, const ccl::source_file& source) {
  sources_.push_back(source);
  for (auto& e : entries_) e.read = false;
  applier{*this, parfile, source, {}, {}, {}, false, {}}.run();
}

}  // namespace opuntia
