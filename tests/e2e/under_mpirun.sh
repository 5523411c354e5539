# Sourced by the e2e tests that run `opuntia` under mpirun: tests/check.sh's `check` and `finish`,
# Open MPI's consent to run as root (containers run tests as root), and one OpenMP thread per
# rank (the ranks share the machine's cores).
. "$(dirname "${BASH_SOURCE[0]}")/../check.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=1

# run_parfile NAME RANKS LINES...: writes LINES, one a line, to $work/NAME.par and runs $opuntia on
# it under $mpiexec on RANKS ranks, from $work, bounded by `timeout 120`; its output in
# $work/NAME.out, its exit status in $status.
run_parfile() {
  local name=$1 ranks=$2
  shift 2
  printf '%s\n' "$@" >"$work/$name.par"
  (cd "$work" && timeout 120 "$mpiexec" --oversubscribe -np "$ranks" "$opuntia" "$name.par" >"$name.out" 2>&1)
  status=$?
  [ "$status" -ne 124 ] || echo "run $name hung"
}
