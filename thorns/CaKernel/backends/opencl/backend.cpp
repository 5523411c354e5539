// The OpenCL backend: buffers in the chosen device's memory, explicit copies, and the programs
// of the generated launchers built at run time from their embedded OpenCL C source, once per
// (source, build options), through the on-disk program cache. Every call is checked.
#include "../../src/backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../../src/program_cache.hpp"
#include "opuntia/parameter_error.hpp"
#include "build_log.hpp"
#include "device_selection.hpp"
#include "thorns/CaKernel/backends/opencl/launch.hpp"
#include "thorns/CaKernel/backends/opencl/reduce.hpp"
#include "thorns/CaKernel/backends/opencl/tensor_maps.hpp"

// After check.hpp, which sets the OpenCL version the headers target.
#include <CL/cl_ext.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPUNTIA_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define OPUNTIA_ADDRESS_SANITIZER 1
#endif
#ifdef OPUNTIA_ADDRESS_SANITIZER
/// OpenCL implementations (pocl and the LLVM it compiles with, NVIDIA's library) keep compiler
/// state until the process ends, which LeakSanitizer reports as leaks. Only allocations made
/// inside those libraries are suppressed; ours are still checked.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libpocl.so\nleak:libLLVM\nleak:libnvidia-opencl.so\n";
}
#endif

namespace opuntia::thorns::CaKernel {
namespace {

namespace selection = opencl_selection;

std::string platform_text(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  OPUNTIA_OPENCL_CHECK(clGetPlatformInfo(platform, what, 0, nullptr, &size));
  std::string text(size, '\0');
  OPUNTIA_OPENCL_CHECK(clGetPlatformInfo(platform, what, size, text.data(), nullptr));
  return text.c_str();  // drop the terminating NUL
}

std::string device_text(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device, what, 0, nullptr, &size));
  std::string text(size, '\0');
  OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device, what, size, text.data(), nullptr));
  return text.c_str();
}

std::string device_type(cl_device_id device) {
  cl_device_type type = 0;
  OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr));
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

/// The machine as the ICD loader sees it: descriptions for device_selection, and the handles.
struct machine {
  std::vector<selection::platform_info> platforms;
  std::vector<cl_platform_id> platform_ids;
  std::vector<std::vector<cl_device_id>> device_ids;
};

machine query_machine() {
  machine m;
  cl_uint count = 0;
  // No ICD, or an ICD without platforms: the machine has no OpenCL device (not an error).
  if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) return m;
  m.platform_ids.resize(count);
  OPUNTIA_OPENCL_CHECK(clGetPlatformIDs(count, m.platform_ids.data(), nullptr));
  for (const auto platform : m.platform_ids) {
    selection::platform_info info{
        platform_text(platform, CL_PLATFORM_NAME), platform_text(platform, CL_PLATFORM_VERSION), {}};
    cl_uint devices = 0;
    std::vector<cl_device_id> ids;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &devices) == CL_SUCCESS && devices > 0) {
      ids.resize(devices);
      OPUNTIA_OPENCL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, devices, ids.data(), nullptr));
    }
    for (const auto device : ids) {
      cl_ulong memory = 0;
      if (clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory, &memory, nullptr) != CL_SUCCESS) memory = 0;
      info.devices.push_back({device_text(device, CL_DEVICE_NAME), device_type(device),
                              device_text(device, CL_DEVICE_VERSION), device_text(device, CL_DRIVER_VERSION), memory});
    }
    m.platforms.push_back(std::move(info));
    m.device_ids.push_back(std::move(ids));
  }
  return m;
}

/// The kernels that copy boxes of arrays to or from contiguous buffers (ghost-zone messages),
/// up to box_copies_at_once boxes a launch (get_global_id(1) picks the box: one launch where
/// there was one a box, as CUDA's copy_boxes_kernel batches them), whole elements at a time;
/// consecutive work-items take consecutive points of a buffer. Each box's array and buffer are
/// arguments of their own (OpenCL C 1.2 has no pointers in buffers), its sizes a struct passed
/// by value. The buffer offsets are multiples of 8 bytes, so 4- and 8-byte elements are aligned.
constexpr int box_copies_at_once = 8;
static_assert(box_copies_at_once == 8, "box_copy_source spells out eight arrays, buffers and jobs");
/// One box of a launch, laid out alike in OpenCL C and here (64 bytes, 8-byte members first).
struct box_copy_job {
  cl_ulong offset;  // bytes into the box's buffer
  cl_long extent_x, extent_y, points;
  cl_int begin_x, begin_y, begin_z, size_x, size_y, element_size, unused[2];
};
static_assert(sizeof(box_copy_job) == 64, "box_copy_job must match opuntia_box_job of box_copy_source");
struct box_copy_batch {
  box_copy_job job[box_copies_at_once];
};
const std::string box_copy_source = R"CL(
typedef struct {
  ulong offset;
  long extent_x, extent_y, points;
  int begin_x, begin_y, begin_z, size_x, size_y, element_size, unused[2];
} opuntia_box_job;
typedef struct { opuntia_box_job job[8]; } opuntia_box_jobs;
#define OPUNTIA_PICK(j, p) \
  ((j) == 0 ? p##0 : (j) == 1 ? p##1 : (j) == 2 ? p##2 : (j) == 3 ? p##3 : (j) == 4 ? p##4 : (j) == 5 ? p##5 : (j) == 6 ? p##6 : p##7)
#define OPUNTIA_BOX_COPIES(name, to, from)                                                          \
  __kernel void name(__global uchar* a0, __global uchar* a1, __global uchar* a2, __global uchar* a3, \
                     __global uchar* a4, __global uchar* a5, __global uchar* a6, __global uchar* a7, \
                     __global uchar* b0, __global uchar* b1, __global uchar* b2, __global uchar* b3, \
                     __global uchar* b4, __global uchar* b5, __global uchar* b6, __global uchar* b7, \
                     opuntia_box_jobs jobs) {                                                       \
    const int j = (int)get_global_id(1);                                                            \
    const opuntia_box_job job = jobs.job[j];                                                        \
    __global uchar* const array = OPUNTIA_PICK(j, a);                                               \
    __global uchar* const buffer = OPUNTIA_PICK(j, b) + job.offset;                                 \
    for (long p = get_global_id(0); p < job.points; p += get_global_size(0)) {                      \
      const long row = p / job.size_x;                                                              \
      const long point = (job.begin_x + p % job.size_x) +                                           \
                         job.extent_x * ((job.begin_y + row % job.size_y) + job.extent_y * (job.begin_z + row / job.size_y)); \
      __global uchar* at_array = array + point * job.element_size;                                  \
      __global uchar* at_buffer = buffer + p * job.element_size;                                    \
      if (job.element_size == 8) {                                                                  \
        *(__global ulong*)(to) = *(__global const ulong*)(from);                                    \
      } else if (job.element_size == 4) {                                                           \
        *(__global uint*)(to) = *(__global const uint*)(from);                                      \
      } else {                                                                                      \
        for (int b = 0; b < job.element_size; ++b) (to)[b] = (from)[b];                             \
      }                                                                                             \
    }                                                                                               \
  }
OPUNTIA_BOX_COPIES(opuntia_pack_boxes, at_buffer, at_array)
OPUNTIA_BOX_COPIES(opuntia_unpack_boxes, at_array, at_buffer)
)CL";
const std::string box_copy_options;

class opencl_backend;
opencl_backend* active_backend = nullptr;  // the one the generated launchers use

/// A marker on a command queue with profiling on: its end time is when everything enqueued
/// before it had finished. Enqueued at once, or (`when_asked`) at the first question asked of
/// it: on NVIDIA's platform a marker costs the host 7.5 us, more than a kernel's 4.8 us
/// (bench/experiments/opencl_launch_cost.cpp), and most launches' events are never asked about.
class opencl_event final : public queue_event {
public:
  enum class recorded { now, when_asked };
  opencl_event(cl_command_queue queue, recorded when) : queue_(queue) {
    if (when == recorded::now) get();
  }
  ~opencl_event() override {
    if (event_ != nullptr) clReleaseEvent(event_);
    if (first_kernel_ != nullptr) clReleaseEvent(first_kernel_);
  }
  opencl_event(const opencl_event&) = delete;
  opencl_event& operator=(const opencl_event&) = delete;
  void wait() override {
    const cl_event e = get();
    OPUNTIA_OPENCL_CHECK(clWaitForEvents(1, &e));
  }
  bool done() override {
    cl_int status = CL_QUEUED;
    OPUNTIA_OPENCL_CHECK(clGetEventInfo(get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    OPUNTIA_OPENCL_CHECK(status < 0 ? status : CL_SUCCESS);  // a negative status: the command failed
    return status == CL_COMPLETE;
  }
  /// The marker, enqueued now if it was not yet (a checkpoint's writer thread may ask too).
  cl_event get() {
    std::call_once(enqueued_, [this] { OPUNTIA_OPENCL_CHECK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &event_)); });
    return event_;
  }
  cl_ulong end_nanoseconds() { return profiled(get(), CL_PROFILING_COMMAND_END); }
  /// When the first kernel enqueued after it started (record_launch_start), or its own end.
  cl_ulong start_nanoseconds() {
    return first_kernel_ != nullptr ? profiled(first_kernel_, CL_PROFILING_COMMAND_START) : end_nanoseconds();
  }
  /// The first kernel enqueued after this marker, whose start times a launch.
  void set_first_kernel(cl_event kernel) { first_kernel_ = kernel; }

private:
  static cl_ulong profiled(cl_event event, cl_profiling_info what) {
    cl_ulong nanoseconds = 0;
    OPUNTIA_OPENCL_CHECK(clGetEventProfilingInfo(event, what, sizeof nanoseconds, &nanoseconds, nullptr));
    return nanoseconds;
  }

  cl_command_queue queue_;
  std::once_flag enqueued_;
  cl_event event_ = nullptr;
  cl_event first_kernel_ = nullptr;
};

class opencl_backend final : public backend {
 public:
  opencl_backend(cl_platform_id platform, cl_device_id device, const selection::platform_info& platform_info,
                 const selection::device_info& device_info, const std::string& cache_dir, bool tensor_copies_wanted,
                 std::string user_options)
      : device_(device),
        platform_name_(platform_info.name),
        device_info_(device_info),
        cache_(cache_dir),
        user_options_(std::move(user_options)) {
    const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                                0};
    cl_int status = CL_SUCCESS;
    context_ = clCreateContext(properties, 1, &device_, nullptr, nullptr, &status);
    OPUNTIA_OPENCL_CHECK(status);
    // Kernels and copies to the device on one in-order queue, with profiling for the timers;
    // copies to the host on a second one (they wait for the writing kernel's event, not the
    // queue); a checkpoint's snapshots go to the host on a third, overlapping the kernels.
    queue_ = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &status);
    if (status == CL_SUCCESS) {
      transfer_queue_ = clCreateCommandQueue(context_, device_, 0, &status);
      if (status == CL_SUCCESS) {
        halo_queue_ = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &status);
        if (status == CL_SUCCESS) {
          snapshot_queue_ = clCreateCommandQueue(context_, device_, 0, &status);
          if (status != CL_SUCCESS) clReleaseCommandQueue(halo_queue_);
        }
        if (status != CL_SUCCESS) clReleaseCommandQueue(transfer_queue_);
      }
      if (status != CL_SUCCESS) clReleaseCommandQueue(queue_);
    }
    if (status != CL_SUCCESS) clReleaseContext(context_);
    OPUNTIA_OPENCL_CHECK(status);
    OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_work_group_size_,
                                         &max_work_group_size_, nullptr));
    OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof compute_units_, &compute_units_, nullptr));
    OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_memory_, &local_memory_, nullptr));
    cl_device_type type = 0;
    OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type, &type, nullptr));
    gpu_ = (type & CL_DEVICE_TYPE_GPU) != 0;
    // NVIDIA's OpenCL C compiler takes inline PTX (bench/experiments/opencl_ring_probe.cpp), and
    // cp.async needs compute capability 8.0 or later (cl_nv_device_attribute_query says which).
    cl_uint compute_capability = 0, compute_capability_minor = 0;
    const bool nvidia = platform_name_.find("NVIDIA") != std::string::npos &&
                        clGetDeviceInfo(device_, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof compute_capability,
                                        &compute_capability, nullptr) == CL_SUCCESS &&
                        clGetDeviceInfo(device_, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof compute_capability_minor,
                                        &compute_capability_minor, nullptr) == CL_SUCCESS;
    asynchronous_copies_ = nvidia && compute_capability >= 8;
    // Tensor copies (cp.async.bulk.tensor) need Hopper or later, and maps from CUDA's driver
    // (tensor_maps.hpp), which is opened at the first ring that asks (tensor_copies()), unless
    // CaKernel::opencl_tensor_copies says no.
    tensor_capable_ = tensor_copies_wanted && nvidia && compute_capability >= 9;
    // Said with the device (the run's header, a benchmark's): a ring's speed depends on it.
    if (nvidia)
      ring_copies_ = fmt::format(" (sm_{}{}, rings by {})", compute_capability, compute_capability_minor,
                                 tensor_capable_ ? "tensor copies" : asynchronous_copies_ ? "cp.async" : "loads");
    // A compute unit: an NVIDIA SM from its compute capability's table; elsewhere (AMD says a
    // compute unit's local memory, which is also a work-group's most) the device's local memory
    // and twice its largest work-group (NVIDIA's SMs held 2048 threads and allowed 1024 a block).
    const auto sm = nvidia ? opencl::nvidia_sm_limits(compute_capability, compute_capability_minor) : std::nullopt;
    unit_limits_ = sm ? *sm
                      : opencl::compute_unit_limits{static_cast<std::size_t>(local_memory_), 0, 2 * max_work_group_size_,
                                                    std::numeric_limits<std::size_t>::max()};
    active_backend = this;
  }

  ~opencl_backend() override {
    if (active_backend == this) active_backend = nullptr;
    for (auto& [_, maps] : tensor_maps_)
      if (maps != nullptr) clReleaseMemObject(maps);
    for (auto& [_, kernel] : kernels_) clReleaseKernel(kernel);
    for (auto& [_, program] : programs_) clReleaseProgram(program);
    clReleaseCommandQueue(snapshot_queue_);
    clReleaseCommandQueue(halo_queue_);
    clReleaseCommandQueue(transfer_queue_);
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
  }

  std::string name() const override { return "opencl"; }
  /// CaKernel::opencl_options tried on a program of one line when the backend starts, so that
  /// options the compiler refuses stop the run at its start, at the parameter's line of the
  /// parameter file, not at the first launch.
  void check_user_options() const {
    if (user_options_.empty()) return;
    const char* text = "__kernel void opuntia_options_probe(__global int* x) { x[0] = 0; }\n";
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &status);
    OPUNTIA_OPENCL_CHECK(status);
    status = clBuildProgram(program, 1, &device_, build_options("").c_str(), nullptr, nullptr);
    std::string log;
    if (status == CL_BUILD_PROGRAM_FAILURE) log = build_log(program);
    clReleaseProgram(program);
    if (status == CL_SUCCESS) return;
    if (status != CL_BUILD_PROGRAM_FAILURE && status != CL_INVALID_BUILD_OPTIONS) OPUNTIA_OPENCL_CHECK(status);
    throw options_refused(log.empty() ? " (CL_INVALID_BUILD_OPTIONS)" : ":\n" + log);
  }

  /// The error of CaKernel::opencl_options refused by the compiler, `why` after it.
  parameter_value_error options_refused(const std::string& why) const {
    return parameter_value_error("CaKernel", "opencl_options",
                                 fmt::format("CaKernel::opencl_options = \"{}\": {} ({}) refuses these build options{}",
                                             user_options_, device_info_.name, platform_name_, why));
  }

  /// The device's index as --list-devices counts it: ranks of one host sharing a device say so.
  std::string device_description() const override {
    cl_platform_id platform = nullptr;
    OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr));
    cl_uint count = 0;
    OPUNTIA_OPENCL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count));
    std::vector<cl_device_id> ids(count);
    OPUNTIA_OPENCL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr));
    const auto index = std::find(ids.begin(), ids.end(), device_) - ids.begin();
    return fmt::format("opencl device {} of {}: {}{}{}", index, platform_name_, device_info_.name, ring_copies_,
                       user_options_.empty() ? "" : fmt::format(" (build options {})", user_options_));
  }
  // OpenCL says how much memory a device has, not how much is free: the run is refused only
  // when it could never fit.
  std::optional<std::size_t> memory_available() const override {
    return device_number<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE);
  }
  std::optional<std::size_t> largest_allocation() const override {
    return device_number<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  }
  // Even where the device is the host's CPU (pocl), buffers are separate: every backend but
  // OpenMP then follows the same validity bookkeeping.
  bool shares_host_memory() const override { return false; }
  void* allocate(std::size_t bytes) override {
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes == 0 ? 1 : bytes, nullptr, &status);
    OPUNTIA_OPENCL_CHECK(status);
    return buffer;
  }
  void release(void* device) override {  // never throws
    const auto buffer = static_cast<cl_mem>(device);
    // A later buffer may get the same handle: nothing known of this one may outlive it.
    addresses_.erase(buffer);
    for (auto it = tensor_maps_.begin(); it != tensor_maps_.end();) {
      const auto& arrays = std::get<0>(it->first);
      if (std::find(arrays.begin(), arrays.end(), buffer) == arrays.end()) {
        ++it;
        continue;
      }
      if (it->second != nullptr) clReleaseMemObject(it->second);
      it = tensor_maps_.erase(it);
    }
    clReleaseMemObject(buffer);
  }
  void* queue() const override { return queue_; }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    OPUNTIA_OPENCL_CHECK(
        clEnqueueWriteBuffer(queue_, static_cast<cl_mem>(device), CL_FALSE, 0, bytes, host, 0, nullptr, nullptr));
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    OPUNTIA_OPENCL_CHECK(clEnqueueReadBuffer(transfer_queue_, static_cast<cl_mem>(const_cast<void*>(device)), CL_TRUE,
                                             0, bytes, host, 0, nullptr, nullptr));
  }
  void synchronize() override {
    OPUNTIA_OPENCL_CHECK(clFinish(queue_));
    OPUNTIA_OPENCL_CHECK(clFinish(halo_queue_));
    OPUNTIA_OPENCL_CHECK(clFinish(transfer_queue_));
    OPUNTIA_OPENCL_CHECK(clFinish(snapshot_queue_));
  }
  queue_event_ptr record() override {
    awaiting_first_kernel_.reset();
    return std::make_shared<opencl_event>(queue_, opencl_event::recorded::now);
  }
  queue_event_ptr record_when_asked() override {
    awaiting_first_kernel_.reset();
    return std::make_shared<opencl_event>(queue_, opencl_event::recorded::when_asked);
  }
  /// A marker whose time is the start of the next kernel on queue(): the host's work between
  /// the two (building the launch, where the device waits for it) is not the kernel's time.
  queue_event_ptr record_launch_start() override {
    auto start = std::make_shared<opencl_event>(queue_, opencl_event::recorded::now);
    awaiting_first_kernel_ = start;
    return start;
  }
  /// Enqueues `kernel` on `queue`; the first kernel on queue() after record_launch_start() with
  /// an event, which that marker keeps.
  void enqueue_kernel(cl_command_queue queue, cl_kernel kernel, unsigned dimensions, const std::size_t* global,
                      const std::size_t* local) {
    const auto start = queue == queue_ ? awaiting_first_kernel_.lock() : nullptr;
    cl_event event = nullptr;
    OPUNTIA_OPENCL_CHECK(clEnqueueNDRangeKernel(queue, kernel, dimensions, nullptr, global, local, 0, nullptr,
                                                start != nullptr ? &event : nullptr));
    if (start != nullptr) {
      start->set_first_kernel(event);
      awaiting_first_kernel_.reset();
    }
  }
  void* halo_queue() const override { return halo_queue_; }
  queue_event_ptr record_on(void* queue) override {
    return std::make_shared<opencl_event>(static_cast<cl_command_queue>(queue), opencl_event::recorded::now);
  }
  void wait_on(void* queue, queue_event& event) override {
    const cl_event after = static_cast<opencl_event&>(event).get();
    OPUNTIA_OPENCL_CHECK(clEnqueueBarrierWithWaitList(static_cast<cl_command_queue>(queue), 1, &after, nullptr));
  }
  void enqueue_copy_to_host(void* queue, void* host, const void* device, std::size_t bytes,
                            std::size_t offset) override {
    OPUNTIA_OPENCL_CHECK(clEnqueueReadBuffer(static_cast<cl_command_queue>(queue),
                                             static_cast<cl_mem>(const_cast<void*>(device)), CL_FALSE, offset, bytes,
                                             host, 0, nullptr, nullptr));
  }
  void enqueue_copy_to_device(void* queue, void* device, const void* host, std::size_t bytes) override {
    OPUNTIA_OPENCL_CHECK(clEnqueueWriteBuffer(static_cast<cl_command_queue>(queue), static_cast<cl_mem>(device),
                                              CL_FALSE, 0, bytes, host, 0, nullptr, nullptr));
  }
  void copy_on_device(void* queue, void* to, const void* from, std::size_t bytes) override {
    OPUNTIA_OPENCL_CHECK(clEnqueueCopyBuffer(static_cast<cl_command_queue>(queue),
                                             static_cast<cl_mem>(const_cast<void*>(from)), static_cast<cl_mem>(to), 0,
                                             0, bytes, 0, nullptr, nullptr));
  }
  void* snapshot_queue() const override { return snapshot_queue_; }
  void copy_boxes(void* queue, const std::vector<box_copy>& copies, bool pack) override {
    const char* name = pack ? "opuntia_pack_boxes" : "opuntia_unpack_boxes";
    cl_kernel k = kernel({box_copy_source, box_copy_options, name, "halo_box_copy"});
    for (std::size_t first = 0; first < copies.size(); first += box_copies_at_once) {
      const std::size_t count = std::min<std::size_t>(box_copies_at_once, copies.size() - first);
      box_copy_batch batch{};
      cl_mem arrays[box_copies_at_once] = {}, buffers[box_copies_at_once] = {};
      cl_long most_points = 0;
      for (std::size_t c = 0; c < count; ++c) {
        const auto& copy = copies[first + c];
        auto& job = batch.job[c];
        arrays[c] = static_cast<cl_mem>(copy.array);
        buffers[c] = static_cast<cl_mem>(copy.buffer);
        job.offset = copy.offset;
        job.extent_x = copy.extent[0];
        job.extent_y = copy.extent[1];
        job.points = static_cast<cl_long>(copy.box.points());
        job.begin_x = copy.box.begin[0];
        job.begin_y = copy.box.begin[1];
        job.begin_z = copy.box.begin[2];
        job.size_x = std::max(copy.box.end[0] - copy.box.begin[0], 1);
        job.size_y = std::max(copy.box.end[1] - copy.box.begin[1], 1);
        job.element_size = static_cast<cl_int>(copy.element_size);
        most_points = std::max(most_points, job.points);
      }
      if (most_points == 0) continue;
      // Unused slots: null buffers (allowed for __global pointer arguments), never read.
      for (cl_uint a = 0; a < box_copies_at_once; ++a) {
        OPUNTIA_OPENCL_CHECK(clSetKernelArg(k, a, sizeof(cl_mem), &arrays[a]));
        OPUNTIA_OPENCL_CHECK(clSetKernelArg(k, box_copies_at_once + a, sizeof(cl_mem), &buffers[a]));
      }
      OPUNTIA_OPENCL_CHECK(clSetKernelArg(k, 2 * box_copies_at_once, sizeof batch, &batch));
      // Enough work-items to fill a GPU for a face of a large block; each loops over the rest.
      const std::size_t local[2] = {std::min<std::size_t>(256, max_work_group_size_), 1};
      const std::size_t items = std::min<std::size_t>(static_cast<std::size_t>(most_points), 2048 * local[0]);
      const std::size_t global[2] = {(items + local[0] - 1) / local[0] * local[0], count};
      enqueue_kernel(static_cast<cl_command_queue>(queue), k, 2, global, local);
    }
  }
  reduction_result reduce_box(const reduction_pass& pass) override {
    return reduce_box_on_opencl(
        *this, [this](const opencl::program_request& request) { return kernel(request); }, pass);
  }
  double elapsed_seconds(queue_event& from, queue_event& to) override {
    const auto start = static_cast<opencl_event&>(from).start_nanoseconds();
    const auto end = static_cast<opencl_event&>(to).end_nanoseconds();
    return (static_cast<double>(end) - static_cast<double>(start)) * 1e-9;
  }
  // No pin(): OpenCL page-locks only memory it allocates itself (CL_MEM_ALLOC_HOST_PTR), and the
  // grid function store's arrays are allocated by the flesh for every backend alike.

  std::size_t max_work_group_size() const { return max_work_group_size_; }
  std::size_t local_memory_size() const { return static_cast<std::size_t>(local_memory_); }
  bool asynchronous_copies() const { return asynchronous_copies_; }

  /// Whether 3dblock_ring may fill its rings by tensor copies: an NVIDIA GPU of compute
  /// capability 9.0 or later whose CUDA driver encodes maps for it (opened at the first ask; where
  /// it cannot be, stderr says why once and the rings keep cp.async).
  bool tensor_copies() {
    if (!tensor_capable_) return false;
    if (!encoder_asked_) {
      encoder_asked_ = true;
      std::string why = "the OpenCL device does not say its UUID (cl_khr_device_uuid)";
      std::array<unsigned char, CL_UUID_SIZE_KHR> uuid{};
      if (clGetDeviceInfo(device_, CL_DEVICE_UUID_KHR, uuid.size(), uuid.data(), nullptr) == CL_SUCCESS)
        encoder_ = opencl::tensor_map_encoder::for_device(uuid, why);
      if (encoder_ == nullptr)
        std::fprintf(stderr, "opuntia: OpenCL rings are filled by cp.async, not tensor copies: %s\n", why.c_str());
    }
    return encoder_ != nullptr;
  }

  /// The tensor maps of `request` in a buffer (the kernel's argument), made at the first launch
  /// with those arrays and shapes; nullptr where the driver refused one (stderr says why, once
  /// for those arrays).
  cl_mem tensor_maps(const opencl::tensor_map_request& request) {
    std::vector<cl_mem> arrays;
    for (void* array : request.arrays) arrays.push_back(static_cast<cl_mem>(array));
    auto key = std::make_tuple(std::move(arrays),
                               std::vector<int>(request.element_bytes.begin(), request.element_bytes.end()),
                               request.dims, request.plane_rows, request.box, request.split_x_halo);
    if (const auto found = tensor_maps_.find(key); found != tensor_maps_.end()) return found->second;
    cl_mem& maps = tensor_maps_[std::move(key)];
    if (!tensor_copies()) return maps;
    const std::size_t per_array = static_cast<std::size_t>(request.maps_per_array());
    std::vector<opencl::tensor_map_bytes> encoded(request.arrays.size() * per_array);
    for (std::size_t a = 0; a < request.arrays.size(); ++a) {
      if (request.arrays[a] == nullptr) continue;  // not copied: its maps stay zeros
      // The slot's boxes: the one, or the main box and the x halo's left and right (none where 0).
      std::vector<std::array<std::uint32_t, 2>> boxes{request.box};
      if (request.split_x_halo)
        for (const int halo : *request.split_x_halo)
          boxes.push_back({static_cast<std::uint32_t>(opencl::tensor_halo_points(halo, request.element_bytes[a])), request.box[1]});
      for (std::size_t b = 0; b < boxes.size(); ++b) {
        if (boxes[b][0] == 0) continue;  // no halo on that side: never copied
        std::string why;
        const auto map = encoder_->encode(address_of(static_cast<cl_mem>(request.arrays[a])),
                                          {request.dims, request.plane_rows, boxes[b], request.element_bytes[a]}, why);
        if (!map) {
          std::fprintf(stderr, "opuntia: an OpenCL ring is filled by cp.async, not tensor copies: %s\n", why.c_str());
          return maps;
        }
        encoded[a * per_array + b] = *map;
      }
    }
    cl_int status = CL_SUCCESS;
    const std::size_t bytes = encoded.size() * sizeof(opencl::tensor_map_bytes);
    maps = clCreateBuffer(context_, CL_MEM_READ_ONLY, bytes, nullptr, &status);
    OPUNTIA_OPENCL_CHECK(status);
    // Blocking, on the kernels' queue: the maps are there before any kernel that reads them.
    OPUNTIA_OPENCL_CHECK(clEnqueueWriteBuffer(queue_, maps, CL_TRUE, 0, bytes, encoded.data(), 0, nullptr, nullptr));
    return maps;
  }

  /// An estimate of the work-groups of `items` work-items and `local_bytes` of local memory that
  /// the device runs at once (OpenCL has no occupancy query): on a GPU, what each compute unit's
  /// limits allow (unit_limits_); on a CPU, one group a compute unit.
  std::int64_t resident_work_groups(std::size_t items, std::size_t local_bytes) const {
    if (!gpu_) return compute_units_;
    return static_cast<std::int64_t>(compute_units_) *
           static_cast<std::int64_t>(opencl::work_groups_per_unit(unit_limits_, items, local_bytes));
  }

  /// A generated launcher's kernel: its source lives as long as the process (a static string)
  /// and its kernel name is a literal, so their addresses and the sizes identify the program
  /// without a string built at each launch.
  cl_kernel kernel(const std::string& source, const opencl::program_sizes& sizes, const char* kernel_name,
                   const char* label) {
    const auto key = std::make_tuple(source.data(), kernel_name, sizes);
    if (const auto found = launched_.find(key); found != launched_.end()) return found->second;
    const std::string options = sizes.options();
    return launched_.emplace(key, built_kernel({source, options, kernel_name, label})).first->second;
  }

  cl_kernel kernel(const opencl::program_request& request) {
    // The runtime's own programs (reductions, box copies) keep their source in a static string
    // too: its address and the options identify the program without hashing the source.
    const auto fast_key = std::make_tuple(request.source.data(), request.options, std::string(request.kernel_name));
    if (const auto found = requested_.find(fast_key); found != requested_.end()) return found->second;
    return requested_.emplace(fast_key, built_kernel(request)).first->second;
  }

 private:
  /// A buffer's address on the device, as a kernel sees it (OpenCL 1.2 has no query for it, and
  /// CUDA's driver does not know OpenCL's buffers): read once by a kernel, kept until release().
  std::uint64_t address_of(cl_mem buffer) {
    if (const auto found = addresses_.find(buffer); found != addresses_.end()) return found->second;
    static const std::string source =
        "__kernel void opuntia_address_of(__global const uchar* buffer, __global ulong* address) {\n"
        "  address[0] = (ulong)buffer;\n"
        "}\n";
    static const std::string options;
    const cl_kernel k = kernel(opencl::program_request{source, options, "opuntia_address_of", "opuntia_address_of"});
    cl_int status = CL_SUCCESS;
    cl_mem answer = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, sizeof(cl_ulong), nullptr, &status);
    OPUNTIA_OPENCL_CHECK(status);
    cl_ulong address = 0;
    status = clSetKernelArg(k, 0, sizeof buffer, &buffer);
    if (status == CL_SUCCESS) status = clSetKernelArg(k, 1, sizeof answer, &answer);
    const std::size_t one = 1;
    if (status == CL_SUCCESS) status = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, &one, 0, nullptr, nullptr);
    if (status == CL_SUCCESS)
      status = clEnqueueReadBuffer(queue_, answer, CL_TRUE, 0, sizeof address, &address, 0, nullptr, nullptr);
    clReleaseMemObject(answer);
    OPUNTIA_OPENCL_CHECK(status);
    return addresses_[buffer] = address;
  }

  /// The kernel of `request`'s program: built (or loaded from the on-disk cache) the first time
  /// its source and options are asked for, then found by the cache key.
  cl_kernel built_kernel(const opencl::program_request& request) {
    const std::string options = build_options(request.options);
    const std::string key =
        program_cache::key({request.source, options, platform_name_, device_info_.name, device_info_.driver_version});
    auto& program = programs_[key];
    if (program == nullptr) program = build(request, options, key);
    auto& kernel = kernels_[key + '/' + request.kernel_name];
    if (kernel == nullptr) {
      cl_int status = CL_SUCCESS;
      kernel = clCreateKernel(program, request.kernel_name, &status);
      OPUNTIA_OPENCL_CHECK(status);
    }
    return kernel;
  }

  /// The launcher's options after Opuntia's own, then CaKernel::opencl_options (last, so that a
  /// user's option may override: `-cl-nv-maxrregcount=96` on NVIDIA's platform).
  std::string build_options(const std::string& launcher_options) const {
    // No -cl-fast-relaxed-math or -cl-mad-enable: results must match OpenMP's to 1e-12.
    std::string options = "-cl-std=CL1.2 " + launcher_options;
#if defined(OPUNTIA_REAL_IS_FLOAT)
    options += " -DOPUNTIA_REAL_IS_FLOAT=1 -cl-fp32-correctly-rounded-divide-sqrt";
#endif
    if (!user_options_.empty()) options += " " + user_options_;
    return options;
  }

  cl_program build(const opencl::program_request& request, const std::string& options, const std::string& key) {
    if (const auto binary = cache_.load(key)) {
      if (cl_program program = from_binary(*binary, options)) return program;
    }
    const char* text = request.source.c_str();
    const std::size_t length = request.source.size();
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &text, &length, &status);
    OPUNTIA_OPENCL_CHECK(status);
    status = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    if (status == CL_BUILD_PROGRAM_FAILURE) {
      const std::string log = opencl_build_log::with_body_lines(build_log(program), request.source);
      clReleaseProgram(program);
      throw std::runtime_error(failure_report(request, options, log));
    }
    if (status != CL_SUCCESS) clReleaseProgram(program);
    if (status == CL_INVALID_BUILD_OPTIONS && !user_options_.empty())
      throw options_refused(fmt::format(" (CL_INVALID_BUILD_OPTIONS) for kernel {}", request.label));
    OPUNTIA_OPENCL_CHECK(status);
    cache_.store(key, binary_of(program));
    return program;
  }

  /// The program from a cached binary; nullptr when the driver rejects it (it is then rebuilt).
  cl_program from_binary(const std::vector<unsigned char>& binary, const std::string& options) {
    const unsigned char* bytes = binary.data();
    const std::size_t size = binary.size();
    cl_int binary_status = CL_SUCCESS, status = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(context_, 1, &device_, &size, &bytes, &binary_status, &status);
    if (status != CL_SUCCESS || binary_status != CL_SUCCESS) {
      if (program != nullptr) clReleaseProgram(program);
      return nullptr;
    }
    if (clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      clReleaseProgram(program);
      return nullptr;
    }
    return program;
  }

  std::vector<unsigned char> binary_of(cl_program program) const {
    std::size_t size = 0;
    OPUNTIA_OPENCL_CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
    std::vector<unsigned char> binary(size);
    unsigned char* data = binary.data();
    OPUNTIA_OPENCL_CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr));
    return binary;
  }

  std::string build_log(cl_program program) const {
    std::size_t size = 0;
    OPUNTIA_OPENCL_CHECK(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size));
    std::string log(size, '\0');
    OPUNTIA_OPENCL_CHECK(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr));
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
  }

  /// The compiler's log (the body's lines as `file:line`: through the #line directives the
  /// templates emit, or mapped back by with_body_lines), with the full source and the log
  /// written next to each other.
  std::string failure_report(const opencl::program_request& request, const std::string& options,
                             const std::string& log) {
    std::string written;
    try {
      const auto files = cache_.store_build_failure(
          request.label, request.source,
          fmt::format("build options: {}\ndevice: {} ({})\n{}\n", options, device_info_.name, platform_name_, log));
      written = fmt::format("the full source is in {} (build log: {})", files.source.string(), files.log.string());
    } catch (const std::exception& e) {
      written = fmt::format("the full source could not be written: {}", e.what());
    }
    return fmt::format("OpenCL build of kernel {} failed on {} ({}):\n{}\n{}{}", request.label, device_info_.name,
                       platform_name_, log, written,
                       user_options_.empty() ? ""
                                             : fmt::format("\nCaKernel::opencl_options added \"{}\" to the build options",
                                                           user_options_));
  }

  template <typename T>
  std::optional<std::size_t> device_number(cl_device_info what) const {
    T value{};
    if (clGetDeviceInfo(device_, what, sizeof value, &value, nullptr) != CL_SUCCESS) return std::nullopt;
    return static_cast<std::size_t>(value);
  }

  cl_device_id device_;
  std::string platform_name_;
  selection::device_info device_info_;
  program_cache cache_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_command_queue transfer_queue_ = nullptr;
  cl_command_queue halo_queue_ = nullptr;
  cl_command_queue snapshot_queue_ = nullptr;
  std::size_t max_work_group_size_ = 1;
  cl_uint compute_units_ = 1;
  cl_ulong local_memory_ = 0;
  opencl::compute_unit_limits unit_limits_;
  bool gpu_ = false;
  bool asynchronous_copies_ = false;
  bool tensor_capable_ = false;  // NVIDIA, compute capability 9.0 or later
  std::string ring_copies_;      // NVIDIA: " (sm_90, rings by tensor copies)", for device_description
  std::string user_options_;     // CaKernel::opencl_options, after every program's own build options
  bool encoder_asked_ = false;
  std::unique_ptr<opencl::tensor_map_encoder> encoder_;  // CUDA's driver, where it serves
  std::map<cl_mem, std::uint64_t> addresses_;            // address_of's answers
  std::map<std::tuple<std::vector<cl_mem>, std::vector<int>, std::array<std::uint64_t, 3>, std::uint64_t,
                      std::array<std::uint32_t, 2>, std::optional<std::array<int, 2>>>,
           cl_mem>
      tensor_maps_;  // tensor_maps' buffers (nullptr: refused)
  std::weak_ptr<opencl_event> awaiting_first_kernel_;  // record_launch_start()'s, until a kernel follows
  std::map<std::string, cl_program> programs_;  // cache key -> built program
  std::map<std::string, cl_kernel> kernels_;    // cache key/kernel name -> kernel
  std::map<std::tuple<const char*, std::string, std::string>, cl_kernel> requested_;
  std::map<std::tuple<const char*, const char*, opencl::program_sizes>, cl_kernel> launched_;
};

opencl_backend& active() {
  if (active_backend == nullptr) {
    throw std::logic_error(
        "an OpenCL kernel was launched with no OpenCL backend active (CaKernel::backend = \"opencl\")");
  }
  return *active_backend;
}

}  // namespace

std::unique_ptr<backend> make_opencl_backend(const backend_options& options) {
  const machine m = query_machine();
  const auto choice =
      selection::choose_if_offered(m.platforms, options.opencl_platform, options.opencl_device, options.gpu_only);
  if (!choice) return nullptr;
  const auto& platform = m.platforms[choice->platform];
  auto made = std::make_unique<opencl_backend>(m.platform_ids[choice->platform],
                                               m.device_ids[choice->platform][choice->device], platform,
                                               platform.devices[choice->device], options.cache_dir,
                                               options.opencl_tensor_copies, options.opencl_options);
  made->check_user_options();
  return made;
}

std::string describe_opencl_devices(const backend_options& options) {
  const machine m = query_machine();
  try {
    const auto choice = selection::choose(m.platforms, options.opencl_platform, options.opencl_device);
    return selection::describe(m.platforms, &choice);
  } catch (const std::invalid_argument& e) {
    // The selection matches nothing: the list, and why no device is marked (a run would stop there).
    return selection::describe(m.platforms, nullptr) + fmt::format("opencl: no device is marked: {}\n", e.what());
  }
}

}  // namespace opuntia::thorns::CaKernel

namespace opuntia::opencl {

cl_kernel kernel(const program_request& request) { return thorns::CaKernel::active().kernel(request); }

cl_kernel kernel(const std::string& source, const program_sizes& sizes, const char* kernel_name, const char* label) {
  return thorns::CaKernel::active().kernel(source, sizes, kernel_name, label);
}

std::size_t max_work_group_size() { return thorns::CaKernel::active().max_work_group_size(); }

std::size_t local_memory_size() { return thorns::CaKernel::active().local_memory_size(); }

bool asynchronous_copies() { return thorns::CaKernel::active().asynchronous_copies(); }

bool tensor_copies() { return thorns::CaKernel::active().tensor_copies(); }

cl_mem tensor_maps(const tensor_map_request& request) { return thorns::CaKernel::active().tensor_maps(request); }

void set_buffer_argument(cl_kernel kernel, unsigned index, cl_mem buffer) {
  OPUNTIA_OPENCL_CHECK(clSetKernelArg(kernel, index, sizeof buffer, &buffer));
}

std::int64_t resident_work_groups(std::size_t items, std::size_t local_bytes) {
  return thorns::CaKernel::active().resident_work_groups(items, local_bytes);
}

unsigned set_arguments(cl_kernel kernel, const void* params, std::size_t params_size, void* const* arrays,
                       unsigned array_count) {
  OPUNTIA_OPENCL_CHECK(clSetKernelArg(kernel, 0, params_size, params));
  for (unsigned a = 0; a < array_count; ++a) set_buffer_argument(kernel, a + 1, static_cast<cl_mem>(arrays[a]));
  return array_count + 1;
}

void enqueue(void* queue, cl_kernel kernel, unsigned dimensions, const std::size_t* global, const std::size_t* local) {
  auto& backend = thorns::CaKernel::active();
  const auto on = static_cast<cl_command_queue>(queue != nullptr ? queue : backend.queue());
  backend.enqueue_kernel(on, kernel, dimensions, global, local);
}

}  // namespace opuntia::opencl
