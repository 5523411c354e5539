#include "ccl/grammar/cakernel_ccl.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

namespace g = grammar;
namespace ck = grammar::cakernel;

struct cakernel_state : g::parse_state_base {
  cakernel_file result;
  kernel_name_list* list = nullptr;        // the variable or parameter list being read
  std::vector<key_value>* keys = nullptr;  // where KEY=value pairs go
  key_value pending;
};

template <typename Rule>
struct action : g::common_action<Rule> {};

template <>
struct action<ck::kw_kernel> {
  template <typename Input>
  static void apply(const Input& in, cakernel_state& s) {
    auto& kernel = s.result.kernels.emplace_back();
    kernel.keyword = in.string();
    kernel.name.where = s.location(in.position());
    s.keys = &kernel.keys;
    s.list = nullptr;
  }
};

template <>
struct action<ck::kernel_name> {
  template <typename Input>
  static void apply(const Input& in, cakernel_state& s) {
    s.result.kernels.back().name = located_text{in.string(), s.location(in.position())};
  }
};

template <typename Member>
void begin_list(cakernel_state& s, const source_location& where, Member member) {
  auto& kernel = s.result.kernels.back();
  s.list = &(kernel.*member).emplace_back();
  s.list->where = where;
  s.keys = &s.list->keys;
}

template <>
struct action<ck::kw_variable> {
  template <typename Input>
  static void apply(const Input& in, cakernel_state& s) {
    begin_list(s, s.location(in.position()), &kernel_descriptor_syntax::variables);
  }
};

template <>
struct action<ck::kw_parameter> {
  template <typename Input>
  static void apply(const Input& in, cakernel_state& s) {
    begin_list(s, s.location(in.position()), &kernel_descriptor_syntax::parameters);
  }
};

template <> struct action<g::option_key> : g::record_option_key {};
template <> struct action<g::option_value> : g::record_option_value {};

template <>
struct action<ck::list_name> {
  template <typename Input>
  static void apply(const Input& in, cakernel_state& s) {
    if (s.list != nullptr) s.list->names.push_back(located_text{in.string(), s.location(in.position())});
  }
};

template <>
struct action<ck::list_close> : g::detail::pop_open {};
template <>
struct action<ck::kernel_close> : g::detail::pop_open {};

template <>
struct action<ck::description> {
  template <typename Input>
  static void apply(const Input& in, cakernel_state& s) {
    // A description after a list belongs to the list; after the kernel's brace, to the kernel.
    if (s.list != nullptr) {
      s.list->description = g::unquote(in.string());
    } else if (!s.result.kernels.empty()) {
      s.result.kernels.back().description = g::unquote(in.string());
    }
  }
};

template <>
struct action<ck::kernel_body> {
  template <typename Input>
  static void apply(const Input&, cakernel_state& s) {
    s.list = nullptr;  // what follows the closing brace describes the kernel
  }
};

// A list ends at its closing brace; the optional description that follows still belongs to it,
// so `list` is reset only when the next declaration or the kernel's end begins.
template <>
struct action<ck::optional_description> {
  template <typename Input>
  static void apply(const Input&, cakernel_state& s) {
    s.list = nullptr;
  }
};

}  // namespace

cakernel_file parse_cakernel_ccl(const source_file& file) {
  cakernel_state state;
  state.result.path = file.path;
  g::run_parser<ck::file, action>(file, state);
  return std::move(state.result);
}

}  // namespace opuntia::ccl
