#!/usr/bin/env bash
# End-to-end checks of the opuntia-gen command line: exit codes, messages, what is (not) written.
# Usage: cli_test.sh OPUNTIA_GEN SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/../check.sh"
gen=$1
src=$2

# check accepts every CCL file of the real CaCUDA thorn, and the project's own.
"$gen" check "$src"/tests/fixtures/cacuda/* >"$work/out" 2>&1
check "check accepts every CaCUDA fixture file, the parfile too" test $? -eq 0
"$gen" check "$src"/templates/deps.ccl "$src"/thorns/*/*.ccl >"$work/out" 2>&1
check "check accepts the project's CCL files" test $? -eq 0

# check reports a bad file with its place, the line and a caret, and exits 1.
printf 'CCTK_KERNEL K\n{\n  CCTK_KERNEL_VARIABLE { u \n' >"$work/cakernel.ccl"
"$gen" check "$work/cakernel.ccl" >"$work/out" 2>&1
status=$?
check "check exits 1 on a bad file" test $status -eq 1
check "check names the place" grep -q "cakernel.ccl:4:1: error: expected a name, ',' or '}' to close the list opened at line 3, column 24; found end of file" "$work/out"

# check --thorn runs the semantic checks too, writing nothing.
"$gen" check --thorn "$src/thorns/HeatEquation" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn accepts the example thorn" test $? -eq 0
"$gen" check --thorn "$src/tests/generator/cases/err_unknown_parameter/thorns/Heat" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn exits 1 on a semantic error" test $? -eq 1
check "check --thorn names the unknown parameter" grep -q "unknown parameter 'alpah' in kernel 'Heat_Update'" "$work/out"
"$gen" check >"$work/out" 2>&1
check "check with nothing to check is a usage error" test $? -eq 2

# A template folder whose launcher lacks what the bindings link against (a template written
# before CAKERNEL_ReadsAlongAxesOnly_...) is an error at its deps.ccl entry; --no-link-check reads
# it anyway, for templates not meant to be linked (CaCUDA's own).
case_dir="$src/tests/generator/cases/err_launcher_without_trait"
"$gen" generate --thorn "$case_dir/thorns/HeatEquation" --templates "$case_dir/templates" --out "$work/no_trait" >"$work/out" 2>&1
check "generate exits 1 where a launcher template defines no axes trait" test $? -eq 1
check "... naming the deps.ccl entry and the symbol" grep -q "templates/deps.ccl:39:24: error: template '3dblock_copy' (openmp) reaches no definition of CAKERNEL_ReadsAlongAxesOnly_Heat_Update_openmp_3dblock_copy" "$work/out"
check "... and writes nothing" test ! -e "$work/no_trait"
"$gen" generate --no-link-check --thorn "$case_dir/thorns/HeatEquation" --templates "$case_dir/templates" --out "$work/no_trait" >"$work/out" 2>&1
check "generate --no-link-check writes it" test -f "$work/no_trait/HeatEquation/openmp/Heat_Update_3dblock_copy.cpp"

# A misspelt kernel launch in schedule.ccl is found by check --thorn and generate, not by a run.
cp -r "$src/thorns/HeatEquation" "$work/Misspelt"
sed -i 's/CAKERNEL_Launch_Heat_Update/CAKERNEL_Launch_Heat_Updte/' "$work/Misspelt/schedule.ccl"
launch_error="$work/Misspelt/schedule.ccl:9:10: error: unknown kernel launch 'CAKERNEL_Launch_Heat_Updte': thorn Misspelt has no kernel 'Heat_Updte'; did you mean 'CAKERNEL_Launch_Heat_Update'?; its kernels: Heat_Update"
"$gen" check --thorn "$work/Misspelt" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn exits 1 on a misspelt kernel launch" test $? -eq 1
check "... naming its place and the kernel it meant" test "$(head -1 "$work/out")" = "$launch_error"
"$gen" generate --thorn "$work/Misspelt" --templates "$src/templates" --out "$work/misspelt_out" >"$work/out" 2>&1
check "generate exits 1 on it too" test $? -eq 1
check "... with the same message" test "$(head -1 "$work/out")" = "$launch_error"

# check refuses a file whose kind it cannot tell, unless --as says it.
cp "$src/tests/fixtures/cacuda/param.ccl" "$work/renamed.txt"
"$gen" check "$work/renamed.txt" >"$work/out" 2>&1
check "check refuses an unknown file name" test $? -eq 1
"$gen" check --as param "$work/renamed.txt" >"$work/out" 2>&1
check "check --as param parses it" test $? -eq 0

# generate: an error writes nothing at all.
"$gen" generate --thorn "$src/tests/generator/cases/err_unknown_variable/thorns/Heat" --templates "$src/templates" \
  --out "$work/failed" >"$work/out" 2>&1
check "generate exits 1 on an error" test $? -eq 1
check "generate wrote nothing after an error" test ! -e "$work/failed"
check "generate names the unknown variable" grep -q "unknown grid function 'uu' in kernel 'Heat_Update'; did you mean 'u'?" "$work/out"

# generate: outputs appear; a second run with nothing changed rewrites nothing; replace=no is respected.
# (The case's templates probe the template language and define no launcher: --no-link-check.)
case_dir="$src/tests/generator/cases/template_constructs"
run_generate() {
  "$gen" generate --no-link-check --thorn "$case_dir/thorns/Fancy" --templates "$case_dir/templates" \
    --out "$work/out_dir" --stamp "$work/stamp" >"$work/out" 2>&1
}
run_generate
check "generate succeeds" test $? -eq 0
check "generate writes the stamp" test -e "$work/stamp"
check "generate writes the kernel header" test -s "$work/out_dir/Fancy/cpu/Advance_3dblock.h"
echo "/* my edits */" >"$work/out_dir/Fancy/cpu/Advance_stub"
touch -d '2000-01-01' "$work/out_dir/Fancy/cpu/Advance_3dblock.h"
run_generate
check "replace=no keeps the user's file" grep -q "my edits" "$work/out_dir/Fancy/cpu/Advance_stub"
check "unchanged outputs are not rewritten" test "$(stat -c %Y "$work/out_dir/Fancy/cpu/Advance_3dblock.h")" -lt 1000000000
check "no temporary files are left" test -z "$(find "$work/out_dir" -name '.*.tmp*')"

# Nesting deeper than the grammars allow is an error with its place: 20,000 nested ifs in a
# schedule.ccl used to overflow the stack in check --thorn and generate.
cp -r "$src/thorns/HeatEquation" "$work/Deep"
lines=$(wc -l <"$work/Deep/schedule.ccl")
yes 'if (a) {' | head -n 20000 >>"$work/Deep/schedule.ccl"
deep_error="$work/Deep/schedule.ccl:$((lines + 257)):1: error: if statements nested deeper than 256 levels (each 'else if' is one more)"
"$gen" check --thorn "$work/Deep" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn exits 1 on 20,000 nested ifs" test $? -eq 1
check "check --thorn names the first if too deep" grep -qxF "$deep_error" "$work/out"
"$gen" generate --thorn "$work/Deep" --templates "$src/templates" --out "$work/deep_out" >"$work/out" 2>&1
check "generate exits 1 on 20,000 nested ifs" test $? -eq 1
check "generate names the first if too deep" grep -qxF "$deep_error" "$work/out"

# generate writes all or nothing: one blocked output (a folder where the last file must go) and
# nothing is written, no temporary is left, and the outputs already there stay as they were.
mkdir -p "$work/blocked/Fancy/cpu/Fancy_shared.h"
"$gen" generate --no-link-check --thorn "$case_dir/thorns/Fancy" --templates "$case_dir/templates" --out "$work/blocked" >"$work/out" 2>&1
check "generate exits 1 when an output is blocked" test $? -eq 1
check "generate names the blocked output and why" \
  grep -qxF "$work/blocked/Fancy/cpu/Fancy_shared.h: error: cannot write file: Is a directory" "$work/out"
check "generate wrote no file when one was blocked" test -z "$(find "$work/blocked" -type f)"
echo "stale" >"$work/out_dir/Fancy/cpu/Advance_3dblock.h"
rm "$work/out_dir/Fancy/cpu/Fancy_shared.h" && mkdir "$work/out_dir/Fancy/cpu/Fancy_shared.h"
run_generate
check "generate exits 1 when an output of an earlier run is blocked" test $? -eq 1
check "the earlier outputs are left as they were" grep -qx "stale" "$work/out_dir/Fancy/cpu/Advance_3dblock.h"
check "no temporary is left after a failed write" test -z "$(find "$work/out_dir" -name '.*.tmp*')"

# Inputs are read up to 64 MiB, with the reason when they cannot be read at all.
"$gen" check --as cakernel /dev/zero >"$work/out" 2>&1
check "check --as cakernel /dev/zero exits 1" test $? -eq 1
check "/dev/zero is refused by its size" \
  grep -qxF "/dev/zero: error: file is larger than 64 MiB, the limit for an input file" "$work/out"
truncate -s 65M "$work/huge.par"
"$gen" check "$work/huge.par" >"$work/out" 2>&1
check "a 65 MiB parfile is refused by its size" \
  grep -qxF "$work/huge.par: error: file is larger than 64 MiB, the limit for an input file" "$work/out"
"$gen" check "$work/missing.par" >"$work/out" 2>&1
check "a missing file is named with the reason" \
  grep -qxF "$work/missing.par: error: cannot read file: No such file or directory" "$work/out"
"$gen" check "$work/huge.par/x.par" >"$work/out" 2>&1
check "a path through a file is named with the reason" \
  grep -qxF "$work/huge.par/x.par: error: cannot read file: Not a directory" "$work/out"

# A UTF-8 byte-order mark is skipped: no "byte '\xef'", columns as an editor shows them.
printf '\xef\xbb\xbfActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 10\n' >"$work/bom.par"
"$gen" check "$work/bom.par" >"$work/out" 2>&1
check "a parfile that begins with a byte-order mark passes" test $? -eq 0
printf '\xef\xbb\xbfCactus::cctk_itlast = (10\n' >"$work/bom.par"
"$gen" check "$work/bom.par" >"$work/out" 2>&1
check "an error on the first line after a byte-order mark has the editor's column" \
  grep -qxF "$work/bom.par:1:26: error: expected ')' to close the parenthesis; found end of line" "$work/out"
printf 'schedule foo IN bar\n{\n  LANG: C\n} "d"\n\x1b[2J\x1b]0;pwned\x07\n' >"$work/schedule.ccl"
"$gen" check "$work/schedule.ccl" >"$work/out" 2>&1
check "escape bytes of a bad file are not echoed" test "$(grep -c $'\x1b' "$work/out")" -eq 0
check "escape bytes of a bad file are shown escaped" grep -qxF '\x1b[2J\x1b]0;pwned\x07' "$work/out"

# show prints one kernel's code, and says so when there is none.
"$gen" show --thorn "$src/thorns/HeatEquation" --kernel Heat_Update --backend openmp --templates "$src/templates" >"$work/out" 2>&1
check "show prints the kernel header" grep -q "#define CAKERNEL_Heat_Update_Begin" "$work/out"
"$gen" show --thorn "$src/thorns/HeatEquation" --kernel Nope --backend openmp --templates "$src/templates" >"$work/out" 2>&1
check "show fails for an unknown kernel" test $? -eq 1
"$gen" show --thorn "$src/thorns/HeatEquation" --kernel Heat_Update --backend hip --templates "$src/templates" >"$work/out" 2>&1
check "show fails for an unknown backend" grep -q "unknown backend 'hip'" "$work/out"

# show picks one kernel exactly, even when another kernel's name starts with it.
cp -r "$src/thorns/HeatEquation" "$work/Heat"
sed 's/Heat_Update/Heat/g' "$src/thorns/HeatEquation/cakernel.ccl" >>"$work/Heat/cakernel.ccl"
sed 's/Heat_Update/Heat/g' "$src/thorns/HeatEquation/src/Heat_Update.kernel" >"$work/Heat/src/Heat.kernel"
"$gen" show --thorn "$work/Heat" --kernel Heat --backend openmp --templates "$src/templates" >"$work/out" 2>&1
check "show --kernel Heat prints kernel Heat" grep -q "===== Heat/openmp/Heat_3dblock.h" "$work/out"
check "show --kernel Heat leaves Heat_Update out" test "$(grep -c Heat_Update "$work/out")" -eq 0

# CODE paths are taken as the include path sees them.
sed -i 's|  TILE="64,4,4"|  TILE="64,4,4"\n  CODE="./src/../src/Heat_Update.kernel"|' "$work/Heat/cakernel.ccl"
"$gen" check --thorn "$work/Heat" --templates "$src/templates" >"$work/out" 2>&1
check "CODE=./src/../src/X.kernel is found" test $? -eq 0

# missing inputs are errors with the path, never crashes.
"$gen" generate --thorn "$work/nothing" --templates "$src/templates" --out "$work/x" >"$work/out" 2>&1
check "a missing thorn directory is reported" grep -q "nothing: error: is not a thorn directory" "$work/out"
: >"$work/empty.ccl"
"$gen" check --as schedule "$work/empty.ccl" >"$work/out" 2>&1
check "an empty schedule.ccl is valid" test $? -eq 0

finish
