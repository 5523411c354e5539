# Sourced by the benchmark scripts' tests, after ../check.sh: $python, a python3 with numpy (the
# test fails without one), run_in_build_precision and check_common_lines: runs `bench --precision fp64`
# and, where the build's CCTK_REAL is float (the run's start-up line says so and the script
# refuses), `bench --precision fp32`; the build's run goes to $work/run.out, the refused one to
# $work/refused.out. Sets status (the build's run's exit status), precision and own_type (the
# build's), other (the precision it does not have).
run_in_build_precision() {
  bench --precision fp64 >"$work/fp64.out" 2>&1
  status=$?
  if grep -q "has CCTK_REAL float" "$work/fp64.out"; then
    precision=fp32 other=fp64 own_type=float
    bench --precision fp32 >"$work/run.out" 2>&1
    status=$?
    cp "$work/fp64.out" "$work/refused.out"
  else
    precision=fp64 other=fp32 own_type=double
    cp "$work/fp64.out" "$work/run.out"
    bench --precision fp32 >"$work/refused.out" 2>&1
  fi
}

find_python_with numpy
if [ -z "$python" ]; then
  echo "FAILED: no python3 with numpy (scripts/install_deps.sh installs python3-numpy)"
  exit 1
fi

# check_common_lines NAME PARFILE [ARG...]: what each benchmark script prints alike: the copy
# bandwidth measured on the host; --precision $other refused, naming both; a run that fails
# (the script run on /bin/false with the ARGs) an error naming the command, the parameter file
# PARFILE (a pattern) and the exit status, and exit 1.
check_common_lines() {
  local name=$1 parfile=$2
  shift 2
  check "the copy bandwidth, measured on the host" \
    grep -qE '^copy bandwidth: [0-9.]+ GB/s \(numpy copy on the host\)$' "$work/run.out"
  check "--precision $other against a $precision build: refused, naming both" \
    grep -qF "$name: --precision $other, but $opuntia has CCTK_REAL $own_type" "$work/refused.out"
  "$python" "$script" /bin/false "$@" >"$work/fails.out" 2>&1
  check "a failing run: exit 1" test $? -eq 1
  check "... naming the command and its status" grep -qE "^$name: /bin/false .*$parfile failed \(exit 1\)$" "$work/fails.out"
}
