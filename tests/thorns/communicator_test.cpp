// The communicator of a run without MPI: one rank, which gathers its own text.
#include <gtest/gtest.h>

#include "thorns/Driver/src/communicator.hpp"

namespace opuntia::thorns::Driver {
namespace {

TEST(communicator, self_communicator_gathers_its_one_text_unchanged) {
  self_communicator one;
  EXPECT_EQ(one.gather("rank 0 on node7: x 0..9"), std::vector<std::string>{"rank 0 on node7: x 0..9"});
  EXPECT_EQ(one.gather(""), std::vector<std::string>{""});
  const std::string with_nul("a\0b", 3);
  EXPECT_EQ(one.gather(with_nul), std::vector<std::string>{with_nul});
}

}  // namespace
}  // namespace opuntia::thorns::Driver
