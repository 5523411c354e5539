// A schedule.ccl condition read without parameter values: its syntax and the parameters it names.
#include <string>
#include <vector>

#include "ccl/grammar/condition.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace cg = grammar::condition;

template <typename Rule>
struct name_action : tao::pegtl::nothing<Rule> {};
template <>
struct name_action<cg::parameter_name> {
  template <typename ActionInput>
  static void apply(const ActionInput& in, condition_reading& reading) {
    reading.parameters.push_back({in.string(), in.position().byte});
  }
};

}  // namespace

condition_reading read_condition(std::string_view text) {
  condition_reading reading;
  tao::pegtl::memory_input<tao::pegtl::tracking_mode::eager, tao::pegtl::eol::lf_crlf> in(text.data(), text.size(),
                                                                                         "condition");
  try {
    tao::pegtl::parse<cg::condition, name_action, grammar::control>(in, reading);
  } catch (const grammar::syntax_error& e) {
    std::string message = e.message;
    const std::string at_end = "; found end of file";
    if (message.ends_with(at_end)) message.replace(message.size() - at_end.size(), at_end.size(), "; found the end of the condition");
    reading.parameters.clear();
    reading.error = condition_reading::syntax_error{std::move(message), e.where.byte};
  }
  return reading;
}

}  // namespace opuntia::ccl
