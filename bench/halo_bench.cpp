// halo_bench PARFILE: the `opuntia` program with one more thorn, HaloBench (bench/thorns/HaloBench:
// a radius-1 or radius-4 stencil sweep and a SYNC per iteration), kept out of the product's
// thorn list. bench/halo_scaling.sh runs it on 1 to 8 GPUs; its timer report splits each
// iteration into the kernel and the SYNC's pack, messages and unpack.
#include <iostream>

#include <fmt/format.h>

#include "ccl/diagnostic.hpp"
#include "ccl/file_io.hpp"
#include "flesh/runtime/compiled_thorns.hpp"
#include "flesh/runtime/simulation.hpp"

namespace opuntia::thorns::HaloBench {
opuntia::thorn_binding binding();
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: halo_bench PARFILE\n";
    return 2;
  }
  auto thorns = opuntia::compiled_thorns();
  thorns.push_back(opuntia::thorns::HaloBench::binding());
  const auto provided = opuntia::compiled_providers();
  const auto processes = provided.process_group();
  try {
    const auto source = opuntia::ccl::read_source(argv[1]);
    opuntia::simulation sim(thorns, provided, source, opuntia::parameter_level::normal, std::cout);
    sim.run();
    return 0;
  } catch (const opuntia::ccl::input_error& e) {
    if (processes.rank() == 0) std::cerr << opuntia::ccl::format_diagnostics(e.diagnostics());
    return 1;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("halo_bench: error on rank {} of {}: {}\n", processes.rank(), processes.size(), e.what());
    if (processes.size() > 1) processes.abort(1);
    return 1;
  }
}
