// Thorn CaKernel provides the kernel runtime (cakernel_runtime.hpp), the name of the scheduled
// function that launches a kernel (CAKERNEL_Launch_<kernel>), and the commands
// `opuntia --list-devices` and `opuntia --clear-cache`.
#include <filesystem>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cakernel_runtime.hpp"
#include "flesh/runtime/providers.hpp"
#include "program_cache.hpp"

namespace opuntia::thorns::CaKernel {
namespace {

int list_devices(const parameter_source& parameters, std::ostream& out, std::ostream&) {
  out << describe_devices(backend_options_from(parameters));
  return 0;
}

int clear_cache(const parameter_source& parameters, std::ostream& out, std::ostream& err) {
  const program_cache cache(backend_options_from(parameters).cache_dir);
  std::error_code ec;
  const auto status = std::filesystem::status(cache.dir(), ec);
  if (status.type() == std::filesystem::file_type::not_found) {
    fmt::print(out, "opuntia: no cache at {}: nothing to remove\n", cache.dir().string());
    return 0;
  }
  if (status.type() != std::filesystem::file_type::directory) {
    fmt::print(err, "opuntia: error: CaKernel::cache_dir {} is not a folder{}; nothing removed\n", cache.dir().string(),
               ec ? fmt::format(" ({})", ec.message()) : "");
    return 1;
  }
  const auto cleared = cache.clear();
  if (!cleared.is_cache && cleared.kept > 0) {
    fmt::print(err, "opuntia: error: {} is not a cache of built programs (no CACHEDIR.TAG, no entries); nothing removed\n",
               cache.dir().string());
    return 1;
  }
  fmt::print(out, "opuntia: removed {} entr{} from {}{}\n", cleared.removed, cleared.removed == 1 ? "y" : "ies",
             cache.dir().string(),
             cleared.kept > 0 ? fmt::format(" (kept {} other file{} there)", cleared.kept, cleared.kept == 1 ? "" : "s")
                              : "");
  return 0;
}

}  // namespace

void provide(providers& p) {
  p.always_active();
  p.add_kernel_runtime({
      [](const parameter_source& s, grid_function_store& store) {
        return make_kernel_runtime(s.text("CaKernel", "backend"), store, backend_options_from(s));
      },
      [](std::string_view kernel) { return "CAKERNEL_Launch_" + std::string(kernel); },
      {"CaKernel", "variant"},
  });
  p.add_command({"--list-devices",
                 "list the devices of every backend of this build; with PARFILE, mark the one it selects",
                 "where kernels can run", &list_devices});
  p.add_command({"--clear-cache", "empty the cache of built OpenCL programs and autotuning's choices (CaKernel::cache_dir of PARFILE)", "",
                 &clear_cache});
}

}  // namespace opuntia::thorns::CaKernel
