// Field reductions on an OpenCL device, in two kernels. The first: each work-item turns its
// points into exact_sum's digits (flesh/runtime/exact_sum.cpp) and adds them, as integers that
// never carry, into its work-group's words in local memory, and the group writes its words out.
// The second adds the groups' words into the pass's (box_reduction.hpp); a few hundred bytes then
// go to the host. Integer additions commute, so nothing depends on the order work-items run in.
//
// The local words are 64-bit, kept as two 32-bit halves added with the 32-bit atomics of OpenCL
// 1.1 and later (a carry out of the low half is added into the high one by the work-item whose
// addition wrapped): no device needs cl_khr_int64_base_atomics, so there is one path to test.
#include "thorns/CaKernel/backends/opencl/reduce.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace opuntia::thorns::CaKernel {
namespace {

namespace words = reduction_words;

const std::string reduce_source = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* One accumulator's terms as a work-item adds them: a run of terms whose digits start at the same
   one stays in private memory and reaches the group's words only when a term starts at another
   digit (neighbouring points of a smooth field rarely do). |digit| < 2^62: a pass gives a
   work-item at most 2^30 terms below 2^32 each. */
typedef struct {
  int first; /* the digit the run starts at; -1: no run */
  long digit[3];
  uint nan, plus_infinity, minus_infinity;
} term_accumulator;

/* Adds v (below 2^62) to the 64-bit word w kept as low[w] + 2^32 high[w]. */
void add_word(volatile __local uint* low, volatile __local uint* high, int w, ulong v) {
  if (v == 0) return;
  const uint v_low = (uint)v;
  const uint old = atomic_add(&low[w], v_low);
  const uint carry = (uint)(old + v_low) < old ? 1u : 0u;
  const uint v_high = (uint)(v >> 32) + carry;
  if (v_high != 0) atomic_add(&high[w], v_high);
}

void flush(term_accumulator* a, volatile __local uint* low, volatile __local uint* high, int at) {
  if (a->first < 0) return;
  for (int s = 0; s < 3; ++s) {
    const long d = a->digit[s];
    if (d > 0) add_word(low, high, at + WORD_POSITIVE + a->first + s, (ulong)d);
    if (d < 0) add_word(low, high, at + WORD_NEGATIVE + a->first + s, (ulong)(-d));
    a->digit[s] = 0;
  }
  a->first = -1;
}

/* Adds x as exact_sum::add does: NaN and infinities counted, zero skipped, any other value as
   its 53-bit mantissa shifted into three 32-bit digits from 2^(32 first - 1074) up. */
void add_term(double x, term_accumulator* a, volatile __local uint* low, volatile __local uint* high, int at) {
  const ulong bits = as_ulong(x);
  const int biased_exponent = (int)((bits >> 52) & 0x7ff);
  const ulong fraction = bits & ((1UL << 52) - 1);
  if (biased_exponent == 0x7ff) {
    if (fraction != 0) {
      ++a->nan;
    } else if (bits >> 63) {
      ++a->minus_infinity;
    } else {
      ++a->plus_infinity;
    }
    return;
  }
  if (biased_exponent == 0 && fraction == 0) return;
  const ulong mantissa = biased_exponent == 0 ? fraction : fraction | (1UL << 52);
  const int position = biased_exponent == 0 ? 0 : biased_exponent - 1;
  const int first = position / DIGIT_BITS;
  const int shift = position % DIGIT_BITS;
  const ulong low_bits = mantissa << shift;
  const ulong high_bits = shift == 0 ? 0 : mantissa >> (64 - shift);
  if (first != a->first) {
    flush(a, low, high, at);
    a->first = first;
  }
  const long sign = bits >> 63 ? -1 : 1;
  a->digit[0] += sign * (long)(low_bits & 0xffffffffUL);
  a->digit[1] += sign * (long)(low_bits >> 32);
  a->digit[2] += sign * (long)high_bits;
}

void add_counts(const term_accumulator* a, volatile __local uint* low, volatile __local uint* high, int at) {
  add_word(low, high, at + WORD_NAN_COUNT, a->nan);
  add_word(low, high, at + WORD_PLUS_INFINITY_COUNT, a->plus_infinity);
  add_word(low, high, at + WORD_MINUS_INFINITY_COUNT, a->minus_infinity);
}

/* ordered_key() of opuntia/field_reduction.hpp: -inf < ... < -0 < +0 < ... < +inf as integers. */
ulong ordered_key(ulong bits) { return bits >> 63 ? ~bits : bits | (1UL << 63); }

ulong starting_word(int w) {
  return w == WORD_MINIMUM            ? MINIMUM_IDENTITY
         : w == WORD_MAXIMUM          ? MAXIMUM_IDENTITY
         : w == WORD_FIRST_NON_FINITE ? FIRST_NON_FINITE_IDENTITY
                                      : 0;
}

ulong combined(int w, ulong a, ulong b) {
  return w == WORD_MINIMUM || w == WORD_FIRST_NON_FINITE ? min(a, b)
         : w == WORD_MAXIMUM || w == WORD_MAX_ABS        ? max(a, b)
                                                         : a + b;
}

__kernel __attribute__((reqd_work_group_size(GROUP_SIZE, 1, 1)))
void opuntia_reduce_points(__global const REDUCED_REAL* array, long extent_x, long extent_y, int begin_x,
                           int begin_y, int begin_z, long size_x, long size_y, ulong first, ulong count,
                           __global ulong* group_words) {
  __local uint low[WORDS], high[WORDS];
  __local ulong keys[4 * GROUP_SIZE];
  const int item = (int)get_local_id(0);
  for (int w = item; w < WORDS; w += GROUP_SIZE) low[w] = high[w] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  term_accumulator values = {-1, {0, 0, 0}, 0, 0, 0}, squares = {-1, {0, 0, 0}, 0, 0, 0};
  ulong minimum = MINIMUM_IDENTITY, maximum = MAXIMUM_IDENTITY, max_abs = 0;
  ulong first_non_finite = FIRST_NON_FINITE_IDENTITY;
  for (ulong p = get_global_id(0); p < count; p += get_global_size(0)) {
    const ulong q = first + p; /* x fastest through the box */
    const ulong row = q / size_x;
    const long i = begin_x + (long)(q % size_x);
    const long j = begin_y + (long)(row % size_y);
    const long k = begin_z + (long)(row / size_y);
    const double x = (double)array[i + extent_x * (j + extent_y * k)];
    if (!isfinite(x)) first_non_finite = min(first_non_finite, q);
    if (isnan(x)) { /* counted in both sums; not a minimum or maximum */
      ++values.nan;
      ++squares.nan;
      continue;
    }
    const ulong bits = as_ulong(x);
    minimum = min(minimum, ordered_key(bits));
    maximum = max(maximum, ordered_key(bits));
    max_abs = max(max_abs, bits & ~(1UL << 63));
    add_term(x, &values, low, high, WORD_VALUES);
    add_term(x * x, &squares, low, high, WORD_SQUARES);
  }
  flush(&values, low, high, WORD_VALUES);
  flush(&squares, low, high, WORD_SQUARES);
  add_counts(&values, low, high, WORD_VALUES);
  add_counts(&squares, low, high, WORD_SQUARES);
  keys[item] = minimum;
  keys[GROUP_SIZE + item] = maximum;
  keys[2 * GROUP_SIZE + item] = max_abs;
  keys[3 * GROUP_SIZE + item] = first_non_finite;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int apart = GROUP_SIZE / 2; apart > 0; apart /= 2) { /* (not `half`: a type in OpenCL C) */
    if (item < apart) {
      keys[item] = min(keys[item], keys[item + apart]);
      keys[GROUP_SIZE + item] = max(keys[GROUP_SIZE + item], keys[GROUP_SIZE + item + apart]);
      keys[2 * GROUP_SIZE + item] = max(keys[2 * GROUP_SIZE + item], keys[2 * GROUP_SIZE + item + apart]);
      keys[3 * GROUP_SIZE + item] = min(keys[3 * GROUP_SIZE + item], keys[3 * GROUP_SIZE + item + apart]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  __global ulong* mine = group_words + get_group_id(0) * WORDS;
  for (int w = item; w < WORDS; w += GROUP_SIZE) {
    mine[w] = w == WORD_MINIMUM   ? keys[0]
              : w == WORD_MAXIMUM ? keys[GROUP_SIZE]
              : w == WORD_MAX_ABS ? keys[2 * GROUP_SIZE]
              : w == WORD_FIRST_NON_FINITE ? keys[3 * GROUP_SIZE]
                                           : ((ulong)high[w] << 32) | low[w];
  }
}

/* One work-item a word: the groups' words combined in group order. */
__kernel void opuntia_reduce_groups(__global const ulong* group_words, uint groups, __global ulong* pass_words) {
  const int w = (int)get_global_id(0);
  if (w >= WORDS) return;
  ulong word = starting_word(w);
  for (uint g = 0; g < groups; ++g) word = combined(w, word, group_words[(ulong)g * WORDS + w]);
  pass_words[w] = word;
}
)CL";

/// The program's build options: the layout of box_reduction.hpp, the element type and the
/// work-group size (a power of two, for the tree of keys).
std::string reduce_options(std::size_t element_size, std::size_t group_size) {
  std::string options = " -DDIGIT_BITS=" + std::to_string(exact_sum_layout::digit_bits);
  const std::pair<const char*, int> layout[] = {{"WORD_POSITIVE", words::positive},
                                                {"WORD_NEGATIVE", words::negative},
                                                {"WORD_NAN_COUNT", words::nan_count},
                                                {"WORD_PLUS_INFINITY_COUNT", words::plus_infinity_count},
                                                {"WORD_MINUS_INFINITY_COUNT", words::minus_infinity_count},
                                                {"WORD_VALUES", words::values},
                                                {"WORD_SQUARES", words::squares},
                                                {"WORD_MINIMUM", words::minimum},
                                                {"WORD_MAXIMUM", words::maximum},
                                                {"WORD_MAX_ABS", words::max_abs},
                                                {"WORD_FIRST_NON_FINITE", words::first_non_finite},
                                                {"WORDS", words::count}};
  for (const auto& [name, value] : layout) options += " -D" + std::string(name) + "=" + std::to_string(value);
  options += " -DMINIMUM_IDENTITY=" + std::to_string(words::minimum_identity) + "UL";
  options += " -DMAXIMUM_IDENTITY=" + std::to_string(words::maximum_identity) + "UL";
  options += " -DFIRST_NON_FINITE_IDENTITY=" + std::to_string(words::first_non_finite_identity) + "UL";
  options += std::string(" -DREDUCED_REAL=") + (element_size == sizeof(float) ? "float" : "double");
  options += " -DGROUP_SIZE=" + std::to_string(group_size);
  return options;
}

template <typename T>
T device_number(cl_device_id device, cl_device_info what) {
  T value{};
  OPUNTIA_OPENCL_CHECK(clGetDeviceInfo(device, what, sizeof value, &value, nullptr));
  return value;
}

/// A device buffer of the backend's, released when it goes.
struct device_buffer {
  backend& device;
  void* memory;
  device_buffer(backend& d, std::size_t bytes) : device(d), memory(d.allocate(bytes)) {}
  ~device_buffer() { device.release(memory); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  cl_mem get() const { return static_cast<cl_mem>(memory); }
};

}  // namespace

reduction_result reduce_box_on_opencl(backend& device,
                                      const std::function<cl_kernel(const opencl::program_request&)>& kernel_of,
                                      const reduction_pass& pass) {
  if (pass.element_size != sizeof(double) && pass.element_size != sizeof(float)) {
    throw std::invalid_argument("reduce_box: elements of " + std::to_string(pass.element_size) +
                                " bytes, expected a double or a float");
  }
  const auto queue = static_cast<cl_command_queue>(device.queue());
  cl_device_id id = nullptr;
  OPUNTIA_OPENCL_CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof id, &id, nullptr));
  // The largest power of two up to 256 that the device and this kernel run in one group.
  std::size_t group_size = 256;
  while (group_size > device_number<std::size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE)) group_size /= 2;
  cl_kernel points = nullptr;
  std::string options;
  for (;;) {
    options = reduce_options(pass.element_size, group_size);
    points = kernel_of({reduce_source, options, "opuntia_reduce_points", "field_reduction"});
    std::size_t most = 0;
    OPUNTIA_OPENCL_CHECK(clGetKernelWorkGroupInfo(points, id, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, nullptr));
    if (group_size <= most || group_size == 1) break;
    group_size /= 2;
  }
  cl_kernel groups_kernel = kernel_of({reduce_source, options, "opuntia_reduce_groups", "field_reduction"});

  // A few groups per compute unit fill the device; the loop over points covers the rest.
  const std::uint64_t wanted = std::max<std::uint64_t>((pass.count + group_size - 1) / group_size, 1);
  const auto groups = static_cast<cl_uint>(std::min<std::uint64_t>(
      wanted, 4ULL * std::max<cl_uint>(device_number<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS), 1)));
  reduction_result result{};
  const device_buffer group_words(device, std::size_t{groups} * sizeof result);
  const device_buffer pass_words(device, sizeof result);

  const cl_mem array = static_cast<cl_mem>(const_cast<void*>(pass.array));
  const cl_long extent_x = pass.extent[0], extent_y = pass.extent[1];
  const cl_int begin[3] = {pass.box.begin[0], pass.box.begin[1], pass.box.begin[2]};
  const cl_long size_x = std::max(pass.box.end[0] - pass.box.begin[0], 1);
  const cl_long size_y = std::max(pass.box.end[1] - pass.box.begin[1], 1);
  const cl_ulong first = pass.first, count = pass.count;
  const cl_mem group_memory = group_words.get(), pass_memory = pass_words.get();
  cl_uint a = 0;
  const auto argument = [&](cl_kernel k, const auto& value) {
    OPUNTIA_OPENCL_CHECK(clSetKernelArg(k, a++, sizeof value, &value));
  };
  argument(points, array), argument(points, extent_x), argument(points, extent_y);
  argument(points, begin[0]), argument(points, begin[1]), argument(points, begin[2]);
  argument(points, size_x), argument(points, size_y), argument(points, first), argument(points, count);
  argument(points, group_memory);
  const std::size_t local = group_size, global = std::size_t{groups} * group_size;
  OPUNTIA_OPENCL_CHECK(clEnqueueNDRangeKernel(queue, points, 1, nullptr, &global, &local, 0, nullptr, nullptr));

  a = 0;
  argument(groups_kernel, group_memory), argument(groups_kernel, groups), argument(groups_kernel, pass_memory);
  const std::size_t word_items = result.size();
  OPUNTIA_OPENCL_CHECK(
      clEnqueueNDRangeKernel(queue, groups_kernel, 1, nullptr, &word_items, nullptr, 0, nullptr, nullptr));
  OPUNTIA_OPENCL_CHECK(
      clEnqueueReadBuffer(queue, pass_memory, CL_TRUE, 0, sizeof result, result.data(), 0, nullptr, nullptr));
  return result;
}

}  // namespace opuntia::thorns::CaKernel
