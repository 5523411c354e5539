// Writes NaN or an infinity at chosen global points of a grid function at a chosen iteration,
// each on the rank that owns it, for NaNChecker to find (tests/e2e/nan_checker_test.sh).
#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "PlantNaN_parameters.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::PlantNaN {

void PlantNaN_Zero(routine_context& context) {
  auto w = context.write("w");
  std::fill(w.begin(), w.end(), 0.0);
}

void PlantNaN_Plant(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  if (context.iteration() != p.at_iteration) return;
  auto values = context.write(p.var.get());
  const auto& g = context.grid();
  const auto owned = context.interior();
  std::istringstream items(p.plant.get());
  for (std::string item; items >> item;) {
    int global[3] = {0, 0, 0};
    char value[8] = {};
    if (std::sscanf(item.c_str(), "%d,%d,%d=%7s", &global[0], &global[1], &global[2], value) != 4) {
      throw parameter_value_error("PlantNaN", "plant", fmt::format("PlantNaN::plant: '{}' is not i,j,k=value", item), item);
    }
    const std::string text = value;
    if (text != "nan" && text != "inf" && text != "-inf") {
      throw parameter_value_error("PlantNaN", "plant", fmt::format("PlantNaN::plant: '{}': nan, inf or -inf", item), item);
    }
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double planted = text == "nan" ? std::numeric_limits<double>::quiet_NaN() : text == "inf" ? inf : -inf;
    int local[3];
    bool mine = true;
    for (int d = 0; d < 3; ++d) {
      local[d] = global[d] - g.offset[d];
      mine = mine && local[d] >= owned.begin[d] && local[d] < owned.end[d];
    }
    if (mine) values[g.index(local[0], local[1], local[2])] = planted;
  }
}

}  // namespace opuntia::thorns::PlantNaN
