#!/usr/bin/env bash
# Thorns from outside the tree built into `opuntia` (OPUNTIA_THORN_DIRS; docs/outside-thorns.md),
# in a build of its own configured again for each case: `make` passes THORN_DIRS on; folders that
# clash, misname or hold no thorn are refused at configure time, word for word; a mistake in an
# outside thorn's CCL fails the build at its real path, line and column; the thorn of
# tests/install/user_project built into opuntia runs its parameter file to the exact answer; and
# an outside thorn inherits from a built-in one.
# The build has only the OpenMP backend and no tests: it compiles the flesh and every thorn once,
# in Debug without optimisation (configure below).
#   OPUNTIA_GEN=<opuntia-gen> thorn_dirs_test.sh CMAKE SOURCE_DIR [CONFIGURE_ARGUMENT...]
source "$(dirname "$0")/../check.sh"
cmake=$1
source_dir=$(cd "$2" && pwd -P)
shift 2
fixtures=$source_dir/tests/fixtures/outside_thorns
user_thorns=$source_dir/tests/install/user_project/thorns
build=$work/build

# make passes THORN_DIRS to the configure step, blanks between folders made CMake's ;.
make -n -C "$source_dir" configure THORN_DIRS="a b" >"$work/make.out" 2>&1
check "make passes THORN_DIRS to cmake" grep -qxF 'cmake --preset release "-DOPUNTIA_THORN_DIRS=a;b" >/dev/null' "$work/make.out"
make -n -C "$source_dir" configure THORN_DIRS= >"$work/make.out" 2>&1
check "make THORN_DIRS= clears them" grep -qxF 'cmake --preset release "-DOPUNTIA_THORN_DIRS=" >/dev/null' "$work/make.out"

# configure ARGUMENT...: the source configured in $build with OPUNTIA_THORN_DIRS=$thorn_dirs, as a
# Debug build without optimisation (-O0, no -g) whatever the arguments say: it compiles in 134 s
# where Release takes 170 s on two cores, and Debug checks every I3D access of the outside thorns
# against their arrays (OPUNTIA_CHECK_BOUNDS).
configure() {
  "$cmake" -S "$source_dir" -B "$build" -G Ninja -DOPUNTIA_BUILD_TESTS=OFF \
    -DOPUNTIA_BUILD_BENCHMARKS=OFF -DOPUNTIA_ENABLE_CUDA=OFF -DOPUNTIA_ENABLE_OPENCL=OFF -DOPUNTIA_ENABLE_MPI=OFF \
    -DOPUNTIA_ENABLE_HDF5=OFF "$@" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0 \
    "-DOPUNTIA_THORN_DIRS=$thorn_dirs"
}
# refused WHAT DIRS EXPECTED: configuring with DIRS fails with the message EXPECTED (CMake's
# indented lines, from the message's first line to its last).
refused() {
  local what=$1 expected=$3
  thorn_dirs=$2 configure "${extra[@]}" >"$work/configure.out" 2>&1
  check "$what: the configuration fails" test $? -ne 0
  printf '%s\n' "$expected" >"$work/expected"
  grep -A$(($(wc -l <"$work/expected") - 1)) -xF "$(head -1 "$work/expected")" "$work/configure.out" >"$work/message"
  check "$what: the message" diff "$work/expected" "$work/message"
}
extra=("$@")

# Relative folders are relative to the top of the tree; the messages name real paths.
refused "two outside thorns named alike" "tests/install/user_project/thorns;tests/fixtures/outside_thorns/clash" \
"  opuntia: two thorns are named Advection:

      $user_thorns/Advection
      $fixtures/clash/Advection

  a program holds one thorn of each name: rename one folder, or leave one out"

refused "an outside thorn named as a built-in one" "$fixtures/builtin_clash" \
"  opuntia: two thorns are named HeatEquation:

      $source_dir/thorns/HeatEquation
      $fixtures/builtin_clash/HeatEquation

  a program holds one thorn of each name: rename one folder, or leave one out"

refused "an outside thorn named as a built-in one but for case" "$fixtures/case_clash" \
"  opuntia: two thorns are named HeatEquation and heatequation:

      $source_dir/thorns/HeatEquation
      $fixtures/case_clash/heatequation

  thorn names are case-insensitive, and a program holds one thorn of each
  name: rename one folder, or leave one out"

refused "a thorn whose name is no identifier" "$fixtures/bad_name" \
"  opuntia: the name of this thorn, its folder's, is no C++ identifier:

      $fixtures/bad_name/my-thorn

  rename the folder: letters, digits and _, not starting with a digit"

refused "a thorn folder whose CCL files are not in lower case" "$fixtures/misnamed" \
"  opuntia: this folder holds Interface.ccl, but a thorn's files are named in
  lower case (interface.ccl, param.ccl, schedule.ccl, cakernel.ccl):

      $fixtures/misnamed/Beta

  rename them, or the folder is no thorn"

refused "a folder that does not exist" "$fixtures/missing" \
"  opuntia: this folder of thorns does not exist:

      $fixtures/missing"

refused "a folder that holds no thorn" "$source_dir/docs" \
"  opuntia: no thorn in this folder:

      $source_dir/docs

  a thorn is a folder holding interface.ccl, param.ccl or schedule.ccl:

  give a thorn's folder, or a folder that holds thorn folders"

# A mistake in an outside thorn's param.ccl, reached through a symbolic link: the build stops
# at the file's real path, line and column.
ln -s "$fixtures/broken" "$work/linked_thorns"
thorn_dirs="$work/linked_thorns;$user_thorns" step "a thorn with a mistake configures" "$work/configure.out" \
  configure "${extra[@]}"
"$cmake" --build "$build" -j 2 --target opuntia >"$work/build.out" 2>&1
check "its mistake fails the build" test $? -ne 0
cat >"$work/expected" <<EOF
$fixtures/broken/Broken/param.ccl:5:1: error: unknown parameter type 'CCTK_REEL'; expected INT, REAL, KEYWORD, STRING or BOOLEAN; did you mean 'CCTK_REAL'?
CCTK_REEL rate "a rate"
^
EOF
grep -A2 -F "/Broken/param.ccl:" "$work/build.out" >"$work/diagnostic"
check "the build names the mistake's real path, line and column" diff "$work/expected" "$work/diagnostic"

# The outside thorns that work, in opuntia beside the built-in ones: Advection runs to the exact
# answer; HeatProbe inherits HeatEquation's implementation and reads its field; thorns written by
# `opuntia-gen new-thorn` (radius 1 3dblock, radius 3 3dstencil) build as written and pass their
# own test against the exact answer.
opuntia_gen=${OPUNTIA_GEN:?the environment names the opuntia-gen of this build}
mkdir -p "$work/new_thorns"
step "new-thorn writes Fresh" "$work/new_thorn.out" "$opuntia_gen" new-thorn Fresh --dir "$work/new_thorns"
step "new-thorn writes Wide" "$work/new_thorn.out" "$opuntia_gen" new-thorn Wide --type 3dstencil --radius 3 --dir "$work/new_thorns"
thorn_dirs="tests/install/user_project/thorns;$fixtures/inheriting;$work/new_thorns" step "the outside thorns configure" \
  "$work/configure.out" configure "${extra[@]}"
check "the configuration names them" \
  grep -qxF -- "-- opuntia: thorns from OPUNTIA_THORN_DIRS: Advection HeatProbe Fresh Wide" "$work/configure.out"
step "opuntia builds with them" "$work/build.out" "$cmake" --build "$build" -j 2 --target opuntia
"$build/opuntia" --list-thorns >"$work/list.out" 2>&1
check "opuntia holds them" grep -q "^Advection *advection" "$work/list.out"
check "opuntia holds the built-in thorns" grep -q "^WaveToy *wavetoy" "$work/list.out"
cd "$work" || exit 1
step "Advection's parameter file runs" "$work/run.out" "$build/opuntia" "$user_thorns/Advection/par/advection.par"
check "u is the exact answer" grep -qxF "INFO (Advection): after 40 iterations u moved 40 points along x: max |u - exact| = 0" \
  "$work/run.out"
step "HeatProbe's parameter file runs" "$work/probe.out" "$build/opuntia" "$fixtures/inheriting/HeatProbe/par/heat_probe.par"
check "HeatProbe reads the field it inherits" grep -qxF "INFO (HeatProbe): max |heatequation::u| = 1" "$work/probe.out"
for thorn in Fresh Wide; do
  step "$thorn's own test passes" "$work/$thorn.out" bash "$work/new_thorns/$thorn/test/exact_answer.sh" "$build/opuntia"
  check "$thorn matches its exact answer" grep -q "^INFO ($thorn): u matches the exact answer after 20 iterations" "$work/$thorn.out"
done
finish
