#include "cakernel_runtime.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "device_reduction.hpp"
#include "snapshot_landing.hpp"
#include "opuntia/parameter_error.hpp"

namespace opuntia::thorns::CaKernel {

cakernel_runtime::cakernel_runtime(std::unique_ptr<backend> device, grid_function_store& store,
                                   std::unique_ptr<launch_tuner> tuner)
    : device_(std::move(device)), store_(store), tuner_(std::move(tuner)) {}

cakernel_runtime::~cakernel_runtime() {
  halo_.reset();  // its buffers belong to the backend released below
  try {
    device_->synchronize();  // nothing still copies into or out of the arrays released here
  } catch (const std::exception&) {
    // a failed kernel was reported where it was waited for; the buffers are released anyway
  }
  for (auto& [_, m] : mirrors_) {
    device_->release(m.device);
    device_->unpin(m.host);
  }
  for (auto& [_, s] : snapshots_) {
    if (s.device != nullptr) device_->release(s.device);
  }
}

void* cakernel_runtime::device_of(const buffer_key& buffer, void* host, std::size_t bytes) {
  if (device_->shares_host_memory()) return host;
  auto& m = mirrors_[buffer];
  if (m.device == nullptr) {
    m.device = device_->allocate(bytes);
    device_->pin(host, bytes);
    m.host = host;
  }
  return m.device;
}

bool cakernel_runtime::to_device(const buffer_key& buffer, void* host, std::size_t bytes) {
  if (tracker_.before_kernel_reads(buffer) != validity_tracker::transfer::to_device) return false;
  device_->copy_to_device(device_of(buffer, host, bytes), host, bytes);
  return true;
}

const std::vector<grid_variable*>& cakernel_runtime::scalars_of(const thorn_binding& thorn, const kernel_binding& kernel) {
  if (const auto found = scalars_.find(&kernel); found != scalars_.end()) return found->second;
  std::vector<grid_variable*> scalars;
  for (const auto& name : kernel.scalars) scalars.push_back(&store_.find(thorn.name, name));
  return scalars_.emplace(&kernel, std::move(scalars)).first->second;
}

cakernel_runtime::bound_arrays cakernel_runtime::bind(const thorn_binding& thorn, const kernel_binding& kernel) {
  bound_arrays bound;
  auto& [variables, arrays, array_bytes, copied, scalars] = bound;
  for (const auto& kv : kernel.variables) {
    auto& v = store_.find(thorn.name, kv.grid_function.empty() ? kv.name : kv.grid_function);
    variables.push_back(&v);
    const buffer_key buffer = store_.key(v, kv.timelevel);
    void* host = store_.data(v, kv.timelevel);
    const std::size_t bytes = v.count * v.element_size();
    // in, inout, separateinout and past levels are read: the device copy must be current. So
    // must an `out` one whenever the host holds newer values: a kernel may leave points alone (a
    // boundary kernel's interior, the ghost zones SYNC filled on the host), which must keep the
    // host's values rather than the device's stale ones. to_device copies only then.
    if (to_device(buffer, host, bytes)) {
      copied.push_back(buffer);
    }
    arrays.push_back(device_of(buffer, host, bytes));
    array_bytes.push_back(bytes);
  }
  for (std::size_t i = 0; i < kernel.variables.size(); ++i) {
    if (kernel.variables[i].intent != kernel_intent::separateinout) continue;
    auto& v = *variables[i];
    const std::size_t bytes = v.count * v.element_size();
    if (!device_->shares_host_memory() && (!v.scratch || !mirrors_.count(store_.scratch_key(v)))) {
      // The second buffer starts as a copy of level 0 (points the kernel does not write keep
      // their values across the swap); level 0 may be current on the device only.
      ensure_host(v);
      if (v.scratch) std::memcpy(v.scratch.data(), store_.data(v, 0), bytes);
      tracker_.after_host_writes(store_.scratch_key(v));  // store_.scratch() copies level 0 when it makes the buffer
    }
    void* scratch = store_.scratch(v);
    const buffer_key buffer = store_.scratch_key(v);
    if (to_device(buffer, scratch, bytes)) copied.push_back(buffer);
    arrays.push_back(device_of(buffer, scratch, bytes));
    array_bytes.push_back(bytes);
  }
  // Each grid scalar's current value, read when the launcher fills the params (by value).
  for (auto* v : scalars_of(thorn, kernel)) scalars.push_back(store_.data(*v));
  return bound;
}

kernel_call cakernel_runtime::call_of(const bound_arrays& bound, const void* thorn_parameters,
                                      const kernel_grid& grid) const {
  kernel_call call;
  call.grid = grid;
  call.arrays = bound.arrays.data();
  call.parameters = thorn_parameters;
  call.scalars = bound.scalars.data();
  call.queue = device_->queue();
  return call;
}

namespace {
/// The boxes a launch with `parts` computes one after the other; one without a box (the whole
/// grid) where it has none.
std::vector<std::optional<index_range>> boxes_of(const launch_parts& parts) {
  if (parts.first.empty() && parts.then.empty()) return {std::nullopt};
  std::vector<std::optional<index_range>> boxes(parts.first.begin(), parts.first.end());
  boxes.insert(boxes.end(), parts.then.begin(), parts.then.end());
  return boxes;
}
}  // namespace

void cakernel_runtime::prepare(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
                               const kernel_grid& grid, const std::string& variant, const launch_parts& parts) {
  if (tuner_ == nullptr) return;
  const auto boxes = boxes_of(parts);
  if (std::all_of(boxes.begin(), boxes.end(),
                  [&](const auto& box) { return tuned_.count(key_of(kernel, grid, box)) > 0; }))
    return;
  bound_arrays bound = bind(thorn, kernel);
  kernel_call call = call_of(bound, thorn_parameters, grid);
  for (const auto& box : boxes) {
    call.box = box;
    tuned(thorn, kernel, variant, call, bound.bytes);
  }
  // The copies bind() enqueued may still read the host arrays (a choice from the cache measured
  // nothing): the host waits for them before it writes one.
  if (!bound.copied.empty() && !device_->shares_host_memory()) {
    const auto copies_done = device_->record();
    for (const auto& buffer : bound.copied) reading_host_[buffer] = copies_done;
  }
}

launched_events cakernel_runtime::launch(const thorn_binding& thorn, const kernel_binding& kernel,
                                         const void* thorn_parameters, const kernel_grid& grid, const std::string& variant,
                                         const launch_parts& parts, launch_timing timing) {
  auto chosen = std::find_if(kernel.variants.begin(), kernel.variants.end(), [&](const kernel_variant_binding& k) {
    return k.backend == device_->name() && (variant.empty() || k.template_name == variant);
  });
  if (chosen == kernel.variants.end()) {
    std::vector<std::string> generated;
    for (const auto& k : kernel.variants) generated.push_back(k.backend + "/" + k.template_name);
    throw std::runtime_error(fmt::format("kernel {} of thorn {} has no {} variant{} (generated: {})", kernel.name,
                                         thorn.name, device_->name(), variant.empty() ? "" : " '" + variant + "'",
                                         generated.empty() ? "none" : fmt::format("{}", fmt::join(generated, ", "))));
  }
  bound_arrays bound = bind(thorn, kernel);
  auto& variables = bound.variables;
  kernel_call call = call_of(bound, thorn_parameters, grid);
  // Each box with the tuner's choice for its size (the whole grid's where there is none), on `queue`.
  void* const run_queue = device_->queue();
  const auto launch_on = [&](const std::optional<index_range>& box, void* queue) {
    call.box = box;
    call.queue = queue;
    auto launched = chosen;
    if (tuner_ != nullptr) std::tie(launched, call.shape) = tuned(thorn, kernel, variant, call, bound.bytes);
    launched->launch(call);
  };
  queue_event_ptr first_part_done;
  if (parts.first.empty() && parts.then.empty()) {
    launch_on(std::nullopt, run_queue);
  } else {
    // The rim on the halo queue, beside the interior on the run queue. The halo queue first
    // waits for what the run queue holds (the copies bind() enqueued, the kernels before: the
    // SYNC's unpacks before them are its own), then runs the rim and, in order after it, the
    // SYNC's packs; the interior starts at once on the SMs the rim leaves, where one after the
    // other the rim's launch and tail stood in front of it. The run queue waits for the rim
    // before the launch's `done`, which later readers wait for.
    void* const halo_queue = device_->halo_queue() != nullptr ? device_->halo_queue() : run_queue;
    if (halo_queue != run_queue) device_->wait_on(halo_queue, *device_->record());
    for (const auto& box : parts.first) launch_on(box, halo_queue);
    first_part_done = device_->record_on(halo_queue);
    for (const auto& box : parts.then) launch_on(box, run_queue);
    if (halo_queue != run_queue) device_->wait_on(run_queue, *first_part_done);
  }
  // One event after the copies and the kernel: what the host waits for before it reads a buffer
  // the kernel wrote, or writes one whose copy to the device the queue may still be reading; an
  // untimed launch's only when asked about (later is as good for those waits).
  const queue_event_ptr done = device_->shares_host_memory()       ? nullptr
                               : timing == launch_timing::timed ? device_->record()
                                                                : device_->record_when_asked();
  for (const auto& buffer : bound.copied) reading_host_[buffer] = done;
  for (std::size_t i = 0; i < kernel.variables.size(); ++i) {
    auto& v = *variables[i];
    const auto intent = kernel.variables[i].intent;
    if (intent == kernel_intent::in || kernel.variables[i].timelevel > 0) continue;
    // separateinout: the new values are in the second buffer, which becomes level 0 on the host
    // side; its device mirror and validity, keyed by that buffer, go with it.
    const buffer_key written = intent == kernel_intent::separateinout ? store_.scratch_key(v) : store_.key(v, 0);
    tracker_.after_kernel_writes(written);
    last_writer_[written] = done;
    if (intent == kernel_intent::separateinout) store_.swap_with_scratch(v);
  }
  return {first_part_done, done};
}

namespace {

/// Copies of a launch's arrays as they stand, made at the first measurement and released with
/// it, on which autotuning launches (a kernel that updates in place would otherwise change the
/// run's fields with every measured launch).
class scratch_arrays {
 public:
  scratch_arrays(backend& device, const kernel_call& call, const std::vector<std::size_t>& bytes)
      : device_(device), call_(call), bytes_(bytes) {}
  scratch_arrays(const scratch_arrays&) = delete;
  scratch_arrays& operator=(const scratch_arrays&) = delete;
  ~scratch_arrays() {
    if (copies_.empty()) return;
    device_.synchronize();
    if (device_.shares_host_memory()) return;
    for (void* p : copies_) device_.release(p);
  }

  /// The call on the copies (on the call's box, where it has one), asking for `shape`, on the
  /// run's queue, between whose events seconds_a_launch times it (the call may name the halo
  /// queue: a rim's); nullopt where the device has no room for them.
  std::optional<kernel_call> call(const launch_shape& shape) {
    if (!made_) make();
    if (no_room_) return std::nullopt;
    kernel_call c = call_;
    c.arrays = copies_.data();
    c.queue = device_.queue();
    c.shape = shape;
    return c;
  }

 private:
  void make() {
    made_ = true;
    for (std::size_t i = 0; i < bytes_.size(); ++i) {
      if (device_.shares_host_memory()) {
        auto& copy = host_copies_.emplace_back(bytes_[i]);
        std::memcpy(copy.data(), call_.arrays[i], bytes_[i]);
        copies_.push_back(copy.data());
        continue;
      }
      void* copy = device_.try_allocate(bytes_[i]);
      if (copy == nullptr) {
        no_room_ = true;
        return;  // the destructor releases those made
      }
      device_.copy_on_device(device_.queue(), copy, call_.arrays[i], bytes_[i]);
      copies_.push_back(copy);
    }
  }

  backend& device_;
  const kernel_call& call_;
  const std::vector<std::size_t>& bytes_;
  bool made_ = false, no_room_ = false;
  std::vector<void*> copies_;
  std::vector<std::vector<std::byte>> host_copies_;
};

/// Seconds a launch of `variant` with `call` takes: one launch first (it builds or loads the
/// program and touches the copies), one timed to size the rest, then the fastest of three rounds'
/// means, each of at most 10 launches or as many as fit in about 20 ms: a round that another
/// process slowed (a shared machine's cores, a GPU's clocks ramping up) does not decide.
double seconds_a_launch(backend& device, const kernel_variant_binding& variant, const kernel_call& call) {
  const auto timed = [&](int launches) {
    const auto start = device.record();
    for (int l = 0; l < launches; ++l) variant.launch(call);
    const auto end = device.record();
    end->wait();
    return device.elapsed_seconds(*start, *end) / launches;
  };
  variant.launch(call);
  device.synchronize();
  const int repeats = std::clamp(static_cast<int>(0.02 / std::max(timed(1), 1e-6)), 1, 10);
  double fastest = timed(repeats);
  for (int round = 1; round < 3; ++round) fastest = std::min(fastest, timed(repeats));
  return fastest;
}

}  // namespace

std::pair<std::vector<kernel_variant_binding>::const_iterator, launch_shape> cakernel_runtime::tuned(
    const thorn_binding& thorn, const kernel_binding& kernel, const std::string& variant, const kernel_call& call,
    const std::vector<std::size_t>& bytes) {
  const auto key = key_of(kernel, call.grid, call.box);
  // Later launches find the choice here without building the cache's key.
  if (const auto known = tuned_.find(key); known != tuned_.end()) return known->second;
  const std::array<int, 3>& grid_points = std::get<1>(key);
  const std::array<int, 3>& box_extent = std::get<2>(key);
  std::vector<std::string> candidates;
  for (const auto& k : kernel.variants) {
    if (k.backend == device_->name() && (variant.empty() || k.template_name == variant))
      candidates.push_back(k.template_name);
  }
  // The variant of this backend named `name` (one of the candidates).
  const auto named = [&](const std::string& name) {
    return std::find_if(kernel.variants.begin(), kernel.variants.end(), [&](const kernel_variant_binding& k) {
      return k.backend == device_->name() && k.template_name == name;
    });
  };
  // A call with an empty box runs nothing: the launcher only says which shape it would run.
  const auto probe = [&](const std::string& name, const launch_shape& shape) {
    kernel_call asked = call;
    asked.box = index_range{};
    asked.shape = shape;
    launch_shape ran{};
    asked.ran_shape = &ran;
    named(name)->launch(asked);
    return ran;
  };
  scratch_arrays scratch(*device_, call, bytes);
  const auto time_launch = [&](const launch_choice& choice) {
    const auto on_scratch = scratch.call(choice.shape);
    return on_scratch ? seconds_a_launch(*device_, *named(choice.variant), *on_scratch) : -1.0;
  };
  const auto& choice =
      tuner_->choose(thorn.name + "::" + kernel.name, grid_points, candidates, probe, time_launch,
                     call.box ? std::optional<std::array<int, 3>>(box_extent) : std::nullopt);
  return tuned_.emplace(key, std::make_pair(named(choice.variant), choice.shape)).first->second;
}

cakernel_runtime::tuned_key cakernel_runtime::key_of(const kernel_binding& kernel, const kernel_grid& grid,
                                                     const std::optional<index_range>& box) {
  std::array<int, 3> extent{};
  if (box) {
    for (int d = 0; d < 3; ++d) extent[d] = std::max(box->end[d] - box->begin[d], 0);
  }
  return {&kernel, {grid.ni, grid.nj, grid.nk}, extent};
}

void cakernel_runtime::ensure_host(grid_variable& v, int level) {
  const buffer_key buffer = store_.key(v, level);
  void* host = store_.data(v, level);
  if (const auto copying = reading_host_.find(buffer); copying != reading_host_.end()) {
    if (copying->second) copying->second->wait();
    reading_host_.erase(copying);
  }
  if (tracker_.before_host_reads(buffer) != validity_tracker::transfer::to_host) return;
  if (const auto writer = last_writer_.find(buffer); writer != last_writer_.end()) {
    if (writer->second) writer->second->wait();
    last_writer_.erase(writer);
  }
  const std::size_t bytes = v.count * v.element_size();
  device_->copy_to_host(host, device_of(buffer, host, bytes), bytes);
}

void cakernel_runtime::host_wrote(grid_variable& v, int level) { tracker_.after_host_writes(store_.key(v, level)); }

halo_memory* cakernel_runtime::device_halo(const std::vector<grid_variable*>& variables, queue_event* after) {
  if (device_->shares_host_memory()) return nullptr;
  // Where the host holds the only current copy of one of them, the host is the place: a device
  // exchange would first copy that whole array down.
  for (auto* v : variables) {
    if (validity_of(*v) == validity::host) return nullptr;
  }
  if (!halo_) {
    halo_ = std::make_unique<device_halo_memory>(*device_, [this](grid_variable& v) {
      return device_of(store_.key(v, 0), store_.data(v, 0), v.count * v.element_size());
    });
  }
  halo_->start_after(after);
  return halo_.get();
}

void cakernel_runtime::device_wrote(grid_variable& v) {
  const buffer_key buffer = store_.key(v, 0);
  tracker_.after_kernel_writes(buffer);
  last_writer_[buffer] = device_->record();
}

std::optional<field_reduction> cakernel_runtime::reduce_on_device(grid_variable& v, int level,
                                                                  const std::array<int, 3>& extent,
                                                                  const index_range& box) {
  const buffer_key buffer = store_.key(v, level);
  if (device_->shares_host_memory() || tracker_.state(buffer) != validity::device) return std::nullopt;
  // The host waits for the result anyway: waiting first for the writer keeps the pass after it
  // whichever queue the writer ran on (a SYNC's unpack as much as a kernel).
  if (const auto writer = last_writer_.find(buffer); writer != last_writer_.end() && writer->second) {
    writer->second->wait();
  }
  return reduce_device_box(*device_, mirrors_.at(buffer).device, extent, box, v.element_size());
}

void cakernel_runtime::reserve_snapshot(device_snapshot& s, std::size_t bytes) {
  if (s.device != nullptr) {
    device_->release(s.device);  // its last copy to the host has landed (copy_for_snapshot's condition)
    s.device = nullptr;
    s.bytes = 0;
  }
  if (const auto free = device_->memory_available(); free && bytes + snapshot_headroom > *free) {
    s.no_room = true;
    return;
  }
  s.device = device_->try_allocate(bytes);
  if (s.device == nullptr) {
    s.no_room = true;
    return;
  }
  s.bytes = bytes;
}

std::optional<kernel_runtime::contents_stamp> cakernel_runtime::stamp_of(grid_variable& v, int level) {
  // Grid functions only: a host routine writes them through routine_context::write(), which
  // counts, but a scalar through the reference integer_scalar() or real_scalar() gives, which
  // does not (and a scalar costs a snapshot nothing).
  if (v.group_type != group_type::gf) return std::nullopt;
  const buffer_key buffer = store_.key(v, level);
  return contents_stamp{buffer, tracker_.writes(buffer)};
}

kernel_runtime::snapshot_copy cakernel_runtime::copy_for_snapshot(grid_variable& v, int level, const void* host,
                                                                  void* into) {
  const buffer_key buffer = store_.key(v, level);
  const auto mirrored = mirrors_.find(buffer);
  if (device_->shares_host_memory() || tracker_.state(buffer) == validity::host || mirrored == mirrors_.end()) {
    return kernel_runtime::copy_for_snapshot(v, level, host, into);
  }
  // The device copy is current (the host's may be too, but a copy within the device costs the
  // run far less than a memcpy on the host). Copies on the run's queue come after every kernel
  // launched so far and before every one launched later: nothing else needs waiting for.
  const std::size_t bytes = v.count * v.element_size();
  auto& snapshot = snapshots_[{v.id, level}];
  if (snapshot.bytes != bytes && !snapshot.no_room) reserve_snapshot(snapshot, bytes);
  void* const run_queue = device_->queue();
  if (snapshot.device == nullptr) {
    device_->enqueue_copy_to_host(run_queue, into, mirrored->second.device, bytes);
    return {device_->record(), snapshot_route::device_to_host};
  }
  device_->copy_on_device(run_queue, snapshot.device, mirrored->second.device, bytes);
  return {std::make_shared<snapshot_landing>(*device_, device_->record(), into, snapshot.device, bytes),
          snapshot_route::device_snapshot};
}

void cakernel_runtime::synchronize() {
  device_->synchronize();
  last_writer_.clear();
  reading_host_.clear();
}

namespace {
/// The processor's model as /proc/cpuinfo names it (empty where it does not): what a host
/// backend's measurements hold for, besides its thread count, so that a cache shared by several
/// machines (a home folder on a network) keeps a choice for each.
std::string host_processor() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    const auto start = colon == std::string::npos ? colon : line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}
}  // namespace

std::unique_ptr<opuntia::kernel_runtime> make_kernel_runtime(const std::string& backend_name, grid_function_store& store,
                                                             const backend_options& options) {
  std::vector<std::string> names;
  for (const auto& factory : compiled_backends()) {
    names.push_back(factory.name);
    if (backend_name != "auto" && backend_name != factory.name) continue;
    // auto: a device backend only for a GPU (OpenCL on pocl is a CPU: OpenMP is better there).
    auto chosen_options = options;
    chosen_options.gpu_only = backend_name == "auto" && std::string(factory.name) != "openmp";
    if (auto device = factory.make(chosen_options)) {
      const std::string measured_on = device->name() + ": " + device->device_description() +
                                      (device->shares_host_memory() ? " on " + host_processor() : "");
      auto tuner = std::make_unique<launch_tuner>(autotune_mode_of(options.autotune), options.cache_dir, measured_on,
                                                  options.autotune_seconds);
      return std::make_unique<cakernel_runtime>(std::move(device), store, std::move(tuner));
    }
    if (backend_name != "auto") {
      throw parameter_value_error("CaKernel", "backend",
                                  fmt::format("CaKernel::backend = \"{}\": this machine has no device for it", backend_name));
    }
  }
  throw parameter_value_error("CaKernel", "backend",
                              fmt::format("CaKernel::backend = \"{}\": this build has no {} backend (it has: {})",
                                          backend_name, backend_name, fmt::join(names, ", ")));
}

backend_options backend_options_from(const parameter_source& parameters) {
  backend_options options;
  options.opencl_platform = parameters.text("CaKernel", "opencl_platform");
  options.opencl_device = parameters.text("CaKernel", "opencl_device");
  options.cache_dir = parameters.text("CaKernel", "cache_dir");
  options.opencl_tensor_copies = parameters.boolean("CaKernel", "opencl_tensor_copies");
  options.opencl_options = parameters.text("CaKernel", "opencl_options");
  options.autotune = parameters.text("CaKernel", "autotune");
  options.autotune_seconds = parameters.real("CaKernel", "autotune_seconds");
  return options;
}

std::string describe_devices(const backend_options& options) {
  std::string out;
  for (const auto& factory : compiled_backends()) out += factory.describe_devices(options);
  return out;
}

}  // namespace opuntia::thorns::CaKernel
