#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build for SECONDS each, at most two at a time.
#   scripts/run_fuzzers.sh BUILD_DIR SECONDS [FUZZER...]
#   e.g. scripts/run_fuzzers.sh build/fuzz 600          (all eight)
#        scripts/run_fuzzers.sh build/fuzz 60 deps      (one)
# Each fuzzer starts from a temporary corpus (the repository is not modified): a copy of
# tests/fuzz/corpus/<name>/ plus every input of its kind under tests/, parfiles/, thorns/,
# templates/ and ../shared/fixtures/ (when that folder exists), with tests/fuzz/<name>.dict.
# Crash, leak, timeout and out-of-memory inputs are kept in BUILD_DIR/fuzz-artifacts/<name>/,
# the full logs in BUILD_DIR/fuzz-logs/.
# Prints, per fuzzer: name, seconds, runs executed, final corpus size, exit status, result.
# Exits non-zero when any fuzzer failed (crashed, hung, sanitizer report, or did not run).
set -uo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS [FUZZER...]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd) || exit 2
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
fuzzers=("$@")
[[ ${#fuzzers[@]} -eq 0 ]] && fuzzers=(cakernel deps interface param schedule parfile template_engine parfile_evaluator)
max_parallel=${FUZZ_PARALLEL:-2}  # the machine has two cores, shared

work=$(mktemp -d "${TMPDIR:-/tmp}/opuntia-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$build_dir/fuzz-artifacts" "$build_dir/fuzz-logs"

# The file names a fuzzer's kind of input has (find -name patterns).
seed_patterns() {
  case $1 in
    cakernel | deps | interface | param | schedule) echo "$1.ccl" ;;
    parfile | parfile_evaluator) echo "*.par" ;;
    template_engine) echo "*.tpl" ;;
  esac
}

# Copies the inputs of the repository (and the shared fixtures) that fuzzer $1 reads into $2,
# each named after its path; expected outputs of golden cases are left out.
add_seeds() {
  local name=$1 corpus=$2 pattern
  pattern=$(seed_patterns "$name")
  [[ -z $pattern ]] && return
  local places=("$root/tests" "$root/parfiles" "$root/thorns" "$root/templates")
  [[ -d $root/../shared/fixtures ]] && places+=("$root/../shared/fixtures")
  find "${places[@]}" -type f -iname "$pattern" -not -path '*/expected/*' -size -256k 2>/dev/null |
    while read -r file; do
      cp "$file" "$corpus/seed_$(realpath --relative-to="$root/.." "$file" | tr '/' '_')"
    done
}

run_one() {
  local name=$1
  local exe="$build_dir/tests/fuzz/${name}_fuzz"
  local dir="$work/$name"
  local artifacts="$build_dir/fuzz-artifacts/$name"
  mkdir -p "$dir/corpus" "$artifacts"
  cp -r "$root/tests/fuzz/corpus/$name/." "$dir/corpus/"
  add_seeds "$name" "$dir/corpus"
  local status
  if [[ ! -x $exe ]]; then
    echo "missing $exe" >"$dir/fuzz-0.log"
    status=127
  else
    # -jobs=1 -workers=1: one job in one process; libFuzzer writes its output to fuzz-0.log
    # in the working directory. The outer timeout only guards against a fuzzer that never ends.
    (cd "$dir" && timeout $((seconds + 300)) "$exe" corpus \
      -dict="$root/tests/fuzz/$name.dict" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -jobs=1 -workers=1 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" >"$dir/driver.log" 2>&1)
    status=$?
  fi
  cat "$dir/driver.log" "$dir/fuzz-0.log" >"$build_dir/fuzz-logs/$name.log" 2>/dev/null
  echo "$status" >"$dir/status"
}

# Start at most max_parallel at a time.
running=0
for name in "${fuzzers[@]}"; do
  if ((running >= max_parallel)); then
    wait -n
    running=$((running - 1))
  fi
  echo "$(date +%T) start $name (${seconds}s)"
  run_one "$name" &
  running=$((running + 1))
done
wait

failed=0
printf '\n%-18s %8s %12s %14s %6s  %s\n' fuzzer seconds runs corpus status result
for name in "${fuzzers[@]}"; do
  log="$build_dir/fuzz-logs/$name.log"
  status=$(cat "$work/$name/status" 2>/dev/null || echo 127)
  runs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | awk '{print $2}')
  secs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | awk '{print $5}')
  corpus=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 | awk '{print $2}')
  result=ok
  if [[ $status -ne 0 ]] || grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:|==[0-9]+== ?ERROR|Test unit written to' "$log"; then
    result=FAILED
    failed=1
  fi
  printf '%-18s %8s %12s %14s %6s  %s\n' "$name" "${secs:-?}" "${runs:-?}" "${corpus:-?}" "$status" "$result"
done
if ((failed)); then
  echo "some fuzzer failed; logs in $build_dir/fuzz-logs, inputs in $build_dir/fuzz-artifacts" >&2
fi
exit "$failed"
