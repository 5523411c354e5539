// CaKernel::opencl_platform and CaKernel::opencl_device
// (thorns/CaKernel/backends/opencl/device_selection.cpp), over a described machine: the one
// the GPU check meets (pocl listed first, NVIDIA second).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "thorns/CaKernel/backends/opencl/device_selection.hpp"

namespace {

using namespace opuntia::thorns::CaKernel::opencl_selection;

const std::vector<platform_info> machine{
    {"Portable Computing Language", "OpenCL 3.0 PoCL 3.1", {{"pthread-AMD EPYC", "CPU", "OpenCL 3.0", "3.1"}}},
    {"NVIDIA CUDA",
     "OpenCL 3.0 CUDA 12.4",
     {{"NVIDIA H100 80GB HBM3", "GPU", "OpenCL 3.0 CUDA", "550.54", 85'899'345'920},
      {"NVIDIA H200", "GPU", "OpenCL 3.0 CUDA", "550.54"}}},
};

std::pair<std::size_t, std::size_t> pick(const std::string& platform, const std::string& device,
                                         const std::vector<platform_info>& platforms = machine) {
  const auto c = choose(platforms, platform, device);
  return {c.platform, c.device};
}

std::string error_of(const std::string& platform, const std::string& device) {
  try {
    choose(machine, platform, device);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(opencl_device_selection, default_is_the_first_gpu_else_the_first_device) {
  EXPECT_EQ(pick("", ""), std::make_pair(std::size_t{1}, std::size_t{0}));
  EXPECT_EQ(pick("pocl", ""), std::make_pair(std::size_t{0}, std::size_t{0}));
  EXPECT_EQ(pick("", "", {machine[0]}), std::make_pair(std::size_t{0}, std::size_t{0}));
}

TEST(opencl_device_selection, platform_and_device_by_index_or_name_substring) {
  EXPECT_EQ(pick("1", ""), std::make_pair(std::size_t{1}, std::size_t{0}));
  EXPECT_EQ(pick("nvidia", "1"), std::make_pair(std::size_t{1}, std::size_t{1}));
  EXPECT_EQ(pick("NVIDIA", "h200"), std::make_pair(std::size_t{1}, std::size_t{1}));
  EXPECT_EQ(pick("", "epyc"), std::make_pair(std::size_t{0}, std::size_t{0}));
  // Without a platform, a device index counts every platform's devices in listed order.
  EXPECT_EQ(pick("", "2"), std::make_pair(std::size_t{1}, std::size_t{1}));
  EXPECT_EQ(pick("portable", "0"), std::make_pair(std::size_t{0}, std::size_t{0}));
}

TEST(opencl_device_selection, unknown_platform_lists_the_platforms) {
  EXPECT_EQ(error_of("amd", ""),
            "CaKernel::opencl_platform = \"amd\": no OpenCL platform matches (platforms: 0 \"Portable Computing "
            "Language\", 1 \"NVIDIA CUDA\")");
  EXPECT_EQ(error_of("7", ""),
            "CaKernel::opencl_platform = \"7\": no OpenCL platform matches (platforms: 0 \"Portable Computing "
            "Language\", 1 \"NVIDIA CUDA\")");
}

TEST(opencl_device_selection, unknown_device_lists_the_devices_of_the_chosen_platforms) {
  EXPECT_EQ(error_of("nvidia", "a100"),
            "CaKernel::opencl_device = \"a100\": no OpenCL device matches on platform \"nvidia\" (devices: 0 \"NVIDIA "
            "H100 80GB HBM3\", 1 \"NVIDIA H200\")");
  EXPECT_EQ(error_of("", "3"),
            "CaKernel::opencl_device = \"3\": no OpenCL device matches on any platform (devices: 0 \"pthread-AMD "
            "EPYC\", 1 \"NVIDIA H100 80GB HBM3\", 2 \"NVIDIA H200\")");
}

TEST(opencl_device_selection, describe_lists_every_device_and_marks_the_default) {
  const device_choice chosen{1, 0};
  EXPECT_EQ(describe(machine, &chosen),
            "opencl platform 0: Portable Computing Language (OpenCL 3.0 PoCL 3.1)\n"
            "  device 0: pthread-AMD EPYC (CPU, OpenCL 3.0, driver 3.1)\n"
            "opencl platform 1: NVIDIA CUDA (OpenCL 3.0 CUDA 12.4)\n"
            "  device 0: NVIDIA H100 80GB HBM3 (GPU, OpenCL 3.0 CUDA, driver 550.54, 80.0 GiB)  [default]\n"
            "  device 1: NVIDIA H200 (GPU, OpenCL 3.0 CUDA, driver 550.54)\n");
  EXPECT_EQ(describe({}, nullptr), "opencl: no platform (the ICD loader found none)\n");
}

}  // namespace

namespace {

const std::vector<platform_info> deviceless{{"Portable Computing Language", "OpenCL 3.0 PoCL 3.1", {}}};

std::string auto_error_of(const std::vector<platform_info>& platforms, const std::string& platform,
                          const std::string& device) {
  try {
    (void)choose_if_offered(platforms, platform, device, true);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

// CaKernel::backend = "auto" where pocl, run as an ordinary user, lists its platform and no
// device: OpenCL is declined (auto goes on to OpenMP) instead of an error about opencl_device,
// which the parameter file never set.
TEST(opencl_device_selection, auto_declines_a_platform_without_devices) {
  EXPECT_FALSE(choose_if_offered(deviceless, "", "", true).has_value());
  EXPECT_FALSE(choose_if_offered(deviceless, "", "", false).has_value());
  EXPECT_FALSE(choose_if_offered({}, "", "", true).has_value());
}

TEST(opencl_device_selection, auto_takes_only_a_gpu) {
  EXPECT_FALSE(choose_if_offered({machine[0]}, "", "", true).has_value());
  const auto gpu = choose_if_offered(machine, "", "", true);
  ASSERT_TRUE(gpu.has_value());
  EXPECT_EQ(gpu->platform, 1u);
  // backend = "opencl" takes the CPU device when it is all there is.
  EXPECT_TRUE(choose_if_offered({machine[0]}, "", "", false).has_value());
}

TEST(opencl_device_selection, selectors_the_file_set_are_still_checked) {
  EXPECT_EQ(auto_error_of(deviceless, "", "h100"),
            "CaKernel::opencl_device = \"h100\": no OpenCL device matches on any platform (devices: none)");
  EXPECT_EQ(auto_error_of(deviceless, "pocl", ""),
            "CaKernel::opencl_platform = \"pocl\": the platform lists no device (platforms: 0 \"Portable Computing "
            "Language\")");
}

}  // namespace
