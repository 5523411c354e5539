#!/usr/bin/env bash
# The layers of docs/architecture.md hold in this repository, and scripts/check_layers.py, which
# checks them, refuses a flesh file that includes a generator or thorn header.
# Usage: layering_test.sh CHECKER SOURCE_DIR
checker=$1
source_dir=$2
. "$(dirname "$0")/../check.sh"

check "the repository's includes follow the layers" python3 "$checker" "$source_dir"

# A tree with one forbidden include: the checker names its place and fails.
forbidden() {
  local include=$1 expected=$2
  rm -rf "$work/tree" && mkdir -p "$work/tree/flesh/runtime"
  printf '#include <vector>\n#include "%s"\n' "$include" >"$work/tree/flesh/runtime/bad.cpp"
  local output status
  output=$(python3 "$checker" "$work/tree")
  status=$?
  [ "$status" -eq 1 ] && grep -qF "$expected" <<<"$output"
}
check "a flesh file including a generator header fails" \
  forbidden "generator/generate.hpp" \
  "flesh/runtime/bad.cpp:2:11: error: flesh/ may not include generator/ (allowed: ccl, flesh, opuntia)"
check "a flesh file including a thorn header fails" \
  forbidden "thorns/Driver/src/single_process_driver.hpp" \
  "flesh/runtime/bad.cpp:2:11: error: flesh/ may not include thorns/ (allowed: ccl, flesh, opuntia)"
check "the program including a thorn header fails" bash -c "
  rm -rf '$work/tree' && mkdir -p '$work/tree/program' &&
  echo '#include \"thorns/CaKernel/src/program_cache.hpp\"' >'$work/tree/program/main.cpp' &&
  python3 '$checker' '$work/tree' | grep -qF 'program/main.cpp:1:11: error: program/ may not include thorns/ (allowed: ccl, flesh, opuntia, program)'"
check "ccl/ including the flesh fails" bash -c "
  rm -rf '$work/tree' && mkdir -p '$work/tree/ccl' &&
  echo '#include \"flesh/runtime/simulation.hpp\"' >'$work/tree/ccl/x.hpp' &&
  ! python3 '$checker' '$work/tree' >/dev/null"
check "a file beside its includer is no layer" bash -c "
  rm -rf '$work/tree' && mkdir -p '$work/tree/flesh' &&
  echo '#include \"grid_functions.hpp\"' >'$work/tree/flesh/x.cpp' &&
  python3 '$checker' '$work/tree'"
# Text inside a raw string literal (a file the generator writes) is no include; a real one after
# the literal closes still is.
check "an include inside a raw string literal is text; one after it is checked" bash -c "
  rm -rf '$work/tree' && mkdir -p '$work/tree/generator' &&
  printf '%s\\n' 'const char* text = R\"~(' '#include \"opuntia/routine_context.hpp\"' ')~\";' \\
    '#include \"thorns/x.hpp\"' >'$work/tree/generator/skeleton.cpp' &&
  python3 '$checker' '$work/tree' | grep -c 'error:' | grep -qx 1 &&
  python3 '$checker' '$work/tree' | grep -qF 'generator/skeleton.cpp:4:11: error: generator/ may not include thorns/'"

finish
