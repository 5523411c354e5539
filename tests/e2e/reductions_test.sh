#!/usr/bin/env bash
# Reductions that reach output give the same bits on any number of ranks and on every backend:
# HeatEquation and WaveToy run on each BACKEND on 1 and 3 ranks, and print their error norms
# (the INFO line, and every digit in heat_error.txt / wavetoy_error.txt) and the norms of their
# field that IO::out_norms_vars prints every other iteration (routine_context::statistics: the
# initial data reduced on the host, then the field reduced on the device where the kernels left
# it, the ranks combined with exact sums).
#   - HeatEquation's kernel only adds and multiplies, so its fields have the same bits on every
#     backend: every run must print what the first backend's one-rank run prints.
#   - WaveToy's boundary kernel calls sin(), whose last bit each backend's maths library rounds
#     its own way: there each backend's runs on 3 ranks must print what its run on 1 rank prints.
# Usage: reductions_test.sh OPUNTIA MPIEXEC BACKEND...
opuntia=$(realpath "$1")
mpiexec=$2
shift 2
backends=("$@")
. "$(dirname "$0")/under_mpirun.sh"

application_lines() {
  case $1 in
    heat) printf '%s\n' 'ActiveThorns = "HeatEquation"' 'Time::timestep = 0.0005' \
      'IO::out_norms_vars = "heatequation::u"' ;;
    wavetoy) printf '%s\n' 'ActiveThorns = "WaveToy"' 'Time::dtfac = 0.25' 'WaveToy::wave_number_y = 0.5' \
      'IO::out_norms_vars = "wavetoy::phi"' ;;
  esac
}

# run APPLICATION BACKEND RANKS: the run's printed norms in $work/NAME.norms, with its error
# file's lines after them.
run() {
  local name=$1_$2_$3
  { application_lines "$1"
    printf '%s\n' 'Cactus::cctk_itlast = 6' 'Driver::global_nx = 13' 'Driver::global_ny = 11' 'Driver::global_nz = 9' \
      'Cactus::progress_every = 0' 'Cactus::cctk_timer_output = "off"' 'IO::out_norms_every = 2' \
      "CaKernel::backend = \"$2\"" "IO::out_dir = \"$name\""; } >"$work/$name.par"
  (cd "$work" && "$mpiexec" --oversubscribe -np "$3" "$opuntia" "$name.par" >"$name.out" 2>&1)
  local status=$?
  { grep -E '^INFO \(' "$work/$name.out"; cat "$work/$name"/*_error.txt; } >"$work/$name.norms"
  [ $status -eq 0 ] || { echo "run $name failed:"; tail -5 "$work/$name.out"; }
  return $status
}
same_norms() { [ -s "$work/$1.norms" ] && cmp -s "$work/$1.norms" "$work/$2.norms"; }

for application in heat wavetoy; do
  for backend in "${backends[@]}"; do
    reference=${application}_${backends[0]}_1
    [ "$application" = wavetoy ] && reference=${application}_${backend}_1
    for ranks in 1 3; do
      name=${application}_${backend}_$ranks
      if [ "$name" = "$reference" ]; then
        check "$application on $backend, 1 rank, runs" run "$application" "$backend" 1
      else
        run "$application" "$backend" "$ranks"
        check "$application on $backend, $ranks ranks: the norms of $reference, to the bit" \
          same_norms "$reference" "$name"
      fi
    done
    check "$application on $backend runs there" grep -q "backend $backend" "$work/${application}_${backend}_3.out"
  done
done
first=$work/heat_${backends[0]}_1.norms
check "the norms are printed after the initial data and every other iteration" \
  test "$(grep -c '^INFO (IO): heatequation::u at iteration [0246]: minimum ' "$first")" -eq 4
check "with every digit" grep -qE \
  '^INFO \(IO\): heatequation::u at iteration 6: minimum 0, maximum 0\.[0-9]{14,17}, .* sum [0-9]+\.[0-9]{12,}, rms ' "$first"

finish
