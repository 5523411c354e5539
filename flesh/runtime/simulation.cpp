#include "flesh/runtime/simulation.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include <stdlib.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flesh/runtime/checkpoint_writer.hpp"
#include "flesh/runtime/host_memory.hpp"
#include "flesh/runtime/signal_dispositions.hpp"
#include "flesh/runtime/startup_report.hpp"
#include "ccl/model/common.hpp"
#include "ccl/parse.hpp"
#include "opuntia/collective_error.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia {

using ccl::iequals;

namespace {

double wall_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

/// Schedule conditions read parameters through the registry, as the thorn sees them.
class registry_conditions final : public condition_evaluator {
 public:
  explicit registry_conditions(const parameter_registry& registry) : registry_(registry) {}
  /// `name`, or `impl::name` where the thorn sees that parameter as impl's (its own
  /// implementation's, or one its param.ccl uses from impl): the rule opuntia-gen checks.
  std::optional<std::string> parameter_text(std::string_view thorn, std::string_view name) const override {
    try {
      const auto colons = name.find("::");
      const auto bare = colons == std::string_view::npos ? name : name.substr(colons + 2);
      const auto& seen = registry_.value(thorn, bare);
      if (colons != std::string_view::npos && &registry_.value(name.substr(0, colons), bare) != &seen) {
        return std::nullopt;
      }
      return opuntia::parameter_text(seen);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

 private:
  const parameter_registry& registry_;
};

/// Whether `dt` can step a run: positive, finite and not subnormal.
bool usable_time_step(double dt) { return dt > 0 && std::isnormal(dt); }

/// Fills in the line text of diagnostics that point into the parameter file.
ccl::input_error with_lines(const ccl::input_error& e, const ccl::source_file& file) {
  auto ds = e.diagnostics();
  ccl::fill_line_texts(ds, {&file});
  return ccl::input_error(std::move(ds));
}

}  // namespace

/// The routine_context a host routine of one thorn receives.
class simulation::context final : public routine_context {
 public:
  context(simulation& sim, std::string thorn, std::string routine = {})
      : sim_(sim), thorn_(std::move(thorn)), routine_(std::move(routine)) {}
  std::string_view thorn() const override { return thorn_; }
  const grid_layout& grid() const override { return sim_.driver_->layout(); }
  int iteration() const override { return sim_.iteration_; }
  double time() const override { return sim_.time_; }
  double dt() const override { return sim_.dt_; }
  void set_dt(double dt) override { sim_.set_dt(dt, thorn_ + "::" + routine_); }
  int rank() const override { return sim_.driver_->rank(); }
  int size() const override { return sim_.driver_->size(); }
  double reduce(double local, reduction op) const override { return sim_.driver_->reduce(local, op); }
  double sum(exact_sum& local) const override { return sim_.driver_->sum(local); }
  std::uint64_t wrapping_sum(std::uint64_t local) const override { return sim_.driver_->wrapping_sum(local); }
  std::vector<std::string> gather(const std::string& local) const override { return sim_.driver_->gather(local); }
  std::vector<variable_description> variables() const override {
    std::vector<variable_description> out;
    for (const auto* v : sim_.store_.visible_to(thorn_)) out.push_back(describe(*v));
    return out;
  }
  std::vector<variable_description> variables_named(std::string_view name) const override {
    std::vector<variable_description> out;
    for (const auto* v : named(name)) out.push_back(describe(*v));
    return out;
  }
  std::vector<std::string> grid_functions_named(std::string_view list) const override {
    std::vector<std::string> names;
    std::vector<const grid_variable*> seen;
    const auto add = [&](const grid_variable& v, std::string name) {
      if (std::find(seen.begin(), seen.end(), &v) != seen.end()) return;
      seen.push_back(&v);
      names.push_back(std::move(name));
    };
    const auto qualified = [](const grid_variable& v) { return v.implementation + "::" + v.name; };
    std::istringstream words{std::string(list)};
    for (std::string word; words >> word;) {
      if (iequals(word, "all")) {
        for (const auto& v : sim_.store_.variables()) {
          if (v.data_type == data_type::cctk_real && v.group_type == group_type::gf && !v.levels.empty()) {
            add(v, qualified(v));
          }
        }
        continue;
      }
      // A grid function keeps the name the list gives it (printed as the user wrote it).
      if (const auto* v = sim_.store_.try_find(thorn_, word)) {
        add(*v, word);
        continue;
      }
      for (const auto* v : named(word)) add(*v, qualified(*v));
    }
    return names;
  }
  const parameter_source& all_parameters() const override { return sim_.registry_; }
  /// The variables `name` names (a grid function or a group); where it names none and its
  /// qualifier is a thorn of this build that is not active (or its implementation), the error
  /// says so: the thorn's variables exist only when it runs.
  std::vector<grid_variable*> named(std::string_view name) const {
    try {
      return sim_.store_.variables_named(thorn_, name);
    } catch (const std::invalid_argument& e) {
      const auto colons = name.find("::");
      if (colons == std::string_view::npos) throw;
      const auto qualifier = name.substr(0, colons);
      for (const auto& t : sim_.thorns_) {
        const bool active = std::find(sim_.active_.begin(), sim_.active_.end(), &t) != sim_.active_.end();
        if (!active && (iequals(t.name, qualifier) || iequals(t.implementation, qualifier))) {
          throw std::invalid_argument(fmt::format("{}: thorn '{}' is not active; add it to ActiveThorns", e.what(), t.name));
        }
      }
      throw;
    }
  }
  std::span<const CCTK_REAL> read(std::string_view var, int level) override {
    return host_span<CCTK_REAL>(var, level, false);
  }
  std::span<CCTK_REAL> write(std::string_view var, int level) override { return host_span<CCTK_REAL>(var, level, true); }
  std::span<const CCTK_INT> read_integer(std::string_view var, int level) override {
    return host_span<CCTK_INT>(var, level, false);
  }
  CCTK_INT& integer_scalar(std::string_view name) override {
    auto& v = sim_.store_.find(thorn_, name);
    return *static_cast<CCTK_INT*>(sim_.store_.data(v, 0));
  }
  centerings centering(std::string_view name) override { return sim_.store_.find(thorn_, name).centering; }
  CCTK_REAL& real_scalar(std::string_view name) override {
    auto& v = sim_.store_.find(thorn_, name);
    return *static_cast<CCTK_REAL*>(sim_.store_.data(v, 0));
  }
  std::filesystem::path out_dir() override {
    auto dir = sim_.output_folder();
    std::filesystem::create_directories(dir);
    return dir;
  }
  void info(std::string_view message) override {
    if (sim_.driver_->rank() == 0) fmt::print(sim_.out_, "INFO ({}): {}\n", thorn_, message);
  }
  void warn(std::string_view message) override {
    if (sim_.driver_->rank() == 0) fmt::print(sim_.out_, "WARNING ({}): {}\n", thorn_, message);
  }
  void warn_about(const std::vector<std::string>& parameters, std::string_view message) override {
    std::vector<parameter_name> names;
    for (const auto& p : parameters) {
      const auto colons = p.find("::");
      names.push_back(colons == std::string::npos ? parameter_name{thorn_, p}
                                                  : parameter_name{p.substr(0, colons), p.substr(colons + 2)});
    }
    sim_.warn_at(names, std::string(message), fmt::format("WARNING ({}): ", thorn_));
  }
  void terminate_next(std::string_view reason, bool failed) override {
    auto& t = sim_.termination_;
    if (!t.asked) t.reason = fmt::format("{} asked: {}", thorn_, reason);
    t.asked = true;
    t.failed = t.failed || failed;
  }

 protected:
  const void* thorn_parameters() const override { return sim_.thorn_parameters(thorn_); }
  field_reduction local_reduction(std::string_view name, int level, reduction_figures figures) override {
    auto& v = real_variable(name);
    const auto& g = grid();
    if (v.group_type != group_type::gf) {
      throw std::invalid_argument(
          fmt::format("{}::{} is in a group of type {}: only grid functions (GF) are reduced over the grid",
                      v.implementation, v.name, ccl::name_of(v.group_type)));
    }
    // A device pass computes every figure (its cost is the array's one read); the host's exact
    // sums are most of its cost, and skipped where only the extremes are asked for.
    const bool with_sums = figures == reduction_figures::all;
    if (auto on_device = sim_.runtime_->reduce_on_device(v, level, g.allocated(), g.allocated_box(interior()))) {
      on_device->with_sums = with_sums;  // the same figures wherever it is reduced
      return std::move(*on_device);
    }
    const auto values = host_span<CCTK_REAL>(name, level, false);
    const index_range box = interior();
    return reduce_box_rows(box, [&](int j, int k) { return &values[g.index(box.begin[0], j, k)]; }, with_sums);
  }

 private:
  static variable_description describe(const grid_variable& v) {
    return {v.name, v.group, v.implementation, v.group_type, v.data_type, v.timelevels, !v.levels.empty()};
  }
  grid_variable& typed_variable(std::string_view name, data_type type) {
    auto& v = sim_.store_.find(thorn_, name);
    if (v.data_type != type) {
      throw std::invalid_argument(fmt::format("grid function {}::{} is {}, not {}", v.implementation, v.name,
                                              ccl::name_of(v.data_type), ccl::name_of(type)));
    }
    return v;
  }
  grid_variable& real_variable(std::string_view name) { return typed_variable(name, data_type::cctk_real); }
  /// Level `level` of `name` on the host, CCTK_REAL or CCTK_INT as T says.
  template <typename T>
  std::span<T> host_span(std::string_view name, int level, bool writing) {
    auto& v = typed_variable(name, std::is_same_v<T, CCTK_INT> ? data_type::cctk_int : data_type::cctk_real);
    sim_.runtime_->ensure_host(v, level);
    auto* data = static_cast<T*>(sim_.store_.data(v, level));
    if (writing) {
      sim_.runtime_->host_wrote(v, level);
      // Which ghost layers a host routine fills is its own affair: the next SYNC exchanges.
      if (sim_.ghost_depths_) sim_.ghost_depths_->forget(sim_.store_.key(v, level));
    }
    return {data, v.count};
  }

  simulation& sim_;
  std::string thorn_;
  std::string routine_;  // as scheduled; empty for the flesh's own contexts (context_for)
};

template <typename Work>
void simulation::at_parameter_lines(Work&& work) const {
  try {
    work();
  } catch (const parameter_value_error& e) {
    fail_at({{e.owner(), e.name()}}, e.what(), e.part());
  } catch (const parameter_value_errors& e) {
    std::vector<ccl::diagnostic> placed;
    for (const auto& one : e.errors()) {
      auto d = place_of({{one.owner(), one.name()}}, one.what(), one.part());
      if (!d) throw collective_error(e.what());  // the file set none: the messages alone
      placed.push_back(std::move(*d));
    }
    throw ccl::input_error(std::move(placed));
  } catch (const parameters_error& e) {
    fail_at(e.parameters(), e.what());
  }
}

simulation::simulation(std::vector<thorn_binding> thorns, providers provided, const ccl::source_file& parfile,
                       parameter_level level, std::ostream& out)
    : thorns_(std::move(thorns)),
      provided_(std::move(provided)),
      out_(out),
      registry_(provided_.registry_of(thorns_, level)) {
  parfile_name_ = parfile.path;
  ccl::parfile_file statements;
  try {
    statements = ccl::parse_parfile(parfile);
    registry_.apply(statements, parfile);
    const auto& driver_maker = provided_.active_driver(registry_, statements, parfile);
    runtime_provider_ = &provided_.active_kernel_runtime(registry_, statements, parfile);
    time_step_ = &provided_.active_time_step(registry_, statements, parfile);
    output_ = &provided_.active_output_folder(registry_, statements, parfile);
    checkpoints_ = provided_.active_checkpoints(registry_, statements, parfile);
    parfile_ = parfile;
    for (const auto& st : statements.statements) {
      if (st.what != ccl::parfile_statement::kind::active_thorns) continue;
      if (!active_thorns_at_) active_thorns_at_ = st.where;
      active_thorn_names_.insert(active_thorn_names_.end(), st.thorns.begin(), st.thorns.end());
    }
    // A value the parameter file gave that turns out wrong only now (no such device, no such
    // variant) is reported where the file set it.
    at_parameter_lines([&] {
      for (const auto& name : registry_.active_thorns()) active_.push_back(&thorn(name));
      for (const auto* t : active_) {
        if (t->make_parameters) typed_parameters_.emplace_back(t->name, t->make_parameters(registry_));
      }
      // Building the structs read everything; from now on their fields report real reads.
      registry_.reset_reads();
      schedule_ = schedule_tree::build(active_, registry_conditions(registry_), runtime_provider_->launch_routine);

      driver_ = driver_maker.make(registry_);
      // A kernel computes only where its STENCIL fits in the local block: on a face with a
      // neighbour, ghost zones narrower than the stencil would leave owned points uncomputed.
      std::array<int, 6> widest{};
      std::array<std::string, 6> widest_kernel;
      schedule_.for_each_node([&](const schedule_node& node) {
        const auto* k = launched_kernel(node);
        if (k == nullptr) return;
        for (int face = 0; face < 6; ++face) {
          if (k->stencil[face] > widest[face]) widest[face] = k->stencil[face], widest_kernel[face] = k->name;
        }
      });
      driver_->check_stencils(widest, widest_kernel);
      for (const auto* t : active_) store_.add_thorn(*t, driver_->layout());
      // Storage for every group named by a STORAGE: statement, or by a scheduled item's STORAGE
      // clause (kept on for the whole run rather than only during the routine).
      std::vector<std::string> storage = schedule_.storage();
      schedule_.for_each_node(
          [&](const schedule_node& node) { storage.insert(storage.end(), node.storage.begin(), node.storage.end()); });
      {
        // Libraries a backend loads may take signals over (pocl's LLVM swallows SIGQUIT).
        const keep_signal_dispositions keep_signals;
        runtime_ = runtime_provider_->make(registry_, store_);
      }
      check_variant();
      dt_ = time_step_->dt(registry_, driver_->layout());
      if (!usable_time_step(dt_)) {
        fail_at(time_step_parameters(),
                fmt::format("the time step dt = {:g} is not a positive normal double (finite, at least {:g})", dt_,
                            std::numeric_limits<double>::min()));
      }
      time_ = registry_.real("Cactus", "cctk_initial_time");
      read_checkpoint_settings();

      check_memory(storage);
      // The schedule tree qualifies every group as impl::group, so no thorn's view is needed.
      for (const auto& group : storage) store_.enable_storage("", group);
      find_reaches();
    });
  } catch (const ccl::input_error& e) {
    throw with_lines(e, parfile);
  }
}

void simulation::check_variant() {
  // The variant parameter picks among the variants generated for a kernel; it must name one.
  const auto& [owner, name] = runtime_provider_->variant;
  variant_ = registry_.text(owner, name);
  if (variant_.empty()) return;
  std::vector<std::string> available;
  for (const auto* t : active_) {
    for (const auto& k : t->kernels) {
      for (const auto& v : k.variants) {
        if (v.backend == runtime_->backend_name()) available.push_back(v.template_name);
      }
    }
  }
  if (std::find(available.begin(), available.end(), variant_) != available.end()) return;
  if (available.empty()) {
    throw parameter_value_error(owner, name,
                                fmt::format("{}::{} = \"{}\": no active thorn has kernels for it to choose among", owner,
                                            name, variant_));
  }
  std::sort(available.begin(), available.end());
  available.erase(std::unique(available.begin(), available.end()), available.end());
  throw parameter_value_error(owner, name,
                              fmt::format("{}::{} = \"{}\": no kernel of the active thorns has a variant of that "
                                          "name for backend {} (generated: {})",
                                          owner, name, variant_, runtime_->backend_name(), ccl::join_names(available)));
}

simulation::~simulation() = default;

simulation::folder_lock::~folder_lock() {
  if (fd >= 0) ::close(fd);
}

const thorn_binding& simulation::thorn(const std::string& name) const {
  const auto found = std::find_if(thorns_.begin(), thorns_.end(), [&](const auto& t) { return iequals(t.name, name); });
  if (found == thorns_.end()) throw std::logic_error("no compiled thorn " + name);
  return *found;
}

const void* simulation::thorn_parameters(const std::string& name) const {
  for (const auto& [thorn_name, p] : typed_parameters_) {
    if (iequals(thorn_name, name)) return p.get();
  }
  return nullptr;
}

std::string simulation::show_schedule() const { return schedule_.show(); }

kernel_grid simulation::grid_for_kernels() const {
  const auto& g = driver_->layout();
  kernel_grid k;
  k.dx = g.delta[0];
  k.dy = g.delta[1];
  k.dz = g.delta[2];
  k.dt = dt_;
  k.time = time_;
  k.it = iteration_;
  k.xmin = g.local_origin(0);
  k.ymin = g.local_origin(1);
  k.zmin = g.local_origin(2);
  k.xorigin = g.origin[0];
  k.yorigin = g.origin[1];
  k.zorigin = g.origin[2];
  k.lbndi = g.offset[0];
  k.lbndj = g.offset[1];
  k.lbndk = g.offset[2];
  k.gni = g.global[0];
  k.gnj = g.global[1];
  k.gnk = g.global[2];
  k.ni = g.local[0];
  k.ashi = g.row_pitch();
  k.leadi = g.lead;
  k.ashj = g.rows_per_plane();
  k.nj = g.local[1];
  k.nk = g.local[2];
  k.nghostsi = g.ghosts[0];
  k.nghostsj = g.ghosts[1];
  k.nghostsk = g.ghosts[2];
  for (int f = 0; f < 6; ++f) k.physical[f] = g.physical[static_cast<std::size_t>(f)];
  return k;
}

std::optional<ccl::diagnostic> simulation::place_of(const std::vector<parameter_name>& parameters,
                                                    const std::string& message, std::string_view part) const {
  std::vector<std::pair<ccl::diagnostic, std::string>> places;  // where set, owner::name
  for (const auto& p : parameters) {
    if (auto d = registry_.diagnostic_where_set(p.owner, p.name, message, part)) {
      places.emplace_back(*d, p.owner + "::" + p.name);
    }
  }
  if (places.empty()) return std::nullopt;
  std::stable_sort(places.begin(), places.end(),
                   [](const auto& a, const auto& b) { return ccl::earlier_place(a.first.where, b.first.where); });
  auto first = places.front().first;
  for (std::size_t i = 1; i < places.size(); ++i) {
    const auto& where = places[i].first.where;
    first.message += fmt::format("{} {} set at {}:{}:{}", i == 1 ? ";" : ",", places[i].second, where.path, where.line,
                                 where.column);
  }
  return first;
}

void simulation::fail_at(const std::vector<parameter_name>& parameters, const std::string& message,
                         std::string_view part) const {
  if (auto d = place_of(parameters, message, part)) throw ccl::input_error(std::move(*d));
  throw collective_error(message);
}

std::vector<parameter_name> simulation::time_step_parameters() const {
  if (!dt_set_by_.empty()) return {};
  return time_step_->parameters(registry_);
}

std::string simulation::dt_text() const {
  return dt_set_by_.empty() ? fmt::format("dt = {:g}", dt_) : fmt::format("dt = {:g} (set by {})", dt_, dt_set_by_);
}

void simulation::set_dt(double dt, const std::string& routine) {
  const auto setting = fmt::format("{} sets dt = {:g} at CCTK_{}", routine, dt, bin_);
  // Every rank is in the same bin and every rank calls it: each finds these errors alike.
  if (!dt_fixed_.empty()) {
    throw collective_error(fmt::format("{}, but {}: routines set the time step before the evolution, from CCTK_STARTUP "
                                       "to CCTK_POSTINITIAL (as Cactus thorns set cctk_delta_time at CCTK_BASEGRID)",
                                       setting, dt_fixed_));
  }
  const bool usable = usable_time_step(dt);
  // Ranks that stepped differently would go on with different times: -1 stands for one that is no time step.
  const double lowest = driver_->reduce(usable ? dt : -1, reduction::minimum);
  const double highest = driver_->reduce(usable ? dt : -1, reduction::maximum);
  if (!usable) {
    throw collective_error(fmt::format("{}: the time step must be a positive normal double (finite, at least {:g})",
                                       setting, std::numeric_limits<double>::min()));
  }
  if (lowest != highest) {
    throw collective_error(fmt::format("{}, but other ranks set {}: every rank must set the same time step", setting,
                                       lowest < 0 ? "no usable one" : fmt::format("from {:g} to {:g}", lowest, highest)));
  }
  dt_ = dt;
  dt_set_by_ = fmt::format("{} at CCTK_{}", routine, bin_);
  if (driver_->rank() == 0) fmt::print(out_, "opuntia: dt {:g} from now on, set by {}\n", dt_, dt_set_by_);
}

std::filesystem::path simulation::output_folder() const {
  // As the path means it, one spelling for the folders made, the files written and the lock:
  // "runs/wave/" as "runs/wave", "x/../a" as "a" (made as x/../a it would make x, never noted).
  auto folder = std::filesystem::path(registry_.text(output_->folder.owner, output_->folder.name)).lexically_normal();
  if (folder.has_parent_path() && !folder.has_filename()) folder = folder.parent_path();
  return folder;
}

void simulation::check_memory(const std::vector<std::string>& storage) {
  const auto add_once = [](std::vector<const grid_variable*>& list, const grid_variable* v) {
    if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
  };
  std::vector<const grid_variable*> stored;
  for (const auto& group : storage) {
    for (const auto* v : store_.group("", group)) add_once(stored, v);
  }
  // The variables scheduled kernels use: on a device backend each has device copies of its
  // levels (time levels rotate, so a kernel reading level 0 meets every one of them), and a
  // separateinout one a scratch buffer on the host and the device.
  std::vector<const grid_variable*> used_by_kernels, with_scratch;
  schedule_.for_each_node([&](const schedule_node& node) {
    const auto* kernel = launched_kernel(node);
    if (kernel == nullptr) return;
    for (const auto& kv : kernel->variables) {
      const auto* v = store_.try_find(node.thorn, kv.grid_function.empty() ? kv.name : kv.grid_function);
      if (v == nullptr) continue;  // an unknown variable is reported at launch
      add_once(used_by_kernels, v);
      if (kv.intent == kernel_intent::separateinout) add_once(with_scratch, v);
    }
  });

  memory_need host, device;
  for (const auto* v : stored) {
    const bool scratch = std::find(with_scratch.begin(), with_scratch.end(), v) != with_scratch.end();
    host.add(*v, v->timelevels, scratch);
    if (std::find(used_by_kernels.begin(), used_by_kernels.end(), v) != used_by_kernels.end()) {
      device.add(*v, v->timelevels, scratch);
    }
  }
  const auto& g = driver_->layout();
  const std::string points = fmt::format("{}x{}x{} points{}", g.local[0], g.local[1], g.local[2],
                                         g.local == g.global ? "" : " (ghost zones included)");
  const auto grid_size = driver_->size_parameters();
  const auto needs = [&](const memory_need& need, std::string_view memory) {
    return fmt::format("the run needs {} of {} memory for {} at {}", byte_text(need.bytes()), memory, need.arrays(),
                       points);
  };
  if (const auto available = host_memory_available(); available && host.bytes() > available->bytes) {
    fail_at(grid_size,
            fmt::format("{}; {} available ({})", needs(host, "host"), byte_text(available->bytes), available->source));
  }
  if (!runtime_->mirrors_on_device() || device.empty()) return;
  const auto backend = runtime_->backend_name();
  if (const auto free = runtime_->device_memory_available(); free && device.bytes() > static_cast<double>(*free)) {
    fail_at(grid_size, fmt::format("{}; {} available on the device", needs(device, backend + " device"),
                                   byte_text(static_cast<double>(*free))));
  }
  if (const auto largest = runtime_->largest_device_allocation();
      largest && device.largest_array() > static_cast<double>(*largest)) {
    fail_at(grid_size, fmt::format("one array of {} at {} is larger than the largest buffer the {} device allows ({})",
                                   byte_text(device.largest_array()), points, backend,
                                   byte_text(static_cast<double>(*largest))));
  }
}

void simulation::prepare_output_folder() {
  namespace fs = std::filesystem;
  const fs::path dir = output_folder();
  const auto& [owner, name] = output_->folder;
  const auto text = registry_.text(owner, name);  // as written, for the messages
  const auto fail = [&](const std::string& why) {
    fail_at({output_->folder}, fmt::format("{}::{} = \"{}\": {}", owner, name, text, why));
  };
  // What a shell would replace is not replaced here: such a folder would be named '~' or
  // '$HOME', in the working folder, and a later `rm -rf ~` of it a disaster.
  if (text.starts_with("~")) fail("'~' is not replaced by the home folder here (a shell does that): write the path");
  for (std::size_t at = text.find('$'); at != std::string::npos; at = text.find('$', at + 1)) {
    if (at + 1 < text.size() && (std::isalpha(static_cast<unsigned char>(text[at + 1])) || text[at + 1] == '{')) {
      fail("only $parfile is replaced in a parameter file's strings, not the environment's variables: write the path");
    }
  }
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error)) {
    fail("a file of that name is in the way of the output folder");
  }
  // Makes the folder, noting those this run makes, deepest first: a run refused before it writes
  // anything removes them again (remove_unused_output_folder). Again below, where the run this
  // one waited for removed the folder as it ended.
  created_output_folders_.clear();
  // output_folder() is the path's normal form, so that each folder made is one noted: a trailing
  // separator had "runs/wave/" noted, then "runs/wave", gone already, and the walk stopped short
  // of "runs"; "x/.." made x.
  const auto make_folder = [&] {
    for (auto missing = dir; !missing.empty() && !fs::exists(missing, error);
         missing = missing.parent_path()) {
      if (std::find(created_output_folders_.begin(), created_output_folders_.end(), missing) ==
          created_output_folders_.end()) {
        created_output_folders_.push_back(missing);
      }
      if (missing == missing.parent_path()) break;
    }
    fs::create_directories(dir, error);
    if (error == std::errc::no_such_file_or_directory && !created_output_folders_.empty()) {
      // The folder it would be made in exists, yet says there is no such file: a file system
      // that takes no new folders (/proc, /sys).
      fail(fmt::format("cannot create the output folder: {} takes no new folders ({})",
                       created_output_folders_.back().parent_path().string(), error.message()));
    }
    if (error) fail("cannot create the output folder: " + error.message());
  };
  make_folder();
  // Permissions alone do not say it (root writes anywhere but in /proc): try a file.
  std::string probe = (dir / ".opuntia-write-check-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) {
    // A folder that exists and says there is no such file when a file is made in it takes none (/proc).
    const int why = errno;
    const std::string reason = std::strerror(why);
    fail("cannot write in the output folder: " + (why == ENOENT ? "it takes no new files (" + reason + ")" : reason));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  // Two runs writing one folder would write over each other's files and checkpoints: the
  // second waits for the first. flock() is released when the process ends, even by SIGKILL.
  if (driver_->rank() != 0 || out_dir_lock_.fd >= 0) return;
  const auto lock_path = dir / ".opuntia.lock";
  bool waited = false;
  for (int attempt = 0;; ++attempt) {
    out_dir_lock_.fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    // The run before may still be removing the folder (below): it is made again, a few times.
    if (out_dir_lock_.fd < 0 && errno == ENOENT && attempt < 100) {
      make_folder();
      continue;
    }
    if (out_dir_lock_.fd < 0) fail(fmt::format("cannot create {}: {}", lock_path.string(), std::strerror(errno)));
    if (::flock(out_dir_lock_.fd, LOCK_EX | LOCK_NB) != 0) {
      if (!waited) {
        char holder[256] = {};
        const auto got = ::pread(out_dir_lock_.fd, holder, sizeof holder - 1, 0);
        std::string who = got > 0 ? std::string(holder, static_cast<std::size_t>(got)) : "another run";
        while (!who.empty() && who.back() == '\n') who.pop_back();
        fmt::print(out_, "opuntia: waiting for {}::{} = \"{}\": {} writes there\n", owner, name, dir.string(), who);
        out_.flush();
        waited = true;
      }
      while (::flock(out_dir_lock_.fd, LOCK_EX) != 0) {
        if (errno != EINTR) fail(fmt::format("cannot lock {}: {}", lock_path.string(), std::strerror(errno)));
      }
    }
    // The run this one waited for may have removed the folder and its lock as it ended, having
    // written nothing (remove_unused_output_folder): the lock now held is then on a file no
    // longer there, which a third run would not see. Take it again, in the folder made anew.
    struct stat held {}, named {};
    if (::fstat(out_dir_lock_.fd, &held) == 0 && ::stat(lock_path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      break;
    }
    ::close(out_dir_lock_.fd);
    out_dir_lock_.fd = -1;
    make_folder();
  }
  char host[128] = {};
  ::gethostname(host, sizeof host - 1);
  const auto holder = fmt::format("the run of {} (process {} on {})\n", parfile_name_, ::getpid(), host);
  if (::ftruncate(out_dir_lock_.fd, 0) != 0 || ::pwrite(out_dir_lock_.fd, holder.data(), holder.size(), 0) < 0) {
    fail(fmt::format("cannot write {}: {}", lock_path.string(), std::strerror(errno)));
  }
}

void simulation::warn_if_final_time_out_of_reach(bool after_time_step_set) const {
  // Beyond this many steps no run on any grid ends in a working day: a time step far too small.
  constexpr double plausible_steps = 1e9;
  const auto terminate = registry_.text("Cactus", "terminate");
  if (terminate == "runtime" && registry_.real("Cactus", "max_runtime") <= 0 && !after_time_step_set) {
    const auto message = fmt::format("Cactus::terminate = \"runtime\" but Cactus::max_runtime = {:g} sets no limit "
                                     "(only a positive number of minutes does): the run does not end",
                                     registry_.real("Cactus", "max_runtime"));
    warn_at({{"Cactus", "terminate"}, {"Cactus", "max_runtime"}}, message, "opuntia: warning: ");
    return;
  }
  if (terminate != "time" && terminate != "any") return;
  if (terminate == "any" &&
      (registry_.integer("Cactus", "cctk_itlast") < plausible_steps || registry_.real("Cactus", "max_runtime") > 0)) {
    return;  // the iteration or the wall-clock limit ends the run in time
  }
  const double final_time = registry_.real("Cactus", "cctk_final_time");
  const bool no_final_time = final_time < 0;  // finished() never stops by time then
  if (no_final_time && after_time_step_set) return;  // said before: no time step changes it
  const double steps = (final_time - time_) / dt_;
  if (!no_final_time && steps <= plausible_steps) return;
  std::vector<parameter_name> parameters = {{"Cactus", no_final_time ? "terminate" : "cctk_final_time"}};
  for (auto&& p : no_final_time ? std::vector<parameter_name>{{"Cactus", "cctk_final_time"}} : time_step_parameters()) {
    parameters.push_back(std::move(p));
  }
  const auto message =
      no_final_time ? fmt::format("Cactus::terminate = \"{}\" but Cactus::cctk_final_time = {:g} is never reached "
                                  "(a negative final time means none): the run does not end",
                                  terminate, final_time)
                    : fmt::format("reaching Cactus::cctk_final_time = {:g} from time {:g} takes {} of {}: the run "
                                  "will not get there",
                                  final_time, time_,
                                  std::isfinite(steps) ? fmt::format("about {:.3g} steps", steps)
                                                       : std::string("more steps than a double counts"),
                                  dt_text());
  warn_at(parameters, message, "opuntia: warning: ");
}

void simulation::warn_at(const std::vector<parameter_name>& parameters, const std::string& message,
                         std::string_view unplaced) const {
  if (driver_->rank() != 0) return;
  if (const auto d = place_of(parameters, message)) {
    fmt::print(out_, "{}:{}:{}: warning: {}\n", d->where.path, d->where.line, d->where.column, d->message);
  } else {
    fmt::print(out_, "{}{}\n", unplaced, message);
  }
}

std::string simulation::idle_run_warning() const {
  const auto declares_grid_functions = [](const thorn_binding& t) {
    return std::any_of(t.groups.begin(), t.groups.end(),
                       [](const group_binding& g) { return g.group_type != ccl::group_type::scalar; });
  };
  if (std::none_of(active_.begin(), active_.end(), [&](const thorn_binding* t) { return declares_grid_functions(*t); })) {
    std::vector<std::string> named, applications;
    for (const auto& t : active_thorn_names_) named.push_back(t.text);
    for (const auto& t : thorns_) {
      if (declares_grid_functions(t)) applications.push_back(t.name);
    }
    return fmt::format("opuntia: warning: no active thorn declares a grid function, so the run computes nothing: {}; "
                       "the thorns of this build that do: {}\n",
                       named.empty() ? "the parameter file has no ActiveThorns line"
                                     : fmt::format("ActiveThorns names {}", ccl::join_names(named)),
                       applications.empty() ? "none" : ccl::join_names(applications));
  }
  if (finished()) return {};  // no iteration to run
  bool evolves = false;
  const std::function<void(const std::vector<schedule_node>&)> visit = [&](const std::vector<schedule_node>& nodes) {
    for (const auto& node : nodes) {
      evolves = evolves || node.what == schedule_node::kind::routine;
      visit(node.children);
    }
  };
  visit(schedule_.bin("EVOL"));
  if (evolves) return {};
  return fmt::format("opuntia: warning: nothing is scheduled in CCTK_EVOL, so the evolution's iterations evolve "
                     "nothing (opuntia --show-schedule {} shows what runs when)\n",
                     parfile_name_);
}

double simulation::next_time() const {
  const double next = time_ + dt_;
  if (next == time_) {
    // Found at the first step, not before the run: a routine may set dt until CCTK_POSTINITIAL.
    // From the initial time, that time is as much the cause as the step.
    auto parameters = time_step_parameters();
    if (time_ == registry_.real("Cactus", "cctk_initial_time")) {
      parameters.insert(parameters.begin(), {"Cactus", "cctk_initial_time"});
    }
    fail_at(parameters,
            fmt::format("the time step {} no longer changes the time {:g} at iteration {} (it is below the "
                        "resolution of a double there): the run would make no progress",
                        dt_text(), time_, iteration_ + 1));
  }
  return next;
}

void simulation::stop_if_signalled(bool iteration_done) {
  int signal = stop_signals_ != nullptr ? stop_signals_->received() : 0;
  if (checkpoints_on_terminate()) {
    // A checkpoint holds the state between two iterations, which every rank writes together:
    // the run goes on to the end of the iteration, and stops there on every rank if one was
    // signalled (mpirun passes a signal to each rank, not at the same moment).
    if (!iteration_done) return;
    signal = static_cast<int>(driver_->reduce(signal, reduction::maximum));
    if (signal == 0) return;
    if (last_checkpoint_ != iteration_) write_checkpoint(true);
  }
  if (signal == 0) return;
  collect_checkpoint_write(true);  // the checkpoint in flight completes before the run stops
  const auto message =
      fmt::format("opuntia: stopped by {} at iteration {}, time {:g}", stop_signal_name(signal), iteration_, time_);
  if (driver_->rank() == 0) fmt::print(out_, "{}\n", message);
  out_.flush();
  throw run_stopped(signal, message);
}

std::unique_ptr<routine_context> simulation::context_for(const std::string& thorn) {
  return std::make_unique<context>(*this, thorn);
}

bool simulation::condition_holds(const std::vector<std::string>& scalars, const std::string& thorn_name) {
  for (const auto& name : scalars) {
    auto& v = store_.find(thorn_name, name);
    runtime_->ensure_host(v);
    const bool nonzero = v.data_type == data_type::cctk_int ? *static_cast<CCTK_INT*>(store_.data(v, 0)) != 0
                                                   : *static_cast<CCTK_REAL*>(store_.data(v, 0)) != 0;
    if (!nonzero) return false;
  }
  return true;
}

void simulation::run_node(const schedule_node& node) {
  if (!node.if_vars.empty() && !condition_holds(node.if_vars, node.thorn)) return;
  if (node.what == schedule_node::kind::group) {
    const auto run_children = [&] {
      for (const auto& child : node.children) run_node(child);
    };
    if (!node.while_vars.empty()) {
      while (condition_holds(node.while_vars, node.thorn)) run_children();
    } else if (!node.until_vars.empty()) {
      do {  // UNTIL: at least once, then until the scalar is non-zero
        run_children();
      } while (!condition_holds(node.until_vars, node.thorn));
    } else {
      run_children();
    }
    return;
  }
  run_routine(node);
}

namespace {

/// A kernel's points split for overlap: `first`, slabs 2 x ghost width deep along every face
/// whose ghost zones are exchanged (the ghosts, and the owned layers the SYNC sends), disjoint;
/// `then`, the rest. Nothing to split (no exchanged face): both empty.
launch_parts rim_then_interior(const grid_layout& g) {
  launch_parts parts;
  index_range rest{{0, 0, 0}, g.local};
  for (int d = 0; d < 3; ++d) {
    const int depth = 2 * g.ghosts[d];
    if (depth == 0) continue;
    if (!g.physical[2 * d]) {
      index_range slab = rest;
      slab.end[d] = std::min(rest.begin[d] + depth, rest.end[d]);
      rest.begin[d] = slab.end[d];
      if (slab.points() > 0) parts.first.push_back(slab);
    }
    if (!g.physical[2 * d + 1]) {
      index_range slab = rest;
      slab.begin[d] = std::max(rest.end[d] - depth, rest.begin[d]);
      rest.end[d] = slab.begin[d];
      if (slab.points() > 0) parts.first.push_back(slab);
    }
  }
  if (parts.first.empty()) return {};
  if (rest.points() > 0) parts.then.push_back(rest);
  return parts;
}

/// The grid function a kernel variable names (`phi` for `phi_p`).
const std::string& grid_function_of(const kernel_variable_binding& kv) {
  return kv.grid_function.empty() ? kv.name : kv.grid_function;
}

/// Whether a launch reads the variable's buffer: every intent but `out`, and past time levels.
bool reads(const kernel_variable_binding& kv) { return kv.intent != kernel_intent::out || kv.timelevel > 0; }

/// A boundary kernel (TYPE */boundary, CaKernel's BOUNDARY type) updates only the slabs of the
/// physical faces; every other kernel type computes every point where its STENCIL fits.
bool updates_physical_faces_only(const kernel_binding& k) {
  const auto last = k.type_pattern.substr(k.type_pattern.find_last_of('/') + 1);
  return iequals(last, "boundary");
}

/// Whether a kernel reads along the axes only (CaKernel's 3DSTENCIL): one of its variants'
/// templates says so (a body that compiled with I3D_l offsets along one axis reads so in every
/// variant; a boundary template says so of every body, which reads along its face's normal).
/// Other kernels may read edges and corners of the ghost zones.
bool reads_along_axes_only(const kernel_binding& k) {
  return std::any_of(k.variants.begin(), k.variants.end(), [](const auto& v) { return v.reads_along_axes_only; });
}

}  // namespace

void simulation::find_reaches() {
  if (!driver_->exchanges()) return;
  ghost_depths_.emplace(driver_->exchanged_ghost_widths(), driver_->periodic_faces(), driver_->physical_face_blocks());
  const auto widen = [&](const grid_variable& v, const ghost_depths::faces& reach) {
    auto& r = reach_[v.id];
    for (int f = 0; f < 6; ++f) r[f] = std::max(r[f], reach[f]);
  };
  schedule_.for_each_node([&](const schedule_node& node) {
    if (const auto* k = launched_kernel(node)) {
      ghost_depths::faces stencil;
      std::copy(std::begin(k->stencil), std::end(k->stencil), stencil.begin());
      for (const auto& kv : k->variables) {
        if (!reads(kv)) continue;
        const auto* v = store_.try_find(node.thorn, grid_function_of(kv));
        if (v == nullptr) continue;
        widen(*v, stencil);
        if (!reads_along_axes_only(*k)) read_off_axes_.insert(v->id);
      }
      return;
    }
    // READS: impl::v(everywhere) (or a group): a host routine that reads the ghost zones, all of them.
    for (const auto& item : node.reads) {
      const auto open = item.find('(');
      if (open == std::string::npos) continue;
      auto region = std::string_view(item).substr(open + 1);
      region = region.substr(0, region.find(')'));
      if (!iequals(region, "everywhere")) continue;  // the parser trims items
      const auto name = std::string_view(item).substr(0, open);
      auto members = store_.group(node.thorn, name);
      if (auto* v = store_.try_find(node.thorn, name)) members.push_back(v);
      for (const auto* v : members) {
        widen(*v, ghost_depths_->width());
        read_off_axes_.insert(v->id);
      }
    }
  });
}

std::string simulation::faces_only_report() {
  if (!ghost_depths_) return {};
  std::vector<std::string> names;
  schedule_.for_each_node([&](const schedule_node& node) {
    for (const auto& group : node.sync) {
      for (auto* v : store_.group(node.thorn, group)) {
        const auto name = v->implementation + "::" + v->name;
        if (extent_for({v}) == halo_extent::faces && std::find(names.begin(), names.end(), name) == names.end()) {
          names.push_back(name);
        }
      }
    }
  });
  if (names.empty()) return {};
  return fmt::format("  SYNC fills the faces only, one round (every reader stencils along the axes): {}\n",
                     fmt::join(names, ", "));
}

halo_extent simulation::extent_for(const std::vector<grid_variable*>& variables) const {
  if (!driver_->syncs_faces_only()) return halo_extent::faces_edges_corners;
  for (const auto* v : variables) {
    if (read_off_axes_.count(v->id) != 0) return halo_extent::faces_edges_corners;
    const auto reach = reach_of(*v);
    for (int f = 0; f < 6; ++f) {
      if (ghost_depths_->width()[f] > reach[f]) return halo_extent::faces_edges_corners;
    }
  }
  return halo_extent::faces;
}

ghost_depths::faces simulation::reach_of(const grid_variable& v) const {
  ghost_depths::faces reach{1, 1, 1, 1, 1, 1};
  if (const auto found = reach_.find(v.id); found != reach_.end()) {
    for (int f = 0; f < 6; ++f) reach[f] = std::max(reach[f], found->second[f]);
  }
  return reach;
}

void simulation::track_ghosts(const schedule_node& node, const kernel_binding& kernel) {
  if (!ghost_depths_) return;
  auto& depths = *ghost_depths_;
  ghost_depths::faces stencil;
  std::copy(std::begin(kernel.stencil), std::end(kernel.stencil), stencil.begin());
  std::vector<buffer_key> read_buffers;
  for (const auto& kv : kernel.variables) {
    auto* v = store_.try_find(node.thorn, grid_function_of(kv));
    if (v == nullptr || v->levels.empty() || !reads(kv)) continue;  // the launch reports a missing one
    const auto buffer = store_.key(*v, kv.timelevel);
    read_buffers.push_back(buffer);
    // Only a cached variable is read with I3D_l across the STENCIL; a SYNC missing after it was
    // computed gives other values on other rank counts, so the run stops rather than go on.
    if (!kv.cached) continue;
    if (const auto face = depths.stale_face(buffer, stencil)) {
      const auto* k = depths.find(buffer);
      // Every rank finds it alike, at the schedule item that reads: a diagnostic there.
      // Thin blocks: the boundary kernel rewrote what the neighbours hold as ghosts, which a SYNC
      // after it would bring (or thicker blocks leave alone).
      const auto& thin_blocks = k->thin_blocks[static_cast<std::size_t>(*face)];
      const std::string remedy =
          thin_blocks.empty()
              ? fmt::format("a SYNC of {}::{} is missing between them in the schedule", v->implementation, v->group)
              : fmt::format("{}: a SYNC of {}::{} after {}, or fewer ranks along {} (Driver::processor_topology), "
                            "would keep them current",
                            thin_blocks, v->implementation, v->group, k->writer, "xyz"[*face / 2]);
      throw ccl::input_error(ccl::error_at(
          split_origin(node.origin),
          fmt::format("kernel {} reads {}::{} {} point{} across the {} faces between the ranks' blocks, but only {} "
                      "of its ghost layers there are current since {} computed it: {}",
                      kernel.name, v->implementation, kv.name, stencil[*face], stencil[*face] == 1 ? "" : "s",
                      ghost_depths::face_name(*face), k->readable[*face], k->writer, remedy)));
    }
  }
  const auto computed = depths.computed(read_buffers, stencil);
  const bool whole_block = !updates_physical_faces_only(kernel);
  ghost_depths::faces exterior;
  std::copy(std::begin(kernel.exterior), std::end(kernel.exterior), exterior.begin());
  for (const auto& kv : kernel.variables) {
    if (kv.intent == kernel_intent::in || kv.timelevel > 0) continue;
    auto* v = store_.try_find(node.thorn, grid_function_of(kv));
    if (v == nullptr || v->levels.empty()) continue;
    // A separateinout kernel writes the second buffer, level 0 after the launch.
    const auto written = kv.intent == kernel_intent::separateinout ? store_.scratch_key(*v) : store_.key(*v, 0);
    if (whole_block) {
      depths.kernel_wrote(written, computed, kernel.name);
    } else {
      depths.boundary_wrote(written, computed, exterior, kernel.name);
    }
  }
}

std::vector<grid_variable*> simulation::stale_synced(const schedule_node& node, const kernel_binding* kernel) {
  std::vector<grid_variable*> variables;
  if (node.sync.empty() || !driver_->exchanges()) return variables;
  // Before `kernel` runs, a separateinout variable's level 0 after it is the second buffer it writes.
  const auto swapped = [&](grid_variable* v) {
    return kernel != nullptr && std::any_of(kernel->variables.begin(), kernel->variables.end(), [&](const auto& kv) {
             return kv.intent == kernel_intent::separateinout && store_.try_find(node.thorn, grid_function_of(kv)) == v;
           });
  };
  for (const auto& group : node.sync) {
    for (auto* v : store_.group(node.thorn, group)) {
      if (v->levels.empty() || std::find(variables.begin(), variables.end(), v) != variables.end()) continue;
      const auto buffer = swapped(v) ? store_.scratch_key(*v) : store_.key(*v, 0);
      if (ghost_depths_->short_of(buffer, reach_of(*v))) variables.push_back(v);
    }
  }
  return variables;
}

const kernel_binding* simulation::launched_kernel(const schedule_node& node) const {
  if (node.kernel.empty()) return nullptr;
  const auto& t = thorn(node.thorn);
  const auto kernel =
      std::find_if(t.kernels.begin(), t.kernels.end(), [&](const auto& k) { return k.name == node.kernel; });
  if (kernel == t.kernels.end()) throw std::logic_error("no kernel " + node.kernel + " in thorn " + t.name);
  return &*kernel;
}

void simulation::run_routine(const schedule_node& node) {
  const auto& t = thorn(node.thorn);
  auto timer_of = std::find_if(timers_.begin(), timers_.end(),
                               [&](const timer& x) { return x.name == node.name && x.thorn == node.thorn; });
  if (timer_of == timers_.end()) timer_of = timers_.insert(timers_.end(), timer{node.name, node.thorn, 0, 0, {}});
  ++timer_of->calls;
  // A kernel is enqueued and timed on the device, between events around it (the host goes on);
  // a host routine on the host's clock; the SYNC after either by the driver, phase by phase.
  double start = wall_seconds();
  queue_event_ptr rim_done;  // set when the kernel ran rim first: the SYNC starts after the rim
  std::vector<grid_variable*> stale;  // what the SYNC after it exchanges
  if (const auto* kernel = launched_kernel(node)) {
    // The chosen variant where this kernel has it; its first variant otherwise.
    const bool has_variant = std::any_of(kernel->variants.begin(), kernel->variants.end(), [&](const auto& v) {
      return v.template_name == variant_ && v.backend == runtime_->backend_name();
    });
    track_ghosts(node, *kernel);
    stale = stale_synced(node, kernel);
    const bool syncs = !stale.empty();
    // On a device the rim goes first and the interior runs while the SYNC exchanges the rim.
    const auto parts = syncs && driver_->overlaps_sync() && runtime_->mirrors_on_device()
                           ? rim_then_interior(driver_->layout())
                           : launch_parts{};
    // The first two launches of a routine are timed (the first loads the kernel's code), then one
    // in timing_stride(), each standing for the untimed ones before it: on a device the others
    // record no events around them, which cost the host (OpenCL) or the device (CUDA) time.
    const bool timed = timer_of->calls <= 2 || (timer_of->calls - 2) % runtime_->timing_stride() == 0;
    // What it runs is decided first (autotuning measures at a kernel's first launch on a grid
    // size), outside the routine's timer: its own row of the report.
    const void* parameters = thorn_parameters(t.name);
    const kernel_grid grid = grid_for_kernels();
    static const std::string any_variant;  // empty: the kernel's first, or the tuner's choice
    const std::string& variant = has_variant ? variant_ : any_variant;
    const double tuning_start = wall_seconds();
    runtime_->prepare(t, *kernel, parameters, grid, variant, parts);
    if (const auto notes = runtime_->take_notes(); !notes.empty()) {
      tuning_seconds_ += wall_seconds() - tuning_start;
      ++tuned_launches_;
      // A variant and tile chosen by measurement, or found in the cache, says so (rank 0's).
      for (const auto& note : notes) {
        if (driver_->rank() == 0) fmt::print(out_, "{}\n", note);
      }
    }
    const double launch_start = wall_seconds();
    auto before = timed ? runtime_->record_launch_start() : nullptr;
    auto launched = runtime_->launch(t, *kernel, parameters, grid, variant, parts,
                                     timed ? launch_timing::timed : launch_timing::untimed);
    rim_done = std::move(launched.first_part_done);
    auto after = launched.done ? std::move(launched.done) : runtime_->record();
    ++launches_;
    launch_host_seconds_ += wall_seconds() - launch_start;
    // Without overlap the exchange waits for the kernel here, which keeps the kernel out of its time.
    if (syncs && !rim_done) after->wait();
    if (timed) {
      timer_of->on_device.push_back({std::move(before), std::move(after), 1 + timer_of->untimed});
      timer_of->untimed = 0;
    } else {
      ++timer_of->untimed;
    }
    start = wall_seconds();
  } else {
    const auto routine = std::find_if(t.routines.begin(), t.routines.end(),
                                      [&](const auto& r) { return iequals(r.name, node.function); });
    if (routine == t.routines.end()) throw std::logic_error("no routine " + node.function + " in thorn " + t.name);
    context c(*this, t.name, node.name);
    at_parameter_lines([&] { routine->function(c); });  // a routine may check its thorn's parameters
    stale = stale_synced(node);
  }
  timer_of->seconds += wall_seconds() - start;
  sync(node, stale, rim_done.get());  // timed by the driver, phase by phase
  stop_if_signalled();
}

void simulation::read_device_timers(bool wait) {
  // A timer's events were recorded in launch order on the run's queue, which completes them in
  // that order: the first one not done ends the look. (Asking every pending event, each
  // iteration asked as many as the run had launched ahead of the device.)
  for (auto& t : timers_) {
    while (!t.on_device.empty()) {
      const auto& [before, after, launches] = t.on_device.front();
      if (wait) {
        after->wait();
      } else if (!after->done()) {
        break;
      }
      t.last_timed_seconds = runtime_->elapsed_seconds(*before, *after);
      t.seconds += static_cast<double>(launches) * t.last_timed_seconds;
      t.on_device.pop_front();
    }
  }
}

void simulation::sync(const schedule_node& node, const std::vector<grid_variable*>& variables, queue_event* after) {
  // Nothing to exchange (one process, no periodic direction): no data moves at all.
  if (node.sync.empty() || !driver_->exchanges()) return;
  // Ghost zones still current from the last exchange, computed again by the kernels since
  // (ghost zones wider than the stencils): nothing to move either.
  if (variables.empty()) {
    ++skipped_syncs_;
    return;
  }
  const auto extent = extent_for(variables);
  for (auto* v : variables) {
    ghost_depths_->exchanged(store_.key(*v, 0), "the SYNC after " + node.name, extent == halo_extent::faces);
  }
  // On the device when the kernels left the current copies there: only the halo moves.
  if (auto* device = runtime_->device_halo(variables, after)) {
    driver_->sync(variables, *device, extent);
    for (auto* v : variables) runtime_->device_wrote(*v);
    return;
  }
  for (auto* v : variables) runtime_->ensure_host(*v);
  driver_->sync(variables, host_halo_, extent);
  for (auto* v : variables) runtime_->host_wrote(*v);
}

void simulation::run_bin(const std::string& bin) {
  bin_ = bin;
  // As Cactus's PARAMCHECK, where CCTK_PARAMWARN lets every check speak before the run stops:
  // in the bins that check a run before its initial data, a routine that finds a parameter wrong
  // does not hide what the routines after it find (IOHDF5's variable names, then IOASCII's).
  const bool checks = bin == "PARAMCHECK" || bin == "BASEGRID";
  std::vector<ccl::diagnostic> wrong;
  for (const auto& node : schedule_.bin(bin)) {
    if (!checks) {
      run_node(node);
      continue;
    }
    try {
      run_node(node);
    } catch (const ccl::input_error& e) {
      wrong.insert(wrong.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }
  if (wrong.empty()) return;
  ccl::sort_by_place(wrong);
  throw ccl::input_error(std::move(wrong));
}

bool simulation::termination_agreed() {
  // A routine on one rank may ask: every rank learns it here, and all leave the loop together.
  const double asked = driver_->reduce(!termination_.asked ? 0 : termination_.failed ? 2 : 1, reduction::maximum);
  if (asked == 0) return false;
  termination_.failed = asked == 2;
  const auto reasons = driver_->gather(termination_.reason);
  const auto reason = std::find_if(reasons.begin(), reasons.end(), [](const auto& r) { return !r.empty(); });
  if (reason != reasons.end()) {
    fmt::print(out_, "opuntia: terminated after iteration {}, time {:g}: {}\n", iteration_, time_, *reason);
  }
  return true;
}

bool simulation::finished() const {
  // Only the limits `terminate` names are read: a limit it ignores, set in the parameter file,
  // is then one that no run reads, which --parameter-level strict reports.
  const auto terminate = registry_.text("Cactus", "terminate");
  const bool any = terminate == "any";
  const auto by_iteration = [&] { return iteration_ >= registry_.integer("Cactus", "cctk_itlast"); };
  const auto by_time = [&] {
    const double final_time = registry_.real("Cactus", "cctk_final_time");
    return final_time >= 0 && time_ >= final_time - 1e-12 * std::max(1.0, std::abs(final_time));
  };
  const auto by_runtime = [&] {
    const double max_minutes = registry_.real("Cactus", "max_runtime");
    return max_minutes > 0 && wall_seconds() - run_start_ >= 60 * max_minutes;
  };
  // `any` asks all three every iteration (no || short cut), so that each counts as read.
  const bool stop_by_iteration = (terminate == "iteration" || any) && by_iteration();
  const bool stop_by_time = (terminate == "time" || any) && by_time();
  const bool stop_by_runtime = (terminate == "runtime" || any) && by_runtime();
  return stop_by_iteration || stop_by_time || stop_by_runtime;
}

void simulation::print_progress(double elapsed) {
  if (driver_->rank() != 0) return;
  const auto& g = driver_->layout();
  const double points = static_cast<double>(g.global[0]) * g.global[1] * g.global[2];
  // The rate of the steady state once it has begun (the first iterations' one-off costs left out).
  const bool steady = steady_.iteration >= 0 && iteration_ > steady_.iteration;
  const double rate_seconds = steady ? wall_seconds() - steady_.wall : elapsed;
  const int rate_iterations = steady ? iteration_ - steady_.iteration : iteration_ - evolution_first_iteration_;
  const double glups = rate_seconds > 0 ? points * rate_iterations / rate_seconds / 1e9 : 0;
  // Time left from whichever limit applies, at the rate above: the iterations still to go (by
  // cctk_itlast, or by cctk_final_time at this dt), or the wall-clock minutes of max_runtime. Not
  // a fraction of the whole run: a run recovered from a checkpoint, or starting at a time other
  // than 0, has done only part of it in this process. The line names the limit: a thorn may end
  // the run before it (the cavity at steady state, through terminate_next), and then the time
  // is the most the run can take, not what it will.
  const auto terminate = registry_.text("Cactus", "terminate");
  const bool any = terminate == "any";
  double seconds_left = -1;
  std::string limit;
  const auto at_most = [&](double seconds, std::string named) {
    if (seconds_left >= 0 && seconds_left <= seconds) return;
    seconds_left = seconds;
    limit = std::move(named);
  };
  const double seconds_an_iteration = rate_iterations > 0 ? rate_seconds / rate_iterations : -1;
  if ((terminate == "iteration" || any) && seconds_an_iteration >= 0) {
    const auto last = registry_.integer("Cactus", "cctk_itlast");
    at_most(std::max(0.0, static_cast<double>(last - iteration_)) * seconds_an_iteration, fmt::format("it {}", last));
  }
  if ((terminate == "time" || any) && dt_ > 0 && seconds_an_iteration >= 0) {
    const double final_time = registry_.real("Cactus", "cctk_final_time");
    if (final_time >= 0) {
      at_most(std::max(0.0, (final_time - time_) / dt_) * seconds_an_iteration, fmt::format("time {:g}", final_time));
    }
  }
  if (terminate == "runtime" || any) {
    const double max_minutes = registry_.real("Cactus", "max_runtime");
    if (max_minutes > 0) at_most(std::max(0.0, 60 * max_minutes - (wall_seconds() - run_start_)), "max_runtime");
  }
  // Beyond a year or so, the order of magnitude is what matters (and 300 digits would not).
  const std::string left = seconds_left < 0    ? "?"
                           : seconds_left < 1e7 ? fmt::format("{:.1f} s to {}", seconds_left, limit)
                                                : fmt::format("{:.3g} s to {}", seconds_left, limit);
  // A run that updates no grid point has no rate of lattice updates: "-", not points over time.
  const std::string rate = idle_run_ ? fmt::format("{:>8}", "-") : fmt::format("{:8.4f}", glups);
  fmt::print(out_, "it {:>7}  time {:<12.6g}  {} GLUP/s  left {}\n", iteration_, time_, rate, left);
}

std::vector<simulation::report_row> simulation::report_rows() {
  read_device_timers(true);
  std::vector<report_row> rows;
  for (const auto& t : timers_) {
    rows.push_back({t.name, t.thorn, t.calls, t.seconds + static_cast<double>(t.untimed) * t.last_timed_seconds});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.seconds > b.seconds; });
  // Checkpoints: what the run waited for apart from what the writer did while it went on.
  const auto rate = [](const checkpoint_totals& c) { return byte_text(c.writing > 0 ? c.bytes / c.writing : 0); };
  if (in_background_.count > 0) {
    rows.push_back(
        {"checkpoint: snapshot, the run waits", checkpoints_->thorn, in_background_.count, in_background_.stalled});
    rows.push_back({fmt::format("checkpoint: background write, {}/s", rate(in_background_)), checkpoints_->thorn,
                    in_background_.count, in_background_.writing, "checkpoint: background write"});
    if (in_background_.previous_waits > 0) {
      rows.push_back({"checkpoint: the write before, the run waits", checkpoints_->thorn,
                      in_background_.previous_waits, in_background_.waited_for_previous});
    }
    if (in_background_.paced > 0) {
      rows.push_back({"checkpoint: the device beyond its pace", checkpoints_->thorn, in_background_.paced,
                      in_background_.device_cost});
    }
  }
  if (waited_for_.count > 0) {
    rows.push_back({fmt::format("checkpoint: write, the run waits, {}/s", rate(waited_for_)), checkpoints_->thorn,
                    waited_for_.count, waited_for_.writing, "checkpoint: write, the run waits"});
  }
  for (const auto& t : driver_->sync_timers()) rows.push_back({t.name, "Driver", t.calls, t.seconds});
  // The same exchanges as the device sees them: its packs and unpacks, without the host's waits.
  if (const auto copies = runtime_->halo_copy_seconds(); copies.rounds > 0) {
    rows.push_back({"SYNC: pack kernels (device time)", "CaKernel", copies.rounds, copies.pack});
    rows.push_back({"SYNC: unpack kernels (device time)", "CaKernel", copies.rounds, copies.unpack});
  }
  if (skipped_syncs_ > 0) rows.push_back({"SYNC: none needed, ghost zones still current", "Driver", skipped_syncs_, 0});
  if (tuned_launches_ > 0) {
    rows.push_back({"autotuning: first launches measured", "CaKernel", tuned_launches_, tuning_seconds_});
  }
  if (launches_ > 0) rows.push_back({"kernel launches: host time", "flesh", launches_, launch_host_seconds_});
  return rows;
}

void simulation::print_timer_report(double elapsed, const evolution_time& evolution) {
  const auto rows = report_rows();
  if (driver_->rank() != 0 || registry_.text("Cactus", "cctk_timer_output") == "off") return;
  fmt::print(out_, "\ntimer report ({:.3f} s in all, backend {})\n", elapsed, runtime_->backend_name());
  if (const int stride = runtime_->timing_stride(); stride > 1 && launches_ > 0) {
    fmt::print(out_, "  kernels: the first two launches of each and then one in {} timed on the device, each counted\n"
                     "  for the untimed ones before it (events between launches cost the host and the device time)\n",
               stride);
  }
  fmt::print(out_, "  {:<44} {:<18} {:>8} {:>11} {:>6}\n", "routine", "thorn", "calls", "seconds", "%");
  for (const auto& r : rows) {
    fmt::print(out_, "  {:<44} {:<18} {:>8} {:>11.6f} {:>5.1f}%\n", r.name, r.thorn, r.calls, r.seconds,
               elapsed > 0 ? 100 * r.seconds / elapsed : 0.0);
  }
  // The evolution's wall time per iteration, start-up and the last bins left out: what a
  // benchmark compares (bench/ldc_benchmark.py).
  if (evolution.iterations <= 0) return;
  fmt::print(out_, "  evolution: {} iterations in {:.6f} s, {:.6f} ms an iteration\n", evolution.iterations,
             evolution.seconds, 1e3 * evolution.seconds / evolution.iterations);
  const int steady_iterations = iteration_ - steady_.iteration;
  if (steady_.iteration < 0 || steady_iterations <= 0) return;
  // From the steady state on: the step and each line's share of it.
  const double steady_seconds = evolution_end_ - steady_.wall;
  fmt::print(out_, "  steady state, iterations {} to {}: {:.6f} ms an iteration\n", steady_.iteration + 1, iteration_,
             1e3 * steady_seconds / steady_iterations);
  fmt::print(out_, "    {:<44} {:<18} {:>8} {:>11} {:>15}\n", "routine", "thorn", "calls", "µs a call", "ms an iteration");
  for (const auto& r : rows) {
    const auto before = std::find_if(steady_.rows.begin(), steady_.rows.end(), [&](const report_row& b) {
      return b.identity() == r.identity() && b.thorn == r.thorn;
    });
    const long calls = r.calls - (before != steady_.rows.end() ? before->calls : 0);
    const double seconds = r.seconds - (before != steady_.rows.end() ? before->seconds : 0);
    if (calls <= 0) continue;
    fmt::print(out_, "    {:<44} {:<18} {:>8} {:>11.3f} {:>15.6f}\n", r.name, r.thorn, calls, 1e6 * seconds / calls,
               1e3 * seconds / steady_iterations);
  }
}

void simulation::run() {
  try {
    run_from_the_start();
  } catch (...) {
    remove_unused_output_folder();
    throw;
  }
}

std::vector<ccl::diagnostic> simulation::parameters_no_rank_read() const {
  const auto unread = registry_.unread();
  std::string local;
  for (const auto& d : unread) local += d.message + '\n';
  const auto every_rank = driver_->all_gather(local);
  std::vector<ccl::diagnostic> out;
  for (const auto& d : unread) {
    const auto line = d.message + '\n';
    if (std::all_of(every_rank.begin(), every_rank.end(),
                    [&](const std::string& rank) { return rank.find(line) != std::string::npos; })) {
      out.push_back(d);
    }
  }
  return out;
}

void simulation::remove_unused_output_folder() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path dir = output_folder();
  if (out_dir_lock_.fd >= 0) {
    // Nothing but the lock there: the run wrote nothing, and leaves nothing.
    bool only_the_lock = true;
    for (const auto& entry : fs::directory_iterator(dir, error)) {
      only_the_lock = only_the_lock && entry.path().filename() == ".opuntia.lock";
    }
    if (error || !only_the_lock) return;
    fs::remove(dir / ".opuntia.lock", error);
    ::close(out_dir_lock_.fd);
    out_dir_lock_.fd = -1;
  }
  for (const auto& folder : created_output_folders_) {
    if (!fs::remove(folder, error)) break;  // not empty (another rank's, or a file in it): kept
  }
}

void simulation::run_from_the_start() {
  run_start_ = wall_seconds();
  // Before the output folder is made: a signal while the header is written (`| head -1`) then
  // stops the run at its first boundary, which removes the folder, instead of killing it there.
  const stop_signal_handlers stop_signals;
  stop_signals_ = &stop_signals;
  struct forget_handlers {
    const stop_signal_handlers*& handlers;
    ~forget_handlers() { handlers = nullptr; }
  } forget{stop_signals_};
  prepare_output_folder();
  const auto title = registry_.text("Cactus", "cctk_run_title");
  const auto threads = choose_threads(*driver_);  // every rank takes part, before the report shows them
  const auto ranks = startup_report(*driver_, *runtime_) + threads.notes;  // every rank takes part
  if (driver_->rank() == 0) {
    const auto& g = driver_->layout();
    // CCTK_REAL's type is the build's (OPUNTIA_REAL_PRECISION): a benchmark's figures depend on it.
    constexpr const char* real_type = sizeof(CCTK_REAL) == sizeof(float) ? "float" : "double";
    fmt::print(out_, "opuntia: {}{}{}\n  grid {}x{}x{}, CCTK_REAL {}, dt {:g}, backend {}, driver {}\n{}", parfile_name_,
               title.empty() ? "" : " — ", title, g.global[0], g.global[1], g.global[2], real_type, dt_,
               runtime_->backend_name(), driver_->name(), ranks);
  }
  if (driver_->rank() == 0) fmt::print(out_, "{}", faces_only_report());
  if (driver_->rank() == 0) {
    out_.flush();  // the warnings after the header they are about
    const auto idle = idle_run_warning();
    idle_run_ = !idle.empty();
    std::cerr << threads.warnings + idle << std::flush;  // one write
  }
  const auto checkpoint_mode = choose_checkpoint_mode();
  if (driver_->rank() == 0) fmt::print(out_, "{}", checkpoint_mode);
  prepare_recovery();
  warn_if_final_time_out_of_reach(false);
  if (registry_.boolean("Cactus", "cctk_show_schedule") && driver_->rank() == 0) out_ << schedule_.show();
  out_.flush();

  evolution_time evolution;
  try {
    for (const char* bin : {"STARTUP", "WRAGH", "PARAMCHECK", "BASEGRID"}) run_bin(bin);
    if (recovery_) {
      // As Cactus: the checkpoint's data instead of the initial data.
      recover_variables();
      for (const char* bin : {"RECOVER_VARIABLES", "POST_RECOVER_VARIABLES"}) run_bin(bin);
    } else {
      for (const char* bin : {"INITIAL", "POSTINITIAL", "POSTPOSTINITIAL", "POSTSTEP"}) run_bin(bin);
    }
    if (dt_fixed_.empty()) dt_fixed_ = "the initial data is complete";
    for (const char* bin : {"CPINITIAL", "ANALYSIS"}) run_bin(bin);
    stop_if_signalled(true);
    dt_fixed_ = "the evolution has started";
    if (!dt_set_by_.empty() && !recovery_) warn_if_final_time_out_of_reach(true);  // with the routine's dt
    reserve_checkpoint_snapshot();
    const double loop_start = wall_seconds();
    const int first_iteration = iteration_;
    evolution_first_iteration_ = first_iteration;
    const int progress_every = registry_.integer("Cactus", "progress_every");
    while (!termination_agreed() && !finished()) {
      const double time = next_time();
      store_.rotate_timelevels();
      ++iteration_;
      time_ = time;
      for (const char* bin : {"PRESTEP", "EVOL", "POSTSTEP", "CHECKPOINT"}) run_bin(bin);
      if (checkpoints_ != nullptr && checkpoint_.every > 0 && iteration_ % checkpoint_.every == 0) write_checkpoint();
      run_bin("ANALYSIS");
      read_device_timers(false);  // keeps the events of the kernels still queued, no more
      collect_checkpoint_write(false);  // a write that ended: said now, or the run fails here
      if (progress_every > 0 && iteration_ % progress_every == 0) {
        print_progress(wall_seconds() - loop_start);
        out_.flush();  // whole lines, as they come, for whoever follows the log
      }
      if (iteration_ - first_iteration == steady_after_iterations) {
        // Once, with the device caught up: the steady state's figures count from here.
        runtime_->synchronize();
        steady_.rows = report_rows();
        steady_.wall = wall_seconds();
        steady_.iteration = iteration_;
      }
      // From the steady state on, where no synchronisation above stalls the device.
      if (pace_ && steady_.iteration >= 0) {
        pace_->step_ended(iteration_);
        report_checkpoint_costs(pace_->measured());
      }
      stop_if_signalled(true);
    }
    if (pace_) report_checkpoint_costs(pace_->finish());
    // Launches return before their kernels end: the evolution ends when its last one has.
    runtime_->synchronize();
    evolution_end_ = wall_seconds();
    evolution = {iteration_ - first_iteration, evolution_end_ - loop_start};
    if (checkpoints_on_terminate() && last_checkpoint_ != iteration_) write_checkpoint(true);
    collect_checkpoint_write(true);  // the run ends with its checkpoints complete
  } catch (...) {
    abandon_checkpoint_write();
    throw;
  }
  run_bin("TERMINATE");
  run_bin("SHUTDOWN");
  runtime_->synchronize();
  print_timer_report(wall_seconds() - run_start_, evolution);
  out_.flush();
  if (!out_) throw std::runtime_error("the run's output could not be written (a full disk?)");
}

}  // namespace opuntia
