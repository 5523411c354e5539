// The CUDA backend: device memory with cudaMalloc, explicit copies, one GPU per process (picked
// by the local rank under MPI launchers), every call checked. Kernels and copies to the device
// go to one stream in order; copies to the host to a second stream, so that reading one
// variable back waits for the kernel that wrote it and not for every kernel enqueued after it;
// the snapshots of a checkpoint go to the host on a third, so that they neither wait for the
// kernels after them nor hold up the second one's copies.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <cudaTypedefs.h>
#include <fmt/format.h>

#include "../../src/backend.hpp"
#include "thorns/CaKernel/backends/cuda/check.hpp"
#include "thorns/CaKernel/backends/cuda/reduce.hpp"

namespace opuntia::thorns::CaKernel {
namespace {

/// The rank of this process on its node, from the environment MPI launchers set; 0 otherwise.
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

/// The box copies of one launch, passed by value (kernel parameters, 72 bytes a job, within the
/// 4 KB every launch takes): a round of a SYNC packs one piece per variable and face, all in one
/// launch up to 24 (six faces of four variables).
struct box_copy_jobs {
  static constexpr int most = 24;
  struct job {
    unsigned char* array;
    unsigned char* buffer;  // at the piece's offset
    long long extent_x, extent_y;
    int begin[3];
    int size[3];
    long long points;
    int element_size;
  } jobs[most];
};

/// Copies each job's box (blockIdx.y picks the job) between its array and its buffer, whole
/// elements at a time: consecutive threads take consecutive points of the buffer.
template <bool pack>
__global__ void copy_boxes_kernel(box_copy_jobs batch) {
  const auto& job = batch.jobs[blockIdx.y];
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; p < job.points; p += stride) {
    const long long row = p / job.size[0];
    const long long i = job.begin[0] + p % job.size[0];
    const long long j = job.begin[1] + row % job.size[1];
    const long long k = job.begin[2] + row / job.size[1];
    const long long point = i + job.extent_x * (j + job.extent_y * k);
    unsigned char* at_array = job.array + point * job.element_size;
    unsigned char* at_buffer = job.buffer + p * job.element_size;
    unsigned char* to = pack ? at_buffer : at_array;
    const unsigned char* from = pack ? at_array : at_buffer;
    switch (job.element_size) {  // the buffer offsets are multiples of 8: aligned for both
      case 8: *reinterpret_cast<unsigned long long*>(to) = *reinterpret_cast<const unsigned long long*>(from); break;
      case 4: *reinterpret_cast<unsigned*>(to) = *reinterpret_cast<const unsigned*>(from); break;
      default:
        for (int b = 0; b < job.element_size; ++b) to[b] = from[b];
    }
  }
}

/// cudaEvent_t's of one device kept for reuse. A kernel's launch records two to three events
/// (the routine timer's and the runtime's, which the host waits for before it touches a buffer);
/// creating and destroying each of them cost the host more than recording it. An event goes
/// back once nobody holds it, so nothing waits for it when it is recorded again. Events may be
/// given back from another thread (a checkpoint's writer drops its snapshot's events).
class event_pool {
public:
  explicit event_pool(int device) : device_(device) {}
  ~event_pool() {
    for (cudaEvent_t e : free_) cudaEventDestroy(e);
  }
  event_pool(const event_pool&) = delete;
  event_pool& operator=(const event_pool&) = delete;
  cudaEvent_t take() {
    {
      const std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        cudaEvent_t e = free_.back();
        free_.pop_back();
        return e;
      }
    }
    cudaEvent_t e = nullptr;
    OPUNTIA_CUDA_CHECK(cudaEventCreate(&e));
    return e;
  }
  void give_back(cudaEvent_t e) {
    const std::lock_guard lock(mutex_);
    free_.push_back(e);
  }
  int device() const { return device_; }

private:
  int device_ = 0;
  std::mutex mutex_;
  std::vector<cudaEvent_t> free_;
};

/// A cudaEvent_t recorded on a stream, with timing (the per-routine timers read it), now or when
/// first asked about (backend::record_when_asked). Another thread may ask about it or wait for it
/// (a checkpoint's writer waits for its snapshot's copies): it makes the run's device current
/// there first, so that no other device gets a context.
class cuda_event final : public queue_event {
public:
  enum class recorded { now, when_asked };
  cuda_event(cudaStream_t stream, std::shared_ptr<event_pool> pool, recorded when)
      : pool_(std::move(pool)), stream_(stream) {
    if (when == recorded::now) get();
  }
  ~cuda_event() override {
    if (event_ != nullptr) pool_->give_back(event_);
  }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  void wait() override {
    const cudaEvent_t e = get();
    OPUNTIA_CUDA_CHECK(cudaEventSynchronize(e));
  }
  bool done() override {
    const cudaEvent_t e = get();
    const cudaError_t status = cudaEventQuery(e);
    if (status == cudaErrorNotReady) return false;
    OPUNTIA_CUDA_CHECK(status);
    return true;
  }
  /// The event, recorded on its stream now if it was not yet; the run's device is current after.
  cudaEvent_t get() {
    on_device();
    std::call_once(recorded_, [this] {
      cudaEvent_t e = pool_->take();
      const cudaError_t status = cudaEventRecord(e, stream_);
      if (status != cudaSuccess) {
        cudaEventDestroy(e);
        OPUNTIA_CUDA_CHECK(status);  // throws: call_once lets the next caller try again
      }
      event_ = e;
    });
    return event_;
  }

private:
  void on_device() const {
    int current = -1;
    OPUNTIA_CUDA_CHECK(cudaGetDevice(&current));
    if (current != pool_->device()) OPUNTIA_CUDA_CHECK(cudaSetDevice(pool_->device()));
  }
  std::shared_ptr<event_pool> pool_;  // shared: an event may outlive the backend
  cudaStream_t stream_;
  std::once_flag recorded_;
  cudaEvent_t event_ = nullptr;
};

/// CUDA's stream memory operations (a queue writes a word, or waits for one), which the runtime
/// API does not have: the driver's functions, found once; null where the driver has none.
struct stream_value_functions {
  PFN_cuStreamWriteValue32_v11070 write = nullptr;
  PFN_cuStreamWaitValue32_v11070 wait = nullptr;
};
const stream_value_functions* stream_values() {
  static const stream_value_functions functions = [] {
    stream_value_functions found_functions;
    const auto find = [](const char* name) -> void* {
      void* function = nullptr;
      cudaDriverEntryPointQueryResult found{};
      if (cudaGetDriverEntryPointByVersion(name, &function, 11070, cudaEnableDefault, &found) != cudaSuccess ||
          found != cudaDriverEntryPointSuccess) {
        cudaGetLastError();
        return nullptr;
      }
      return function;
    };
    found_functions.write = reinterpret_cast<PFN_cuStreamWriteValue32_v11070>(find("cuStreamWriteValue32"));
    found_functions.wait = reinterpret_cast<PFN_cuStreamWaitValue32_v11070>(find("cuStreamWaitValue32"));
    return found_functions;
  }();
  return functions.write != nullptr && functions.wait != nullptr ? &functions : nullptr;
}

/// Throws where a driver call of the stream memory operations failed, naming it.
void check_stream_value(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(fmt::format("{} failed: CUresult {}", call, static_cast<int>(result)));
}

class cuda_backend final : public backend {
public:
  explicit cuda_backend(int device) : device_(device) {
    OPUNTIA_CUDA_CHECK(cudaSetDevice(device_));
    // Blocking streams (the default flags): a launch on the legacy default stream, as a caller
    // that sets no kernel_call::queue makes, stays ordered with them.
    OPUNTIA_CUDA_CHECK(cudaStreamCreate(&compute_));
    cudaError_t created = cudaStreamCreate(&transfer_);
    if (created == cudaSuccess) {
      // The halo's small kernels get SMs as the interior's blocks retire, not after all of them.
      int lowest = 0, highest = 0;
      cudaDeviceGetStreamPriorityRange(&lowest, &highest);
      created = cudaStreamCreateWithPriority(&halo_, cudaStreamDefault, highest);
      if (created == cudaSuccess) {
        // Snapshots copied to the host while kernels run: the lowest priority (copies use the
        // copy engines; the priority orders only the few kernels a stream may hold).
        created = cudaStreamCreateWithPriority(&snapshot_, cudaStreamDefault, lowest);
        if (created != cudaSuccess) cudaStreamDestroy(halo_);
      }
      if (created != cudaSuccess) cudaStreamDestroy(transfer_);
    }
    if (created != cudaSuccess) cudaStreamDestroy(compute_);
    OPUNTIA_CUDA_CHECK(created);
  }
  ~cuda_backend() override {
    cudaStreamDestroy(snapshot_);
    cudaStreamDestroy(halo_);
    cudaStreamDestroy(transfer_);
    cudaStreamDestroy(compute_);
  }
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;
  std::string name() const override { return "cuda"; }
  std::string device_description() const override {
    cudaDeviceProp properties{};
    OPUNTIA_CUDA_CHECK(cudaGetDeviceProperties(&properties, device_));
    return fmt::format("cuda device {}: {}", device_, properties.name);
  }
  std::string device_identity() const override {
    cudaDeviceProp properties{};
    OPUNTIA_CUDA_CHECK(cudaGetDeviceProperties(&properties, device_));
    std::string uuid = "GPU-";
    for (const char byte : properties.uuid.bytes) uuid += fmt::format("{:02x}", static_cast<unsigned char>(byte));
    return uuid;
  }
  bool shares_host_memory() const override { return false; }
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    OPUNTIA_CUDA_CHECK(cudaMalloc(&p, bytes == 0 ? 1 : bytes));
    return p;
  }
  void* try_allocate(std::size_t bytes) override {
    void* p = nullptr;
    if (cudaMalloc(&p, bytes == 0 ? 1 : bytes) == cudaSuccess) return p;
    cudaGetLastError();  // out of memory is no sticky error: clear it, so that no later check reports it
    return nullptr;
  }
  void release(void* device) override { cudaFree(device); }  // never throws: called from destructors
  void* queue() const override { return compute_; }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, compute_));
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, transfer_));
    OPUNTIA_CUDA_CHECK(cudaStreamSynchronize(transfer_));
  }
  void synchronize() override {
    OPUNTIA_CUDA_CHECK(cudaGetLastError());
    OPUNTIA_CUDA_CHECK(cudaDeviceSynchronize());
  }
  queue_event_ptr record() override {
    return std::make_shared<cuda_event>(compute_, events_, cuda_event::recorded::now);
  }
  /// An untimed launch's `done`, as OpenCL's: an event recorded between two kernels costs the
  /// host a call and the device time between them (the timers' events 1.3-2.5 us a step at
  /// 128^3, backend::timing_stride), and most of these are never asked about.
  queue_event_ptr record_when_asked() override {
    return std::make_shared<cuda_event>(compute_, events_, cuda_event::recorded::when_asked);
  }
  void* halo_queue() const override { return halo_; }
  queue_event_ptr record_on(void* queue) override {
    return std::make_shared<cuda_event>(static_cast<cudaStream_t>(queue), events_, cuda_event::recorded::now);
  }
  void wait_on(void* queue, queue_event& event) override {
    OPUNTIA_CUDA_CHECK(cudaStreamWaitEvent(static_cast<cudaStream_t>(queue), static_cast<cuda_event&>(event).get(), 0));
  }
  void enqueue_copy_to_host(void* queue, void* host, const void* device, std::size_t bytes,
                            std::size_t offset) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(host, static_cast<const char*>(device) + offset, bytes, cudaMemcpyDeviceToHost,
                                       static_cast<cudaStream_t>(queue)));
  }
  void enqueue_copy_to_device(void* queue, void* device, const void* host, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(queue)));
  }
  void copy_on_device(void* queue, void* to, const void* from, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(queue)));
  }
  void* snapshot_queue() const override { return snapshot_; }
  void copy_boxes(void* queue, const std::vector<box_copy>& copies, bool pack) override {
    const auto stream = static_cast<cudaStream_t>(queue);
    for (std::size_t first = 0; first < copies.size(); first += box_copy_jobs::most) {
      box_copy_jobs batch{};
      const std::size_t count = std::min<std::size_t>(box_copy_jobs::most, copies.size() - first);
      long long most_points = 0;
      for (std::size_t c = 0; c < count; ++c) {
        const auto& copy = copies[first + c];
        auto& job = batch.jobs[c];
        job.array = static_cast<unsigned char*>(copy.array);
        job.buffer = static_cast<unsigned char*>(copy.buffer) + copy.offset;
        job.extent_x = copy.extent[0];
        job.extent_y = copy.extent[1];
        for (int d = 0; d < 3; ++d) {
          job.begin[d] = copy.box.begin[d];
          job.size[d] = std::max(copy.box.end[d] - copy.box.begin[d], 0);
        }
        job.points = static_cast<long long>(copy.box.points());
        job.element_size = static_cast<int>(copy.element_size);
        most_points = std::max(most_points, job.points);
      }
      if (most_points == 0) continue;
      constexpr int threads = 256;
      // Enough blocks to fill the GPU for a face of a large block; the loop covers the rest.
      const unsigned blocks = static_cast<unsigned>(std::min<long long>((most_points + threads - 1) / threads, 2048));
      const dim3 grid(blocks, static_cast<unsigned>(count));
      if (pack) {
        copy_boxes_kernel<true><<<grid, threads, 0, stream>>>(batch);
      } else {
        copy_boxes_kernel<false><<<grid, threads, 0, stream>>>(batch);
      }
      OPUNTIA_CUDA_CHECK(cudaGetLastError());
    }
  }
  reduction_result reduce_box(const reduction_pass& pass) override { return reduce_box_on_cuda(pass, compute_); }
  bool device_memory_is_addressable() const override { return true; }
  std::vector<std::byte> share_with_processes(void* device) override {
    cudaIpcMemHandle_t handle{};
    if (cudaIpcGetMemHandle(&handle, device) != cudaSuccess) {
      cudaGetLastError();
      return {};
    }
    const auto* bytes = reinterpret_cast<const std::byte*>(&handle);
    return {bytes, bytes + sizeof handle};
  }
  void* open_from_process(const std::vector<std::byte>& bytes) override {
    cudaIpcMemHandle_t handle{};
    if (bytes.size() != sizeof handle) return nullptr;
    std::memcpy(&handle, bytes.data(), sizeof handle);
    void* device = nullptr;
    // Lazy peer access: a kernel on this GPU may then write the other GPU's memory over NVLink.
    if (cudaIpcOpenMemHandle(&device, handle, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
      cudaGetLastError();  // another node's handle, or this process's own memory
      return nullptr;
    }
    return device;
  }
  void close_from_process(void* device) noexcept override {
    if (cudaIpcCloseMemHandle(device) != cudaSuccess) cudaGetLastError();
  }
  bool orders_by_values() const override { return stream_values() != nullptr; }
  void write_value_on(void* queue, void* device, std::uint32_t value) override {
    // The default flags: the write follows a fence over the queue's earlier writes (the packs
    // into the neighbour's memory), as __threadfence_system() does for a thread.
    check_stream_value(stream_values()->write(static_cast<CUstream>(queue), reinterpret_cast<CUdeviceptr>(device), value,
                                              CU_STREAM_WRITE_VALUE_DEFAULT),
                       "cuStreamWriteValue32");
  }
  void wait_value_on(void* queue, const void* device, std::uint32_t value) override {
    check_stream_value(stream_values()->wait(static_cast<CUstream>(queue), reinterpret_cast<CUdeviceptr>(device), value,
                                             CU_STREAM_WAIT_VALUE_GEQ),
                       "cuStreamWaitValue32");
  }
  void* allocate_host(std::size_t bytes) override {
    void* p = nullptr;
    OPUNTIA_CUDA_CHECK(cudaMallocHost(&p, bytes == 0 ? 1 : bytes));
    return p;
  }
  void release_host(void* host) noexcept override {
    if (cudaFreeHost(host) != cudaSuccess) cudaGetLastError();
  }
  double elapsed_seconds(queue_event& from, queue_event& to) override {
    float milliseconds = 0;
    OPUNTIA_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, static_cast<cuda_event&>(from).get(),
                                            static_cast<cuda_event&>(to).get()));
    return milliseconds * 1e-3;
  }
  // The grid function store's arrays are pinned where they are (cudaHostRegister) rather than
  // allocated pinned (cudaHostAlloc): the store keeps one allocation path for every backend, its
  // arrays keep their first-touch placement on the cores that compute on them, and only arrays
  // that get a device copy are pinned.
  void pin(void* host, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaHostRegister(host, bytes == 0 ? 1 : bytes, cudaHostRegisterDefault));
  }
  void unpin(void* host) noexcept override {
    if (cudaHostUnregister(host) != cudaSuccess) cudaGetLastError();
  }
  std::optional<std::size_t> memory_available() const override {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
      cudaGetLastError();
      return std::nullopt;
    }
    return free_bytes;
  }

private:
  int device_;
  std::shared_ptr<event_pool> events_ = std::make_shared<event_pool>(device_);
  cudaStream_t compute_ = nullptr, transfer_ = nullptr, halo_ = nullptr, snapshot_ = nullptr;
};

}  // namespace

std::unique_ptr<backend> make_cuda_backend(const backend_options&) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky error of a machine without a GPU
    return nullptr;
  }
  return std::make_unique<cuda_backend>(local_rank() % count);
}

}  // namespace opuntia::thorns::CaKernel

namespace opuntia::thorns::CaKernel {

std::string describe_cuda_devices(const backend_options&) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return "cuda: no device\n";
  }
  std::string out;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp properties{};
    OPUNTIA_CUDA_CHECK(cudaGetDeviceProperties(&properties, d));
    out += fmt::format("cuda device {}: {} (compute capability {}.{}, {} MiB){}\n", d, properties.name, properties.major,
                       properties.minor, properties.totalGlobalMem >> 20, d == local_rank() % count ? "  [default]" : "");
  }
  return out;
}

}  // namespace opuntia::thorns::CaKernel
