#!/usr/bin/env bash
# tools/ldc_compare.py on IOASCII lines that tests/tools/ldc_synthetic.py writes, whose errors
# against Ghia's tables are known (its --help says how): the printed errors, the last iteration
# taken, CRLF files read as LF ones, --max-error and the exit status, and every error word for
# word. Run where importing numpy, h5py or matplotlib fails: the tool needs the standard library only.
# Usage: ldc_compare_test.sh PYTHON
python=$1
here=$(dirname "$(realpath "$0")")
root=$(realpath "$here/../..")
. "$here/../check.sh"

mkdir "$work/no_numpy"
for module in numpy h5py matplotlib; do
  echo "raise ImportError('tools/ldc_compare.py must not need $module')" >"$work/no_numpy/$module.py"
done
# compare ARGS...: runs the tool in $work, its output in $work/out and $work/err, its exit status in $status.
compare() {
  (cd "$work" && PYTHONPATH="$work/no_numpy" "$python" "$root/tools/ldc_compare.py" "$@" >out 2>err)
  status=$?
}
# printed STATUS STDOUT STDERR: the last run exited with STATUS and printed exactly that.
printed() {
  [ "$status" -eq "$1" ] && [ "$(cat "$work/out")" = "$2" ] && [ "$(cat "$work/err")" = "$3" ] ||
    { echo "exit status $status, printed:"; cat "$work/out" "$work/err"; return 1; }
}
synthetic() { "$python" "$here/ldc_synthetic.py" csv "$work/$1" "${@:2}"; }
# variant NAME: a copy of the run "linear" to edit. garbled NAME FILE SED_SCRIPT: such a copy
# with FILE edited by sed, compared at Re 100.
variant() { cp -r "$work/linear" "$work/$1"; }
garbled() {
  variant "$1"
  sed -i "$3" "$work/$1/$2"
  compare "$1" --reynolds 100
}

u100='u along x = 0.5: max |u - u_Ghia| = 0.5536 at y = 0.6172 (17 points, Re = 100)'
v100='v along y = 0.5: max |v - v_Ghia| = 0.4867 at x = 0.8047 (17 points, Re = 100)'
synthetic linear
compare linear --reynolds 100
check "linear lines at Re 100: u - u_Ghia largest at y = 0.6172, v - v_Ghia at x = 0.8047" \
  printed 0 "$u100"$'\n'"$v100" ""
compare linear --reynolds 400
check "at Re 400 u alone: Ghia's table has no v" printed 0 \
  'u along x = 0.5: max |u - u_Ghia| = 0.4243 at y = 0.4531 (17 points, Re = 400)
v along y = 0.5: no reference values for Re = 400 in ghia1982_v_horizontal_re100.csv' ""

synthetic ghia --ghia-points
compare ghia --reynolds 100
check "Ghia's own points and values, 0.0125 off at one point of each line" printed 0 \
  'u along x = 0.5: max |u - u_Ghia| = 0.0125 at y = 0.1719 (17 points, Re = 100)
v along y = 0.5: max |v - v_Ghia| = 0.0125 at x = 0.8047 (17 points, Re = 100)' ""

variant first
grep -v '^40,' "$work/linear/vx.y.csv" >"$work/first/vx.y.csv"
compare first --reynolds 100
check "the last iteration counts: iteration 0 alone is zero, 1 off at the lid" printed 0 \
  'u along x = 0.5: max |u - u_Ghia| = 1 at y = 1.0000 (17 points, Re = 100)'$'\n'"$v100" ""

compare linear --reynolds 100 --max-error 0.6
check "--max-error above both errors: exit 0" printed 0 "$u100"$'\n'"$v100" ""
compare linear --reynolds 100 --max-error 0.5
check "--max-error between the errors: exit 1, naming the line over it" printed 1 "$u100"$'\n'"$v100" \
  'ldc_compare.py: error: max |u - u_Ghia| = 0.5536 exceeds --max-error 0.5 (iteration 40 of linear/vx.y.csv)'
compare linear --reynolds 100 --max-error 0.01
check "--max-error below both: both named" printed 1 "$u100"$'\n'"$v100" \
  'ldc_compare.py: error: max |u - u_Ghia| = 0.5536 exceeds --max-error 0.01 (iteration 40 of linear/vx.y.csv)
ldc_compare.py: error: max |v - v_Ghia| = 0.4867 exceeds --max-error 0.01 (iteration 40 of linear/vy.x.csv)'
variant nan
sed -i '$s/,[^,]*$/,nan/' "$work/nan/vy.x.csv"
compare nan --reynolds 100 --max-error 1
check "a nan in the line is an error no --max-error allows" printed 1 \
  "$u100"$'\n''v along y = 0.5: max |v - v_Ghia| = nan at x = 1.0000 (17 points, Re = 100)' \
  'ldc_compare.py: error: max |v - v_Ghia| = nan exceeds --max-error 1 (iteration 40 of nan/vy.x.csv)'

synthetic crlf --crlf
check "the CRLF files have CRs" grep -q $'\r$' "$work/crlf/vx.y.csv"
compare crlf --reynolds 100
check "CRLF files read as LF ones" printed 0 "$u100"$'\n'"$v100" ""

# The errors: exit status 2, the file and line.
variant missing
rm "$work/missing/vy.x.csv"
compare missing --reynolds 100
check "a missing file" printed 2 "$u100" 'missing/vy.x.csv: error: cannot read file: No such file or directory'
compare nowhere --reynolds 100
check "a missing folder" printed 2 "" 'nowhere/vx.y.csv: error: cannot read file: No such file or directory'
variant empty
: >"$work/empty/vx.y.csv"
compare empty --reynolds 100
check "an empty file" printed 2 "" 'empty/vx.y.csv: error: empty file; expected the header "iteration,time,x,y,z,vx"'
variant header_only
head -1 "$work/linear/vx.y.csv" >"$work/header_only/vx.y.csv"
compare header_only --reynolds 100
check "a header and no rows" printed 2 "" 'header_only/vx.y.csv: error: no rows after the header'
garbled header vx.y.csv '1s/,vx$/,u/'
check "a wrong header: the caret where it first differs" printed 2 "" \
  'header/vx.y.csv:1:22: error: expected the header "iteration,time,x,y,z,vx"
iteration,time,x,y,z,u
                     ^'
variant vy_for_vx
cp "$work/linear/vy.x.csv" "$work/vy_for_vx/vx.y.csv"
compare vy_for_vx --reynolds 100
check "another variable's line" printed 2 "" \
  'vy_for_vx/vx.y.csv:1:23: error: expected the header "iteration,time,x,y,z,vx"
iteration,time,x,y,z,vy
                      ^'
cp -r "$work/crlf" "$work/crlf_number"
sed -i '5s/^0,0.0,0.5,/0,0.0,0.5x,/' "$work/crlf_number/vx.y.csv"
compare crlf_number --reynolds 100
check "a garbled number in a CRLF file: the line without its CR, the caret under the field" printed 2 "" \
  'crlf_number/vx.y.csv:5:7: error: "0.5x" is not a number
0,0.0,0.5x,0.15625,0.03125,0.0
      ^'
garbled iteration vx.y.csv '3s/^0,/4.5,/'
check "an iteration that is not an integer" printed 2 "" \
  'iteration/vx.y.csv:3:1: error: "4.5" is not an integer
4.5,0.0,0.5,0.03125,0.03125,0.0
^'
garbled fewer vx.y.csv '25s/,[^,]*$//'
check "a row with a field missing: the caret after the last" printed 2 "" \
  'fewer/vx.y.csv:25:27: error: expected 6 fields (iteration,time,x,y,z,vx), found 5
40,0.5,0.5,0.28125,0.03125
                          ^'
garbled more vx.y.csv '25s/$/,1/'
check "a row with a field too many: the caret on it" printed 2 "" \
  'more/vx.y.csv:25:48: error: expected 6 fields (iteration,time,x,y,z,vx), found 7
40,0.5,0.5,0.28125,0.03125,0.08124999999999999,1
                                               ^'
garbled order vx.y.csv '3s/^0,/50,/'
check "iterations out of order" printed 2 "" \
  'order/vx.y.csv:4:1: error: iteration 0 after iteration 50; IOASCII appends the iterations in order
0,0.0,0.5,0.09375,0.03125,0.0
^'
garbled off_centre vx.y.csv 's/^40,0.5,0.5,/40,0.5,0.46875,/'
check "a line beside x = 0.5" printed 2 "" \
  'off_centre/vx.y.csv:20:8: error: the line runs through x = 0.46875, not x = 0.5 (IOASCII::out1D_yline_x = 0.5 puts it there)
40,0.5,0.46875,-0.03125,0.03125,-0.23125
       ^'
garbled unordered vx.y.csv '25s/,0.28125,/,0.2,/'
check "points that do not increase along the line" printed 2 "" \
  'unordered/vx.y.csv:25:12: error: y = 0.2 does not increase along the line (the row before has y = 0.21875)
40,0.5,0.5,0.2,0.03125,0.08124999999999999
           ^'
variant short
grep -v '^40,0.5,1.03125,' "$work/linear/vy.x.csv" >"$work/short/vy.x.csv"
compare short --reynolds 100
check "Ghia's points outside the line" printed 2 "$u100" \
  "short/vy.x.csv: error: Ghia's point x = 1.0000 lies outside the line's points, x = -0.03125 to 0.96875"
variant not_utf8
printf '40,0.5,0.5,1,0.03125,\xff\n' >>"$work/not_utf8/vx.y.csv"
compare not_utf8 --reynolds 100
check "bytes that are not UTF-8" printed 2 "" \
  'not_utf8/vx.y.csv:38:22: error: not UTF-8 text
40,0.5,0.5,1,0.03125,'$'\xef\xbf\xbd''
                     ^'
compare linear --reynolds 1000
check "a Reynolds number Ghia's tables lack" printed 2 "" \
  "$root/docs/reference/ghia1982_centerlines.csv: error: no column u_Re1000 (--reynolds 1000); the table has Re = 100, 400"
compare linear --reynolds 100 --max-error -1
check "a negative --max-error" printed 2 "" 'usage: ldc_compare.py [-h] --reynolds REYNOLDS [--max-error MAX_ERROR] out_dir
ldc_compare.py: error: argument --max-error: expected a finite number >= 0, not -1'
finish
