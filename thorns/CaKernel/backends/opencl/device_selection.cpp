#include "device_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "flesh/grid/grid_functions.hpp"
#include "ccl/model/common.hpp"
#include "opuntia/parameter_error.hpp"

namespace opuntia::thorns::CaKernel::opencl_selection {
namespace {

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool contains(const std::string& text, const std::string& part) {
  return ccl::to_lower(text).find(ccl::to_lower(part)) != std::string::npos;
}

std::string platform_list(const std::vector<platform_info>& platforms) {
  if (platforms.empty()) return "none";
  std::string out;
  for (std::size_t p = 0; p < platforms.size(); ++p)
    out += fmt::format("{}{} \"{}\"", p ? ", " : "", p, platforms[p].name);
  return out;
}

}  // namespace

device_choice choose(const std::vector<platform_info>& platforms, const std::string& platform_selector,
                     const std::string& device_selector) {
  std::vector<std::size_t> chosen_platforms;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const bool match =
        platform_selector.empty() ||
        (is_index(platform_selector) ? std::stoul(platform_selector) == p
                                     : contains(platforms[p].name + " " + platforms[p].version, platform_selector));
    if (match) chosen_platforms.push_back(p);
  }
  if (chosen_platforms.empty()) {
    throw parameter_value_error(
        "CaKernel", "opencl_platform",
        fmt::format("CaKernel::opencl_platform = \"{}\": no OpenCL platform matches (platforms: {})", platform_selector,
                    platform_list(platforms)));
  }
  std::vector<device_choice> candidates;  // the devices of the chosen platforms, in listed order
  for (const auto p : chosen_platforms) {
    for (std::size_t d = 0; d < platforms[p].devices.size(); ++d) candidates.push_back({p, d});
  }
  if (candidates.empty() && device_selector.empty()) {
    // Nothing to choose from, and no opencl_device was asked for: say so of the platforms.
    if (platform_selector.empty()) {
      throw parameter_value_error("CaKernel", "backend",
                                  fmt::format("no OpenCL platform lists a device (platforms: {})", platform_list(platforms)));
    }
    throw parameter_value_error("CaKernel", "opencl_platform",
                                fmt::format("CaKernel::opencl_platform = \"{}\": the platform lists no device (platforms: {})",
                                            platform_selector, platform_list(platforms)));
  }
  const auto device_of = [&](const device_choice& c) -> const device_info& {
    return platforms[c.platform].devices[c.device];
  };
  if (device_selector.empty()) {
    const auto gpu =
        std::find_if(candidates.begin(), candidates.end(), [&](const auto& c) { return device_of(c).type == "GPU"; });
    if (gpu != candidates.end()) return *gpu;
    if (!candidates.empty()) return candidates.front();
  } else if (is_index(device_selector)) {
    const auto index = std::stoul(device_selector);
    if (index < candidates.size()) return candidates[index];
  } else {
    const auto named = std::find_if(candidates.begin(), candidates.end(),
                                    [&](const auto& c) { return contains(device_of(c).name, device_selector); });
    if (named != candidates.end()) return *named;
  }
  std::string devices;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    devices += fmt::format("{}{} \"{}\"", i ? ", " : "", i, device_of(candidates[i]).name);
  }
  throw parameter_value_error(
      "CaKernel", "opencl_device",
      fmt::format("CaKernel::opencl_device = \"{}\": no OpenCL device matches on {} (devices: {})", device_selector,
                  platform_selector.empty() ? std::string("any platform") : "platform \"" + platform_selector + "\"",
                  devices.empty() ? "none" : devices));
}

std::optional<device_choice> choose_if_offered(const std::vector<platform_info>& platforms,
                                               const std::string& platform_selector, const std::string& device_selector,
                                               bool gpu_only) {
  const bool any_device =
      std::any_of(platforms.begin(), platforms.end(), [](const platform_info& p) { return !p.devices.empty(); });
  if (!any_device && platform_selector.empty() && device_selector.empty()) return std::nullopt;
  const auto choice = choose(platforms, platform_selector, device_selector);
  if (gpu_only && platforms[choice.platform].devices[choice.device].type != "GPU") return std::nullopt;
  return choice;
}

std::string describe(const std::vector<platform_info>& platforms, const device_choice* default_choice) {
  if (platforms.empty()) return "opencl: no platform (the ICD loader found none)\n";
  std::string out;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    out += fmt::format("opencl platform {}: {} ({})\n", p, platforms[p].name, platforms[p].version);
    for (std::size_t d = 0; d < platforms[p].devices.size(); ++d) {
      const auto& device = platforms[p].devices[d];
      const bool is_default = default_choice && default_choice->platform == p && default_choice->device == d;
      out += fmt::format("  device {}: {} ({}, {}, driver {}{}){}\n", d, device.name, device.type, device.version,
                         device.driver_version,
                         device.global_memory > 0 ? ", " + byte_text(static_cast<double>(device.global_memory)) : "",
                         is_default ? "  [default]" : "");
    }
  }
  return out;
}

}  // namespace opuntia::thorns::CaKernel::opencl_selection
