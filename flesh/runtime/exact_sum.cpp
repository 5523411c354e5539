#include "opuntia/exact_sum.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace opuntia {

namespace {
// A limb absorbs 2^31 digits below 2^32 before it overflows; normalising at 2^30 leaves margin.
constexpr std::uint32_t normalize_every = std::uint32_t{1} << 30;
}  // namespace

void exact_sum::add(double x) {
  if (std::isnan(x)) {
    ++limbs_[nan_count];
    return;
  }
  if (std::isinf(x)) {
    ++limbs_[x > 0 ? plus_infinity_count : minus_infinity_count];
    return;
  }
  if (x == 0) return;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto biased_exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  // x = mantissa * 2^(position - 1074): subnormals have no implicit bit and the exponent of 1.
  const std::uint64_t mantissa = biased_exponent == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  const int position = biased_exponent == 0 ? 0 : biased_exponent - 1;
  const int first = position / digit_bits;
  const int shift = position % digit_bits;
  // mantissa << shift is at most 85 bits: three digits.
  const std::uint64_t low = mantissa << shift;
  const std::uint64_t high = shift == 0 ? 0 : mantissa >> (64 - shift);
  const std::array<std::uint32_t, 3> spread{static_cast<std::uint32_t>(low), static_cast<std::uint32_t>(low >> 32),
                                            static_cast<std::uint32_t>(high)};
  const std::int64_t sign = bits >> 63 ? -1 : 1;
  for (int d = 0; d < 3; ++d) limbs_[first + d] += sign * static_cast<std::int64_t>(spread[d]);
  if (++additions_since_normalized_ == normalize_every) normalize();
}

void exact_sum::normalize() {
  std::int64_t carry = 0;
  for (int d = 0; d < digits - 1; ++d) {
    const std::int64_t v = limbs_[d] + carry;
    carry = v >> digit_bits;  // floor division: the digit left is in [0, 2^32)
    limbs_[d] = v - carry * (std::int64_t{1} << digit_bits);
  }
  limbs_[digits - 1] += carry;  // the top limb keeps the sign
  additions_since_normalized_ = 0;
}

void exact_sum::merge(const exact_sum& other) {
  exact_sum addend = other;
  addend.normalize();
  normalize();
  for (std::size_t i = 0; i < limbs_.size(); ++i) limbs_[i] += addend.limbs_[i];
  normalize();
}

void exact_sum::add_limbs(std::span<const std::int64_t> addend) {
  if (addend.size() != limbs_.size()) {
    throw std::invalid_argument("exact_sum::add_limbs: " + std::to_string(addend.size()) + " limbs, expected " +
                                std::to_string(limbs_.size()));
  }
  normalize();  // every digit below 2^32: room for the two parts each one receives below
  constexpr std::uint64_t digit_mask = (std::uint64_t{1} << digit_bits) - 1;
  for (int d = 0; d < digits - 1; ++d) {
    // Any int64 as its low digit here and the rest (floor division: below 2^31 in magnitude)
    // carried into the next limb, so that no limb can overflow whatever it is given.
    limbs_[d] += static_cast<std::int64_t>(static_cast<std::uint64_t>(addend[d]) & digit_mask);
    limbs_[d + 1] += addend[d] >> digit_bits;
  }
  for (std::size_t i = digits - 1; i < limbs_.size(); ++i) limbs_[i] += addend[i];
  normalize();
}

double exact_sum::value() const {
  if (limbs_[nan_count] > 0 || (limbs_[plus_infinity_count] > 0 && limbs_[minus_infinity_count] > 0)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (limbs_[plus_infinity_count] > 0) return std::numeric_limits<double>::infinity();
  if (limbs_[minus_infinity_count] > 0) return -std::numeric_limits<double>::infinity();

  exact_sum magnitude = *this;
  magnitude.normalize();
  const bool negative = magnitude.limbs_[digits - 1] < 0;
  if (negative) {
    for (int d = 0; d < digits; ++d) magnitude.limbs_[d] = -magnitude.limbs_[d];
    magnitude.normalize();
  }
  // The magnitude as bits from 2^-1074 up; the top limb may hold more than one digit.
  std::vector<std::uint32_t> words(magnitude.limbs_.begin(), magnitude.limbs_.begin() + digits - 1);
  const auto top = static_cast<std::uint64_t>(magnitude.limbs_[digits - 1]);
  words.push_back(static_cast<std::uint32_t>(top));
  words.push_back(static_cast<std::uint32_t>(top >> digit_bits));
  const auto bit = [&](int i) { return (words[i / digit_bits] >> (i % digit_bits)) & 1u; };

  int highest = static_cast<int>(words.size()) * digit_bits - 1;
  while (highest >= 0 && !bit(highest)) --highest;
  if (highest < 0) return 0.0;
  // The 64 bits from the highest set one down (zeros below bit 0), and whether any lower one is set.
  std::uint64_t leading = 0;
  for (int i = highest; i > highest - 64; --i) leading = (leading << 1) | (i >= 0 ? bit(i) : 0u);
  bool sticky = false;
  for (int i = highest - 64; i >= 0 && !sticky; --i) sticky = bit(i);

  double result = 0;
  if (highest < 53) {
    // Fewer than 54 bits: exact as it stands (a subnormal or the smallest normals).
    result = std::ldexp(static_cast<double>(leading >> (63 - highest)), -1074);
  } else {
    // 53 bits of mantissa and 11 to round with, ties to even.
    std::uint64_t mantissa = leading >> 11;
    const std::uint64_t rest = leading & 0x7ff;
    constexpr std::uint64_t half = 0x400;
    if (rest > half || (rest == half && (sticky || (mantissa & 1)))) ++mantissa;
    result = std::ldexp(static_cast<double>(mantissa), highest - 52 - 1074);
  }
  return negative ? -result : result;
}

}  // namespace opuntia
