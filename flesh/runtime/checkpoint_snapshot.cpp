#include "flesh/runtime/checkpoint_snapshot.hpp"

#include <chrono>
#include <cstring>
#include <exception>
#include <stdexcept>

namespace opuntia {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

checkpoint_snapshot::~checkpoint_snapshot() {
  try {
    wait_for_copies();
  } catch (const std::exception&) {
    // a copy that failed was reported where the writer waited for it; the memory is freed anyway
  }
  for (auto& b : buffers_) {
    if (b.memory != nullptr) runtime_.release_host(b.memory);
  }
}

void checkpoint_snapshot::wait_for_copies() {
  for (auto& copy : landing_) {
    if (copy) copy->wait();
  }
  landing_.clear();
}

double checkpoint_snapshot::bytes() const {
  double sum = 0;
  for (const auto& b : buffers_) sum += static_cast<double>(b.bytes);
  return sum;
}

void checkpoint_snapshot::fit(std::size_t i, std::size_t bytes, taken& t) {
  if (buffers_.size() <= i) buffers_.resize(i + 1);
  auto& b = buffers_[i];
  if (b.bytes == bytes) return;
  const auto start = std::chrono::steady_clock::now();
  if (b.memory != nullptr) runtime_.release_host(b.memory);
  b = {};  // holds nothing yet
  b.memory = runtime_.allocate_host(bytes);
  b.bytes = bytes;
  // Every page touched now: the copies do not pay for the first touch, and the line says what
  // allocating cost.
  std::memset(b.memory, 0, bytes);
  t.bytes_allocated += static_cast<double>(bytes);
  t.seconds_allocating += seconds_since(start);
}

checkpoint_snapshot::taken checkpoint_snapshot::reserve(const std::vector<source>& sources) {
  wait_for_copies();  // a buffer reallocated must have no copy landing in it
  taken t;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    fit(i, sources[i].variable->count * sources[i].variable->element_size(), t);
  }
  return t;
}

checkpoint_snapshot::taken checkpoint_snapshot::take(checkpoint_contents& contents, const std::vector<source>& sources) {
  if (sources.size() != contents.arrays.size()) {
    throw std::logic_error("checkpoint_snapshot::take: one source is needed for each array of the checkpoint");
  }
  wait_for_copies();
  taken t;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    auto& v = *sources[i].variable;
    fit(i, v.count * v.element_size(), t);
    auto& b = buffers_[i];
    const void* const host = contents.arrays[i].values;
    contents.arrays[i].values = b.memory;
    // The copies of the take() before have landed (waited for above): what b holds is whole.
    const auto stamp = runtime_.stamp_of(v, sources[i].level);
    if (stamp && b.holds == stamp) {
      ++t.unchanged;
      continue;
    }
    auto copy = runtime_.copy_for_snapshot(v, sources[i].level, host, b.memory);
    ++t.by_route[static_cast<std::size_t>(copy.route)];
    if (copy.done) landing_.push_back(copy.done);
    b.holds = stamp;
  }
  t.copies = landing_;
  return t;
}

}  // namespace opuntia
