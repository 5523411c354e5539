#!/usr/bin/env bash
# The routine timers of a backend whose events cost the host more than a launch (OpenCL:
# kernel_runtime::timing_stride 17) time a kernel's first two launches and then one in 17, each
# counted for the untimed ones before it; the report says so, counts every call, and gives the
# kernel device time for all of them. OpenMP times every launch and says nothing.
# Usage: timer_sampling_test.sh OPUNTIA
set -uo pipefail
program=$(realpath "$1")
. "$(dirname "$0")/../check.sh"
export OMP_NUM_THREADS=1

# run BACKEND: HeatEquation for 50 iterations on 12^3 points; its output in $work/BACKEND.out.
run() {
  cat >"$work/$1.par" <<PAR
ActiveThorns = "HeatEquation"
CaKernel::backend = "$1"
CaKernel::cache_dir = "$work/cache"
Driver::global_nx = 12
Driver::global_ny = 12
Driver::global_nz = 12
Cactus::cctk_itlast = 50
Cactus::progress_every = 0
Time::timestep = 1e-4
IO::out_dir = "$work/out_$1"
PAR
  (cd "$work" && timeout 300 "$program" "$1.par" >"$1.out" 2>&1)
}
# row BACKEND: the kernel's line of the whole run's timer report: "calls seconds".
row() { grep -m1 '^  CAKERNEL_Launch_Heat_Update ' "$work/$1.out" | awk '{print $(NF-2), $(NF-1)}'; }
sampled_line() { grep -q 'kernels: the first two launches of each and then one in 17 timed on the device' "$work/$1.out"; }

step "OpenCL run" "$work/opencl.log" run opencl
check "OpenCL: the report says the kernels are timed one launch in 17" sampled_line opencl
read -r calls seconds <<<"$(row opencl)"
check "OpenCL: every launch counted (50 calls; got ${calls:-none})" test "${calls:-0}" = 50
check "OpenCL: device time for them ($seconds s)" awk -v s="${seconds:-0}" 'BEGIN { exit !(s > 0) }'
steady=$(grep -A3 '^  steady state' "$work/opencl.out" | grep '^    CAKERNEL_Launch_Heat_Update ' | awk '{print $(NF-2), $(NF-1)}')
read -r steady_calls per_call <<<"$steady"
check "OpenCL: the steady state's 40 calls, each a positive time ($steady)" \
  awk -v c="${steady_calls:-0}" -v t="${per_call:-0}" 'BEGIN { exit !(c == 40 && t > 0) }'

step "OpenMP run" "$work/openmp.log" run openmp
check "OpenMP: every launch timed, nothing said" bash -c "! grep -q 'timed on the device' '$work/openmp.out'"
check "OpenMP: 50 calls" test "$(row openmp | cut -d' ' -f1)" = 50
finish
