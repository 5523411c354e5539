#!/usr/bin/env bash
# Runs the whole CTest suite but the tests labelled `long` (minutes each: `ctest -L long` runs
# them); tests labelled `gpu` run only where a GPU answers.
set -euo pipefail
build_dir=$1
jobs=${2:-2}
excluded=long
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU found: skipping tests labelled gpu"
  excluded="gpu|long"
fi
echo "skipping tests labelled long (ctest --test-dir $build_dir -L long runs them)"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" -LE "$excluded"
