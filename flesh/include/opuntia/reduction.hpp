#pragma once
// How values of every rank combine (driver::reduce, routine_context::reduce).

namespace opuntia {

enum class reduction { sum, minimum, maximum };

}  // namespace opuntia
