#include <gtest/gtest.h>

#include "opuntia/binding.hpp"

TEST(flesh, binding_types_are_plain_data) {
  opuntia::thorn_binding b;
  b.name = "T";
  EXPECT_TRUE(b.parameters.empty());
}
