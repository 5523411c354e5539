#include "flesh/runtime/checkpoint_parameters.hpp"

#include <fmt/format.h>

#include <map>
#include <sstream>
#include <stdexcept>

#include "ccl/diagnostic.hpp"
#include "ccl/model/common.hpp"

namespace opuntia {
namespace {

constexpr std::string_view active_thorns_key = "ActiveThorns";

std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescaped(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      out += text[++i] == 'n' ? '\n' : text[i];
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string key_of(const parameter_setting& s) {
  return s.index < 0 ? fmt::format("{}::{}", s.thorn, s.name) : fmt::format("{}::{}[{}]", s.thorn, s.name, s.index);
}

/// The thorns of an ActiveThorns value, lower case, each once.
std::map<std::string, std::string> thorn_set(const std::vector<std::string>& names) {
  std::map<std::string, std::string> out;
  for (const auto& n : names) out.emplace(ccl::to_lower(n), n);
  return out;
}

}  // namespace

std::string recorded_parameters(const parameter_registry& registry) {
  std::string out = fmt::format("{} = \"{}\"\n", active_thorns_key, ccl::join_names(registry.active_thorns(), " "));
  for (const auto& s : registry.settings()) out += fmt::format("{} = {}\n", key_of(s), escaped(s.value));
  return out;
}

recovery_conflicts conflicts_on_recovery(const parameter_registry& now, std::string_view record) {
  std::vector<std::string> recorded_thorns;
  std::map<std::string, std::string> recorded;  // lower-case key -> value
  std::istringstream lines{std::string(record)};
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const auto equals = line.find(" = ");
    if (equals == std::string::npos) {
      throw std::runtime_error(fmt::format("line {} of its parameters is not 'name = value': '{}'", number, line));
    }
    const auto key = line.substr(0, equals);
    const auto value = unescaped(std::string_view(line).substr(equals + 3));
    if (key == active_thorns_key) {
      std::istringstream names(value.size() >= 2 ? value.substr(1, value.size() - 2) : value);
      for (std::string name; names >> name;) recorded_thorns.push_back(name);
    } else {
      recorded[ccl::to_lower(key)] = value;
    }
  }
  recovery_conflicts conflicts;
  const auto here = thorn_set(now.active_thorns());
  const auto there = thorn_set(recorded_thorns);
  for (const auto& [key, name] : here) {
    if (!there.count(key)) conflicts.thorns_active_here_only.push_back(name);
  }
  for (const auto& [key, name] : there) {
    if (!here.count(key)) conflicts.thorns_active_there_only.push_back(name);
  }
  for (const auto& s : now.settings()) {
    if (s.steerable == "recover" || s.steerable == "always") continue;
    const auto found = recorded.find(ccl::to_lower(key_of(s)));
    if (found == recorded.end() || found->second == s.value) continue;
    conflicts.changed.push_back({s.thorn, s.name, s.index, found->second, s.value});
  }
  return conflicts;
}

}  // namespace opuntia
