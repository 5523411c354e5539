// opuntia: runs a simulation from a Cactus-syntax parameter file.
//   opuntia PARFILE                      run
//   opuntia --show-schedule PARFILE      print the schedule tree as the run would execute it
//   opuntia --list-thorns                the thorns of this build
//   opuntia --describe THORN             a thorn's parameters: type, range, default, description;
//                                        its kernels and their variants
//   opuntia --describe-all               every thorn's (--format markdown: docs/parameters.md)
//   opuntia --list-devices [PARFILE]     a command a thorn provides (CaKernel's; --help lists them all)
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <deque>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "ccl/file_io.hpp"
#include "ccl/model/common.hpp"
#include "ccl/parse.hpp"
#include "flesh/runtime/compiled_thorns.hpp"
#include "flesh/runtime/simulation.hpp"
#include "opuntia/collective_error.hpp"

namespace {

void list_thorns(const std::vector<opuntia::thorn_binding>& thorns, const opuntia::providers& provided) {
  fmt::print("{:<18} {:<18} {:>10} {:>8} {:>9}\n", "thorn", "implementation", "parameters", "kernels", "routines");
  for (const auto& t : thorns) {
    fmt::print("{:<18} {:<18} {:>10} {:>8} {:>9}{}\n", t.name, t.implementation, t.parameters.size(), t.kernels.size(),
               t.routines.size(), provided.is_always_active(t.name) ? "  (always active)" : "");
  }
}

/// The kernels of thorn `name` (as --describe matched it, case-insensitively), after its
/// parameters: each kernel's TYPE, STENCIL and TILE, and its variants on each backend of this
/// build in the order they are tried, the first the one that runs untuned (CaKernel::autotune
/// = "no", writing-a-thorn.md).
void describe_kernels(const std::vector<opuntia::thorn_binding>& thorns, const std::string& name) {
  const auto thorn =
      std::find_if(thorns.begin(), thorns.end(), [&](const auto& t) { return opuntia::ccl::iequals(t.name, name); });
  if (thorn == thorns.end() || thorn->kernels.empty()) return;
  fmt::print("kernels (cakernel.ccl; the variants of a backend in the order autotuning measures them, the first runs "
             "untuned):\n");
  for (const auto& k : thorn->kernels) {
    // A boundary kernel's slabs are EXTERIOR deep; the others run in tiles.
    const bool boundary = std::all_of(k.variants.begin(), k.variants.end(),
                                      [](const auto& v) { return v.template_name == "boundary"; });
    fmt::print("  {}  TYPE=\"{}\"  STENCIL=\"{}\"  {}=\"{}\"\n", k.name, k.type_pattern, fmt::join(k.stencil, ","),
               boundary ? "EXTERIOR" : "TILE",
               boundary ? fmt::format("{}", fmt::join(k.exterior, ",")) : fmt::format("{}", fmt::join(k.tile, ",")));
    std::vector<std::string> backends;
    for (const auto& v : k.variants) {
      if (std::find(backends.begin(), backends.end(), v.backend) == backends.end()) backends.push_back(v.backend);
    }
    for (const auto& backend : backends) {
      std::vector<std::string> names;
      for (const auto& v : k.variants) {
        if (v.backend == backend) names.push_back(v.template_name);
      }
      fmt::print("    {}: {}\n", backend, fmt::join(names, ", "));
    }
  }
}

/// What a query command returns once it has printed: 0 where all of it reached the standard
/// output; 1, saying so, where a write failed (a full disk, a closed output), so that a listing
/// or a regenerated docs/parameters.md cut short does not pass for a success.
int query_output_written() {
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return 0;
  std::cerr << "opuntia: error: the output could not be written (a full disk, or a closed output?)\n" << std::flush;
  return 1;
}

/// The parameters of `parfile` (their defaults when there is none), for the commands that need
/// them without running anything.
opuntia::parameter_registry parameters_of(const std::vector<opuntia::thorn_binding>& thorns,
                                          const opuntia::providers& provided, const std::string& parfile) {
  auto registry = provided.registry_of(thorns);
  if (!parfile.empty()) {
    const auto source = opuntia::ccl::read_source(parfile);
    registry.apply(opuntia::ccl::parse_parfile(source), source);
  }
  return registry;
}

/// CLI11's help, less each option's "Needs:" and "Excludes:" lists: with the questions and
/// commands each excluding the others they filled the help, and the footer says the rule once.
class help_formatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* option) const override {
    std::string text = CLI::Formatter::make_option_opts(option);
    for (const char* label : {" Needs:", " Excludes:"}) {
      if (const auto at = text.find(label); at != std::string::npos) text.erase(at);
    }
    return text;
  }
};

/// A command line CLI11 refused: its message after "opuntia: error: ", an unknown option with the
/// options spelt nearest it, and CLI11's exit status.
int command_line_error(const CLI::App& app, const CLI::ParseError& error) {
  std::string message = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    std::vector<std::string> options;
    for (const auto* option : app.get_options()) {
      for (const auto& name : option->get_lnames()) options.push_back("--" + name);
    }
    for (const auto& extra : app.remaining()) {
      if (!extra.starts_with("-")) continue;
      const auto written = extra.substr(0, extra.find('='));
      message = fmt::format("unknown option '{}'{}", written, opuntia::ccl::did_you_mean(written, options));
      break;
    }
  }
  std::cerr << fmt::format("opuntia: error: {}\nRun with --help for more information.\n", message) << std::flush;
  return error.get_exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  // A file that reaches the process's size limit (ulimit -f, which batch systems pass on to
  // jobs) fails its write with EFBIG, and the output or checkpoint writer reports the file and
  // the reason: SIGXFSZ, whose default ends the process at once with no word and a temporary
  // left behind, is ignored.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"opuntia: runs stencil simulations from Cactus-syntax parameter files"};
  std::string parfile;
  bool show_schedule = false;
  bool list = false;
  std::string describe;
  bool describe_all = false;
  std::string format = "text";
  std::string level = "normal";
  auto* const parfile_option = app.add_option("parfile", parfile, "the parameter file to run");
  auto* const show_schedule_option =
      app.add_flag("--show-schedule", show_schedule, "print the schedule tree of PARFILE and stop");
  auto* const list_option = app.add_flag("--list-thorns", list, "list the thorns of this build");
  const auto thorns = opuntia::compiled_thorns();
  const auto provided = opuntia::compiled_providers();
  const auto processes = provided.process_group();
  std::deque<bool> command_asked;  // a stable place for each command's flag
  std::vector<CLI::Option*> command_options;
  std::vector<std::string> commands;  // their flags, for the help's footer
  std::string command_examples;
  for (const auto& [thorn, command] : provided.commands()) {
    command_options.push_back(app.add_flag(command.flag, command_asked.emplace_back(false), command.help));
    commands.push_back(command.flag);
    if (!command.example.empty()) command_examples += fmt::format("  opuntia {:<37}{}\n", command.flag, command.example);
  }
  auto* const describe_option = app.add_option(
      "--describe", describe,
      "print every parameter of THORN: type, range, default, description; then its kernels and variants");
  auto* const describe_all_option =
      app.add_flag("--describe-all", describe_all, "print every parameter of every thorn of this build");
  // One question at a time: a parameter file beside --list-thorns or --describe would be ignored
  // in silence, and --show-schedule has nothing to show without one.
  list_option->excludes(parfile_option)->excludes(describe_option)->excludes(describe_all_option)->excludes(show_schedule_option);
  describe_option->excludes(parfile_option)->excludes(describe_all_option)->excludes(show_schedule_option);
  describe_all_option->excludes(parfile_option)->excludes(show_schedule_option);
  show_schedule_option->needs(parfile_option);
  // A thorn's command (--list-devices, --clear-cache) reads the parameter file, if one is given,
  // and is the only thing done: beside another question or command it would answer in silence.
  for (std::size_t i = 0; i < command_options.size(); ++i) {
    command_options[i]->excludes(list_option)->excludes(describe_option)->excludes(describe_all_option)->excludes(show_schedule_option);
    for (std::size_t j = i + 1; j < command_options.size(); ++j) command_options[i]->excludes(command_options[j]);
  }
  auto* const format_option =
      app.add_option("--format", format, "how --describe and --describe-all print: text, or Markdown (docs/parameters.md)")
          ->check(CLI::IsMember({"text", "markdown"}))
          ->capture_default_str();
  // --format says how a description prints: with a run, a schedule or a command it would be ignored.
  format_option->excludes(parfile_option)->excludes(show_schedule_option)->excludes(list_option);
  for (auto* const command : command_options) format_option->excludes(command);
  app.add_option("--parameter-level", level, "strict: a parameter set twice, or set and never read, is an error")
      ->check(CLI::IsMember({"normal", "strict"}))
      ->capture_default_str();
  app.formatter(std::make_shared<help_formatter>());
  // The rule of the exclusions above, said once (the thorns' commands by name).
  std::vector<std::string> questions{"--show-schedule", "--list-thorns", "--describe", "--describe-all"};
  questions.insert(questions.end(), commands.begin(), commands.end());
  const auto listed = [](const std::vector<std::string>& flags) {
    std::string text;
    for (std::size_t i = 0; i < flags.size(); ++i) text += (i == 0 ? "" : i + 1 == flags.size() ? " and " : ", ") + flags[i];
    return text;
  };
  app.footer(
      "\nOne question at a time; these exclude one another:\n  " + listed(questions) +
      ".\nA run and --show-schedule need PARFILE" +
      (commands.empty() ? "" : "; " + listed(commands) + " read one if given") +
      ";\nthe others take none. --format goes with --describe and --describe-all.\n"
      "\nExamples:\n"
      "  opuntia parfiles/wavetoy.par                 run a simulation\n"
      "  opuntia --show-schedule parfiles/wavetoy.par what would run, and when\n"
      "  opuntia --describe WaveToy                   a thorn's parameters\n"
      "  opuntia --describe-all --format markdown     every thorn's, as docs/parameters.md\n" +
      command_examples + "Parameter files follow Cactus's syntax: docs/parfile-reference.md; running: docs/running-a-simulation.md.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    return command_line_error(app, e);
  }
  if (parfile_option->count() > 0 && parfile.empty()) {
    // `opuntia "$PAR"` with PAR unset: not the help that no file at all asks for.
    std::cerr << "opuntia: error: the parameter file's name is empty (an unset shell variable?)\n";
    return 2;
  }

  // An error every rank found alike (in the parameter file, or from figures reduced over the
  // ranks) is printed once, by rank 0, and every rank ends with the same status: `alike`. One
  // that only some ranks found (a value a routine finds wrong on one rank's block or device)
  // leaves the others waiting: the ranks that found it print `on_one_rank` with their rank and
  // end the run. Ranks failing at one point of the run meet well within the grace; a slower one
  // costs a repeated message. Each message is one write (std::cerr is unbuffered: each << is a
  // write of its own, and the launcher may put another rank's output between two of them).
  const auto fail_on_every_rank = [&](const std::string& alike, const std::string& on_one_rank) {
    constexpr double grace_seconds = 10;
    if (processes.all_arrive_within(grace_seconds)) {
      if (processes.rank() == 0) std::cerr << alike << std::flush;
      // The others end once rank 0 has written it: the launcher ends every process when one
      // ends with a failure, and a loaded machine could stop rank 0 before its write.
      processes.all_arrive_within(grace_seconds);
      return 1;
    }
    std::cerr << on_one_rank << std::flush;
    processes.abort(1);
    return 1;
  };

  try {
    if (list) {
      list_thorns(thorns, provided);
      return query_output_written();
    }
    for (std::size_t i = 0; i < command_asked.size(); ++i) {
      if (!command_asked[i]) continue;
      const int status =
          provided.commands()[i].provided.run(parameters_of(thorns, provided, parfile), std::cout, std::cerr);
      return std::max(status, query_output_written());
    }
    const auto description =
        format == "markdown" ? opuntia::description_format::markdown : opuntia::description_format::text;
    if (describe_all) {
      std::cout << provided.registry_of(thorns).describe_all(description);
      return query_output_written();
    }
    if (describe_option->count() > 0 && describe.empty()) {
      throw std::invalid_argument("--describe needs a thorn's name (opuntia --list-thorns lists them)");
    }
    if (!describe.empty()) {
      std::cout << provided.registry_of(thorns).describe(describe, description) << std::flush;
      if (description == opuntia::description_format::text) describe_kernels(thorns, describe);
      return query_output_written();
    }
    if (parfile.empty()) {
      std::cerr << app.help();
      return 2;
    }
    const auto source = opuntia::ccl::read_source(parfile);
    const auto parameter_level =
        level == "strict" ? opuntia::parameter_level::strict : opuntia::parameter_level::normal;
    opuntia::simulation sim(thorns, provided, source, parameter_level, std::cout);
    if (show_schedule) {
      std::cout << sim.show_schedule();
      return query_output_written();
    }
    sim.run();
    if (parameter_level == opuntia::parameter_level::strict) {
      const auto unread = sim.parameters_no_rank_read();  // alike on every rank
      if (!unread.empty()) {
        if (processes.rank() == 0) std::cerr << opuntia::ccl::format_diagnostics(unread) << std::flush;
        return 1;
      }
    }
    return sim.terminated_on_failure() ? 1 : 0;
  } catch (const opuntia::run_stopped& stopped) {
    return 128 + stopped.signal_number();  // the run printed where it stopped
  } catch (const opuntia::ccl::input_error& e) {
    auto diagnostics = e.diagnostics();
    opuntia::ccl::fill_line_texts_from_disk(diagnostics);
    const auto text = opuntia::ccl::format_diagnostics(diagnostics);
    return fail_on_every_rank(text,
                              fmt::format("opuntia: error on rank {} of {}:\n{}", processes.rank(), processes.size(), text));
  } catch (const opuntia::collective_error& e) {
    return fail_on_every_rank(
        fmt::format("opuntia: error: {}\n", e.what()),
        fmt::format("opuntia: error on rank {} of {}: {}\n", processes.rank(), processes.size(), e.what()));
  } catch (const std::exception& e) {
    // One rank's failure: it says which, and ends the others rather than leave them waiting.
    const int size = processes.size();
    const std::string where = size > 1 ? fmt::format(" on rank {} of {}", processes.rank(), size) : "";
    std::cerr << fmt::format("opuntia: error{}: {}\n", where, e.what()) << std::flush;  // one write, as above
    if (size > 1) processes.abort(1);
    return 1;
  }
}
