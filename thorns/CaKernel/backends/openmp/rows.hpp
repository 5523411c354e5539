#pragma once
// Where the generated OpenMP kernels (templates/openmp/) start the vector loop of an x run, what
// they prefetch, and how they write a line past the cache.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <type_traits>  // the generated loops pick their store path with std::true_type / false_type
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
/// stores (streaming_pays). The last-level cache of the first CPU by default (the cache its
/// core shares with its neighbours, not the sum over a many-chiplet processor): output that
/// fits there is better left in it for the next kernel to read, and output that does not would
/// only push the inputs out. Tests and the benchmark set it to 0 (always) or to the largest
/// size_t (never). Made on first use, so a launch from a static initialiser sees it too.
inline std::atomic<std::size_t>& streaming_threshold_bytes() {
  static std::atomic<std::size_t> bytes{last_level_cache_bytes()};
  return bytes;
}

/// Whether a launch that writes `bytes_written` bytes of output should use streaming stores.
inline bool streaming_pays(std::size_t bytes_written) {
  return OPUNTIA_OPENMP_HAS_STREAMING_STORES && bytes_written > 0 &&
         bytes_written > streaming_threshold_bytes().load(std::memory_order_relaxed);
}

/// While it lives, every launch streams its stores (`on`: threshold 0) or none does (the largest
/// size_t); then the threshold is what it was. For the tests and the benchmark, which run the
/// same launch both ways.
class scoped_streaming_stores {
public:
  explicit scoped_streaming_stores(bool on) : saved_(streaming_threshold_bytes().exchange(on ? 0 : SIZE_MAX)) {}
  ~scoped_streaming_stores() { streaming_threshold_bytes() = saved_; }
  scoped_streaming_stores(const scoped_streaming_stores&) = delete;
  scoped_streaming_stores& operator=(const scoped_streaming_stores&) = delete;

private:
  std::size_t saved_;
};

/// Whether `p` starts a 64-byte line: streaming stores need their 16-byte pieces aligned, and the
/// loops' lines are lines of the array only when the array starts on one (the runtime's and the
/// flesh's allocations do; a kernel_call may bring any pointer).
inline bool starts_on_line(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

/// An output as the body's lambda sees it: `I3D(v, ...)` indexes it as it would the array. On
/// the streaming path it is the stack array of one vector loop's points, indexed from the first
/// of them (`origin`), so that no pointer leaves that array; elsewhere the array, origin 0.
template <typename T>
struct output_points {
  T* data;
  std::ptrdiff_t origin;
  T& operator[](std::ptrdiff_t index) const { return data[index - origin]; }
};

#if OPUNTIA_OPENMP_HAS_STREAMING_STORES
/// A GCC vector of `Bytes` bytes (16, 32 or 64): what stream_points reads its points back as.
template <std::size_t Bytes>
struct vector_of_bytes {
  typedef long long type __attribute__((vector_size(Bytes)));
};
#endif

/// Writes the points `points` (a stack array the body wrote one vector loop's points into) to
/// `to`, which starts a 64-byte line, with streaming stores: they go to memory without first
/// reading the line into the cache, as an ordinary store must. For a kernel that writes a whole
/// array that is a third of its memory traffic: the 7-point star at 256^3 ran in 7.6-7.9 ms with
/// them and 8.9-9.6 ms without (bench/RESULTS.md, 2026-11-25). The points are read back as one
/// vector of their whole size, the size the vector loop stored them with, so the compiler keeps
/// them in a register and no stack array is left; the stores are SSE2's 16-byte ones, which every
/// x86-64 has, so the function inlines into each ISA clone of a kernel (a full line of them
/// combines into one write). The points of one loop fill 64 bytes when they are CCTK_REALs and
/// 32 or 16 for a narrower type (a CCTK_INT output of an fp64 kernel: half a line, still
/// correct); any other size is copied with ordinary stores.
template <int N, typename T>
inline void stream_points(T* to, const T (&points)[N]) {
  constexpr std::size_t bytes = N * sizeof(T);
#if OPUNTIA_OPENMP_HAS_STREAMING_STORES
  if constexpr (bytes == 16 || bytes == 32 || bytes == 64) {
    typename vector_of_bytes<bytes>::type bits;
    std::memcpy(&bits, points, bytes);
    __m128i* const out = reinterpret_cast<__m128i*>(to);
    for (std::size_t piece = 0; piece < bytes / 16; ++piece) {
      _mm_stream_si128(out + piece, __m128i{bits[2 * piece], bits[2 * piece + 1]});
    }
    return;
  }
#endif
  std::memcpy(to, points, bytes);
}

/// Streaming stores are weakly ordered: each thread that made some calls this before the
/// barrier that ends its loops, so that every thread then sees them.
inline void stream_fence() {
#if OPUNTIA_OPENMP_HAS_STREAMING_STORES
  _mm_sfence();
#endif
}

/// I3D under OPUNTIA_CHECK_BOUNDS (templates/openmp/common.h.tpl: Debug builds, and so the
/// sanitizer build): the offset `index` of I3D(v, di, dj, dk) at point (gi, gj, gk), after
/// checking that the neighbour lies on the local grid of n[0] x n[1] x n[2] points. One outside
/// it stops the run with the body's place instead of reading or writing past the array (which,
/// for a write, corrupts the heap with no message).
inline std::ptrdiff_t checked_offset(std::ptrdiff_t index, const int (&point)[3], const int (&offset)[3],
                                     const int (&n)[3], const char* access, const char* file, int line) {
  bool inside = true;
  for (int d = 0; d < 3; ++d) inside = inside && point[d] + offset[d] >= 0 && point[d] + offset[d] < n[d];
  if (inside) return index;
  std::fprintf(stderr,
               "%s:%d: error: %s at point (%d, %d, %d) reaches (%d, %d, %d), outside the local grid of %dx%dx%d "
               "points; the run stops (bounds checking is on: OPUNTIA_CHECK_BOUNDS)\n",
               file, line, access, point[0], point[1], point[2], point[0] + offset[0], point[1] + offset[1],
               point[2] + offset[2], n[0], n[1], n[2]);
  std::fflush(stderr);
  std::abort();
}

}  // namespace opuntia::openmp
