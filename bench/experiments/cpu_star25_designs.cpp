// Standalone CPU experiment behind bench/RESULTS.md (2026-11-25, cb486e8): how fast can
// a hand-written radius-4 star (the eighth-order Laplacian of bench/thorns/StencilBench, fp64,
// 256^3, bit-equal to a plain loop) run from memory on this machine, against the copy bandwidth
// of the same run? It is where an OpenMP design is tried before it becomes a template
// (templates/openmp/); nothing here is generated.
//
//   build/experiments/cpu_star25_designs [repetitions = 10]             (OMP_PROC_BIND=true)
// or with other switches:
//   g++ -O3 -march=x86-64-v4 -ffp-contract=off -fopenmp -std=c++17 -I flesh/include -DBJ=2 -DBK=2 <this file>
//
// The kernel `star`: threads over columns of TY rows (and TX points) streamed through z, as
// StencilBench's TILE 256,32,256; a 64-byte line of x points at a time with AVX-512; streaming
// stores for full lines, masked stores for the partial first and last line of a row. Switches:
//   XVALIGN=1  x neighbours from the row's aligned lines with valignq (17 loads a line of
//              points); 0: unaligned loads as the generated code has them (25 loads, 8 split)
//   BJ, BK     the lines of BJ rows x BK planes computed together at each x position, so that
//              the lines they share are read from L1 (1 + 8/BJ + 8/BK new lines a line of points
//              instead of 17)
//   TY, TX     the column's rows and x points
//   PF         the leading z plane's row PF rows (blocks) ahead prefetched into L1; 0: none
//   PFX        (BJ = BK = 1) all 17 lines of the point PFX lines ahead in x prefetched into L1
//   FMAADD=1   half the additions as a*1+b fused multiply-adds (the same value to the bit), to
//              take them off the adders onto the multipliers
//   PADX, PADY rows of 256+PADX points, planes of 256+PADY rows: the L1 and L2 sets of a line's
//              neighbours spread (at 256 every z neighbour lies in the same L1 and L2 set)
//   ZS, YS     the z (y) neighbours' stride; ZS=0 or YS=0 reads the point's own line instead, so
//              only the loads from cache change (a bound, not a stencil: the check then fails)
// GCC 12's _mm512_alignr_epi64 reads an undefined vector on purpose (the unused merge source).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "../bandwidth_harness.hpp"  // aligned_field, copy, copy_streaming, time_in_rounds

namespace {

using namespace opuntia::bench;

constexpr int N = 256;
#ifndef PADX
#define PADX 0
#endif
#ifndef PADY
#define PADY 0
#endif
constexpr std::ptrdiff_t SJ = N + PADX, SK = std::ptrdiff_t{N + PADX} * (N + PADY);
#ifndef TY
#define TY 32
#endif
#ifndef TX
#define TX N
#endif
#ifndef BJ
#define BJ 1
#endif
#ifndef BK
#define BK 1
#endif
#ifndef PF
#define PF 2
#endif
#ifndef PFX
#define PFX 0
#endif
#ifndef FMAADD
#define FMAADD 0
#endif
#ifndef XVALIGN
#define XVALIGN 1
#endif
#ifndef ZS
#define ZS SK
#endif
#ifndef YS
#define YS SJ
#endif
static_assert(TX % 8 == 0 && N % TX == 0, "TX: whole lines that divide a row");

// The body's coefficients, folded as the body's expressions fold them.
constexpr double c0 = -3 * (205.0 / 72.0), c1 = 8.0 / 5.0, c2 = -1.0 / 5.0, c3 = 8.0 / 315.0,
                 c4 = -1.0 / 560.0;

// The plain loop (the reference), in the body's order.
void reference(double* __restrict out, const double* __restrict u) {
#pragma omp parallel for schedule(static)
  for (int k = 4; k < N - 4; ++k)
    for (int j = 4; j < N - 4; ++j)
#pragma omp simd
      for (int i = 4; i < N - 4; ++i) {
        const double* p = u + i + j * SJ + k * SK;
        double sum = c0 * p[0];
        sum += c1 * ((p[-1] + p[1]) + (p[-SJ] + p[SJ]) + (p[-SK] + p[SK]));
        sum += c2 * ((p[-2] + p[2]) + (p[-2 * SJ] + p[2 * SJ]) + (p[-2 * SK] + p[2 * SK]));
        sum += c3 * ((p[-3] + p[3]) + (p[-3 * SJ] + p[3 * SJ]) + (p[-3 * SK] + p[3 * SK]));
        sum += c4 * ((p[-4] + p[4]) + (p[-4 * SJ] + p[4 * SJ]) + (p[-4 * SK] + p[4 * SK]));
        out[i + j * SJ + k * SK] = sum;
      }
}

// a + b to the bit; with FMAADD as a*1+b (rounded once, so the same value) on the FMA pipes.
inline __m512d add_either(__m512d a, __m512d b) {
#if FMAADD
  const __m512d one = _mm512_set1_pd(1.0);
  asm("vfmadd231pd %1, %2, %0" : "+v"(b) : "v"(a), "v"(one));  // asm: the compiler folds a*1
  return b;
#else
  return _mm512_add_pd(a, b);
#endif
}

// A line of 8 points starting at p (64-byte aligned).
inline __m512d star_line(const double* p) {
  const __m512d C0 = _mm512_set1_pd(c0), C1 = _mm512_set1_pd(c1), C2 = _mm512_set1_pd(c2),
                C3 = _mm512_set1_pd(c3), C4 = _mm512_set1_pd(c4);
  const auto at = [p](std::ptrdiff_t offset) { return _mm512_load_pd(p + offset); };
#if XVALIGN
  const __m512i prev = _mm512_castpd_si512(at(-8)), cur = _mm512_castpd_si512(at(0)),
                next = _mm512_castpd_si512(at(8));
#define STAR_XM(d) _mm512_castsi512_pd(_mm512_alignr_epi64(cur, prev, 8 - (d)))
#define STAR_XP(d) _mm512_castsi512_pd(_mm512_alignr_epi64(next, cur, (d)))
#else
#define STAR_XM(d) _mm512_loadu_pd(p - (d))
#define STAR_XP(d) _mm512_loadu_pd(p + (d))
#endif
  __m512d sum = _mm512_mul_pd(C0, at(0));
  // ((x pair + y pair) + z pair), then sum += c * ring: the body's order
#define STAR_RING(d, C, ADD_XY, ADD_Z, ADD_SUM)                                                  \
  {                                                                                              \
    __m512d ring = ADD_XY(_mm512_add_pd(STAR_XM(d), STAR_XP(d)), _mm512_add_pd(at(-(d)*YS), at((d)*YS))); \
    ring = ADD_Z(ring, _mm512_add_pd(at(-(d)*ZS), at((d)*ZS)));                                  \
    sum = ADD_SUM(sum, _mm512_mul_pd(C, ring));                                                  \
  }
  STAR_RING(1, C1, add_either, _mm512_add_pd, add_either)
  STAR_RING(2, C2, _mm512_add_pd, add_either, _mm512_add_pd)
  STAR_RING(3, C3, add_either, _mm512_add_pd, add_either)
  STAR_RING(4, C4, _mm512_add_pd, add_either, _mm512_add_pd)
#undef STAR_RING
#undef STAR_XM
#undef STAR_XP
  return sum;
}

void star(double* __restrict out, const double* __restrict u) {
  const int columns = (N - 8 + TY - 1) / TY;
#pragma omp parallel for schedule(static) collapse(2)
  for (int column = 0; column < columns; ++column)
    for (int x0 = 0; x0 < N; x0 += TX) {
      const int j0 = 4 + column * TY, j1 = std::min(j0 + TY, N - 4);
      for (int kb = 4; kb < N - 4; kb += BK)
        for (int jb = j0; jb < j1; jb += BJ) {
          const int ke = std::min(kb + BK, N - 4), je = std::min(jb + BJ, j1);
          // the block PF blocks on (wrapping to the next planes), its leading z plane
          int pj = jb + PF * BJ, pk = kb;
          if (pj >= j1) { pj += j0 - j1; pk += BK; }
          const bool ahead = PF > 0 && pk + BK + 3 < N;  // that plane inside the array
          for (int l = x0; l < x0 + TX; l += 8) {
            if (ahead)
              for (int jj = 0; jj < je - jb; ++jj)
                _mm_prefetch(reinterpret_cast<const char*>(u + (pj + jj) * SJ + (pk + BK + 3) * SK + l), _MM_HINT_T0);
#if PFX
            if (l + 8 * PFX < N) {
              const char* q = reinterpret_cast<const char*>(u + jb * SJ + kb * SK + l + 8 * PFX);
              for (int d = 1; d <= 4; ++d) {
                _mm_prefetch(q - 8 * d * SJ, _MM_HINT_T0);
                _mm_prefetch(q + 8 * d * SJ, _MM_HINT_T0);
                _mm_prefetch(q - 8 * d * SK, _MM_HINT_T0);
                _mm_prefetch(q + 8 * d * SK, _MM_HINT_T0);
              }
            }
#endif
            for (int kk = kb; kk < ke; ++kk)
              for (int jj = jb; jj < je; ++jj) {
                const std::ptrdiff_t at = jj * SJ + kk * SK + l;
                const __m512d r = star_line(u + at);
                if (l == 0) _mm512_mask_store_pd(out + at, 0xF0, r);            // points 4..7
                else if (l == N - 8) _mm512_mask_store_pd(out + at, 0x0F, r);   // points 248..251
                else _mm512_stream_pd(out + at, r);
              }
          }
        }
    }
  _mm_sfence();
}

// The arrays, first touched in the loops' schedule, with values whose sums round.
void fill(aligned_field& field) {
  double* const p = field.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < field.size(); ++i)
    p[i] = std::sin(0.001 * static_cast<double>(i)) + 1e-3 * static_cast<double>(i % 7);
}

}  // namespace

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx512f")) {
    std::puts("cpu_star25_designs: needs AVX-512");
    return 0;
  }
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  const std::size_t count = static_cast<std::size_t>(SK) * N;
  aligned_field u(count), out(count), expected(count);
  fill(u);
  reference(expected.data(), u.data());
  star(out.data(), u.data());
  std::size_t mismatches = 0;
  for (int k = 4; k < N - 4; ++k)
    for (int j = 4; j < N - 4; ++j)
      for (int i = 4; i < N - 4; ++i) {
        const std::ptrdiff_t at = i + j * SJ + k * SK;
        mismatches += std::memcmp(out.data() + at, expected.data() + at, sizeof(double)) != 0;
      }

  const std::vector<const char*> names = {"copy", "copy, streaming stores", "plain loop", "star"};
  const std::vector<timing> timings = time_in_rounds({[&] { copy(out.data(), u.data(), count); },
                                                      [&] { copy_streaming(out.data(), u.data(), count); },
                                                      [&] { reference(out.data(), u.data()); },
                                                      [&] { star(out.data(), u.data()); }},
                                                     repetitions);
  const double copy_bytes = 16.0 * static_cast<double>(count), updated = std::pow(N - 8.0, 3);
  std::printf("256^3 fp64, %d threads, best of %d (of copy: best/best, then the median of each round's)\n",
              omp_get_max_threads(), repetitions);
  for (std::size_t c = 0; c < timings.size(); ++c) {
    const double bytes = c < 2 ? copy_bytes : 16.0 * updated;
    std::printf("%-24s %7.2f ms %6.1f GB/s  of copy %5.1f%%, %5.1f%%\n", names[c], timings[c].best * 1e3,
                bytes / timings[c].best / 1e9, 100 * (bytes / timings[c].best) / (copy_bytes / timings[0].best),
                100 * paired_fraction_of_copy(timings[0], copy_bytes, timings[c], bytes));
  }
  std::printf("star against the plain loop: %zu points differ (XVALIGN %d BJ %d BK %d TY %d TX %d PF %d PFX %d "
              "FMAADD %d PADX %d PADY %d)\n",
              mismatches, XVALIGN, BJ, BK, TY, TX, PF, PFX, FMAADD, PADX, PADY);
  return 0;
}
