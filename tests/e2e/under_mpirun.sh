# Sourced by the e2e tests that run `opuntia` under mpirun: tests/check.sh's `check` and `finish`,
# Open MPI's consent to run as root (containers run tests as root), and one OpenMP thread per
# rank (the ranks share the machine's cores).
. "$(dirname "${BASH_SOURCE[0]}")/../check.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=1
