#pragma once
// Where the generated OpenMP kernels (templates/openmp/) start the vector loop of an x run.
#include <cstddef>

namespace opuntia::openmp {

/// The points of T in one 64-byte cache line.
template <typename T>
inline constexpr int line_points = sizeof(T) < 64 ? static_cast<int>(64 / sizeof(T)) : 1;

/// The first x index in [begin, end] whose point starts a 64-byte line, for an array that starts
/// on one (the runtime's and the flesh's allocations do) and a row whose x = 0 point has flat
/// index `row`; `end` where no point of [begin, end) does. The points before it run one by one,
/// and the x run's omp simd loop starts there: its vector loads and stores of the row's own points
/// then never straddle two lines, which would cost two accesses each (AMD EPYC with AVX-512: the
/// radius-4 star 14-15% of copy unaligned, 20-21% aligned; bench/RESULTS.md).
template <typename T>
constexpr int first_on_line(int begin, int end, std::ptrdiff_t row) {
  constexpr std::ptrdiff_t line = line_points<T>;
  const std::ptrdiff_t skip = (line - (begin + row) % line) % line;  // indices are never negative
  return end - begin < skip ? end : begin + static_cast<int>(skip);
}

/// Asks for the 64-byte line at `p` to be brought into the core's L2 cache (a read prefetch with
/// locality 2: x86's prefetcht1). The generated loops call it for the rows they will reach a few
/// rows from now, one line at a time, interleaved with the arithmetic: the hardware prefetcher
/// alone left the 7-point star waiting on memory between rows (AMD EPYC, 2 cores: a hand-written
/// loop went from 57-64% of copy to 70-89% with the input's leading plane and the output
/// prefetched 2 rows ahead; the generated 3dblock and 3dstencil, 7-point and radius 4, 9-10%
/// faster; bench/RESULTS.md, 2026-11-24). A read prefetch, not a write one, also for outputs:
/// prefetchw brought the output's lines into L1 and ran slower. Nothing where the compiler has
/// no builtin.
inline void prefetch_line(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}

}  // namespace opuntia::openmp
