#!/usr/bin/env bash
# On the GPU machine: the figures bench/RESULTS.md keeps for each GPU, on the current tree, in one
# call: opuntia in fp64 and float and gpu_stencil_bench in both (without tests), then, in this
# order, the steps (bench/step_benchmark.py: HeatEquation and WaveToy at 128^3, 256^3, 512^3),
# the cavity (bench/ldc_benchmark.py at 256^3 against PyTorch), gpu_stencil_bench at 256^3 and
# 512^3, and CUDA's ring tuned at 256^3. A GPU machine may be held only briefly: each
# part starts only while the time it needs is left (the first argument, seconds, default 570),
# and a part already done in this build tree (a marker in build/figures) is skipped, so a second
# call on the same warm machine goes on where the first stopped. Everything goes to stdout and to
# one file, $OUT/figures.log (many small files may not all come back from the machine).
#   bash scripts/device_figures.sh [seconds=570]   # there, carry .deps
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
limit=${1:-570}
mkdir -p build/figures
log=${OUT:-build/figures}/figures.log
exec > >(tee -a "$log") 2>&1
nvidia-smi -L

left() { echo $((limit - SECONDS)); }
# part NAME SECONDS_NEEDED FUNCTION: runs FUNCTION (within the time left) unless done before.
part() {
  local name=$1 need=$2 function=$3
  if [ -e "build/figures/$name.done" ]; then echo "== $name: done in an earlier call"; return 0; fi
  if [ "$(left)" -lt "$need" ]; then echo "== $name: not started, $(left) s left"; return 1; fi
  echo "== $name ($(date +%T), $(left) s left)"
  timeout $(($(left) - 5)) bash -c "$function"
  local rc=$?
  echo "== $name: rc $rc ($(date +%T))"
  [ $rc -eq 0 ] && touch "build/figures/$name.done"
  return $rc
}

builds() { build_precisions build/figures opuntia gpu_stencil_bench; }
steps() {
  for pair in fp64:double fp32:float; do
    local precision=${pair%%:*} opuntia=build/figures/${pair#*:}/opuntia
    python3 bench/step_benchmark.py "$opuntia" --precision "$precision" --n 128 --n 256 --steps 2000 | tail -6
    python3 bench/step_benchmark.py "$opuntia" --precision "$precision" --n 512 --steps 300 | tail -4
  done
}
cavity() {
  for pair in fp64:double fp32:float; do
    local precision=${pair%%:*} opuntia=build/figures/${pair#*:}/opuntia
    python3 bench/ldc_benchmark.py "$opuntia" --n 256 --precision "$precision" --backend cuda --peer yes --steps 60 | tail -13
  done
}
stencils() {
  for precision in double float; do
    for n in 256 512; do
      echo "-- gpu_stencil_bench $n, CCTK_REAL $precision, the driver's padded rows"
      GPU_BENCH_LAYOUTS=rows "build/figures/$precision/bench/gpu_stencil_bench" "$n" 10 | grep -E "^\| (copy|Star)"
    done
  done
}
ring_tuned() {
  for precision in double float; do tuned_ring_rows "build/figures/$precision"; done
}
export -f configure build_targets build_precisions tuned_ring_rows builds steps cavity stencils ring_tuned

part builds 240 builds || exit 1
part steps 60 steps
part cavity 150 cavity
part stencils 120 stencils
part ring_tuned 40 ring_tuned
echo "== end ($(date +%T), $(left) s left)"
