#pragma once
// What the CPU benchmarks share (bench/stencil_bench.cpp, bench/experiments/cpu_star25_designs.cpp):
// first-touched aligned arrays, the copies that bandwidths are measured against, and the timing
// of cases in rounds with the fraction of copy paired round by round. Results: bench/RESULTS.md.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <new>
#include <vector>

#include "thorns/CaKernel/backends/openmp/rows.hpp"  // stream_points: the generated kernels' streaming stores

namespace opuntia::bench {

/// A 64-byte aligned array of doubles, first touched by the threads in the static schedule
/// that the loops use, so that its pages are local to the thread that works on them.
class aligned_field {
public:
  explicit aligned_field(std::size_t count)
      : count_(count), data_(static_cast<double*>(std::aligned_alloc(64, (count * sizeof(double) + 63) / 64 * 64))) {
    if (data_ == nullptr) throw std::bad_alloc();
    double* const p = data_;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < count; ++i) p[i] = 0.0;
  }
  ~aligned_field() { std::free(data_); }
  aligned_field(const aligned_field&) = delete;
  aligned_field& operator=(const aligned_field&) = delete;
  double* data() const { return data_; }
  std::size_t size() const { return count_; }

private:
  std::size_t count_;
  double* data_;
};

struct timing {
  double best = 0, median = 0;  // seconds
  std::vector<double> rounds;    // seconds, in the order of the rounds
};

inline double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Times every case in rounds (case 1, case 2, ..., then again), so that a burst of load from
/// other processes on the machine hits all of them alike rather than one; two warm-up rounds.
inline std::vector<timing> time_in_rounds(const std::vector<std::function<void()>>& cases, int repetitions) {
  std::vector<timing> result(cases.size());
  for (int round = -2; round < repetitions; ++round) {
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const double start = omp_get_wtime();
      cases[c]();
      if (round >= 0) result[c].rounds.push_back(omp_get_wtime() - start);
    }
  }
  for (auto& t : result) {
    t.best = *std::min_element(t.rounds.begin(), t.rounds.end());
    t.median = median_of(t.rounds);
  }
  return result;
}

/// The fraction of copy bandwidth `r` reached in each round, against the copy of the same round,
/// and its median over the rounds. Other guests of the development machine's host take memory
/// bandwidth in bursts: the copy's best round is a quiet moment that a compute-bound kernel's best
/// round need not share (the copy's best moved from 4.8 to 8.8 ms between runs, the 7-point star's
/// by a tenth of that), so best against best swings with the load; each round's pair sees one load.
inline double paired_fraction_of_copy(const timing& copy, double copy_bytes, const timing& r, double bytes) {
  std::vector<double> fractions;
  for (std::size_t round = 0; round < r.rounds.size(); ++round) {
    fractions.push_back((bytes / r.rounds[round]) / (copy_bytes / copy.rounds[round]));
  }
  return median_of(fractions);
}

inline void copy(double* __restrict a, const double* __restrict b, std::size_t count) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < count; ++i) a[i] = b[i];
}

/// The copy with the streaming stores that the generated kernels use for outputs larger than
/// the cache (opuntia::openmp::stream_points): what memory gives when no store reads its line
/// first. Printed beside the plain copy, which the fractions are of (STREAM's convention).
inline void copy_streaming(double* __restrict a, const double* __restrict b, std::size_t count) {
  constexpr std::size_t line = opuntia::openmp::line_points<double>;
  const std::size_t lines = count / line;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (std::size_t l = 0; l < lines; ++l) {
      opuntia::openmp::stream_points(a + l * line, *reinterpret_cast<const double(*)[line]>(b + l * line));
    }
    opuntia::openmp::stream_fence();
  }
  for (std::size_t i = lines * line; i < count; ++i) a[i] = b[i];
}

}  // namespace opuntia::bench
