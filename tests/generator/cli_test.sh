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
check "check names the place" grep -q "cakernel.ccl:3:27: error: expected a name, ',' or '}' to close the list opened at line 3, column 24; found end of file" "$work/out"

# --thorn takes one folder, so files may follow it (docs/writing-a-thorn.md: check --thorn DIR FILE...).
"$gen" check --thorn "$src/thorns/HeatEquation" "$src/parfiles/heat_equation.par" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn DIR FILE checks both" test $? -eq 0
"$gen" check --thorn "$src/thorns/HeatEquaton" --templates "$src/templates" >"$work/out" 2>&1
check "a misspelt thorn folder fails" test $? -eq 1
check "... saying it does not exist, with the nearest" grep -qF "thorns/HeatEquaton: error: no such thorn directory; did you mean 'HeatEquation'?" "$work/out"
"$gen" check --thorn "$src/thorns/HeatEquation/param.ccl" --templates "$src/templates" >"$work/out" 2>&1
check "... and a file is not a thorn folder" grep -qF "param.ccl: error: is a file, not a thorn directory" "$work/out"

mkdir -p "$work/NoInterface" && cp "$src/thorns/HeatEquation/param.ccl" "$work/NoInterface/"
"$gen" check --thorn "$work/NoInterface" --templates "$src/templates" >"$work/out" 2>&1
check "a thorn folder without interface.ccl fails" test $? -eq 1
check "... saying a thorn needs one" grep -qxF "$work/NoInterface/interface.ccl: error: missing: every thorn has an interface.ccl, with at least its implements: line" "$work/out"

# check --thorn runs the semantic checks too, writing nothing.
"$gen" check --thorn "$src/thorns/HeatEquation" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn accepts the example thorn" test $? -eq 0
"$gen" check --thorn "$src/tests/generator/cases/err_unknown_parameter/thorns/Heat" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn exits 1 on a semantic error" test $? -eq 1
check "check --thorn names the unknown parameter" grep -q "unknown parameter 'alpah' in kernel 'Heat_Update'" "$work/out"
"$gen" check >"$work/out" 2>&1
check "check with nothing to check is a usage error" test $? -eq 2

# Without --templates: ./templates where it holds deps.ccl, else an installed package's beside
# the program (<prefix>/bin, <prefix>/share/opuntia/templates), else an error that says so.
mkdir -p "$work/elsewhere" "$work/prefix/bin" "$work/prefix/share/opuntia"
(cd "$src" && "$gen" check --thorn thorns/HeatEquation) >"$work/out" 2>&1
check "check --thorn at a checkout's top takes its templates" test $? -eq 0
(cd "$work/elsewhere" && "$gen" check --thorn "$src/thorns/HeatEquation") >"$work/out" 2>&1
check "check --thorn with no templates to find fails" test $? -eq 1
check "... saying where it looked and what to pass" \
  grep -q "templates/deps.ccl: error: cannot read file: No such file or directory; no --templates was given and neither ./templates nor an installed share/opuntia/templates beside this program holds deps.ccl: pass --templates DIR" "$work/out"
cp "$gen" "$work/prefix/bin/opuntia-gen"
cp -r "$src/templates" "$work/prefix/share/opuntia/templates"
(cd "$work/elsewhere" && "$work/prefix/bin/opuntia-gen" check --thorn "$src/thorns/HeatEquation") >"$work/out" 2>&1
check "an installed opuntia-gen takes the package's templates" test $? -eq 0

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

# A thorn whose lines end in a bare CR (classic Mac OS) generates what it does with LF: its files
# once read as a single line each, whose opening comment swallowed the rest without a word.
mkdir -p "$work/bare_cr"
cp -r "$src/thorns/HeatEquation" "$work/bare_cr/HeatEquation"
"$gen" generate --thorn "$work/bare_cr/HeatEquation" --templates "$src/templates" --out "$work/bare_cr/lf_out" >"$work/out" 2>&1
check "generate reads the thorn with LF line ends" test $? -eq 0
find "$work/bare_cr/HeatEquation" -type f -exec sed -i -z 's/\n/\r/g' {} +
check "... whose files now hold no LF" test "$(find "$work/bare_cr/HeatEquation" -type f -exec cat {} + | tr -cd '\n' | wc -c)" -eq 0
"$gen" generate --thorn "$work/bare_cr/HeatEquation" --templates "$src/templates" --out "$work/bare_cr/cr_out" >"$work/out" 2>&1
check "generate reads the thorn with bare CR line ends" test $? -eq 0
check "... into the same outputs" diff -r "$work/bare_cr/lf_out" "$work/bare_cr/cr_out"

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
# What a generation interrupted before its renames left (a process of this host that no longer
# runs, a minute ago or more) goes with the next one; a running process's, a recent one, or another
# host's stays.
sleep 0 &
dead=$!
wait "$dead"
host=$(hostname)
left="$work/out_dir/Fancy/cpu/.Advance_3dblock.h.tmp"
touch -d '2 minutes ago' "$left$host.$dead.0" "$left$host.$$.0" "${left}elsewhere.$dead.0"
touch "$left$host.$dead.1"
run_generate
check "a dead writer's temporary is removed" test ! -e "$left$host.$dead.0"
check "... a running one's is not" test -e "$left$host.$$.0"
check "... nor one written less than a minute ago" test -e "$left$host.$dead.1"
check "... nor another host's" test -e "${left}elsewhere.$dead.0"
rm -f "$left"*

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
check "/dev/zero is refused: only regular files are read" \
  grep -qxF "/dev/zero: error: is not a regular file (it is a character device)" "$work/out"
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

# Only regular files are read: a FIFO is refused at once instead of blocking for ever (timeout
# makes a regression fail, not hang).
mkfifo "$work/fifo.par"
timeout 10 "$gen" check "$work/fifo.par" >"$work/out" 2>&1
check "check of a FIFO exits 1 (not 124: it did not block)" test $? -eq 1
check "... saying it is not a regular file" grep -qxF "$work/fifo.par: error: is not a regular file (it is a FIFO)" "$work/out"
cp -r "$src/thorns/HeatEquation" "$work/Fifo"
rm "$work/Fifo/schedule.ccl" && mkfifo "$work/Fifo/schedule.ccl"
timeout 10 "$gen" check --thorn "$work/Fifo" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn with a FIFO schedule.ccl exits 1" test $? -eq 1
check "... naming it" grep -qxF "$work/Fifo/schedule.ccl: error: is not a regular file (it is a FIFO)" "$work/out"
cp -r "$src/thorns/HeatEquation" "$work/FifoBody"
rm "$work/FifoBody/src/Heat_Update.kernel" && mkfifo "$work/FifoBody/src/Heat_Update.kernel"
timeout 10 "$gen" check --thorn "$work/FifoBody" --templates "$src/templates" >"$work/out" 2>&1
check "check --thorn with a FIFO kernel body exits 1" test $? -eq 1
check "... at the kernel, with the real reason" grep -qxF "$work/FifoBody/cakernel.ccl:2:13: error: the body of kernel 'Heat_Update', 'src/Heat_Update.kernel', is not a regular file (it is a FIFO)" "$work/out"

# Links: a dangling cakernel.ccl is an error, not an absent file; a body or src/ linked inside the
# thorn is used; a body linked outside is refused, saying so; a linked template file is read.
cp -r "$src/thorns/HeatEquation" "$work/Links"
mv "$work/Links/cakernel.ccl" "$work/Links/kernels.ccl"
ln -s missing.ccl "$work/Links/cakernel.ccl"
"$gen" check --thorn "$work/Links" --templates "$src/templates" >"$work/out" 2>&1
check "a dangling cakernel.ccl link exits 1" test $? -eq 1
check "... named as such" grep -qxF "$work/Links/cakernel.ccl: error: is a link to a missing file" "$work/out"
rm "$work/Links/cakernel.ccl" && ln -s kernels.ccl "$work/Links/cakernel.ccl"
mkdir "$work/Links/bodies" && mv "$work/Links/src/Heat_Update.kernel" "$work/Links/bodies/"
ln -s ../bodies/Heat_Update.kernel "$work/Links/src/Heat_Update.kernel"
"$gen" check --thorn "$work/Links" --templates "$src/templates" >"$work/out" 2>&1
check "a body linked to a file inside the thorn is used" test $? -eq 0
mv "$work/Links/src" "$work/Links/real_src" && ln -s real_src "$work/Links/src"
"$gen" check --thorn "$work/Links" --templates "$src/templates" >"$work/out" 2>&1
check "a src/ linked to a folder inside the thorn is used" test $? -eq 0
rm "$work/Links/src" && mv "$work/Links/real_src" "$work/Links/src"
mv "$work/Links/bodies" "$work/outside_bodies"
ln -sfn "$work/outside_bodies/Heat_Update.kernel" "$work/Links/src/Heat_Update.kernel"
"$gen" check --thorn "$work/Links" --templates "$src/templates" >"$work/out" 2>&1
check "a body linked outside the thorn exits 1" test $? -eq 1
check "... saying it is a link pointing outside" grep -qxF "$work/Links/cakernel.ccl:2:13: error: the body of kernel 'Heat_Update', 'src/Heat_Update.kernel', is a link pointing outside thorn $work/Links (to $work/outside_bodies/Heat_Update.kernel)" "$work/out"
cp -r "$src/templates" "$work/linked_templates"
mv "$work/linked_templates/openmp/3dblock.h.tpl" "$work/linked_templates/3dblock.h.tpl.real"
ln -s ../3dblock.h.tpl.real "$work/linked_templates/openmp/3dblock.h.tpl"
"$gen" check --thorn "$src/thorns/HeatEquation" --templates "$work/linked_templates" >"$work/out" 2>&1
check "a linked template file is read" test $? -eq 0

# The thorn's name and siblings come from its normalised path: `.`, `T/` and `./T/.` are T, whose
# siblings supply the implementations it inherits.
mkdir -p "$work/family"
cp -r "$src/thorns/HeatEquation" "$work/family/Heir"
mkdir "$work/family/Lib" && printf 'implements: lib\n' >"$work/family/Lib/interface.ccl"
sed -i 's/^inherits:.*/inherits: lib/' "$work/family/Heir/interface.ccl"
for given in "$work/family/Heir/" "$work/family/./Heir/." "$work/family/Heir"; do
  "$gen" check --thorn "$given" --templates "$src/templates" >"$work/out" 2>&1
  check "check --thorn $given finds the sibling implementation" test $? -eq 0
done
(cd "$work/family/Heir" && "$gen" generate --thorn . --templates "$src/templates" --out "$work/dot_out") >"$work/out" 2>&1
check "generate --thorn . exits 0" test $? -eq 0
check "... naming the thorn by its folder" test -f "$work/dot_out/Heir/bindings/Heir_bindings.cpp"
check "... never '.' (dot_out/./bindings/._bindings.cpp)" test ! -e "$work/dot_out/bindings"
"$gen" generate --thorn "" --templates "$src/templates" --out "$work/x" >"$work/out" 2>&1
check "an empty --thorn is refused" test $? -eq 105
check "... saying so" grep -qxF -- "--thorn: an empty path was given; name a path" "$work/out"

# An empty --out or --stamp would write into the current folder: refused, writing nothing.
mkdir "$work/cwd"
(cd "$work/cwd" && "$gen" generate --thorn "$src/thorns/HeatEquation" --templates "$src/templates" --out "") >"$work/out" 2>&1
check "an empty --out is refused" test $? -eq 105
check "... saying so" grep -qxF -- "--out: an empty path was given; name a path" "$work/out"
(cd "$work/cwd" && "$gen" generate --thorn "$src/thorns/HeatEquation" --templates "$src/templates" --out o --stamp "") >"$work/out" 2>&1
check "an empty --stamp is refused" test $? -eq 105
check "... saying so" grep -qxF -- "--stamp: an empty path was given; name a path" "$work/out"
check "... and nothing was written" test -z "$(ls -A "$work/cwd")"

# A stamp that cannot be written (a folder) leaves no output behind: all or nothing.
mkdir "$work/stamp_dir"
"$gen" generate --thorn "$src/thorns/HeatEquation" --templates "$src/templates" --out "$work/stamped" --stamp "$work/stamp_dir" >"$work/out" 2>&1
check "a stamp that is a folder exits 1" test $? -eq 1
check "... naming it" grep -qxF "$work/stamp_dir: error: cannot write file: Is a directory" "$work/out"
check "... and no output was written" test ! -e "$work/stamped"

# Siblings that do not matter cannot break a run: one whose interface.ccl is a folder is skipped.
mkdir -p "$work/family/Broken/interface.ccl"
"$gen" check --thorn "$work/family/Heir" --templates "$src/templates" >"$work/out" 2>&1
check "a sibling whose interface.ccl is a folder is skipped" test $? -eq 0
# ... unless an inherits: finds no implementation: then it is named.
sed -i 's/^inherits:.*/inherits: elsewhere/' "$work/family/Heir/interface.ccl"
"$gen" check --thorn "$work/family/Heir" --templates "$src/templates" >"$work/out" 2>&1
check "an unknown inherited implementation exits 1" test $? -eq 1
check "... naming the sibling that could not be read" grep -qF "error: unknown implementation 'elsewhere' in inherits; it may be in a thorn folder that could not be read: $work/family/Broken/interface.ccl (is a directory, not a file)" "$work/out"
rm -r "$work/family/Broken"

# Each distinct diagnostic is printed once: a template error met by every kernel and backend too.
cp -r "$src/templates" "$work/typo_templates"
sed -i '0,/%{name}/s//%{nmae}/' "$work/typo_templates/shared/kernel.h.tpl"
"$gen" check --thorn "$src/thorns/LidDrivenCavity" --templates "$work/typo_templates" >"$work/out" 2>&1
check "a template typo exits 1" test $? -eq 1
check "... and is printed once" test "$(grep -c "kernel.h.tpl:.*error:" "$work/out")" -eq 1

# Several thorns: the errors of every one are reported, not only the first's.
cases="$src/tests/generator/cases"
"$gen" check --thorn "$cases/err_unknown_parameter/thorns/Heat" --thorn "$work/Fifo" --thorn "$work/nothing" \
  --templates "$src/templates" >"$work/out" 2>&1
check "check of several bad thorns exits 1" test $? -eq 1
check "... reporting the first" grep -q "unknown parameter 'alpah' in kernel 'Heat_Update'" "$work/out"
check "... the second" grep -qxF "$work/Fifo/schedule.ccl: error: is not a regular file (it is a FIFO)" "$work/out"
check "... and the third" grep -qxF "$work/nothing: error: no such thorn directory" "$work/out"
"$gen" generate --thorn "$cases/err_unknown_parameter/thorns/Heat" --thorn "$work/Fifo" --templates "$src/templates" \
  --out "$work/several" >"$work/out" 2>&1
check "generate of several bad thorns exits 1" test $? -eq 1
check "... reporting both" test "$(grep -c ': error: ' "$work/out")" -eq 2
check "... writing nothing" test ! -e "$work/several"

# An unknown subcommand is named, with the nearest one.
"$gen" genrate >"$work/out" 2>&1
check "an unknown subcommand exits 109" test $? -eq 109
check "... suggesting the nearest" grep -qxF "opuntia-gen: error: unknown subcommand 'genrate'; did you mean 'generate'?; subcommands: generate, check, show, new-thorn" "$work/out"
"$gen" frob >"$work/out" 2>&1
check "a subcommand like none exits 109" test $? -eq 109
check "... listing the subcommands" grep -qxF "opuntia-gen: error: unknown subcommand 'frob'; subcommands: generate, check, show, new-thorn" "$work/out"

# new-thorn refuses the name of a thorn that comes with Opuntia, whatever its case: a program
# holds one thorn of each name.
(cd "$src" && "$gen" new-thorn heatequation --dir "$work") >"$work/out" 2>&1
check "new-thorn refuses a built-in thorn's name" test $? -eq 2
check "... naming the thorn it clashes with" grep -qF "error: 'heatequation' is the name of a thorn that comes with Opuntia (thorns/HeatEquation)" "$work/out"
check "... writing nothing" test ! -e "$work/heatequation"

# Permissions: the reason the OS gives, never a wrong one. Root reads everything, so these run as
# nobody through setpriv where the test runs as root, and are skipped where that cannot be done.
unprivileged() {
  if [ "$(id -u)" -ne 0 ]; then
    "$@"
  elif command -v setpriv >/dev/null; then
    setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$@"
  else
    return 125
  fi
}
perm="$work/perm"
mkdir -p "$perm" && chmod 755 "$work" "$perm"
cp -r "$src/thorns/HeatEquation" "$perm/Heat" && cp -r "$src/templates" "$perm/templates"
chmod -R a+rX "$perm"
: >"$perm/secret" && chmod 000 "$perm/secret"
if ! unprivileged test -x "$gen" || unprivileged cat "$perm/secret" >/dev/null 2>&1; then
  echo "SKIPPED: permission tests (cannot run opuntia-gen as a user that lacks read permission)"
else
  chmod 000 "$perm/Heat/src/Heat_Update.kernel"
  unprivileged "$gen" check --thorn "$perm/Heat" --templates "$perm/templates" >"$work/out" 2>&1
  check "an unreadable body exits 1" test $? -eq 1
  check "... with the OS's reason" grep -qxF "$perm/Heat/cakernel.ccl:2:13: error: the body of kernel 'Heat_Update', 'src/Heat_Update.kernel', cannot be read: Permission denied" "$work/out"
  chmod 644 "$perm/Heat/src/Heat_Update.kernel" && chmod 000 "$perm/Heat/src"
  unprivileged "$gen" check --thorn "$perm/Heat" --templates "$perm/templates" >"$work/out" 2>&1
  check "an unreadable src/ exits 1" test $? -eq 1
  check "... with the OS's reason" grep -qxF "$perm/Heat/cakernel.ccl:2:13: error: the body of kernel 'Heat_Update', 'src/Heat_Update.kernel', is in folder $perm/Heat/src, which cannot be read: Permission denied" "$work/out"
  chmod 755 "$perm/Heat/src"
  mkdir "$perm/Sibling" && chmod 000 "$perm/Sibling"
  unprivileged "$gen" check --thorn "$perm/Heat" --templates "$perm/templates" >"$work/out" 2>&1
  check "an unreadable sibling folder is skipped" test $? -eq 0
  chmod 000 "$perm/templates/cuda"
  unprivileged "$gen" check --thorn "$perm/Heat" --templates "$perm/templates" >"$work/out" 2>&1
  check "an unreadable templates folder exits 1" test $? -eq 1
  check "... naming it and why" grep -qxF "$perm/templates/cuda: error: cannot read folder: Permission denied" "$work/out"
  chmod 755 "$perm/templates/cuda" "$perm/Sibling"
fi

# show prints one kernel's code, and says so when there is none.
"$gen" show --thorn "$src/thorns/HeatEquation" --kernel Heat_Update --backend openmp --templates "$src/templates" >"$work/out" 2>&1
check "show prints the kernel header" grep -q "#define CAKERNEL_Heat_Update_Begin" "$work/out"
"$gen" show --thorn "$src/thorns/HeatEquation" --kernel Nope --backend openmp --templates "$src/templates" >"$work/out" 2>&1
check "show fails for an unknown kernel" test $? -eq 1
"$gen" show --thorn "$src/thorns/HeatEquation" --kernel Heat_update --backend openmp --templates "$src/templates" >"$work/out" 2>&1
check "show fails for a kernel name in the wrong case" test $? -eq 1
check "... suggesting the nearest kernel" grep -qxF "opuntia-gen: error: no code generated for kernel 'Heat_update' with backend 'openmp'; did you mean 'Heat_Update'?; thorn HeatEquation has kernels: Heat_Update" "$work/out"
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
sed -i '0,/  TILE="64,4,4"/s||  TILE="64,4,4"\n  CODE="./src/../src/Heat_Update.kernel"|' "$work/Heat/cakernel.ccl"  # Heat_Update's only
"$gen" check --thorn "$work/Heat" --templates "$src/templates" >"$work/out" 2>&1
check "CODE=./src/../src/X.kernel is found" test $? -eq 0

# missing inputs are errors with the path, never crashes.
"$gen" generate --thorn "$work/nothing" --templates "$src/templates" --out "$work/x" >"$work/out" 2>&1
check "a missing thorn directory is reported" grep -q "nothing: error: no such thorn directory" "$work/out"
: >"$work/empty.ccl"
"$gen" check --as schedule "$work/empty.ccl" >"$work/out" 2>&1
check "an empty schedule.ccl is valid" test $? -eq 0

finish
