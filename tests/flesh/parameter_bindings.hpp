#pragma once
// Parameter bindings written by hand, as opuntia-gen writes them: for the registry's tests
// (tests/flesh/parameter_registry_test.cpp) and the evaluator's fuzzer
// (tests/fuzz/parfile_evaluator_fuzz.cpp).
#include <string>
#include <utility>
#include <vector>

#include "ccl/model/param_range.hpp"
#include "opuntia/binding.hpp"

namespace opuntia::test_bindings {

inline range_binding numeric(std::string spec, std::string lower, std::string upper, bool lower_open, bool upper_open,
                      std::string description, std::string step = "") {
  range_binding r;
  r.spec = std::move(spec);
  r.description = std::move(description);
  // As opuntia-gen writes them: numbers, unbounded where the text is empty.
  r.bounds = {ccl::numeric_value(lower), ccl::numeric_value(upper), lower_open, upper_open, ccl::numeric_value(step)};
  return r;
}

inline range_binding words(std::string spec, std::vector<std::string> w, std::string description) {
  range_binding r;
  r.spec = std::move(spec);
  r.description = std::move(description);
  r.words = std::move(w);
  return r;
}

inline parameter_binding param(std::string name, parameter_type type, std::string default_value, std::string description = "",
                        std::vector<range_binding> ranges = {},
                        parameter_access access = parameter_access::restricted_access) {
  parameter_binding p;
  p.name = std::move(name);
  p.type = type;
  p.access = access;
  p.default_value = std::move(default_value);
  p.description = std::move(description);
  p.ranges = std::move(ranges);
  p.origin = "thorns/Test/param.ccl:1:1";
  return p;
}

inline parameter_binding uses(std::string name, parameter_type type, std::string from, std::string qualifier = "uses",
                       std::vector<range_binding> ranges = {}) {
  parameter_binding p;
  p.name = std::move(name);
  p.type = type;
  p.access = parameter_access::shared;
  p.qualifier = std::move(qualifier);
  p.shared_from = std::move(from);
  p.ranges = std::move(ranges);
  p.origin = "thorns/Wave/param.ccl:4:1";
  return p;
}

inline thorn_binding thorn(std::string name, std::string implementation, std::vector<parameter_binding> parameters) {
  thorn_binding t;
  t.name = std::move(name);
  t.implementation = std::move(implementation);
  t.parameters = std::move(parameters);
  return t;
}

/// Words whose spec is written from them: `"a", "b"`.
inline range_binding words(std::vector<std::string> w) {
  std::string spec;
  for (const auto& word : w) spec += (spec.empty() ? "\"" : ", \"") + word + "\"";
  return words(std::move(spec), std::move(w), "");
}

/// `p` as an array of `size` elements (`INT p[4]`).
inline parameter_binding array_of(std::string size, parameter_binding p) {
  p.array_size = std::move(size);
  return p;
}

}  // namespace opuntia::test_bindings
