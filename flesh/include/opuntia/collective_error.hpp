#pragma once
// An error that every rank of a run finds alike, because it follows from figures reduced over
// the ranks (NaNChecker's action_if_found = "abort"): thrown by a routine on every rank, it
// stops the run at once, and the `opuntia` program prints it once, from rank 0, as
// "opuntia: error: <what>", every rank exiting with status 1. Thrown on some ranks only, it
// ends the run as any error does, each of those ranks printing it with its rank.
//
//   if (s.nans > 0) throw opuntia::collective_error("MyThorn: u is NaN at iteration 3");
#include <stdexcept>

namespace opuntia {

class collective_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace opuntia
