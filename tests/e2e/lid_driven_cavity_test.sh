#!/usr/bin/env bash
# LidDrivenCavity (issue 27). Parts, one CTest test each:
#   agreement  a few steps of the 3D cavity (16^3 cells) and of the 2D one (32^2): the fields of
#              every backend given within 1e-10 of the first's (h5py), the digests of 1 and 4 ranks
#              the same bits, and max |div u| after every step's pressure solve at most
#              pressure_tolerance (diagnostics every step), with sor and with jacobi.
#   ghia       PARFILE REYNOLDS: the parameter file run to steady state; tools/ldc_compare.py puts
#              its centrelines against Ghia, Ghia & Shin (1982): max |u - u_Ghia| <= 0.02.
#   digests    10 steps of the 3D cavity at 13^3 and 37^3 cells, 20 Jacobi sweeps each
#              (pressure_tolerance 0: every run does all of them): every backend's digests of
#              every grid function (vx, vy, vz and p among them) the first's, bit for bit. Every
#              backend compiles the bodies without fused multiply-adds in the same order, in fp32
#              as in fp64; sizes that are not multiples of a tile take the templates' partial
#              tiles (in a float build CUDA's threads take 2 or 4 x points, 77ef0c3).
#   errors     the grid checks, word for word.
# Usage: lid_driven_cavity_test.sh OPUNTIA PART MPIEXEC|- [BACKEND... | PARFILE REYNOLDS]
opuntia=$(realpath "$1")
part=$2
mpiexec=$3
[ "$mpiexec" = "-" ] && mpiexec=
shift 3
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../check.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run tests as root
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
find_python_with_h5py

# cavity DIMENSIONS CELLS: the grid of a unit cavity of CELLS^DIMENSIONS cells (README.md).
cavity() {
  local h
  h=$(awk -v n="$2" 'BEGIN { printf "%.17g", 1 / n }')
  printf 'ActiveThorns = "LidDrivenCavity IOHDF5"\nLidDrivenCavity::dimensions = %s\n' "$1"
  for axis in x y z; do
    if [ "$1" = 2 ] && [ $axis = z ]; then
      printf 'Driver::global_nz = 3\nDriver::zmin = -%s\nDriver::zmax = %s\n' "$h" "$h"
    else
      printf 'Driver::global_n%s = %s\nDriver::%smin = -%s\nDriver::%smax = 1\n' $axis $(($2 + 2)) $axis "$h" $axis
    fi
  done
  printf 'Cactus::progress_every = 0\nCactus::cctk_timer_output = "off"\nIO::out_digest_vars = "all"\n'
}

# run NAME RANKS [LINES...]: the lines (after a cavity) in $work/NAME.par, the output in
# $work/NAME.out and folder $work/NAME; the digests in $work/NAME.digest.
run() {
  local name=$1 ranks=$2
  shift 2
  run_lines "$name" "$ranks" "$@" "IO::out_dir = \"$name\""
}

# The largest |div u| the diagnostics printed, each line's at most TOLERANCE, and at least STEPS lines.
divergence_below() {
  awk -v tolerance="$2" -v steps="$3" '/INFO \(LidDrivenCavity\): it [1-9]/ {
      n++; for (i = 1; i <= NF; ++i) if ($i == "|div" && $(i + 1) == "u|") d = $(i + 2) + 0
      if (d > tolerance) { print "iteration " $4 ": max |div u| " d " > " tolerance; bad = 1 }
    } END { if (n < steps) print n " diagnostics lines, not " steps; exit bad || n < steps }' "$work/$1.out"
}

# The fields of runs A and B (their last HDF5 output) within 1e-10, relative to the largest |value|.
fields_agree() {
  [ -n "$python" ] || { echo "no python with h5py: skipped"; return 0; }
  "$python" - "$work/$1" "$work/$2" <<'PY'
import sys, h5py, numpy as np
a_dir, b_dir = sys.argv[1:3]
worst = 0.0
for var in ("vx", "vy", "vz", "p"):
    with h5py.File(f"{a_dir}/{var}.h5") as a, h5py.File(f"{b_dir}/{var}.h5") as b:
        datasets = [k for k in a.keys() if " it=" in k]  # beside them the group of XDMF links
        name = max(datasets, key=lambda k: int(k.split(" it=")[1].split()[0]))
        x, y = a[name][...], b[name][...]
        scale = max(np.abs(x).max(), 1e-300)
        worst = max(worst, np.abs(x - y).max() / scale)
print(f"largest relative difference {worst:.3e}")
sys.exit(0 if worst <= 1e-10 else 1)
PY
}

agreement() {
  local steps=12
  # Each backend's first variant with the descriptor's TILE: tuning would measure every variant
  # and shape of each kernel first (half of each OpenCL run here, on pocl), and tuned launches
  # give the untuned bits (autotune tests, tests/e2e/autotune_test.sh).
  local output=("IOHDF5::out_vars = \"LidDrivenCavity::vx LidDrivenCavity::vy LidDrivenCavity::vz LidDrivenCavity::p\""
    "IOHDF5::out_every = $steps" "Cactus::cctk_itlast = $steps" 'LidDrivenCavity::diagnostics_every = 1'
    'LidDrivenCavity::pressure_tolerance = 1e-9' 'CaKernel::autotune = "no"')
  local case dims cells solver
  for case in 3d:16:sor 2d:32:sor 3d:16:jacobi; do
    IFS=: read -r dims cells solver <<<"$case"
    dims=${dims%d}
    local lines=("$(cavity "$dims" "$cells")" "${output[@]}" "LidDrivenCavity::pressure_solver = \"$solver\""
      'LidDrivenCavity::reynolds = 50' 'LidDrivenCavity::max_pressure_iterations = 5000')
    local first=
    for backend in "${backends[@]}"; do
      local name=${dims}d_${solver}_$backend
      check "$name: $steps steps" run "$name" 1 "${lines[@]}" "CaKernel::backend = \"$backend\""
      check "$name: max |div u| <= pressure_tolerance after every step" divergence_below "$name" 1e-9 $steps
      if [ -z "$first" ]; then
        first=$name
      else
        check "$name: the fields of $first within 1e-10" fields_agree "$first" "$name"
      fi
    done
    if [ -n "$mpiexec" ]; then
      check "${dims}d $solver: 4 ranks" run "${dims}d_${solver}_4" 4 "${lines[@]}" "CaKernel::backend = \"${backends[0]}\""
      check "${dims}d $solver: 4 ranks give the digests of 1, bit for bit" same_digest "$first" "${dims}d_${solver}_4"
    fi
  done
}

digests() {
  local cells backend first
  for cells in 13 37; do
    first=
    for backend in "${backends[@]}"; do
      local name=digests_${cells}_$backend
      check "$name: 10 steps" run_lines "$name" 1 "$(cavity 3 "$cells")" 'Cactus::cctk_itlast = 10' \
        "CaKernel::backend = \"$backend\"" 'CaKernel::autotune = "no"' 'LidDrivenCavity::pressure_solver = "jacobi"' \
        'LidDrivenCavity::pressure_tolerance = 0' 'LidDrivenCavity::max_pressure_iterations = 20' \
        'LidDrivenCavity::diagnostics_every = 0'
      check "$name: digests of vx, vy, vz and p among its digests" \
        test "$(grep -cE 'LidDrivenCavity::(vx|vy|vz|p) at' "$work/$name.digest")" -eq 4
      if [ -z "$first" ]; then
        first=$name
      else
        check "$name: the digests of $first, bit for bit" same_digest "$first" "$name"
      fi
    done
  done
}

ghia() {
  local parfile=$1 reynolds=$2 name
  name=$(basename "$parfile" .par)
  cp "$parfile" "$work/"
  (cd "$work" && OMP_NUM_THREADS=$(nproc) "$opuntia" "$name.par" >"$name.out" 2>&1)
  check "$name: runs to steady state" grep -q "terminated after iteration .*: steady state" "$work/$name.out"
  # It ends long before cctk_itlast: the progress lines' time left names that limit.
  check "$name: the progress lines' time left is to cctk_itlast, and says so" \
    grep -qE "^it +[0-9]+ .* GLUP/s  left [0-9.e+]+ s to it $(awk -F'= *' '/^Cactus::cctk_itlast/ {print $2}' "$parfile")$" \
    "$work/$name.out"
  check "$name: the centrelines within 0.02 of Ghia et al." \
    python3 "$source_dir/tools/ldc_compare.py" --reynolds "$reynolds" --max-error 0.02 "$work/$name"
  grep -E "terminated" "$work/$name.out" || true
}

errors() {
  # 2D with more than one cell in z; a periodic direction.
  run flat 1 "$(cavity 3 8)" 'LidDrivenCavity::dimensions = 2'
  check "dimensions = 2 with global_nz = 10: refused at the first of them, naming where the other is" grep -qxF \
    'flat.par:9:21: error: LidDrivenCavity::dimensions = 2 has one cell in z with a ghost cell on each side: Driver::global_nz must be 3, not 10; LidDrivenCavity::dimensions set at flat.par:15:31' \
    "$work/flat.out"
  run flat_default 1 "$(cavity 3 8 | grep -v '^Driver::global_nz')" 'LidDrivenCavity::dimensions = 2'
  check "... and with global_nz at its default (10): at the dimensions line" grep -qxF \
    'flat_default.par:14:31: error: LidDrivenCavity::dimensions = 2 has one cell in z with a ghost cell on each side: Driver::global_nz must be 3, not 10' \
    "$work/flat_default.out"
  run viscous 1 "$(cavity 3 8)" 'LidDrivenCavity::reynolds = 1e-308'
  check "a Reynolds number that leaves no usable time step: refused at its line" grep -qE \
    "^viscous\.par:[0-9]+:29: error: the cavity's stability limits \(viscous 0, convective [0-9.e+-]+\) leave dt = 0, not a positive normal double" \
    "$work/viscous.out"
  run periodic 1 "$(cavity 3 8)" 'Driver::periodic_y = yes'
  check "a periodic direction: refused" grep -qF \
    'the lid-driven cavity has walls on every side: no direction is periodic' "$work/periodic.out"
}

case $part in
  agreement) backends=("${@:-openmp}"); agreement ;;
  digests) backends=("${@:-openmp}"); digests ;;
  ghia) ghia "$1" "$2" ;;
  errors) errors ;;
  *) echo "unknown part $part" >&2; exit 2 ;;
esac
finish
