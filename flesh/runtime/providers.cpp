#include "flesh/runtime/providers.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ccl/model/common.hpp"

namespace opuntia {
namespace {

using ccl::iequals;

/// "'A'", "'A' and 'B'", "'A', 'B' or 'C'".
std::string quoted_list(const std::vector<std::string>& names, std::string_view conjunction) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? fmt::format(" {} ", conjunction) : ", ";
    out += "'" + names[i] + "'";
  }
  return out;
}

/// The one active thorn's of `candidates`; none: nullptr where `none_allowed`, else an error.
template <typename T>
const providers::of_thorn<T>* provided_by_active_thorn(const std::vector<providers::of_thorn<T>>& candidates,
                                                       std::string_view role, const parameter_registry& registry,
                                                       const ccl::parfile_file& parfile,
                                                       const ccl::source_file& source, bool none_allowed = false) {
  std::vector<const providers::of_thorn<T>*> active;
  std::vector<std::string> names;
  for (const auto& c : candidates) {
    names.push_back(c.thorn);
    if (registry.is_active(c.thorn)) active.push_back(&c);
  }
  if (active.size() == 1) return active.front();
  if (active.empty() && none_allowed) return nullptr;
  // Where ActiveThorns named the last of the rivals; the first ActiveThorns line, or the file's
  // first line, when the file named none of them.
  ccl::source_location where{source.path, 1, 1};
  bool placed = false;
  for (const auto& st : parfile.statements) {
    if (st.what != ccl::parfile_statement::kind::active_thorns) continue;
    if (!placed) where = st.where;
    placed = true;
    for (const auto& named : st.thorns) {
      for (const auto* c : active) {
        if (iequals(named.text, c->thorn) && !registry.is_always_active(c->thorn)) where = named.where;
      }
    }
  }
  if (active.empty()) {
    throw ccl::input_error(ccl::error_at(
        source, where,
        names.empty() ? fmt::format("no thorn of this build provides {}", role)
                      : fmt::format("no active thorn provides {}; activate {}", role, quoted_list(names, "or"))));
  }
  std::vector<std::string> rivals;
  for (const auto* c : active) rivals.push_back(c->thorn);
  throw ccl::input_error(ccl::error_at(source, where,
                                       fmt::format("thorns {} {} provide {}; activate only one",
                                                   quoted_list(rivals, "and"), rivals.size() == 2 ? "both" : "all",
                                                   role)));
}


}  // namespace

void providers::add(std::string_view thorn, void (*provide)(providers&)) {
  current_ = thorn;
  struct forget_thorn {
    std::string& current;
    ~forget_thorn() { current.clear(); }
  } forget{current_};
  provide(*this);
}

const std::string& providers::current() const {
  if (current_.empty()) throw std::logic_error("a thorn's provide() adds to the providers, called through providers::add");
  return current_;
}

void providers::always_active() {
  if (!is_always_active(current())) always_active_.push_back(current());
}
void providers::add_driver(driver_provider driver) { drivers_.push_back({current(), std::move(driver)}); }
void providers::add_kernel_runtime(kernel_runtime_provider runtime) {
  kernel_runtimes_.push_back({current(), std::move(runtime)});
}
void providers::add_time_step(time_step_provider time_step) { time_steps_.push_back({current(), std::move(time_step)}); }
void providers::add_process_group(process_group_provider group) {
  process_groups_.push_back({current(), std::move(group)});
}

process_group_provider providers::process_group() const {
  if (!process_groups_.empty()) return process_groups_.front().provided;
  return {[] { return 0; }, [] { return 1; }, [](int) {}, [](double) { return true; }};
}

void providers::add_output_folder(output_folder_provider folder) {
  output_folders_.push_back({current(), std::move(folder)});
}
void providers::add_command(command_provider command) { commands_.push_back({current(), std::move(command)}); }
void providers::add_checkpoints(checkpoint_provider checkpoints) {
  checkpoints_.push_back({current(), std::move(checkpoints)});
}

bool providers::is_always_active(std::string_view thorn) const {
  return std::any_of(always_active_.begin(), always_active_.end(),
                     [&](const std::string& name) { return iequals(name, thorn); });
}

const driver_provider& providers::active_driver(const parameter_registry& registry, const ccl::parfile_file& parfile,
                                               const ccl::source_file& source) const {
  return provided_by_active_thorn(drivers_, "a driver", registry, parfile, source)->provided;
}

const kernel_runtime_provider& providers::active_kernel_runtime(const parameter_registry& registry,
                                                               const ccl::parfile_file& parfile,
                                                               const ccl::source_file& source) const {
  return provided_by_active_thorn(kernel_runtimes_, "a kernel runtime", registry, parfile, source)->provided;
}

const time_step_provider& providers::active_time_step(const parameter_registry& registry,
                                                     const ccl::parfile_file& parfile,
                                                     const ccl::source_file& source) const {
  return provided_by_active_thorn(time_steps_, "the time step", registry, parfile, source)->provided;
}

const output_folder_provider& providers::active_output_folder(const parameter_registry& registry,
                                                             const ccl::parfile_file& parfile,
                                                             const ccl::source_file& source) const {
  return provided_by_active_thorn(output_folders_, "the output folder", registry, parfile, source)->provided;
}

const providers::of_thorn<checkpoint_provider>* providers::active_checkpoints(const parameter_registry& registry,
                                                                             const ccl::parfile_file& parfile,
                                                                             const ccl::source_file& source) const {
  return provided_by_active_thorn(checkpoints_, "checkpoints", registry, parfile, source, true);
}

parameter_registry providers::registry_of(const std::vector<thorn_binding>& thorns, parameter_level level) const {
  parameter_registry registry(level);
  for (const auto& t : thorns) {
    registry.add_thorn(t, is_always_active(t.name) ? activation::always : activation::by_parfile);
  }
  return registry;
}

}  // namespace opuntia
