// opuntia-gen: a thin command line around the pure `generate` function.
//   opuntia-gen generate --thorn DIR --templates DIR --out DIR [--backend B]...
//   opuntia-gen check FILE...
//   opuntia-gen show --thorn DIR --kernel K --backend B [--templates DIR]
//   opuntia-gen new-thorn NAME [--kernel K] [--type 3dblock|3dstencil] [--radius R] [--dir PARENT]
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "generator/file_io.hpp"
#include "generator/generate.hpp"
#include "generator/skeleton/new_thorn.hpp"
#include "ccl/model/common.hpp"
#include "ccl/parse.hpp"

namespace fs = std::filesystem;
using namespace opuntia::gen;

namespace {

/// The thorns given plus their sibling thorn directories, each once: what `inherits:` may name.
/// A sibling that cannot be read is skipped (the user did not name it) and recorded in
/// `inputs.unread_library`; a `--library` folder that cannot be read is an error.
void read_library(generator_inputs& inputs, const std::vector<std::string>& extra, std::vector<diagnostic>& errors) {
  std::set<fs::path> siblings;
  std::set<fs::path> parents;
  for (const auto& t : inputs.thorns) parents.insert(parent_folder(t.dir));
  for (const auto& parent : parents) {
    std::error_code ec;
    fs::directory_iterator it(parent, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      std::error_code status_error;
      const auto status = fs::status(it->path() / "interface.ccl", status_error);
      if (status.type() == fs::file_type::not_found) continue;  // not a thorn
      siblings.insert(it->path().lexically_normal());
    }
    if (ec) inputs.unread_library.emplace_back(parent.generic_string(), ec.message());
  }
  std::set<fs::path> named;
  for (const auto& e : extra) named.insert(fs::path(e).lexically_normal());
  for (const auto& d : siblings) {
    if (named.count(d)) continue;
    try {
      inputs.library.push_back(read_thorn(d));
    } catch (const input_error& e) {
      const auto& why = e.diagnostics().front();
      inputs.unread_library.emplace_back(why.where.path, why.message);
    }
  }
  for (const auto& d : named) {
    try {
      inputs.library.push_back(read_thorn(d));
    } catch (const input_error& e) {
      errors.insert(errors.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }
}

/// The templates folder where --templates is not given: `templates` in the current folder
/// where it holds deps.ccl (the top of a checkout), else an installed package's beside this
/// program (<prefix>/bin/opuntia-gen: <prefix>/share/opuntia/templates); `templates` where
/// neither does, which run_generator reports.
std::string default_templates_dir() {
  std::error_code error;
  if (fs::exists(fs::path("templates") / "deps.ccl", error)) return "templates";
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    const fs::path installed = program.parent_path().parent_path() / "share" / "opuntia" / "templates";
    if (fs::exists(installed / "deps.ccl", error)) return installed.string();
  }
  return "templates";
}

/// Reads what generate needs and runs it. Every problem of every thorn is thrown together (main
/// prints each once): a thorn that cannot be read does not hide the errors of the others.
std::vector<generated_file> run_generator(const std::vector<std::string>& thorn_dirs,
                                          const std::vector<std::string>& library_dirs,
                                          const std::string& templates_dir, bool templates_given,
                                          const std::vector<std::string>& backends, bool check_link_contract = true) {
  generator_inputs inputs;
  inputs.check_link_contract = check_link_contract;
  inputs.backends = backends;
  std::vector<diagnostic> errors;
  const auto keep = [&](const input_error& e) { errors.insert(errors.end(), e.diagnostics().begin(), e.diagnostics().end()); };
  for (const auto& d : thorn_dirs) {
    try {
      inputs.thorns.push_back(read_thorn(d));
    } catch (const input_error& e) {
      keep(e);
    }
  }
  read_library(inputs, library_dirs, errors);
  try {
    inputs.deps_ccl = read_source(normal_folder(templates_dir) / "deps.ccl");
    inputs.templates = read_templates(templates_dir);
  } catch (const input_error& e) {
    keep(e);
    if (!templates_given && !fs::exists(normal_folder(templates_dir) / "deps.ccl")) {
      errors.back().message += "; no --templates was given and neither ./templates nor an installed "
                               "share/opuntia/templates beside this program holds deps.ccl: pass --templates DIR";
    }
    throw input_error(errors);  // main prints each once
  }
  try {
    auto files = generate(inputs);
    if (errors.empty()) return files;
  } catch (const input_error& e) {
    keep(e);
  }
  throw input_error(errors);  // main prints each once
}

int check_files(const std::vector<std::string>& files, const std::string& forced_kind) {
  int status = 0;
  for (const auto& path : files) {
    try {
      const auto file = read_source(path);
      const auto kind = forced_kind.empty() ? ccl_kind_of(path) : forced_kind;
      if (kind == "cakernel") {
        parse_cakernel_ccl(file);
      } else if (kind == "deps") {
        parse_deps_ccl(file);
      } else if (kind == "interface") {
        parse_interface_ccl(file);
      } else if (kind == "param") {
        parse_param_ccl(file);
      } else if (kind == "schedule") {
        parse_schedule_ccl(file);
      } else if (kind == "parfile") {
        parse_parfile(file);
      } else {
        throw input_error(whole_file_error(path, "cannot tell which CCL file this is; name it cakernel.ccl, deps.ccl, "
                                         "interface.ccl, param.ccl, schedule.ccl or *.par, or pass --as KIND"));
      }
    } catch (const input_error& e) {
      std::cerr << format_diagnostics(e.diagnostics());
      status = 1;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // An empty path would mean the current folder (--out ""): refused, naming the option.
  const CLI::Validator not_empty(
      [](std::string& value) { return value.empty() ? std::string("an empty path was given; name a path") : std::string(); },
      "");
  CLI::App app{"opuntia-gen: compiles CaKernel descriptors and Cactus CCL files into thorn bindings and "
               "backend kernels"};
  app.require_subcommand(1);

  std::vector<std::string> thorn_dirs;
  std::vector<std::string> library_dirs;
  std::string templates_dir = default_templates_dir();
  std::string out_dir;
  std::vector<std::string> backends;
  std::string stamp;
  auto* generate_cmd = app.add_subcommand("generate", "generate the bindings and kernels of one or more thorns");
  generate_cmd->add_option("--thorn", thorn_dirs, "thorn directory (repeatable)")
      ->required()
      ->check(not_empty)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  std::vector<CLI::Option*> templates_options;
  const auto templates_help = "templates directory holding deps.ccl (default: ./templates where it has one, else the "
                              "installed share/opuntia/templates beside this program)";
  templates_options.push_back(generate_cmd->add_option("--templates", templates_dir, templates_help)->check(not_empty));
  generate_cmd->add_option("--out", out_dir, "output directory")->required()->check(not_empty);
  generate_cmd->add_option("--backend", backends, "backend (top-level template group) to generate; default: all");
  generate_cmd->add_option("--library", library_dirs,
                           "further thorn directory consulted for inherits: (repeatable); sibling directories of "
                           "each --thorn are always consulted")
      ->check(not_empty)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  generate_cmd->add_option("--stamp", stamp, "file to touch after a successful run (for build systems)")->check(not_empty);
  bool no_link_check = false;
  generate_cmd->add_flag("--no-link-check", no_link_check,
                         "do not require each variant's templates to define the launcher and traits the bindings "
                         "link against (to read templates written for another framework, such as CaCUDA's own)");

  std::vector<std::string> check_paths;
  std::vector<std::string> check_thorns;
  std::string forced_kind;
  auto* check_cmd = app.add_subcommand("check", "parse CCL files and parameter files and report errors with their "
                                                "places; with --thorn, also every semantic check of generate");
  check_cmd->add_option("files", check_paths, "files to check (their syntax)");
  // One directory an option, so that files may follow (`check --thorn DIR FILE...`).
  check_cmd->add_option("--thorn", check_thorns, "thorn directory to check as generate would, writing nothing "
                                                 "(repeatable)")
      ->check(not_empty)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  templates_options.push_back(
      check_cmd->add_option("--templates", templates_dir, std::string(templates_help) + ", for --thorn")->check(not_empty));
  check_cmd->add_option("--as", forced_kind, "parse every file as this kind")
      ->check(CLI::IsMember({"cakernel", "deps", "interface", "param", "schedule", "parfile"}));

  std::string show_thorn;
  std::string show_kernel;
  std::string show_backend;
  auto* show_cmd = app.add_subcommand("show", "print the code generated for one kernel and backend");
  show_cmd->add_option("--thorn", show_thorn, "thorn directory")->required()->check(not_empty);
  show_cmd->add_option("--kernel", show_kernel, "kernel name")->required();
  show_cmd->add_option("--backend", show_backend, "backend")->required();
  templates_options.push_back(show_cmd->add_option("--templates", templates_dir, templates_help)->check(not_empty));
  const auto templates_given = [&] {
    return std::any_of(templates_options.begin(), templates_options.end(), [](const CLI::Option* o) { return o->count() > 0; });
  };

  new_thorn_options skeleton;
  std::string skeleton_parent = ".";
  auto* new_thorn_cmd = app.add_subcommand(
      "new-thorn", "write a new thorn that builds and runs as written: CCL files, a kernel body, host routines, a "
                   "parameter file and a test against an exact answer");
  new_thorn_cmd->add_option("name", skeleton.name, "the thorn's name")->required();
  new_thorn_cmd->add_option("--kernel", skeleton.kernel, "the kernel's name (default: NAME_Update)");
  new_thorn_cmd->add_option("--type", skeleton.type, "the kernel's template")
      ->check(CLI::IsMember({"3dblock", "3dstencil"}))
      ->capture_default_str();
  new_thorn_cmd->add_option("--radius", skeleton.radius, "the stencil's points each side")
      ->check(CLI::Range(1, most_new_thorn_radius))
      ->capture_default_str();
  new_thorn_cmd->add_option("--dir", skeleton_parent, "the folder to write the thorn's folder in")
      ->capture_default_str();

  // CLI11 takes an unknown first word for a missing subcommand ("A subcommand is required").
  std::vector<std::string> names;
  for (const auto* sub : {generate_cmd, check_cmd, show_cmd, new_thorn_cmd}) names.push_back(sub->get_name());
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    std::cerr << fmt::format("opuntia-gen: error: unknown subcommand '{}'{}; subcommands: {}\n", argv[1],
                             did_you_mean(argv[1], names), join_names(names));
    return static_cast<int>(CLI::ExitCodes::ExtrasError);
  }

  CLI11_PARSE(app, argc, argv);

  try {
    if (*check_cmd) {
      if (check_paths.empty() && check_thorns.empty()) {
        std::cerr << "opuntia-gen check: error: name files to check, or a thorn with --thorn\n";
        return 2;
      }
      int status = check_files(check_paths, forced_kind);
      if (!check_thorns.empty()) {
        try {
          run_generator(check_thorns, {}, templates_dir, templates_given(), {});
        } catch (const input_error& e) {
          std::cerr << format_diagnostics(distinct(e.diagnostics()));
          status = 1;
        }
      }
      return status;
    }
    if (*generate_cmd) {
      const auto files = run_generator(thorn_dirs, library_dirs, templates_dir, templates_given(), backends, !no_link_check);
      write_outputs(out_dir, files, stamp);
      return 0;
    }
    if (*new_thorn_cmd) {
      std::vector<skeleton_file> files;
      try {
        files = new_thorn_files(skeleton);
      } catch (const std::invalid_argument& e) {
        std::cerr << "opuntia-gen new-thorn: error: " << e.what() << '\n';
        return 2;
      }
      // The thorns that come with Opuntia, beside its templates (a checkout's thorns/, or the
      // installed share/opuntia/thorns): a program holds one thorn of each name, any case.
      std::error_code error;
      const fs::path builtin = (fs::path(templates_dir).parent_path() / "thorns").lexically_normal();
      for (const auto& entry : fs::directory_iterator(builtin, error)) {
        const auto taken = entry.path().filename().string();
        if (!entry.is_directory(error) || !iequals(taken, skeleton.name)) continue;
        std::cerr << fmt::format("opuntia-gen new-thorn: error: '{}' is the name of a thorn that comes with Opuntia "
                                 "({}): a program holds one thorn of each name, whatever its case; choose another\n",
                                 skeleton.name, entry.path().string());
        return 2;
      }
      const fs::path folder = fs::path(skeleton_parent) / skeleton.name;
      std::vector<std::pair<std::string, std::string>> contents;
      for (const auto& f : files) contents.emplace_back(f.path, f.text);
      write_new_folder(folder, contents);
      // The two ways to build an outside thorn (docs/outside-thorns.md): into opuntia, or into a
      // program of one's own against the installed package.
      const std::string thorns_folder = fs::absolute(skeleton_parent).lexically_normal().string();
      std::cout << fmt::format("opuntia-gen: wrote thorn {} in {} ({} files); build it into opuntia with "
                               "-DOPUNTIA_THORN_DIRS={} or into a program of yours with "
                               "opuntia_add_executable(PROGRAM THORNS {}), and run {}\n",
                               skeleton.name, folder.string(), files.size(), thorns_folder, thorns_folder,
                               (folder / "par" / (skeleton.name + ".par")).string());
      return 0;
    }
    if (*show_cmd) {
      const auto files = run_generator({show_thorn}, {}, templates_dir, templates_given(), {show_backend});
      const auto name = thorn_name(normal_folder(show_thorn));
      // Backends match case-insensitively, as in generate; the kernel name keeps its case.
      const auto backend_prefix = fmt::format("{}/{}/", name, show_backend);
      bool any = false;
      std::vector<std::string> kernels;  // of this backend, for the suggestion
      for (const auto& f : files) {
        if (!iequals(f.path.substr(0, backend_prefix.size()), backend_prefix)) continue;
        if (!f.kernel.empty() && std::find(kernels.begin(), kernels.end(), f.kernel) == kernels.end()) {
          kernels.push_back(f.kernel);
        }
        if (f.kernel != show_kernel) continue;
        std::cout << "// ===== " << f.path << " =====\n" << f.text;
        any = true;
      }
      if (!any) {
        std::cerr << fmt::format("opuntia-gen: error: no code generated for kernel '{}' with backend '{}'{}; "
                                 "thorn {} has kernels: {}\n",
                                 show_kernel, show_backend, did_you_mean(show_kernel, kernels), name,
                                 kernels.empty() ? std::string("none") : join_names(kernels));
        return 1;
      }
      return 0;
    }
  } catch (const input_error& e) {
    std::cerr << format_diagnostics(distinct(e.diagnostics()));
    return 1;
  } catch (const fs::filesystem_error& e) {
    // Not expected (the reads and writes above catch their own), but a path is named if it comes.
    const auto path = e.path1().empty() ? std::string("opuntia-gen") : e.path1().generic_string();
    std::cerr << fmt::format("{}: error: {}\n", path, e.code().message());
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "opuntia-gen: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
