#pragma once
// Where the generated OpenMP kernels (templates/openmp/) start the vector loop of an x run, what
// they prefetch, and how they write a line past the cache.
#include <cstddef>
#include <cstring>
#include <fstream>
#include <string>
#if defined(__GNUC__) && defined(__SSE2__)
#include <emmintrin.h>
#define OPUNTIA_OPENMP_HAS_STREAMING_STORES 1
#else
#define OPUNTIA_OPENMP_HAS_STREAMING_STORES 0
#endif

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
/// locality 2: x86's prefetcht1). The generated loops call it for the output rows they will reach
/// a few rows from now, one line at a time, interleaved with the arithmetic: the hardware
/// prefetcher alone left the 7-point star waiting on memory between rows (AMD EPYC, 2 cores: a
/// hand-written loop went from 57-64% of copy to 70-89% with the input's leading plane and the
/// output prefetched 2 rows ahead; the generated 3dblock and 3dstencil, 7-point and radius 4, 9-10%
/// faster; bench/RESULTS.md, 2026-11-24). A read prefetch, not a write one: prefetchw brought the
/// output's lines into L1 and ran slower. Nothing where the compiler has no builtin.
inline void prefetch_line(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}

/// The same into L1 (locality 3: prefetcht0), for the lines of the inputs that the loops will
/// read a few rows from now. With the 7-point star streamed through whole z planes it ran 10-13%
/// faster than into L2 (and than any tile of 32 or 64 rows either way); the radius-4 star, on
/// columns of 32 rows, was no slower (bench/RESULTS.md, 2026-11-25).
inline void prefetch_input_line(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

/// The bytes of the largest cache of the first CPU, as Linux lists them in sysfs (32 MiB where
/// it lists none). Not glibc's sysconf(_SC_LEVEL3_CACHE_SIZE): in a virtual machine that reads
/// the host's CPUID and can report ten times the cache the guest's cores share (320 MiB for 32
/// on the development machine's EPYC guest).
inline std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = [] {
    std::size_t largest = 0;
    for (int index = 0; index < 8; ++index) {
      std::ifstream size_file("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
      std::size_t size = 0;
      std::string unit;
      if (!(size_file >> size)) continue;
      size_file >> unit;
      if (unit == "K") size <<= 10;
      if (unit == "M") size <<= 20;
      largest = size > largest ? size : largest;
    }
    return largest > 0 ? largest : std::size_t{32} << 20;
  }();
  return bytes;
}

/// A launch whose outputs take more bytes than this writes their whole lines with streaming
/// stores (streaming_pays). The last-level cache by default: output that fits there is better
/// left in it for the next kernel to read, and output that does not would only push the
/// inputs out. Tests set it to 0 (always) or to the largest size_t (never).
inline std::size_t streaming_threshold_bytes = last_level_cache_bytes();

/// Whether a launch that writes `bytes_written` bytes of output should use streaming stores.
inline bool streaming_pays(std::size_t bytes_written) {
  return OPUNTIA_OPENMP_HAS_STREAMING_STORES && bytes_written > 0 && bytes_written > streaming_threshold_bytes;
}

/// Writes the 64-byte line `line` (a stack buffer the body wrote one vector of points into) to
/// `to`, which starts a line, with streaming stores: they go to memory without first reading
/// the line into the cache, as an ordinary store must. For a kernel that writes a whole
/// array that is a third of its memory traffic: the 7-point star at 256^3 went from 78-82% of
/// copy to 85-95% (bench/RESULTS.md, 2026-11-25). The line is read back as one 64-byte vector,
/// the size the vector loop stored it with, so the compiler keeps it in a register and no stack
/// buffer is left; the stores are SSE2's 16-byte ones, which every x86-64 has, so the function
/// inlines into each ISA clone of a kernel (a full line of them combines into one write).
template <typename T>
inline void stream_line(T* to, const T* line) {
  static_assert(64 % sizeof(T) == 0, "a line holds a whole number of points");
#if OPUNTIA_OPENMP_HAS_STREAMING_STORES
  typedef long long line_bits __attribute__((vector_size(64)));
  line_bits bits;
  std::memcpy(&bits, line, sizeof bits);
  __m128i* const out = reinterpret_cast<__m128i*>(to);
  _mm_stream_si128(out + 0, __m128i{bits[0], bits[1]});
  _mm_stream_si128(out + 1, __m128i{bits[2], bits[3]});
  _mm_stream_si128(out + 2, __m128i{bits[4], bits[5]});
  _mm_stream_si128(out + 3, __m128i{bits[6], bits[7]});
#else
  std::memcpy(to, line, 64);
#endif
}

/// Streaming stores are weakly ordered: each thread that made some calls this before the
/// barrier that ends its loops, so that every thread then sees them.
inline void stream_fence() {
#if OPUNTIA_OPENMP_HAS_STREAMING_STORES
  _mm_sfence();
#endif
}

}  // namespace opuntia::openmp
