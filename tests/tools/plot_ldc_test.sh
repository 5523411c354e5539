#!/usr/bin/env bash
# tools/plot_ldc.py on HDF5 files that tests/tools/ldc_synthetic.py writes as IOHDF5 would, 2D
# and 3D: the centrelines it compares (the same errors ldc_compare_test.sh checks on the CSV
# lines: the right faces of vx and vy in the right z plane), the PNG written under its name and
# nothing else left, the staggering unit tests (plot_ldc_test.py), and the errors word for word.
# Skipped (exit 77) where no python3 has matplotlib; scripts/install_deps.sh installs it.
here=$(dirname "$(realpath "$0")")
root=$(realpath "$here/../..")
. "$here/../check.sh"

find_python_with matplotlib h5py numpy
if [ -z "$python" ]; then
  find_python_with matplotlib
  if [ -z "$python" ]; then
    echo "SKIPPED: no python3 with matplotlib (scripts/install_deps.sh installs python3-matplotlib)"
    exit 77
  fi
  echo "FAILED: $python has matplotlib but not h5py and numpy (scripts/install_deps.sh installs python3-h5py)"
  exit 1
fi

# plot ARGS...: runs the tool in $work, its output in $work/out and $work/err, its exit status in $status.
plot() {
  (cd "$work" && "$python" "$root/tools/plot_ldc.py" "$@" >out 2>err)
  status=$?
}
printed() {
  [ "$status" -eq "$1" ] && [ "$(cat "$work/out")" = "$2" ] && [ "$(cat "$work/err")" = "$3" ] ||
    { echo "exit status $status, printed:"; cat "$work/out" "$work/err"; return 1; }
}
synthetic() { "$python" "$here/ldc_synthetic.py" hdf5 "$work/$1" "${@:2}"; }
# files_are DIR NAMES...: DIR holds exactly these files (no temporary left beside them).
files_are() {
  [ "$(cd "$work/$1" && ls -A | sort | tr '\n' ' ')" = "$(printf '%s\n' "${@:2}" | sort | tr '\n' ' ')" ] ||
    { echo "in $1:"; ls -A "$work/$1"; return 1; }
}
is_png() { [ "$(head -c 8 "$1" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]; }

unit_tests() { "$python" "$here/plot_ldc_test.py" >"$work/unit.out" 2>&1 || { cat "$work/unit.out"; return 1; }; }
check "averaging and interpolation on the staggered grid (plot_ldc_test.py)" unit_tests

u100='u along x = 0.5: max |u - u_Ghia| = 0.5536 at y = 0.6172 (17 points, Re = 100)'
v100='v along y = 0.5: max |v - v_Ghia| = 0.4867 at x = 0.8047 (17 points, Re = 100)'
synthetic flat
plot flat --reynolds 100
check "2D: the centrelines' errors, then where the PNG is" printed 0 \
  "$u100"$'\n'"$v100"$'\n''wrote flat/lid_driven_cavity.png' ""
check "2D: a PNG" is_png "$work/flat/lid_driven_cavity.png"
check "2D: nothing but the PNG beside the output" files_are flat vx.h5 vy.h5 lid_driven_cavity.png

synthetic cube --three-d
mkdir "$work/plots"
plot cube --reynolds 100 --out plots/cube.png
check "3D: the mid-z plane's centrelines" printed 0 "$u100"$'\n'"$v100"$'\n''wrote plots/cube.png' ""
check "3D: a PNG at --out" is_png "$work/plots/cube.png"
check "3D: nothing else in the output folders" files_are plots cube.png
plot cube --reynolds 400 --out plots/cube.png
check "Re 400: u alone compared, the PNG replaced" printed 0 \
  'u along x = 0.5: max |u - u_Ghia| = 0.4243 at y = 0.4531 (17 points, Re = 400)
v along y = 0.5: no reference values for Re = 400 in ghia1982_v_horizontal_re100.csv
wrote plots/cube.png' ""
check "Re 400: nothing else in the output folder" files_are plots cube.png

cp -r "$work/flat" "$work/blown_up" && rm "$work/blown_up/lid_driven_cavity.png"
"$python" -c 'import sys, h5py; h5py.File(sys.argv[1], "r+")["LIDDRIVENCAVITY::vx it=40 tl=0"][1, 5, 9] = float("nan")' \
  "$work/blown_up/vx.h5"
plot blown_up --reynolds 100
check "a NaN on the centreline: its error nan, the field drawn without streamlines" printed 0 \
  'u along x = 0.5: max |u - u_Ghia| = nan at y = 0.2813 (17 points, Re = 100)'$'\n'"$v100"$'\n''wrote blown_up/lid_driven_cavity.png' ""
check "a NaN on the centreline: a PNG" is_png "$work/blown_up/lid_driven_cavity.png"

# The errors: exit status 1, the file, no PNG.
plot nowhere --reynolds 100
check "a missing folder" printed 1 "" 'nowhere/vx.h5: error: cannot read file: No such file or directory'
cp -r "$work/flat" "$work/missing" && rm "$work/missing/vy.h5" "$work/missing/lid_driven_cavity.png"
plot missing --reynolds 100
check "a missing file" printed 1 "" 'missing/vy.h5: error: cannot read file: No such file or directory'
check "a missing file: no PNG" files_are missing vx.h5
cp -r "$work/missing" "$work/text"
echo "not HDF5" >"$work/text/vy.h5"
plot text --reynolds 100
check "a file that is not HDF5" grep -q '^text/vy.h5: error: cannot read file: not an HDF5 file (' "$work/err"
check "a file that is not HDF5: exit 1" test "$status" -eq 1
cp -r "$work/missing" "$work/other_variable"
cp "$work/flat/vx.h5" "$work/other_variable/vy.h5"
plot other_variable --reynolds 100
check "vx's datasets in vy.h5" printed 1 "" 'other_variable/vy.h5: error: no dataset "LIDDRIVENCAVITY::vy it=<n> tl=0"'
cp -r "$work/missing" "$work/later"
"$python" - "$work/flat/vy.h5" "$work/later/vy.h5" <<'EOF'
import sys, h5py
with h5py.File(sys.argv[1], "r") as source, h5py.File(sys.argv[2], "w") as target:
    source.copy("LIDDRIVENCAVITY::vy it=40 tl=0", target, name="LIDDRIVENCAVITY::vy it=80 tl=0")
EOF
plot later --reynolds 100
check "no iteration in both files" printed 1 "" 'later/vy.h5: error: no iteration that vx.h5 holds too (vx.h5: 0, 40; vy.h5: 80)'
cp -r "$work/flat" "$work/centred" && rm "$work/centred/lid_driven_cavity.png"
"$python" -c 'import sys, h5py; h5py.File(sys.argv[1], "r+")["LIDDRIVENCAVITY::vx it=40 tl=0"].attrs["centering"] = b"ccc"' \
  "$work/centred/vx.h5"
plot centred --reynolds 100
check "a cell-centred vx" printed 1 "" 'centred/vx.h5: error: "LIDDRIVENCAVITY::vx it=40 tl=0" is centred "ccc", not "vcc"'
plot flat --reynolds 100 --out no_folder/flat.png
check "an output folder that is not there" printed 1 "$u100"$'\n'"$v100" \
  'no_folder/flat.png: error: cannot write file: No such file or directory'
mkdir -p "$work/into/taken.png"
plot flat --reynolds 100 --out into/taken.png
check "a folder where the PNG goes: the temporary removed again" printed 1 "$u100"$'\n'"$v100" \
  'into/taken.png: error: cannot write file: Is a directory'
check "a folder where the PNG goes: nothing left" files_are into taken.png
mkdir "$work/read_only" && chmod 555 "$work/read_only"
if [ -w "$work/read_only" ]; then
  echo "(root writes into a read-only folder: that case is left out)"
else
  plot flat --reynolds 100 --out read_only/flat.png
  check "a folder that cannot be written" printed 1 "$u100"$'\n'"$v100" \
    'read_only/flat.png: error: cannot write file: Permission denied'
fi
finish
