#!/usr/bin/env bash
# The installed package as a user meets it (docs/outside-thorns.md): `cmake --install` of this
# build into a temporary prefix, which then moves (nothing in it may name where it was built);
# the project tests/install/user_project, which finds it with find_package(Opuntia) and builds
# its own program from the core thorns, the built-in HeatEquation and its thorn Advection; that
# program run on each host backend against the exact answer; a project whose thorn inherits from
# a built-in one; and the projects refused at configure time: a thorn named as a built-in one
# (naming both folders), a BUILTIN name the package does not have.
#   install_test.sh CMAKE BUILD_DIR SOURCE_DIR "BACKENDS" [CONFIGURE_ARGUMENT...]
# BACKENDS: those the runs use (openmp, and opencl where the build has it); CONFIGURE_ARGUMENTs:
# the build's compilers and flags, for the user project.
source "$(dirname "$0")/../check.sh"
cmake=$1
build_dir=$(cd "$2" && pwd -P)
source_dir=$(cd "$3" && pwd -P)
read -r -a backends <<<"$4"
shift 4
configure=("$cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@")
project=$source_dir/tests/install/user_project

step "cmake --install exits 0" "$work/install.out" "$cmake" --install "$build_dir" --prefix "$work/staged"
mv "$work/staged" "$work/prefix"
prefix=$(cd "$work/prefix" && pwd -P)
for installed in bin/opuntia bin/opuntia-gen lib/cmake/Opuntia/OpuntiaConfig.cmake \
                 lib/cmake/Opuntia/OpuntiaConfigVersion.cmake include/opuntia/opuntia/routine_context.hpp \
                 share/opuntia/templates/deps.ccl share/opuntia/thorns/HeatEquation/param.ccl; do
  check "installed: $installed" test -f "$prefix/$installed"
done
# Relocatable: no text file of the package names the source or build folder (-I: the compiled
# libraries and programs keep the build's file names in their diagnostics' texts).
grep -rIlF -e "$source_dir" -e "$build_dir" "$prefix" >"$work/absolute_paths"
check "no installed text file names the source or build folder" test ! -s "$work/absolute_paths"
cat "$work/absolute_paths"

"$prefix/bin/opuntia" --list-thorns >"$work/opuntia_list.out" 2>&1
check "the installed opuntia runs, moved" grep -q "^HeatEquation *heatequation" "$work/opuntia_list.out"
cd "$project" && step "the installed opuntia-gen checks the project's thorn" "$work/check.out" \
  "$prefix/bin/opuntia-gen" check --thorn thorns/Advection --templates "$prefix/share/opuntia/templates"
cd "$work" || exit 1

# docs/outside-thorns.md shows the project's CMakeLists.txt as it is.
check "the documentation shows the user project's CMakeLists.txt" python3 -c \
  'import sys; sys.exit(open(sys.argv[1]).read() not in open(sys.argv[2]).read())' \
  "$project/CMakeLists.txt" "$source_dir/docs/outside-thorns.md"

step "the user project configures" "$work/user_configure.out" \
  "${configure[@]}" -S "$project" -B "$work/user" -DCMAKE_PREFIX_PATH="$prefix"
step "the user project builds" "$work/user_build.out" "$cmake" --build "$work/user" -j 2
program=$work/user/advection_sim

"$program" --list-thorns >"$work/list.out" 2>&1
check "its program holds its thorn" grep -q "^Advection *advection" "$work/list.out"
check "its program holds the built-in thorn it names" grep -q "^HeatEquation *heatequation" "$work/list.out"
check "its program holds the core thorns" grep -q "^Driver .*(always active)" "$work/list.out"
check "its program holds no built-in thorn it does not name" bash -c "! grep -q '^WaveToy' '$work/list.out'"

# 40 upwind steps at Courant number 1 move u 40 points along x, exactly.
expected="INFO (Advection): after 40 iterations u moved 40 points along x: max |u - exact| = 0"
for backend in "${backends[@]}"; do
  mkdir -p "$work/run_$backend"
  { cat "$project/thorns/Advection/par/advection.par"; echo "CaKernel::backend = \"$backend\""; } \
    >"$work/run_$backend/advection.par"
  cd "$work/run_$backend" && step "the program runs on $backend" run.out "$program" advection.par
  cd "$work" || exit 1
  check "on $backend, u is the exact answer" grep -qxF "$expected" "$work/run_$backend/run.out"
done

# small_project NAME ARGUMENTS: the project $work/NAME, whose program NAME_sim is
# opuntia_add_executable(NAME_sim ARGUMENTS).
small_project() {
  mkdir -p "$work/$1"
  printf '%s\n' "cmake_minimum_required(VERSION 3.25)" "project($1 LANGUAGES C CXX)" \
    "find_package(Opuntia REQUIRED)" "opuntia_add_executable($1_sim $2)" >"$work/$1/CMakeLists.txt"
}

# A thorn of the project inherits the built-in HeatEquation's implementation (opuntia-gen reads
# the package's copy of its interface.ccl) and reads its field.
inheriting=$source_dir/tests/fixtures/outside_thorns/inheriting
small_project probe "THORNS \"$inheriting\" BUILTIN HeatEquation"
step "a thorn that inherits a built-in one configures" "$work/probe.out" \
  "${configure[@]}" -S "$work/probe" -B "$work/probe/build" -DCMAKE_PREFIX_PATH="$prefix"
step "a thorn that inherits a built-in one builds" "$work/probe.out" "$cmake" --build "$work/probe/build" -j 2
step "a thorn that inherits a built-in one runs" "$work/probe.out" \
  "$work/probe/build/probe_sim" "$inheriting/HeatProbe/par/heat_probe.par"
check "it reads the field it inherits" grep -qxF "INFO (HeatProbe): max |heatequation::u| = 1" "$work/probe.out"

# A project's thorn named as a built-in one: an error at configure time naming both folders.
small_project clash "THORNS \"$source_dir/tests/fixtures/outside_thorns/builtin_clash\""
"${configure[@]}" -S "$work/clash" -B "$work/clash/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/clash.out" 2>&1
check "a thorn named as a built-in one fails the configuration" test $? -ne 0
cat >"$work/clash.expected" <<EOF
  opuntia: two thorns are named HeatEquation:

      $prefix/share/opuntia/thorns/HeatEquation
      $source_dir/tests/fixtures/outside_thorns/builtin_clash/HeatEquation

  a program holds one thorn of each name: rename one folder, or leave one out
EOF
grep -A5 -x "  opuntia: two thorns are named HeatEquation:" "$work/clash.out" >"$work/clash.message"
check "the clash names both folders" diff "$work/clash.expected" "$work/clash.message"

# A BUILTIN thorn the package does not have.
small_project unknown "BUILTIN HeatEquaton"
"${configure[@]}" -S "$work/unknown" -B "$work/unknown/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/unknown.out" 2>&1
check "an unknown BUILTIN thorn fails the configuration" test $? -ne 0
check "the message names it" grep -qxF "  opuntia_add_executable(unknown_sim): no thorn HeatEquaton is built in" \
  "$work/unknown.out"
finish
