// The scheduled routines of IOHDF5: the check of IOHDF5::out_vars before the run, and the
// output of each variable every IOHDF5::out_every iterations, with its XDMF file.
#include <filesystem>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "IOHDF5_parameters.hpp"
#include "ccl/file_io.hpp"
#include "opuntia/routine_context.hpp"
#include "hdf5_handle.hpp"
#include "output_step.hpp"
#include "thorns/IO/src/output_variables.hpp"
#include "xdmf.hpp"

namespace opuntia::thorns::IOHDF5 {

namespace {

std::vector<variable_description> output_variables(const routine_context& context) {
  return IO::output_variables(context, "IOHDF5", "out_vars", context.parameters<parameters>().out_vars);
}

}  // namespace

void IOHDF5_CheckOutputVars(routine_context& context) {
  // The library initialises itself at its first call, a parallel one with MPI calls: here, on
  // the run's thread, before a checkpoint can be written by another (MPI_THREAD_FUNNELED).
  quiet_hdf5_errors();
  const auto& p = context.parameters<parameters>();
  const auto variables = output_variables(context).size();
  IO::warn_if_never_written(context, "IOHDF5", "out_vars", variables, "out_every", p.out_every);
  const bool writes = variables > 0 && IO::output_every(context, p.out_every) > 0;
  const bool collective = p.collective_io;  // read on every run: a setting the run ignores is still checked
  if (!writes || context.size() == 1) return;
  const auto library = library_description();
  if (write_mode_of(context) == write_mode::collective) {
    context.info(fmt::format("{}: the {} ranks write their parts of each dataset together (collective MPI-IO)",
                             library, context.size()));
  } else {
    const char* why = !parallel_library() ? ""
                      : !collective         ? " (IOHDF5::collective_io = no)"
                                            : " (the ranks are not MPI_COMM_WORLD)";
    context.info(fmt::format("{}: the {} ranks send their data to rank 0, which writes every file{}", library,
                             context.size(), why));
  }
}

void IOHDF5_Output(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  if (!IO::writes_now(context, p.out_every)) return;
  const auto variables = output_variables(context);
  if (variables.empty()) return;
  auto& steps_written = context.integer_scalar("hdf5_steps_written");
  const auto dir = context.out_dir();
  const auto& g = context.grid();
  const auto extent = context.owned_extent();
  const auto mode = write_mode_of(context);
  for (const auto& v : variables) {
    // Only the variables written now leave the device, and only now.
    const auto name = v.implementation + "::" + v.name;
    const auto centering = context.centering(name);
    output_step s;
    s.file = dir / (v.name + ".h5");
    s.dataset = dataset_name(v.implementation, v.name, context.iteration(), 0);
    const auto prefix = s.dataset.substr(0, s.dataset.rfind("it=") + 3);
    // A recovered run goes on adding to the files of the run it recovered; a variable it writes
    // that the other did not gets its file anew.
    std::error_code no_file;
    s.new_file = steps_written == 0 || !std::filesystem::exists(s.file, no_file);
    s.type = v.data_type;
    s.values = v.data_type == data_type::cctk_int ? static_cast<const void*>(context.read_integer(name).data())
                                                  : static_cast<const void*>(context.read(name).data());
    s.grid = g;
    s.extent = extent;
    s.attributes = attributes_of(g, centering, context.time(), context.iteration());
    write_step(s, context, mode);
    if (context.rank() == 0) {
      const xdmf_series series{v.name, s.file.filename().string(), v.data_type, extent, s.attributes.origin,
                               s.attributes.delta, read_series(s.file, prefix)};
      ccl::write_file_atomically(dir / (v.name + ".xmf"), xdmf_text(series));
    }
  }
  ++steps_written;
}

}  // namespace opuntia::thorns::IOHDF5
