#include "output_step.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "hdf5_handle.hpp"

namespace opuntia::thorns::IOHDF5 {

namespace fs = std::filesystem;

namespace {

/// The file of one step, open with its new dataset. Until commit() the step can be taken back:
/// a new file is removed (it exists under its temporary name only), an existing one loses the
/// dataset again.
class step_file {
public:
  step_file(const output_step& s, hid_t access)
      : step_(s), path_(s.new_file ? temporary_of(s.file) : s.file), link_(xdmf_link(s.attributes.iteration)) {
    const auto what = [&](std::string_view action) { return fmt::format("{} {}", action, s.file.string()); };
    file_ = s.new_file ? file_handle{H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), what("cannot create")}
                       : file_handle{H5Fopen(path_.c_str(), H5F_ACC_RDWR, access), what("cannot open")};
    opened_ = true;
    // A dataset of this name is there when a run ran these iterations before into the same file
    // without starting it anew (a recovered run): the new values replace it.
    for (const auto* name : {s.dataset.c_str(), link_.c_str()}) {
      if (H5Lexists(file_, name, H5P_DEFAULT) > 0) {
        checked(H5Ldelete(file_, name, H5P_DEFAULT), what("cannot replace a dataset in"));
      }
    }
    dataset_ = create_grid_dataset(file_, s.dataset, s.type, s.extent,
                                   fmt::format("cannot create dataset \"{}\" in {}", s.dataset, s.file.string()));
    created_ = true;
    if (H5Lexists(file_, "xdmf", H5P_DEFAULT) <= 0) {
      group_handle group{H5Gcreate2(file_, "xdmf", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             what("cannot create the group xdmf in")};
    }
    checked(H5Lcreate_hard(file_, s.dataset.c_str(), file_, link_.c_str(), H5P_DEFAULT, H5P_DEFAULT),
            fmt::format("cannot link \"{}\" as {} in {}", s.dataset, link_, s.file.string()));
    write_grid_attributes(dataset_, s.attributes);
  }
  step_file(const step_file&) = delete;
  step_file& operator=(const step_file&) = delete;

  ~step_file() {
    if (!opened_) return;
    // Taken back: nothing of the step is left, and the file stays as the last step left it.
    dataset_ = {};
    if (step_.new_file) {
      file_ = {};
      std::error_code ignored;
      fs::remove(path_, ignored);
      return;
    }
    if (created_) {
      H5Ldelete(file_, step_.dataset.c_str(), H5P_DEFAULT);
      if (H5Lexists(file_, link_.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file_, link_.c_str(), H5P_DEFAULT);
    }
    file_ = {};
    H5Eclear2(H5E_DEFAULT);
  }

  hid_t dataset() const { return dataset_; }

  /// Closes the file, its writes done; a new file takes its name (`rename`: this rank renames).
  void commit(bool rename) {
    const auto what = fmt::format("cannot write {}", step_.file.string());
    dataset_.close(what);
    file_.close(what);
    if (step_.new_file && rename) {
      std::error_code error;
      fs::rename(path_, step_.file, error);
      if (error) {
        const auto reason = error.message();
        fs::remove(path_, error);
        throw hdf5_error(fmt::format("{}: {}", what, reason));
      }
    }
    opened_ = false;
  }

private:
  const output_step& step_;
  fs::path path_;
  std::string link_;
  file_handle file_;
  dataset_handle dataset_;
  bool opened_ = false, created_ = false;
};

}  // namespace

std::string xdmf_link(int iteration) { return fmt::format("xdmf/it={}", iteration); }

void write_step(const output_step& s, routine_context& ranks, write_mode mode) {
  const auto lock = lock_hdf5();
  quiet_hdf5_errors();
  const auto properties = properties_for(mode);
  std::optional<step_file> file;
  if (holds_file(mode, ranks)) file.emplace(s, properties.access);
  write_owned_points(file ? file->dataset() : H5I_INVALID_HID, s.type, s.values, s.grid, ranks, mode,
                     properties.transfer, fmt::format("cannot write dataset \"{}\" in {}", s.dataset, s.file.string()));
  if (file) file->commit(ranks.rank() == 0);
  // The other ranks open the file under its new name at the next step.
  if (mode == write_mode::collective && s.new_file) ranks.maximum(0);
}

std::vector<series_entry> read_series(const fs::path& path, const std::string& prefix) {
  const auto lock = lock_hdf5();
  quiet_hdf5_errors();
  file_handle file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), fmt::format("cannot read {}", path.string())};
  std::vector<std::string> names;
  checked(H5Literate(
              file, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr,
              [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
                static_cast<std::vector<std::string>*>(out)->emplace_back(name);
                return 0;
              },
              &names),
          fmt::format("cannot list the datasets of {}", path.string()));
  std::vector<series_entry> series;
  constexpr std::string_view level = " tl=0";
  for (auto& name : names) {
    const std::string_view text(name);
    if (text.size() <= prefix.size() + level.size() || !text.starts_with(prefix) || !text.ends_with(level)) continue;
    series_entry e;
    const auto digits = text.substr(prefix.size(), text.size() - prefix.size() - level.size());
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), e.iteration);
    if (error != std::errc() || end != digits.data() + digits.size()) continue;
    attribute_handle time{H5Aopen_by_name(file, name.c_str(), "time", H5P_DEFAULT, H5P_DEFAULT),
                          fmt::format("cannot read the time of \"{}\" in {}", name, path.string())};
    checked(H5Aread(time, H5T_NATIVE_DOUBLE, &e.time),
            fmt::format("cannot read the time of \"{}\" in {}", name, path.string()));
    e.dataset = std::move(name);
    series.push_back(std::move(e));
  }
  std::sort(series.begin(), series.end(), [](const auto& a, const auto& b) { return a.iteration < b.iteration; });
  return series;
}

}  // namespace opuntia::thorns::IOHDF5
