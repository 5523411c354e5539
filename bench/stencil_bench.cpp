// Stencil benchmark: effective bandwidth of the generated OpenMP kernels against the measured
// copy bandwidth and plain hand-written OpenMP loops of the same stencils, in one run; with the
// generated kernels of every other backend that finds a device here (OpenCL on pocl, on a CPU
// machine) beside them. The OpenMP variants run again on rows padded as
// Driver::pad_to_cachelines pads them (the kernel's first point of a row on a 128-byte line), and
// once more with planes of an odd number of rows besides, as Driver::pad_planes pads them.
//
//   stencil_bench [n=256] [repetitions=20]
//
// Effective bandwidth counts each array once: (reads + writes) * 8 bytes * updated points / time
// (the floor of the performance model in bench/RESULTS.md); copy counts bytes read plus bytes written. Every
// figure is the best of `repetitions` timed runs after two warm-up runs; the median is printed
// too. "of copy" is best against the copy's best; "of copy, paired" is the median over the rounds
// of each round's fraction against the copy timed in the same round (paired_fraction_of_copy).
// Results: bench/RESULTS.md. Nothing here is asserted on.
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "StencilBench_common.h"  // OPUNTIA_OPENMP_KERNEL: how the generated kernels are compiled
#include "StencilBench_parameters.hpp"
#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"
#include "thorns/CaKernel/src/backend.hpp"
#include "bandwidth_harness.hpp"
#include "driver_layouts.hpp"  // driver_layouts: the padded layouts, by the driver's own rules

namespace {

namespace ck = opuntia::thorns::CaKernel;
using namespace opuntia::bench;

// The hand-written baselines: what one writes without a framework, written with care: restrict
// pointers, an omp simd x loop, threads over z planes. Same arithmetic, in the same order, as
// bench/thorns/StencilBench/src/*.kernel, and compiled as the generated kernels are (their
// OPUNTIA_OPENMP_KERNEL: the same ISA clones, vector width and no fused multiply-adds), so the
// comparison is of loops, not of compiler flags, and the results agree to the bit.
OPUNTIA_OPENMP_KERNEL void plain_star7(const double* __restrict u, double* __restrict out, int n) {
  const std::ptrdiff_t sj = n, sk = static_cast<std::ptrdiff_t>(n) * n;
#pragma omp parallel for schedule(static)
  for (int k = 1; k < n - 1; ++k) {
    for (int j = 1; j < n - 1; ++j) {
      const std::ptrdiff_t row = sj * j + sk * k;
#pragma omp simd
      for (int i = 1; i < n - 1; ++i) {
        const std::ptrdiff_t c = row + i;
        out[c] = -6.0 * u[c] + ((u[c - 1] + u[c + 1]) + (u[c - sj] + u[c + sj]) + (u[c - sk] + u[c + sk]));
      }
    }
  }
}

OPUNTIA_OPENMP_KERNEL void plain_star25(const double* __restrict u, double* __restrict out, int n) {
  const std::ptrdiff_t sj = n, sk = static_cast<std::ptrdiff_t>(n) * n;
#pragma omp parallel for schedule(static)
  for (int k = 4; k < n - 4; ++k) {
    for (int j = 4; j < n - 4; ++j) {
      const std::ptrdiff_t row = sj * j + sk * k;
#pragma omp simd
      for (int i = 4; i < n - 4; ++i) {
        const std::ptrdiff_t c = row + i;
        double sum = -3 * (205.0 / 72.0) * u[c];
        sum += (8.0 / 5.0) * ((u[c - 1] + u[c + 1]) + (u[c - sj] + u[c + sj]) + (u[c - sk] + u[c + sk]));
        sum += (-1.0 / 5.0) * ((u[c - 2] + u[c + 2]) + (u[c - 2 * sj] + u[c + 2 * sj]) + (u[c - 2 * sk] + u[c + 2 * sk]));
        sum += (8.0 / 315.0) * ((u[c - 3] + u[c + 3]) + (u[c - 3 * sj] + u[c + 3 * sj]) + (u[c - 3 * sk] + u[c + 3 * sk]));
        sum += (-1.0 / 560.0) *
               ((u[c - 4] + u[c + 4]) + (u[c - 4 * sj] + u[c + 4 * sj]) + (u[c - 4 * sk] + u[c + 4 * sk]));
        out[c] = sum;
      }
    }
  }
}

struct row {
  std::string what, variant, tile;
  timing t;
  double bytes = 0, points = 0;
  std::string check;
  // A row of another device (pocl's OpenCL threads) is timed in rounds of its own, after the
  // OpenMP rows: its worker threads stay busy between launches and would slow the OpenMP rows
  // that follow them in a shared round (the copy measured 6x slower that way).
  bool on_device = false;
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 20;
  if (n < 16 || repetitions < 1) {
    std::fprintf(stderr, "usage: stencil_bench [n >= 16] [repetitions >= 1]\n");
    return 2;
  }
  const std::size_t count = static_cast<std::size_t>(n) * n * n;
  std::printf("stencil_bench: %d^3 fp64 (%.0f MiB per array), %d OpenMP threads, best of %d\n", n,
              count * 8.0 / (1 << 20), omp_get_max_threads(), repetitions);

  aligned_field u(count), out(count), reference(count);
  {
    std::mt19937_64 generator(20261122);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (std::size_t i = 0; i < count; ++i) u.data()[i] = uniform(generator);
  }
  // The same field in the driver's padded layouts (driver_layouts: rows padded for 128-byte lines
  // from a kernel's first point, x = its radius; and those rows in planes of an odd number of
  // rows). A copy for each kernel and layout, made when its turn comes.
  // Row `row` (j + n * k) of a field in `layout`.
  const auto padded_row = [n](const opuntia::grid_layout& layout, double* field, std::size_t row) {
    return field + row_start(layout, n, row);
  };
  std::deque<aligned_field> padded_fields;  // u and out of each kernel and layout
  std::vector<row> rows;
  std::vector<std::function<void()>> cases;  // one per row
  std::deque<opuntia::kernel_call> calls;  // stable addresses: the cases refer to them
  std::deque<std::array<void*, 2>> padded_array_pairs;  // stable: the padded calls point into them
  void* arrays[] = {u.data(), out.data()};

  // The copies, first the plain one that every fraction is of: each checked once, then timed.
  for (const auto& [variant, copy_function] :
       {std::pair{"plain", &copy}, std::pair{"streaming stores", &copy_streaming}}) {
    row r{"copy a[i] = b[i]", variant, "-", {}, 16.0 * count, static_cast<double>(count), ""};
    std::memset(out.data(), 0, count * sizeof(double));
    copy_function(out.data(), u.data(), count);
    r.check = std::memcmp(out.data(), u.data(), count * sizeof(double)) == 0 ? "exact" : "WRONG";
    rows.push_back(r);
    cases.push_back([&, copy_function = copy_function] { copy_function(out.data(), u.data(), count); });
  }

  // Every device backend of this build that finds a device on this machine.
  std::vector<std::pair<std::string, std::unique_ptr<ck::backend>>> devices;
  for (const auto& factory : ck::compiled_backends()) {
    if (std::string(factory.name) == "openmp") continue;
    if (auto device = factory.make({})) devices.emplace_back(factory.name, std::move(device));
  }
  std::vector<std::pair<ck::backend*, void*>> device_buffers;  // released at the end
  std::deque<std::array<void*, 2>> device_arrays;               // stable: the calls point into them
  std::vector<double> out_poisoned(count);
  std::memset(out_poisoned.data(), 0xff, count * sizeof(double));

  const auto binding = opuntia::thorns::StencilBench::binding();
  const opuntia::thorns::StencilBench::parameters thorn_parameters{};
  // A launch of a kernel over the whole n^3 grid with `arrays` (u, u_out), kept for the timing.
  const auto call_over = [&](void** call_arrays) -> opuntia::kernel_call& {
    opuntia::kernel_call& call = calls.emplace_back();
    call.grid.dx = call.grid.dy = call.grid.dz = 1.0;
    call.grid.ni = call.grid.nj = call.grid.nk = n;
    call.arrays = call_arrays;
    call.parameters = &thorn_parameters;
    return call;
  };
  const auto verdict = [&] {
    return std::memcmp(out.data(), reference.data(), count * sizeof(double)) == 0 ? "bit-equal" : "DIFFERS";
  };
  for (const auto& kernel : binding.kernels) {
    const int radius = kernel.stencil[0];
    const double interior = std::pow(static_cast<double>(n - 2 * radius), 3);
    const auto plain = radius == 1 ? plain_star7 : plain_star25;
    // The reference: the plain loop's output, every point outside the stencil bounds poisoned.
    std::memset(reference.data(), 0xff, count * sizeof(double));
    plain(u.data(), reference.data(), n);
    {
      row r{kernel.name + " plain loop", "plain", "-", {}, 16.0 * interior, interior, "reference"};
      rows.push_back(r);
      cases.push_back([&, plain] { plain(u.data(), out.data(), n); });
    }
    // The field in each padded layout for this kernel's radius, and an output of that layout.
    struct padded_fields_of {
      opuntia::grid_layout layout;
      void** arrays;
    };
    std::vector<padded_fields_of> padded;
    for (const auto& layout : driver_layouts(n, radius, sizeof(double))) {
      auto& padded_u = padded_fields.emplace_back(layout.elements());
      auto& padded_out = padded_fields.emplace_back(layout.elements());
      for (std::size_t row = 0; row < static_cast<std::size_t>(n) * n; ++row)
        std::memcpy(padded_row(layout, padded_u.data(), row), u.data() + row * n, n * sizeof(double));
      padded.push_back(
          {layout, padded_array_pairs.emplace_back(std::array<void*, 2>{padded_u.data(), padded_out.data()}).data()});
    }
    for (const auto& variant : kernel.variants) {
      if (variant.backend != "openmp") continue;  // the GPU variants: bench/gpu_stencil_bench.cu
      opuntia::kernel_call& call = call_over(arrays);
      std::memset(out.data(), 0xff, count * sizeof(double));
      variant.launch(call);
      const std::string tile = std::to_string(kernel.tile[0]) + "," + std::to_string(kernel.tile[1]) + "," +
                               std::to_string(kernel.tile[2]);
      rows.push_back({kernel.name + " generated", variant.template_name, tile, {}, 16.0 * interior, interior, verdict()});
      cases.push_back([launch = variant.launch, &call] { launch(call); });
      // The same launch with streaming stores turned off, for the difference they make.
      const auto ordinary_stores = [launch = variant.launch, &call] {
        const opuntia::openmp::scoped_streaming_stores none(false);
        launch(call);
      };
      std::memset(out.data(), 0xff, count * sizeof(double));
      ordinary_stores();
      rows.push_back({kernel.name + " generated", variant.template_name + ", no streaming stores", tile, {},
                      16.0 * interior, interior, verdict()});
      cases.push_back(ordinary_stores);
      // On padded rows (and planes): the output compared row by row with the reference.
      for (const auto& [layout, padded_arrays] : padded) {
        auto* padded_out = static_cast<double*>(padded_arrays[1]);
        std::memset(padded_out, 0xff, layout.elements() * sizeof(double));
        opuntia::kernel_call& padded_call = call_over(padded_arrays);
        padded_call.grid.ashi = layout.row_pitch();
        padded_call.grid.leadi = layout.lead;
        padded_call.grid.ashj = layout.rows_per_plane();
        variant.launch(padded_call);
        bool same = true;
        for (std::size_t row = 0; same && row < static_cast<std::size_t>(n) * n; ++row)
          same = std::memcmp(padded_row(layout, padded_out, row), reference.data() + row * n, n * sizeof(double)) == 0;
        rows.push_back({kernel.name + " generated", variant.template_name + layout_words(layout), tile, {},
                        16.0 * interior, interior, same ? "bit-equal" : "DIFFERS"});
        cases.push_back([launch = variant.launch, &padded_call] { launch(padded_call); });
      }
    }
    // The device backends that have a device here (OpenCL through pocl on a CPU machine): the
    // same kernels through the CaKernel backend interface, each launch ended by synchronize().
    for (auto& [name, device] : devices) {
      auto& buffers = device_arrays.emplace_back(
          std::array<void*, 2>{device->allocate(count * sizeof(double)), device->allocate(count * sizeof(double))});
      device_buffers.push_back({device.get(), buffers[0]});
      device_buffers.push_back({device.get(), buffers[1]});
      device->copy_to_device(buffers[0], u.data(), count * sizeof(double));
      device->copy_to_device(buffers[1], out_poisoned.data(), count * sizeof(double));
      for (const auto& variant : kernel.variants) {
        if (variant.backend != name) continue;
        opuntia::kernel_call& call = call_over(buffers.data());
        variant.launch(call);
        device->synchronize();
        device->copy_to_host(out.data(), buffers[1], count * sizeof(double));
        rows.push_back({kernel.name + " generated", name + "/" + variant.template_name, "-", {}, 16.0 * interior,
                        interior, verdict(), true});
        cases.push_back([launch = variant.launch, &call, d = device.get()] {
          launch(call);
          d->synchronize();
        });
      }
    }
  }

  for (const bool device_group : {false, true}) {
    std::vector<std::size_t> members;
    std::vector<std::function<void()>> group;
    for (std::size_t c = 0; c < rows.size(); ++c) {
      if (rows[c].on_device != device_group) continue;
      members.push_back(c);
      group.push_back(cases[c]);
    }
    const auto timings = time_in_rounds(group, repetitions);
    for (std::size_t m = 0; m < members.size(); ++m) rows[members[m]].t = timings[m];
  }
  const row& copy_row = rows.front();
  const double copy_bandwidth = copy_row.bytes / copy_row.t.best;
  std::printf("\n| kernel | variant | TILE | best ms | median ms | GB/s | GLUP/s | of copy | of copy, paired | result |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (const auto& r : rows) {
    const double bandwidth = r.bytes / r.t.best;
    // Only the rows timed in the copy's rounds have a copy to pair with.
    const std::string paired =
        r.on_device ? "-"
                    : fmt::format("{:.1f}%", 100.0 * paired_fraction_of_copy(copy_row.t, copy_row.bytes, r.t, r.bytes));
    // Fractions to a tenth of a percent, as gpu_stencil_bench: the targets are whole percents.
    std::printf("| %s | %s | %s | %.2f | %.2f | %.1f | %.2f | %.1f%% | %s | %s |\n", r.what.c_str(), r.variant.c_str(),
                r.tile.c_str(), r.t.best * 1e3, r.t.median * 1e3, bandwidth * 1e-9, r.points / r.t.best * 1e-9,
                100.0 * bandwidth / copy_bandwidth, paired.c_str(), r.check.c_str());
  }
  for (auto& [device, buffer] : device_buffers) device->release(buffer);
  bool all_exact = true;
  for (const auto& r : rows) all_exact = all_exact && r.check != "DIFFERS" && r.check != "WRONG";
  return all_exact ? 0 : 1;
}
