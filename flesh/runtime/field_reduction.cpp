#include "opuntia/field_reduction.hpp"

#include <algorithm>
#include <cmath>

namespace opuntia {

void field_reduction::merge(const field_reduction& other) {
  sum.merge(other.sum);
  squares.merge(other.squares);
  if (ordered_key(other.minimum) < ordered_key(minimum)) minimum = other.minimum;
  if (ordered_key(other.maximum) > ordered_key(maximum)) maximum = other.maximum;
  max_abs = std::fmax(max_abs, other.max_abs);
  points += other.points;
  nans += other.nans;
  infinities += other.infinities;
  first_non_finite = std::min(first_non_finite, other.first_non_finite);
}

}  // namespace opuntia
