#!/usr/bin/env bash
# Runs the whole CTest suite; tests labelled `gpu` run only where a GPU answers.
set -euo pipefail
build_dir=$1
jobs=${2:-2}
label_args=()
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no GPU found: skipping tests labelled gpu"
  label_args=(-LE gpu)
fi
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "${label_args[@]}"
