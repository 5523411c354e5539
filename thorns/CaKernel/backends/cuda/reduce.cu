// Field reductions on a CUDA device: each thread turns its points into exact_sum's digits
// (flesh/runtime/exact_sum.cpp) and adds them, as 64-bit integers that never carry, into its
// block's words in shared memory, and each block adds its words into the pass's words in global
// memory (box_reduction.hpp); a few hundred bytes then go to the host. Integer additions
// commute, so the result does not depend on the order in which threads or blocks run.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "thorns/CaKernel/backends/cuda/check.hpp"
#include "thorns/CaKernel/backends/cuda/reduce.hpp"

namespace opuntia::thorns::CaKernel {
namespace {

namespace words = reduction_words;

constexpr int threads = 256;

/// One accumulator's terms as a thread adds them: a run of terms whose digits start at the
/// same one stays in registers and reaches the block's words only when a term starts at another
/// digit (neighbouring points of a smooth field rarely do), so most terms cost no atomic.
/// |digit| stays below 2^62: a pass gives a thread at most 2^30 terms below 2^32 each.
struct term_accumulator {
  int first = -1;  // the digit the run starts at; -1: no run
  long long digit[3] = {0, 0, 0};
  unsigned nan = 0, plus_infinity = 0, minus_infinity = 0;
};

__device__ void flush(term_accumulator& a, unsigned long long* block_words) {
  if (a.first < 0) return;
  for (int s = 0; s < 3; ++s) {
    const long long d = a.digit[s];
    if (d > 0) atomicAdd(&block_words[words::positive + a.first + s], static_cast<unsigned long long>(d));
    if (d < 0) atomicAdd(&block_words[words::negative + a.first + s], static_cast<unsigned long long>(-d));
    a.digit[s] = 0;
  }
  a.first = -1;
}

/// Adds `x` as exact_sum::add does: NaN and infinities counted, zero skipped, any other value
/// as its 53-bit mantissa shifted into three 32-bit digits from 2^(32 first - 1074) up.
__device__ void add_term(double x, term_accumulator& a, unsigned long long* block_words) {
  const auto bits = static_cast<unsigned long long>(__double_as_longlong(x));
  const int biased_exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const unsigned long long fraction = bits & ((1ULL << 52) - 1);
  if (biased_exponent == 0x7ff) {
    if (fraction != 0) {
      ++a.nan;
    } else if (bits >> 63) {
      ++a.minus_infinity;
    } else {
      ++a.plus_infinity;
    }
    return;
  }
  if (biased_exponent == 0 && fraction == 0) return;
  const unsigned long long mantissa = biased_exponent == 0 ? fraction : fraction | (1ULL << 52);
  const int position = biased_exponent == 0 ? 0 : biased_exponent - 1;
  const int first = position / exact_sum_layout::digit_bits;
  const int shift = position % exact_sum_layout::digit_bits;
  const unsigned long long low = mantissa << shift;
  const unsigned long long high = shift == 0 ? 0 : mantissa >> (64 - shift);
  if (first != a.first) {
    flush(a, block_words);
    a.first = first;
  }
  const long long sign = bits >> 63 ? -1 : 1;
  a.digit[0] += sign * static_cast<long long>(low & 0xffffffffULL);
  a.digit[1] += sign * static_cast<long long>(low >> 32);
  a.digit[2] += sign * static_cast<long long>(high);
}

__device__ void add_count(unsigned count, unsigned long long* word) {
  if (count != 0) atomicAdd(word, static_cast<unsigned long long>(count));
}

__device__ void add_counts(const term_accumulator& a, unsigned long long* block_words) {
  add_count(a.nan, &block_words[words::nan_count]);
  add_count(a.plus_infinity, &block_words[words::plus_infinity_count]);
  add_count(a.minus_infinity, &block_words[words::minus_infinity_count]);
}

/// ordered_key() of opuntia/field_reduction.hpp: -inf < ... < -0 < +0 < ... < +inf as integers.
__device__ unsigned long long ordered_key(unsigned long long bits) { return bits >> 63 ? ~bits : bits | (1ULL << 63); }

__device__ unsigned long long starting_word(int w) {
  return w == words::minimum            ? words::minimum_identity
         : w == words::maximum          ? words::maximum_identity
         : w == words::first_non_finite ? words::first_non_finite_identity
                                        : 0;
}

__global__ void start_words(unsigned long long* pass_words) {
  for (int w = threadIdx.x; w < words::count; w += blockDim.x) pass_words[w] = starting_word(w);
}

template <typename Real>
__global__ void reduce_points(const Real* array, long long extent_x, long long extent_y, int begin_x, int begin_y,
                              int begin_z, long long size_x, long long size_y, unsigned long long first,
                              unsigned long long count, unsigned long long* pass_words) {
  __shared__ unsigned long long block_words[words::count];
  for (int w = threadIdx.x; w < words::count; w += blockDim.x) block_words[w] = starting_word(w);
  __syncthreads();

  term_accumulator values, squares;
  unsigned long long minimum = words::minimum_identity, maximum = words::maximum_identity, max_abs = 0;
  unsigned long long first_non_finite = words::first_non_finite_identity;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long p = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; p < count;
       p += stride) {
    const unsigned long long q = first + p;  // x fastest through the box
    const unsigned long long row = q / size_x;
    const long long i = begin_x + static_cast<long long>(q % size_x);
    const long long j = begin_y + static_cast<long long>(row % size_y);
    const long long k = begin_z + static_cast<long long>(row / size_y);
    const double x = array[i + extent_x * (j + extent_y * k)];
    if (!isfinite(x)) first_non_finite = min(first_non_finite, q);
    if (isnan(x)) {  // counted in both sums; not a minimum or maximum
      ++values.nan;
      ++squares.nan;
      continue;
    }
    const auto bits = static_cast<unsigned long long>(__double_as_longlong(x));
    minimum = min(minimum, ordered_key(bits));
    maximum = max(maximum, ordered_key(bits));
    max_abs = max(max_abs, bits & ~(1ULL << 63));
    add_term(x, values, &block_words[words::values]);
    add_term(x * x, squares, &block_words[words::squares]);
  }
  flush(values, &block_words[words::values]);
  flush(squares, &block_words[words::squares]);
  add_counts(values, &block_words[words::values]);
  add_counts(squares, &block_words[words::squares]);
  atomicMin(&block_words[words::minimum], minimum);
  atomicMax(&block_words[words::maximum], maximum);
  atomicMax(&block_words[words::max_abs], max_abs);
  atomicMin(&block_words[words::first_non_finite], first_non_finite);
  __syncthreads();

  for (int w = threadIdx.x; w < words::count; w += blockDim.x) {
    const unsigned long long word = block_words[w];
    if (w == words::minimum || w == words::first_non_finite) {
      atomicMin(&pass_words[w], word);
    } else if (w == words::maximum || w == words::max_abs) {
      atomicMax(&pass_words[w], word);
    } else if (word != 0) {
      atomicAdd(&pass_words[w], word);
    }
  }
}

}  // namespace

reduction_result reduce_box_on_cuda(const reduction_pass& pass, cudaStream_t stream) {
  if (pass.element_size != sizeof(double) && pass.element_size != sizeof(float)) {
    throw std::invalid_argument("reduce_box: elements of " + std::to_string(pass.element_size) +
                                " bytes, expected a double or a float");
  }
  reduction_result result{};
  unsigned long long* pass_words = nullptr;
  OPUNTIA_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&pass_words), sizeof result, stream));
  try {
    start_words<<<1, threads, 0, stream>>>(pass_words);
    OPUNTIA_CUDA_CHECK(cudaGetLastError());
    if (pass.count > 0) {
      int device = 0, processors = 0;
      OPUNTIA_CUDA_CHECK(cudaGetDevice(&device));
      OPUNTIA_CUDA_CHECK(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device));
      // A few blocks per SM fill the GPU; the grid-stride loop covers the rest of the pass.
      const unsigned long long wanted = (pass.count + threads - 1) / threads;
      const auto blocks = static_cast<unsigned>(std::min<unsigned long long>(wanted, 4ULL * std::max(processors, 1)));
      const long long size_x = std::max(pass.box.end[0] - pass.box.begin[0], 1);
      const long long size_y = std::max(pass.box.end[1] - pass.box.begin[1], 1);
      const auto& b = pass.box.begin;
      if (pass.element_size == sizeof(double)) {
        reduce_points<<<blocks, threads, 0, stream>>>(static_cast<const double*>(pass.array), pass.extent[0],
                                                      pass.extent[1], b[0], b[1], b[2], size_x, size_y, pass.first,
                                                      pass.count, pass_words);
      } else {
        reduce_points<<<blocks, threads, 0, stream>>>(static_cast<const float*>(pass.array), pass.extent[0],
                                                      pass.extent[1], b[0], b[1], b[2], size_x, size_y, pass.first,
                                                      pass.count, pass_words);
      }
      OPUNTIA_CUDA_CHECK(cudaGetLastError());
    }
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(result.data(), pass_words, sizeof result, cudaMemcpyDeviceToHost, stream));
    OPUNTIA_CUDA_CHECK(cudaStreamSynchronize(stream));
  } catch (...) {
    cudaFreeAsync(pass_words, stream);
    throw;
  }
  OPUNTIA_CUDA_CHECK(cudaFreeAsync(pass_words, stream));
  return result;
}

}  // namespace opuntia::thorns::CaKernel
