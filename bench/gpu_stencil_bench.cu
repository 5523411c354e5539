// The GPU stencil benchmark, in one run on one device: the device's copy bandwidth
// (device-to-device cudaMemcpyAsync of non-zero values, bytes read plus written), plain
// hand-written CUDA kernels of the 7-point and radius-4 stars (fp64 and fp32), and the generated
// kernels of bench/thorns/GpuStencilBench (every CUDA and OpenCL variant of this build, in its CCTK_REAL;
// OpenCL's variants with each number of x points a work-item may own, "lanes N", its own marked;
// each row names the shape the launcher ran, "tile 128x4x64 ahead 2") on an n^3 grid, after a
// line naming each backend's device (OpenCL's says how its rings are filled). Every case is
// timed the same way: the mean launch of the best of three batches of back-to-back launches (the
// generated kernels through the CaKernel backend interface), by the host's clock after the device
// has finished. A single launch between CUDA events, as the copy was timed before, counts the
// launch's start that back-to-back launches hide: on an H200 at 256^3 fp64 the copy took 0.0685
// ms that way and 0.0660 in batches, so the generated kernels' fractions were 3-6 points high at
// 256^3 and about 1 at 512^3 (bench/RESULTS.md, 2026-12-04).
// GB/s counts the fewest bytes a case must move, as the copy counts its bytes read plus written:
// a star of radius r writes the interior, (n - 2r)^3 points, and reads those and the r-deep slabs
// beyond each of its faces, 6 r (n - 2r)^2 points (no star reads the array's edges and corners).
// Usage: gpu_stencil_bench [n=512] [repetitions=10]
// Environment, to explore what autotuning chooses among: GPU_BENCH_SHAPES="X_Y_Z[:AHEAD] ..." also
// runs each generated variant with those tiles (and planes ahead), each lane count (the launcher
// may shrink a tile to fit the device: the row says what ran);
// GPU_BENCH_ONLY="text" runs only the generated variants whose "kernel backend/variant" contains it;
// GPU_BENCH_OPENCL_OPTIONS="..." adds build options to OpenCL's programs (CaKernel::opencl_options);
// GPU_BENCH_TUNE=SECONDS also runs each generated variant on the shape autotuning chooses for it
// alone (CaKernel::autotune = "always", its search at most SECONDS; launch_tuner), the row
// marked "tuned", after the tuner's line saying what it measured: what a run gets by default
// (CaKernel::autotune = "cached") where that variant runs.
// Each generated variant runs on the bare n^3 array and on the layouts a run's grid functions get
// from the driver by default (bench/driver_layouts.hpp): rows padded for 128-byte lines, and those
// rows in planes of an odd number of rows; GPU_BENCH_LAYOUTS="bare" (or "rows", "planes", several
// words) runs only those. The bytes counted are the same in every layout.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <unistd.h>

#include "GpuStencilBench_parameters.hpp"
#include "bench/driver_layouts.hpp"  // driver_layouts: the padded layouts, by the driver's own rules
#include "bench/gpu_timing.hpp"
#include "bench/tuned_shape.hpp"
#include "opuntia/binding.hpp"
#include "thorns/CaKernel/backends/cuda/check.hpp"
#include "thorns/CaKernel/src/backend.hpp"

namespace {

using namespace opuntia::thorns::GpuStencilBench;
using opuntia::bench::best_batch_ms;

/// The plain kernels: one thread per point of a 3D grid of (32, 8, 1) blocks, every read from
/// global memory, the same arithmetic order as the bodies.
template <typename T>
__global__ void plain_star7(const T* __restrict__ u, T* __restrict__ out, int n) {
  const int i = 1 + blockIdx.x * blockDim.x + threadIdx.x, j = 1 + blockIdx.y * blockDim.y + threadIdx.y;
  const int k = 1 + blockIdx.z;
  if (i >= n - 1 || j >= n - 1) return;
  const long long s = n, p = (long long)n * n, c = i + s * j + p * k;
  out[c] = T(-6.0) * u[c] + ((u[c - 1] + u[c + 1]) + (u[c - s] + u[c + s]) + (u[c - p] + u[c + p]));
}

template <typename T>
__global__ void plain_star25(const T* __restrict__ u, T* __restrict__ out, int n) {
  const int i = 4 + blockIdx.x * blockDim.x + threadIdx.x, j = 4 + blockIdx.y * blockDim.y + threadIdx.y;
  const int k = 4 + blockIdx.z;
  if (i >= n - 4 || j >= n - 4) return;
  const long long s = n, p = (long long)n * n, c = i + s * j + p * k;
  const T w[5] = {T(-3 * (205.0 / 72.0)), T(8.0 / 5.0), T(-1.0 / 5.0), T(8.0 / 315.0), T(-1.0 / 560.0)};
  T sum = w[0] * u[c];
#pragma unroll
  for (int r = 1; r <= 4; ++r) sum += w[r] * ((u[c - r] + u[c + r]) + (u[c - r * s] + u[c + r * s]) + (u[c - r * p] + u[c + r * p]));
  out[c] = sum;
}

struct result {
  std::string name, variant, precision;
  double ms;
  double bytes;
  double points;
};

double interior(int n, int r) { return double(n - 2 * r) * (n - 2 * r) * (n - 2 * r); }

/// The fewest bytes a star of radius r moves on an n^3 grid of `element` bytes: the interior
/// written once, read once with the r-deep slabs beyond its six faces.
double star_bytes(int n, int r, std::size_t element) {
  const double m = n - 2 * r;
  return double(element) * (2 * m * m * m + 6.0 * r * m * m);
}

/// The values every case runs on, n^3 of them: not zeros (on an H200 a synchronous cudaMemcpy of
/// 512 MiB of zeros took 0.286 ms against 0.259 for other data or cudaMemcpyAsync, which
/// understated the fp32 copy by 10%; bench/RESULTS.md, 2026-12-03).
template <typename T>
std::vector<T> bench_values(int n) {
  std::vector<T> values(std::size_t(n) * n * n);
  for (std::size_t c = 0; c < values.size(); ++c) values[c] = T((c * 7919 % 1000) * 1e-3);
  return values;
}

template <typename T>
void plain_cases(int n, int repetitions, std::vector<result>& results) {
  const size_t bytes = size_t(n) * n * n * sizeof(T);
  T *u, *out;
  OPUNTIA_CUDA_CHECK(cudaMalloc(&u, bytes));
  OPUNTIA_CUDA_CHECK(cudaMalloc(&out, bytes));
  const std::vector<T> values = bench_values<T>(n);
  OPUNTIA_CUDA_CHECK(cudaMemcpy(u, values.data(), bytes, cudaMemcpyHostToDevice));
  const char* precision = sizeof(T) == 8 ? "fp64" : "fp32";
  const dim3 block(32, 8, 1);
  const dim3 grid7((n - 2 + 31) / 32, (n - 2 + 7) / 8, n - 2), grid25((n - 8 + 31) / 32, (n - 8 + 7) / 8, n - 8);
  results.push_back({"copy", "cudaMemcpy", precision, best_batch_ms([&] { OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(out, u, bytes, cudaMemcpyDeviceToDevice)); }, repetitions),
                     2.0 * bytes, double(n) * n * n});
  results.push_back({"Star7", "plain", precision, best_batch_ms([&] { plain_star7<<<grid7, block>>>(u, out, n); }, repetitions),
                     star_bytes(n, 1, sizeof(T)), interior(n, 1)});
  results.push_back({"Star25", "plain", precision, best_batch_ms([&] { plain_star25<<<grid25, block>>>(u, out, n); }, repetitions),
                     star_bytes(n, 4, sizeof(T)), interior(n, 4)});
  OPUNTIA_CUDA_CHECK(cudaGetLastError());
  cudaFree(u);
  cudaFree(out);
}

/// The shapes of GPU_BENCH_SHAPES ("X_Y_Z[:AHEAD] ..."), after the variant's own (a zero shape).
std::vector<opuntia::launch_shape> asked_shapes() {
  std::vector<opuntia::launch_shape> shapes{opuntia::launch_shape{}};
  const char* text = std::getenv("GPU_BENCH_SHAPES");
  if (text == nullptr) return shapes;
  std::string word;
  for (const char* c = text;; ++c) {
    if (*c != ' ' && *c != '\0') {
      word += *c;
      continue;
    }
    opuntia::launch_shape s{};
    if (!word.empty() && std::sscanf(word.c_str(), "%d_%d_%d:%d", &s.tile[0], &s.tile[1], &s.tile[2], &s.ahead) >= 3)
      shapes.push_back(s);
    else if (!word.empty())
      std::fprintf(stderr, "gpu_stencil_bench: GPU_BENCH_SHAPES word '%s' is not X_Y_Z[:AHEAD]: skipped\n", word.c_str());
    word.clear();
    if (*c == '\0') break;
  }
  return shapes;
}

/// The layouts of an n^3 grid for a stencil of `radius` (see the head of this file): the bare
/// array and the driver's padded ones, those GPU_BENCH_LAYOUTS names.
std::vector<opuntia::grid_layout> layouts_for(int n, int radius) {
  const char* asked = std::getenv("GPU_BENCH_LAYOUTS");
  const auto named = [&](const char* word) {
    return asked == nullptr || (" " + std::string(asked) + " ").find(" " + std::string(word) + " ") != std::string::npos;
  };
  std::vector<opuntia::grid_layout> layouts;
  if (named("bare")) layouts.emplace_back().local = {n, n, n};
  for (const auto& padded : opuntia::bench::driver_layouts(n, radius, sizeof(CCTK_REAL))) {
    if (named(padded.plane_rows == 0 ? "rows" : "planes")) layouts.push_back(padded);
  }
  return layouts;
}

/// The generated kernels of every device backend of this build (CUDA, OpenCL), run through the
/// CaKernel backend interface as the runtime runs them, in each layout of layouts_for. Every
/// variant's output in every layout must equal, to the bit, the output of the first variant of
/// the first backend in the first layout (same operation order; the bench fails otherwise).
bool generated_cases(int n, int repetitions, std::vector<result>& results) {
  namespace ck = opuntia::thorns::CaKernel;
  const std::vector<CCTK_REAL> initial = bench_values<CCTK_REAL>(n);
  const parameters thorn_parameters{};
  const auto b = binding();
  std::vector<std::vector<CCTK_REAL>> first_output(b.kernels.size());  // in the bare array's order
  bool all_equal = true;
  const std::vector<opuntia::launch_shape> shapes = asked_shapes();
  const char* only = std::getenv("GPU_BENCH_ONLY");
  const char* tune = std::getenv("GPU_BENCH_TUNE");
  const double tune_seconds = tune != nullptr ? std::atof(tune) : 0;
  // The tuner's cache, which "always" writes and never reads: a folder of this run's own.
  const std::filesystem::path tune_cache =
      std::filesystem::temp_directory_path() / ("gpu_stencil_bench_tune_" + std::to_string(::getpid()));
  for (const auto& factory : ck::compiled_backends()) {
    if (std::string(factory.name) == "openmp") continue;
    ck::backend_options options;
    if (const char* extra = std::getenv("GPU_BENCH_OPENCL_OPTIONS")) options.opencl_options = extra;
    auto device = factory.make(options);
    if (!device) {
      std::printf("(%s: no device for it on this machine)\n", factory.name);
      continue;
    }
    std::printf("(%s)\n", device->device_description().c_str());
    for (std::size_t k = 0; k < b.kernels.size(); ++k) {
      const auto& kernel = b.kernels[k];
      const int radius = kernel.stencil[0];
      const auto selected = [&](const auto& v) {
        return v.backend == std::string(factory.name) &&
               (only == nullptr ||
                (std::string(kernel.name) + " " + factory.name + "/" + v.template_name).find(only) != std::string::npos);
      };
      if (std::none_of(kernel.variants.begin(), kernel.variants.end(), selected)) continue;
      for (const auto& layout : layouts_for(n, radius)) {
        // The values in this layout (its padding zero), and an output array of it.
        const std::size_t bytes = layout.elements() * sizeof(CCTK_REAL);
        const std::size_t rows = std::size_t(n) * n;
        std::vector<CCTK_REAL> laid_out(layout.elements(), CCTK_REAL(0)), output(layout.elements());
        for (std::size_t row = 0; row < rows; ++row)
          std::copy_n(&initial[row * n], n, &laid_out[opuntia::bench::row_start(layout, n, row)]);
        const std::string layout_name = layout.pitch > 0 ? opuntia::bench::layout_words(layout) : "";
        void* u = device->allocate(bytes);
        void* out = device->allocate(bytes);
        device->copy_to_device(u, laid_out.data(), bytes);
        void* arrays[] = {u, out};
        opuntia::kernel_call call;
        call.grid.ni = call.grid.nj = call.grid.nk = n;
        call.grid.ashi = layout.row_pitch();
        call.grid.leadi = layout.lead;
        call.grid.ashj = layout.rows_per_plane();
        call.grid.dx = call.grid.dy = call.grid.dz = 1.0 / (n - 1);
        call.arrays = arrays;
        call.parameters = &thorn_parameters;
        call.queue = device->queue();
        for (const auto& v : kernel.variants) {
          if (!selected(v)) continue;
          // The variant with its own shape, and, where its work-items may own several x points
          // (OpenCL's and CUDA's lanes), with each number it may own, the widest first: what
          // autotuning chooses among.
          // The shape the launcher runs when asked for `shape` (a call with an empty box runs nothing).
          const auto ran_for = [&](const opuntia::launch_shape& shape) {
            opuntia::kernel_call probe = call;
            probe.box = opuntia::index_range{};
            probe.shape = shape;
            opuntia::launch_shape ran{};
            probe.ran_shape = &ran;
            v.launch(probe);
            return ran;
          };
          const int own_lanes = ran_for({}).lanes, widest = ran_for({{}, 0, 16}).lanes;
          std::vector<int> lanes;
          for (int l = widest; l >= 1; l /= 2) lanes.push_back(l);
          if (widest <= 1) lanes = {0};
          // The mean launch of the best of three batches of `batch` launches asked for `shape`;
          // where `ran` is set, the shape the launches ran is stored there.
          const auto launch_ms = [&](const opuntia::launch_shape& shape, int batch, opuntia::launch_shape* ran) {
            opuntia::kernel_call shaped = call;
            shaped.shape = shape;
            shaped.ran_shape = ran;
            return best_batch_ms([&] { v.launch(shaped); }, [&] { device->synchronize(); }, batch);
          };
          // Runs the variant on `shape` (its launcher may make it one it can run: the row names
          // what ran), checks its output and adds its row, `label` before the shape.
          const auto run_case = [&](const opuntia::launch_shape& shape, const std::string& label) {
            opuntia::launch_shape ran{};  // the shape it runs, as its launches say
            const double ms = launch_ms(shape, repetitions, &ran);
            // The output, kept in the bare array's order the first time; compared at the points
            // the kernel writes only: the kernels never write the rest of `out`.
            device->copy_to_host(output.data(), out, bytes);
            auto& first = first_output[k];
            bool equal = true;
            if (first.empty()) {
              first.resize(rows * n);
              for (std::size_t row = 0; row < rows; ++row)
                std::copy_n(&output[opuntia::bench::row_start(layout, n, row)], n, &first[row * n]);
            } else {
              for (int z = radius; z < n - radius && equal; ++z)
                for (int y = radius; y < n - radius && equal; ++y) {
                  const std::size_t row = y + std::size_t(n) * z;
                  equal = std::equal(&first[row * n + radius], &first[row * n + n - radius],
                                     &output[opuntia::bench::row_start(layout, n, row) + radius]);
                }
            }
            all_equal = all_equal && equal;
            std::string text = label;
            if (ran.lanes > 0) text += " lanes " + std::to_string(ran.lanes) + (ran.lanes == own_lanes ? " (own)" : "");
            text += " tile " + std::to_string(ran.tile[0]) + "x" + std::to_string(ran.tile[1]) + "x" +
                    std::to_string(ran.tile[2]) + " ahead " + std::to_string(ran.ahead);
            results.push_back({kernel.name,
                               std::string(factory.name) + "/" + v.template_name + text + layout_name +
                                   (equal ? "" : " (DIFFERS)"),
                               sizeof(CCTK_REAL) == 8 ? "fp64" : "fp32", ms, star_bytes(n, radius, sizeof(CCTK_REAL)),
                               interior(n, radius)});
          };
          for (const auto& asked : shapes) {
            for (const int l : lanes) {
              opuntia::launch_shape shape = asked;
              shape.lanes = l;
              run_case(shape, "");
            }
          }
          // What autotuning chooses for this variant alone (CaKernel::autotune = "always", its
          // search as long as GPU_BENCH_TUNE says), timed like the rows above.
          if (tune_seconds > 0) {
            const auto seconds_a_launch = [&](const opuntia::launch_shape& shape) {
              return 1e-3 * launch_ms(shape, 3, nullptr);
            };
            std::vector<std::string> notes;
            const opuntia::launch_shape chosen =
                opuntia::bench::tuned_shape(kernel.name, n, v.template_name, device->device_description() + layout_name,
                                            tune_seconds, tune_cache, ran_for, seconds_a_launch, notes);
            for (const auto& note : notes) std::printf("%s\n", note.c_str());
            run_case(chosen, " tuned");
          }
        }
        device->release(u);
        device->release(out);
      }
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(tune_cache, ignored);
  return all_equal;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 10;
  try {
    cudaDeviceProp properties{};
    OPUNTIA_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    std::printf("gpu_stencil_bench: %s, %d^3, best of %d\n\n", properties.name, n, repetitions);
    std::vector<result> results;
    plain_cases<double>(n, repetitions, results);
    plain_cases<float>(n, repetitions, results);
    const bool generated_agree = generated_cases(n, repetitions, results);
    double copy[2] = {0, 0};  // GB/s for fp64, fp32
    for (const auto& r : results) {
      if (r.name == "copy") copy[r.precision == "fp64" ? 0 : 1] = r.bytes / r.ms / 1e6;
    }
    // The fraction of copy to a tenth of a percent: the targets are whole percents, and a kernel
    // at 84.6% is not at 85%.
    std::printf("| kernel | variant | precision | ms | GB/s | GLUP/s | of copy |\n|---|---|---|---:|---:|---:|---:|\n");
    for (const auto& r : results) {
      const double gbs = r.bytes / r.ms / 1e6;
      std::printf("| %s | %s | %s | %.3f | %.0f | %.1f | %.1f%% |\n", r.name.c_str(), r.variant.c_str(), r.precision.c_str(),
                  r.ms, gbs, r.points / r.ms / 1e6, 100 * gbs / copy[r.precision == "fp64" ? 0 : 1]);
    }
    if (!generated_agree) std::printf("\nA generated variant's output DIFFERS from the first one's.\n");
    return generated_agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_stencil_bench: %s\n", e.what());
    return 1;
  }
}
