#pragma once
// Where checkpoints lie: <out_dir>/checkpoint.it<iteration><extension>, one file each. A writer
// writes under another name and renames the file only once it is complete and on the disk, so
// every file of this form is whole; IO::recover = "auto" takes the one of the highest iteration.
#include <filesystem>
#include <string_view>
#include <vector>

namespace opuntia {

/// `dir`/checkpoint.it`iteration``extension`: checkpoint_path("out", 8, ".h5") is out/checkpoint.it8.h5.
std::filesystem::path checkpoint_path(const std::filesystem::path& dir, int iteration, std::string_view extension);

struct checkpoint_file {
  int iteration = 0;
  std::filesystem::path path;
};
/// The checkpoints in `dir` (files named as checkpoint_path() names them, nothing else: not a
/// writer's temporary), by iteration, the oldest first; none where `dir` does not exist.
std::vector<checkpoint_file> checkpoints_in(const std::filesystem::path& dir, std::string_view extension);

/// Once the checkpoint of iteration `written` is complete: removes the older ones but the newest
/// `keep` - 1, and returns them. Those of later iterations (left by a run that went further
/// before this one recovered from an earlier checkpoint) are not touched.
std::vector<std::filesystem::path> remove_old_checkpoints(const std::filesystem::path& dir, std::string_view extension,
                                                          int written, int keep);

}  // namespace opuntia
