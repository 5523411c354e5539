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
std::vector<thorn_sources> read_library(const std::vector<thorn_sources>& thorns, const std::vector<std::string>& extra) {
  std::set<fs::path> dirs;
  for (const auto& t : thorns) {
    const fs::path parent = fs::path(t.dir).parent_path();
    const fs::path root = parent.empty() ? fs::path(".") : parent;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (entry.is_directory() && fs::exists(entry.path() / "interface.ccl")) dirs.insert(entry.path().lexically_normal());
    }
  }
  for (const auto& e : extra) dirs.insert(fs::path(e).lexically_normal());
  std::vector<thorn_sources> library;
  for (const auto& d : dirs) library.push_back(read_thorn(d));
  return library;
}

generator_inputs read_inputs(const std::vector<std::string>& thorn_dirs, const std::vector<std::string>& library_dirs,
                             const std::string& templates_dir, const std::vector<std::string>& backends,
                             bool check_link_contract = true) {
  generator_inputs inputs;
  inputs.check_link_contract = check_link_contract;
  for (const auto& d : thorn_dirs) inputs.thorns.push_back(read_thorn(d));
  inputs.library = read_library(inputs.thorns, library_dirs);
  inputs.deps_ccl = read_source(fs::path(templates_dir) / "deps.ccl");
  inputs.templates = read_templates(templates_dir);
  inputs.backends = backends;
  return inputs;
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
  CLI::App app{"opuntia-gen: compiles CaKernel descriptors and Cactus CCL files into thorn bindings and "
               "backend kernels"};
  app.require_subcommand(1);

  std::vector<std::string> thorn_dirs;
  std::vector<std::string> library_dirs;
  std::string templates_dir = "templates";
  std::string out_dir;
  std::vector<std::string> backends;
  std::string stamp;
  auto* generate_cmd = app.add_subcommand("generate", "generate the bindings and kernels of one or more thorns");
  generate_cmd->add_option("--thorn", thorn_dirs, "thorn directory (repeatable)")->required();
  generate_cmd->add_option("--templates", templates_dir, "templates directory holding deps.ccl")->capture_default_str();
  generate_cmd->add_option("--out", out_dir, "output directory")->required();
  generate_cmd->add_option("--backend", backends, "backend (top-level template group) to generate; default: all");
  generate_cmd->add_option("--library", library_dirs,
                           "further thorn directory consulted for inherits: (repeatable); sibling directories of "
                           "each --thorn are always consulted");
  generate_cmd->add_option("--stamp", stamp, "file to touch after a successful run (for build systems)");
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
  check_cmd->add_option("--thorn", check_thorns, "thorn directory to check as generate would, writing nothing "
                                                 "(repeatable)");
  check_cmd->add_option("--templates", templates_dir, "templates directory holding deps.ccl, for --thorn")
      ->capture_default_str();
  check_cmd->add_option("--as", forced_kind, "parse every file as this kind")
      ->check(CLI::IsMember({"cakernel", "deps", "interface", "param", "schedule", "parfile"}));

  std::string show_thorn;
  std::string show_kernel;
  std::string show_backend;
  auto* show_cmd = app.add_subcommand("show", "print the code generated for one kernel and backend");
  show_cmd->add_option("--thorn", show_thorn, "thorn directory")->required();
  show_cmd->add_option("--kernel", show_kernel, "kernel name")->required();
  show_cmd->add_option("--backend", show_backend, "backend")->required();
  show_cmd->add_option("--templates", templates_dir, "templates directory holding deps.ccl")->capture_default_str();

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
          generate(read_inputs(check_thorns, {}, templates_dir, {}));
        } catch (const input_error& e) {
          std::cerr << format_diagnostics(e.diagnostics());
          status = 1;
        }
      }
      return status;
    }
    if (*generate_cmd) {
      const auto files = generate(read_inputs(thorn_dirs, library_dirs, templates_dir, backends, !no_link_check));
      write_outputs(out_dir, files);
      if (!stamp.empty()) write_file_atomically(stamp, "");
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
      const fs::path folder = fs::path(skeleton_parent) / skeleton.name;
      std::vector<std::pair<std::string, std::string>> contents;
      for (const auto& f : files) contents.emplace_back(f.path, f.text);
      write_new_folder(folder, contents);
      std::cout << fmt::format("opuntia-gen: wrote thorn {} in {} ({} files); build it with "
                               "-DOPUNTIA_THORN_DIRS={} and run {}\n",
                               skeleton.name, folder.string(), files.size(),
                               fs::absolute(skeleton_parent).lexically_normal().string(),
                               (folder / "par" / (skeleton.name + ".par")).string());
      return 0;
    }
    if (*show_cmd) {
      const auto files = generate(read_inputs({show_thorn}, {}, templates_dir, {show_backend}));
      const auto thorn_name = read_thorn(show_thorn).name;
      // Backends match case-insensitively, as in generate; the kernel name keeps its case.
      const auto backend_prefix = fmt::format("{}/{}/", thorn_name, show_backend);
      bool any = false;
      for (const auto& f : files) {
        if (f.kernel != show_kernel || !iequals(f.path.substr(0, backend_prefix.size()), backend_prefix)) continue;
        std::cout << "// ===== " << f.path << " =====\n" << f.text;
        any = true;
      }
      if (!any) {
        std::cerr << fmt::format("opuntia-gen: error: no code generated for kernel '{}' with backend '{}'\n",
                                 show_kernel, show_backend);
        return 1;
      }
      return 0;
    }
  } catch (const input_error& e) {
    std::cerr << format_diagnostics(e.diagnostics());
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "opuntia-gen: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
