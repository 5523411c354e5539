#pragma once
// Where exact_sum (exact_sum.hpp) keeps what it adds, apart from the class so that code which
// fills limbs elsewhere (the device reductions of thorns/CaKernel: CUDA translation units are
// C++17, OpenCL programs take the numbers as -D options) uses the same numbers.
//
// Limb d (0 <= d < digits) counts units of 2^(digit_bits * d - 1074); after the digits come
// the counts of NaN, +inf and -inf terms.

namespace opuntia::exact_sum_layout {

/// 32-bit digits from 2^-1074 to past 2^1024 with 64 bits of headroom: 2098 + 64 bits.
inline constexpr int digit_bits = 32;
inline constexpr int digits = (1074 + 1024 + 64 + digit_bits - 1) / digit_bits;
inline constexpr int nan_count = digits;
inline constexpr int plus_infinity_count = digits + 1;
inline constexpr int minus_infinity_count = digits + 2;
inline constexpr int limbs = digits + 3;

}  // namespace opuntia::exact_sum_layout
