// Checkpoints and recovery, as Cactus's IOUtil parameters ask for them (IO::checkpoint_every,
// IO::checkpoint_keep, IO::checkpoint_on_terminate, IO::recover, IO::recover_file). The flesh
// decides when and what: every time level of every variable with storage, the iteration, the
// time, dt and the parameters; the active thorn that provides checkpoints (IOHDF5) writes and
// reads the files, so that the flesh knows no file format. With IO::checkpoint_in_background
// the run stops only for a snapshot of its arrays (checkpoint_snapshot.hpp), which a second
// thread writes (checkpoint_writer.hpp) while the run goes on. Recovery reads a checkpoint
// before the run's first iteration, so before any write can be in flight.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "flesh/runtime/checkpoint_files.hpp"
#include "flesh/runtime/checkpoint_parameters.hpp"
#include "flesh/runtime/checkpoint_writer.hpp"
#include "flesh/runtime/host_memory.hpp"
#include "ccl/model/common.hpp"
#include "flesh/runtime/simulation.hpp"
#include "opuntia/collective_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia {

namespace fs = std::filesystem;

namespace {

double seconds_now() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

std::string qualified(const parameter_name& p) { return p.owner + "::" + p.name; }

/// What a refused or failed recovery's message ends with: the settings that start the run anew.
constexpr const char* start_anew_settings = "IO::recover = \"no\", or another IO::out_dir";

/// Bytes a checkpoint of `contents` holds: the owned points of each grid function, the scalars.
double bytes_of(const checkpoint_contents& contents) {
  const double points = static_cast<double>(contents.extent[0]) * contents.extent[1] * contents.extent[2];
  double bytes = 0;
  for (const auto& a : contents.arrays) {
    const double element = a.type == data_type::cctk_int ? sizeof(CCTK_INT) : sizeof(CCTK_REAL);
    bytes += (a.grid_function ? points : 1) * element;
  }
  return bytes;
}

}  // namespace

void simulation::read_checkpoint_settings() {
  const auto& p = output_->checkpoints;
  if (p.every.owner.empty()) return;  // an output thorn without checkpoint parameters
  checkpoint_.every = registry_.integer(p.every.owner, p.every.name);
  checkpoint_.keep = registry_.integer(p.keep.owner, p.keep.name);
  checkpoint_.on_terminate = registry_.boolean(p.on_terminate.owner, p.on_terminate.name);
  checkpoint_.recover = registry_.text(p.recover.owner, p.recover.name);
  if (!p.in_background.owner.empty()) {
    checkpoint_.in_background = registry_.boolean(p.in_background.owner, p.in_background.name);
  }
  if (checkpoints_ != nullptr) return;
  // Asked for, and nobody to write or read them: refused, not silently ignored.
  std::string asks;
  parameter_name where;
  if (checkpoint_.every > 0) {
    asks = fmt::format("{} = {}", qualified(p.every), checkpoint_.every), where = p.every;
  } else if (checkpoint_.on_terminate) {
    asks = fmt::format("{} = yes", qualified(p.on_terminate)), where = p.on_terminate;
  } else if (checkpoint_.recover != "no") {
    asks = fmt::format("{} = \"{}\"", qualified(p.recover), checkpoint_.recover), where = p.recover;
  } else {
    return;
  }
  std::vector<std::string> thorns;
  for (const auto& c : provided_.checkpoints()) thorns.push_back(c.thorn);
  fail_at({where}, thorns.empty() ? fmt::format("{}: no thorn of this build writes checkpoints", asks)
                                  : fmt::format("{}: no active thorn writes checkpoints; activate {}", asks,
                                                ccl::join_names(thorns, " or ")));
}

checkpoint_contents simulation::checkpoint_arrays(std::vector<checkpoint_snapshot::source>* sources) {
  checkpoint_contents contents;
  contents.grid = driver_->layout();
  for (auto& v : store_.variables()) {
    for (int level = 0; level < static_cast<int>(v.levels.size()); ++level) {
      contents.arrays.push_back({v.implementation, v.name, level, v.data_type, v.group_type == group_type::gf,
                                 v.centering, store_.data(v, level)});
      if (sources != nullptr) sources->push_back({&v, level});
    }
  }
  return contents;
}

// With several ranks a checkpoint is written while the run waits. The provider's write is made
// of collective MPI calls (MPI-IO with a parallel HDF5, or the gather of every rank's points to
// rank 0 on the driver's communicator); from a second thread, while the run's thread exchanges
// ghost zones, they would need MPI_THREAD_MULTIPLE, which the driver does not ask for
// (thorns/Driver/mpi/mpi_communicator.cpp: FUNNELED; under MULTIPLE the library takes locks in
// every call, which the halo exchanges would pay for at every step, and not every build provides
// it), and a communicator of their own, so that the writer's collectives never interleave with
// the run's on one communicator.
// The ranks write their parts at once, which is the parallelism a checkpoint of many ranks has.
std::string simulation::choose_checkpoint_mode() {
  if (checkpoints_ == nullptr) return {};
  const auto& p = output_->checkpoints;
  const auto setting = p.in_background.owner.empty() ? std::string("background writes") : qualified(p.in_background);
  double snapshot_bytes = 0;
  for (const auto& v : store_.variables()) snapshot_bytes += static_cast<double>(v.levels.size() * v.count * v.element_size());
  const auto host = host_memory_available();
  checkpoint_mode_ = {};
  if (!checkpoint_.in_background) {
    checkpoint_mode_.why = setting + " = no";
  } else if (!checkpoints_->provided.writes_in_background) {
    checkpoint_mode_.why = fmt::format("{} writes checkpoints from the run's thread only", checkpoints_->thorn);
  } else if (driver_->size() > 1) {
    checkpoint_mode_.why = fmt::format(
        "{} ranks write each one together with MPI calls, which stay on the run's thread: MPI_THREAD_FUNNELED",
        driver_->size());
  } else if (host && snapshot_bytes > host->bytes) {
    checkpoint_mode_.why = fmt::format("a snapshot would need {} more host memory; {} available ({})",
                                       byte_text(snapshot_bytes), byte_text(host->bytes), host->source);
  } else {
    checkpoint_mode_.background = true;
  }
  if (checkpoint_.every <= 0) return {};  // a checkpoint at the end only: the run waits for it anyway
  return checkpoint_mode_.background
             ? fmt::format("  checkpoints every {} iterations: a snapshot ({}), written by a second thread while the "
                           "run goes on ({})\n",
                           checkpoint_.every, byte_text(snapshot_bytes), setting)
             : fmt::format("  checkpoints every {} iterations: written while the run waits ({})\n", checkpoint_.every,
                           checkpoint_mode_.why);
}

void simulation::reserve_checkpoint_snapshot() {
  if (checkpoints_ == nullptr || checkpoint_.every <= 0 || !checkpoint_mode_.background) return;
  if (!snapshot_) snapshot_ = std::make_unique<checkpoint_snapshot>(*runtime_);
  if (!pace_ && runtime_->mirrors_on_device()) pace_ = std::make_unique<checkpoint_pace>(*runtime_, checkpoint_.every);
  std::vector<checkpoint_snapshot::source> sources;
  checkpoint_arrays(&sources);
  const auto reserved = snapshot_->reserve(sources);
  if (reserved.bytes_allocated > 0) {
    context_for(checkpoints_->thorn)
        ->info(fmt::format("checkpoint snapshots: {} of host memory allocated in {:.3f} s, before the evolution",
                           byte_text(reserved.bytes_allocated), reserved.seconds_allocating));
  }
}

void simulation::write_checkpoint(bool run_waits) {
  // One write at a time, and checkpoints complete in order: a checkpoint due while the write
  // before still runs (checkpoints more often than the disk takes them, or an old one's removal)
  // waits for it, on the run's time, which its line and the timer report say.
  const bool previous_running = writer_ && writer_->writing();
  const double wait_start = seconds_now();
  collect_checkpoint_write(true);
  const double waited_for_previous = previous_running ? seconds_now() - wait_start : 0;
  const auto& provider = checkpoints_->provided;
  std::vector<checkpoint_snapshot::source> sources;
  auto contents = checkpoint_arrays(&sources);
  std::shared_ptr<routine_context> ranks = context_for(checkpoints_->thorn);
  contents.extent = ranks->owned_extent();
  contents.header = {iteration_, time_, dt_, driver_->size(), recorded_parameters(registry_)};
  const auto file = checkpoint_path(output_folder(), iteration_, provider.extension);
  const double bytes = bytes_of(contents);
  last_checkpoint_ = iteration_;
  if (run_waits || !checkpoint_mode_.background) {
    for (const auto& source : sources) runtime_->ensure_host(*source.variable, source.level);
    const double start = seconds_now();
    try {
      provider.write(file, contents, *ranks);
    } catch (const std::runtime_error& e) {
      // Every rank writes its part of one file, and mostly fails alike (a full disk, a folder
      // in the way): said once where they all do (program/main.cpp).
      throw collective_error(fmt::format("checkpoint {} could not be written: {}", file.string(), e.what()));
    }
    const double seconds = ranks->maximum(seconds_now() - start);
    ++waited_for_.count;
    waited_for_.stalled += seconds;
    waited_for_.writing += seconds;
    waited_for_.bytes += bytes;
    checkpoint_written(file, bytes, seconds, ", the run waiting", older_checkpoints_remover(iteration_)());
    return;
  }

  if (!snapshot_) snapshot_ = std::make_unique<checkpoint_snapshot>(*runtime_);
  if (!writer_) writer_ = std::make_unique<checkpoint_writer>();
  checkpoint_in_flight written;
  written.file = file;
  written.bytes = bytes;
  written.waited_for_previous = waited_for_previous;
  const double start = seconds_now();
  // On a device the copies run on the run's queue: two events time them there.
  if (runtime_->mirrors_on_device()) written.before = runtime_->record();
  auto taken = snapshot_->take(contents, sources);
  if (runtime_->mirrors_on_device()) written.after = runtime_->record();
  if (pace_) pace_->checkpoint_taken(iteration_, written.before, written.after, taken.copies);
  written.host_seconds = seconds_now() - start;
  written.bytes_allocated = taken.bytes_allocated;
  written.seconds_allocating = taken.seconds_allocating;
  written.arrays = sources.size();
  written.unchanged = taken.unchanged;
  const auto straight = taken.by_route[static_cast<std::size_t>(kernel_runtime::snapshot_route::device_to_host)];
  if (straight > 0 && !said_snapshots_skip_the_device_) {
    said_snapshots_skip_the_device_ = true;
    const auto free = runtime_->device_memory_available();
    ranks->info(fmt::format(
        "the {} device has no room for a snapshot buffer of {} of the {} arrays of a checkpoint{}: those go straight "
        "to host memory on the run's queue, and the kernels after each checkpoint wait for their copies",
        runtime_->backend_name(), straight, sources.size(),
        free ? fmt::format(" ({} free)", byte_text(static_cast<double>(*free))) : std::string()));
  }
  const auto removed = written.removed;
  in_flight_ = std::move(written);
  // The writer also removes the checkpoints this one replaces: unlinking a file of hundreds of
  // MiB whose pages are still being written back takes tenths of a second, which the run's
  // thread would otherwise lose to each checkpoint.
  writer_->start(file, [&provider, file, contents = std::move(contents), ranks, copies = std::move(taken.copies),
                        removed, remove = older_checkpoints_remover(iteration_)] {
    for (const auto& copy : copies) copy->wait();
    provider.write(file, contents, *ranks);
    const double removal_start = seconds_now();
    removed->files = remove();
    removed->seconds = seconds_now() - removal_start;
  });
}

void simulation::collect_checkpoint_write(bool wait) {
  if (!writer_) return;
  const auto ended = wait ? writer_->wait() : writer_->finished();
  if (!ended) return;
  const auto written = std::move(*in_flight_);
  in_flight_.reset();
  if (pace_) pace_->write_ended(iteration_);
  if (ended->failed) {
    throw collective_error(fmt::format("checkpoint {} could not be written in the background: {}",
                                       ended->file.string(), ended->reason));
  }
  double on_device = 0;
  if (written.before && written.after) {
    written.after->wait();
    on_device = runtime_->elapsed_seconds(*written.before, *written.after);
  }
  // The host's copies and the device's ran at once; the kernels after the checkpoint started
  // once both were done.
  const double stalled = std::max(written.host_seconds, on_device);
  ++in_background_.count;
  in_background_.stalled += stalled;
  in_background_.writing += ended->seconds;
  in_background_.bytes += written.bytes;
  auto how = fmt::format(" in the background; the run stalled {:.4f} s for its snapshot", stalled);
  if (written.unchanged > 0) {
    how += fmt::format(" ({} of its {} arrays unchanged since the checkpoint before, not copied)", written.unchanged,
                       written.arrays);
  }
  if (written.waited_for_previous > 0) {
    ++in_background_.previous_waits;
    in_background_.waited_for_previous += written.waited_for_previous;
    how += fmt::format(" and {:.4f} s for the write before it, still running (checkpoints due faster than they are "
                       "written: a larger IO::checkpoint_every avoids the wait)",
                       written.waited_for_previous);
  }
  if (written.bytes_allocated > 0) {
    how += fmt::format(" ({:.4f} s of it allocating its {} of memory, once)", written.seconds_allocating,
                       byte_text(written.bytes_allocated));
  }
  checkpoint_written(written.file, written.bytes, ended->seconds - written.removed->seconds, how,
                     written.removed->files);
}

void simulation::report_checkpoint_costs(const std::vector<checkpoint_pace::cost>& costs) {
  for (const auto& c : costs) {
    ++in_background_.paced;
    in_background_.device_cost += c.until_written;
    const auto ms = [](double seconds) { return fmt::format("{:+.3f} ms", 1000 * seconds); };
    context_for(checkpoints_->thorn)
        ->info(fmt::format("checkpoint of iteration {} cost the device {} = {:.1f} steps at the pace of the {} steps "
                           "before it ({:.4f} ms a step): its snapshot {}, the {} steps after it until its copies had "
                           "reached the host {}, the {} steps after those until its write had ended {}",
                           c.iteration, ms(c.until_written), c.step_seconds > 0 ? c.until_written / c.step_seconds : 0,
                           c.pace_steps, 1000 * c.step_seconds, ms(c.snapshot), c.copies_steps,
                           ms(c.until_landed - c.snapshot), c.write_steps - c.copies_steps,
                           ms(c.until_written - c.until_landed)));
  }
}

std::function<std::vector<fs::path>()> simulation::older_checkpoints_remover(int iteration) const {
  if (driver_->rank() != 0) return [] { return std::vector<fs::path>(); };
  return [folder = output_folder(), extension = checkpoints_->provided.extension, iteration, keep = checkpoint_.keep] {
    return remove_old_checkpoints(folder, extension, iteration, keep);
  };
}

void simulation::abandon_checkpoint_write() noexcept {
  try {
    collect_checkpoint_write(true);
  } catch (const std::exception& e) {
    try {
      if (driver_->rank() == 0) fmt::print(out_, "opuntia: error: {}\n", e.what());
    } catch (...) {
      // the run's own error is on its way out: this one could not be printed
    }
  }
}

void simulation::checkpoint_written(const fs::path& file, double bytes, double seconds, const std::string& how,
                                    const std::vector<fs::path>& removed) {
  context_for(checkpoints_->thorn)
      ->info(fmt::format("checkpoint {} written: {} in {:.3f} s ({}/s){}{}", file.string(), byte_text(bytes), seconds,
                         byte_text(seconds > 0 ? bytes / seconds : 0), how,
                         removed.empty() ? ""
                                         : fmt::format("; removed {}", removed.size() == 1
                                                                           ? removed.front().filename().string()
                                                                           : fmt::format("{} older ones", removed.size()))));
}

void simulation::prepare_recovery() {
  if (checkpoint_.recover == "no" || checkpoints_ == nullptr) return;
  const auto& p = output_->checkpoints;
  const auto& provider = checkpoints_->provided;
  const auto info = [&](const std::string& message) {
    if (driver_->rank() == 0) fmt::print(out_, "INFO ({}): {}\n", checkpoints_->thorn, message);
  };
  recovery found;
  bool any = false;
  std::size_t checkpoint_count = 0;  // auto: the checkpoints found in the folder, readable or not
  if (checkpoint_.recover == "manual") {
    found.file = registry_.text(p.recover_file.owner, p.recover_file.name);
    const auto setting = fmt::format("{} = \"{}\"", qualified(p.recover_file), found.file.string());
    if (found.file.empty()) {
      fail_at({p.recover, p.recover_file},
              fmt::format("{} = \"manual\" needs {}, the checkpoint to recover from", qualified(p.recover),
                          qualified(p.recover_file)));
    }
    std::error_code error;
    if (!fs::is_regular_file(found.file, error)) {
      fail_at({p.recover_file}, fmt::format("{}: {}", setting, fs::exists(found.file, error) ? "not a file" : "no such file"));
    }
    try {
      found.header = provider.read_header(found.file);
    } catch (const std::exception& e) {
      fail_at({p.recover_file}, fmt::format("{}: not a checkpoint this run can read: {}", setting, e.what()));
    }
    any = true;
  } else {
    // auto: the newest complete one; one that cannot be read (damaged since) is passed over, said so.
    const auto candidates = checkpoints_in(output_folder(), provider.extension);
    checkpoint_count = candidates.size();
    for (auto c = candidates.rbegin(); c != candidates.rend() && !any; ++c) {
      try {
        auto header = provider.read_header(c->path);
        // Its record of the parameters is read too: a damaged record is a damaged checkpoint.
        (void)conflicts_on_recovery(registry_, header.parameters);
        found.header = std::move(header);
        found.file = c->path;
        any = true;
      } catch (const std::exception& e) {
        if (driver_->rank() == 0) {
          fmt::print(out_, "opuntia: warning: {} = \"auto\" passes over {}, which cannot be read: {}\n",
                     qualified(p.recover), c->path.string(), e.what());
        }
      }
    }
  }
  // Every rank must recover alike, or none: they read the folder each on its own.
  const double iteration = any ? found.header.iteration : -1;
  if (driver_->reduce(iteration, reduction::maximum) != driver_->reduce(iteration, reduction::minimum)) {
    throw std::runtime_error(fmt::format("the ranks found different checkpoints in {} to recover from",
                                         output_folder().string()));
  }
  if (!any && checkpoint_.recover != "manual" && checkpoint_count > 0) {
    // Starting again would write over the output of the run they belong to.
    fail_at({p.recover}, fmt::format("{} = \"auto\": none of the {} checkpoint{} in {} can be read (each said above); "
                                     "remove them to start from the initial data, or name one with {} = \"manual\"",
                                     qualified(p.recover), checkpoint_count, checkpoint_count == 1 ? "" : "s",
                                     output_folder().string(), qualified(p.recover)));
  }
  if (!any) {
    info(fmt::format("{} = \"auto\": no checkpoint in {}; starting from the initial data", qualified(p.recover),
                     output_folder().string()));
    return;
  }

  recovery_conflicts conflicts;
  try {
    conflicts = conflicts_on_recovery(registry_, found.header.parameters);
  } catch (const std::exception& e) {
    fail_at({checkpoint_.recover == "manual" ? p.recover_file : p.recover},
            fmt::format("checkpoint {}: {}", found.file.string(), e.what()));
  }
  std::vector<ccl::diagnostic> refusals;
  // Where a refusal points when the parameter file did not set what it is about.
  const auto at_recover = [&](const std::string& message) {
    if (auto d = place_of({p.recover}, message)) return *d;
    return ccl::whole_file_error(parfile_name_, message);
  };
  if (!conflicts.thorns_active_here_only.empty() || !conflicts.thorns_active_there_only.empty()) {
    std::vector<std::string> differences;
    if (!conflicts.thorns_active_here_only.empty()) {
      differences.push_back(fmt::format("{} active here only", ccl::join_names(conflicts.thorns_active_here_only)));
    }
    if (!conflicts.thorns_active_there_only.empty()) {
      differences.push_back(
          fmt::format("{} active there only", ccl::join_names(conflicts.thorns_active_there_only)));
    }
    const auto message = fmt::format("the active thorns differ from those of checkpoint {}: {}; they may not change on recovery",
                                     found.file.string(), ccl::join_names(differences, "; "));
    // Where ActiveThorns names the first thorn the checkpoint's run did not have; else its first line.
    auto where = active_thorns_at_;
    for (const auto& named : active_thorn_names_) {
      if (!conflicts.thorns_active_here_only.empty() && ccl::iequals(named.text, conflicts.thorns_active_here_only.front())) {
        where = named.where;
        break;
      }
    }
    refusals.push_back(where ? ccl::error_at(*parfile_, *where, message) : at_recover(message));
  }
  for (const auto& c : conflicts.changed) {
    const auto name = c.index < 0 ? fmt::format("{}::{}", c.thorn, c.name) : fmt::format("{}::{}[{}]", c.thorn, c.name, c.index);
    const bool set_here = registry_.was_set(c.thorn, c.name);
    const auto message = fmt::format(
        "{} = {}{}, but checkpoint {} was written with {}: it may not change on recovery (its param.ccl "
        "declaration has no STEERABLE=recover)",
        name, c.now, set_here ? "" : " (its default)", found.file.string(), c.recorded);
    if (auto d = set_here ? registry_.diagnostic_where_set(c.thorn, c.name, message) : std::nullopt) {
      refusals.push_back(std::move(*d));
    } else {
      refusals.push_back(at_recover(message));
    }
  }
  if (!refusals.empty()) {
    // Said once, after all of them: a changed setting is more often a new run than a mistake.
    refusals.back().message +=
        fmt::format("; to start anew from the initial data instead: {}", start_anew_settings);
    throw ccl::input_error(std::move(refusals));
  }
  recovery_ = std::move(found);
  info(fmt::format("recovering from {}: iteration {}, time {:g} (written by {} rank{})", recovery_->file.string(),
                   recovery_->header.iteration, recovery_->header.time, recovery_->header.ranks,
                   recovery_->header.ranks == 1 ? "" : "s"));
}

void simulation::recover_variables() {
  auto contents = checkpoint_arrays();
  for (auto& v : store_.variables()) {
    for (int level = 0; level < static_cast<int>(v.levels.size()); ++level) runtime_->ensure_host(v, level);
  }
  const auto ranks = context_for(checkpoints_->thorn);
  contents.extent = ranks->owned_extent();
  try {
    checkpoints_->provided.read(recovery_->file, contents, *ranks);
  } catch (const std::runtime_error& e) {
    // A file whose header was read can still fail here (an array damaged since it was written):
    // what the user can do instead, the checkpoint before it first. A failure every rank found
    // alike stays one, to be said once.
    std::string instead;
    for (const auto& c : checkpoints_in(recovery_->file.parent_path(), checkpoints_->provided.extension)) {
      if (c.iteration < recovery_->header.iteration) {
        instead = fmt::format("to recover from the one before it: IO::recover = \"manual\" with IO::recover_file = "
                              "\"{}\"; ",
                              c.path.string());
      }
    }
    auto message = fmt::format("{}; {}to start anew from the initial data: {}", e.what(), instead, start_anew_settings);
    if (dynamic_cast<const collective_error*>(&e) != nullptr) throw collective_error(message);
    throw std::runtime_error(message);
  }
  iteration_ = recovery_->header.iteration;
  time_ = recovery_->header.time;
  // The checkpoint's dt, whatever a routine set before (at CCTK_BASEGRID): the recovered run
  // goes on as the run that wrote it would have.
  if (!dt_set_by_.empty()) {
    if (driver_->rank() == 0 && dt_ != recovery_->header.dt) {
      fmt::print(out_, "opuntia: dt {:g}, that of checkpoint {}, replaces the {}\n", recovery_->header.dt,
                 recovery_->file.string(), dt_text());
    }
    dt_set_by_ = "checkpoint " + recovery_->file.string();
  }
  dt_ = recovery_->header.dt;
  dt_fixed_ = fmt::format("this run recovered its time step from checkpoint {}", recovery_->file.string());
  last_checkpoint_ = iteration_;
  // The file holds the owned points; ghost zones (the neighbours' points, periodic images) of
  // every time level come from an exchange, as the run of any number of ranks had them.
  if (driver_->exchanges()) {
    for (int level = 0;; ++level) {
      std::vector<grid_variable*> variables;
      for (auto& v : store_.variables()) {
        if (v.group_type == group_type::gf && static_cast<int>(v.levels.size()) > level) variables.push_back(&v);
      }
      if (variables.empty()) break;
      host_halo_memory at_level([this, level](grid_variable& v) { return store_.data(v, level); });
      driver_->sync(variables, at_level, halo_extent::faces_edges_corners);
    }
  }
  for (auto& v : store_.variables()) {
    for (int level = 0; level < static_cast<int>(v.levels.size()); ++level) {
      runtime_->host_wrote(v, level);
      // Written by the host: the next SYNC exchanges, whatever the writer of the checkpoint's run knew.
      if (ghost_depths_) ghost_depths_->forget(store_.key(v, level));
    }
  }
}

}  // namespace opuntia
