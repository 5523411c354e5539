#pragma once
// What the OpenCL experiments share: a checked call, and the first platform whose name contains
// a given string (never "the first platform": on the GPU machine pocl's CPU device is listed
// before NVIDIA's) with its first device.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace experiments {

inline void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, status);
    std::exit(1);
  }
}

struct chosen_device {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platform_name;
};

/// The first platform named like `wanted` and its first device; exits with a message if none.
inline chosen_device device_of_platform(const std::string& wanted) {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (auto platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::strstr(name, wanted.c_str()) == nullptr) continue;
    chosen_device chosen{platform, nullptr, name};
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &chosen.device, nullptr), "clGetDeviceIDs");
    std::printf("platform: %s\n", name);
    return chosen;
  }
  std::fprintf(stderr, "no platform named like '%s'\n", wanted.c_str());
  std::exit(1);
}

}  // namespace experiments
