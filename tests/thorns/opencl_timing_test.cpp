// The OpenCL backend's timer events (thorns/CaKernel/backends/opencl/backend.cpp): a launch's
// timer starts when its first kernel starts (record_launch_start), so the host's time between
// the marker and the kernel, where the device waits for the host, is not counted as the kernel's;
// a marker of record() starts it when everything before it had finished.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "thorns/CaKernel/src/backend.hpp"

namespace {

namespace ck = opuntia::thorns::CaKernel;

std::unique_ptr<ck::backend> make_opencl() {
  for (const auto& factory : ck::compiled_backends()) {
    if (std::string(factory.name) == "opencl") return factory.make({});
  }
  throw std::logic_error("this build has no opencl backend");
}

/// Seconds the timer of a launch (a box copy on the run's queue) counts when the host spends
/// `host_seconds` between the start event (`start`) and the launch.
template <typename Start>
double timed_copy(ck::backend& device, Start start, double host_seconds) {
  constexpr int n = 8;
  void* array = device.allocate(n * n * n * sizeof(double));
  void* buffer = device.allocate(n * n * sizeof(double));
  ck::box_copy copy;
  copy.array = array;
  copy.extent = {n, n, n};
  copy.box.begin = {0, 0, 0};
  copy.box.end = {n, n, 1};
  copy.element_size = sizeof(double);
  copy.buffer = buffer;
  device.synchronize();
  const auto from = start(device);
  std::this_thread::sleep_for(std::chrono::duration<double>(host_seconds));
  device.copy_boxes(device.queue(), {copy}, true);
  const auto to = device.record();
  to->wait();
  const double seconds = device.elapsed_seconds(*from, *to);
  device.release(buffer);
  device.release(array);
  return seconds;
}

TEST(opencl_timing, a_launch_is_timed_from_its_first_kernel_not_from_the_hosts_work_before_it) {
  auto device = make_opencl();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const double host_seconds = 0.3;
  // A 64-point copy takes microseconds to milliseconds; the host's 0.3 s is not in it.
  EXPECT_LT(timed_copy(*device, [](ck::backend& d) { return d.record_launch_start(); }, host_seconds), 0.1);
  // From a plain marker the device's wait for the host is counted (what the launch timer avoids).
  EXPECT_GE(timed_copy(*device, [](ck::backend& d) { return d.record(); }, host_seconds), 0.25);
}

}  // namespace
