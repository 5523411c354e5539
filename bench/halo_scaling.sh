#!/usr/bin/env bash
# Weak and strong scaling of the MPI driver on 1 and 2 GPUs (bench/halo_bench: a radius-1 or
# radius-4 stencil sweep and one SYNC per iteration). Prints, per run, each iteration's time
# split into the kernel (compute) and the SYNC's pack (kernels, and the copy to the host when
# staged), messages (MPI, waiting for the neighbour included) and unpack, then the efficiencies:
# weak = t(1 GPU, n^3) / t(2 GPUs, 2n x n x n), strong = t(1 GPU, N^3) / (2 t(2 GPUs, N^3)).
# Each figure is the difference between runs of 2k and k iterations (k = 2^34 / points per GPU,
# at least 400; the better of two such pairs by step time), so that what happens once (start-up, first launches) is left out; "step" is the
# wall-clock time of an iteration, the others are their timers (compute: the kernel's device
# time; with overlap the SYNC runs during the kernel, so the parts add up to more than a step).
# With ghost zones k times the radius (HALO_GHOST_FACTORS="1 2 3", default 1), the SYNC exchanges
# on every k-th iteration and the kernel computes k - 1 radii of ghost layers again (docs/
# running-a-simulation.md, wide ghost zones): the per-iteration figures are averages.
# HALO_RADII (default "1 4") and HALO_KINDS (default "weak strong") choose the rows;
# HALO_FACES_ONLY=no sets Driver::sync_faces_only = no (radius 1, Star7, otherwise fills the faces only).
#   bench/halo_scaling.sh HALO_BENCH [weak_n=256] [strong_n=512] [topology=no_x_split]
# Runs ranks with mpirun (as root: set OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1).
set -uo pipefail
bench=$1
weak_n=${2:-256}
strong_n=${3:-512}
topology=${4:-no_x_split}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# totals ITERATIONS OVERLAP GHOSTS RANKS RADIUS NX NY NZ: the seconds of "wall compute pack messages unpack" in all.
totals() {
  local iterations=$1 overlap=$2 ghosts=$3 ranks=$4 radius=$5 nx=$6 ny=$7 nz=$8 par=$work/run.par
  cat >"$par" <<PAR
ActiveThorns = "HaloBench"
CaKernel::backend = "cuda"
Cactus::cctk_itlast = $iterations
Cactus::progress_every = 0
Driver::global_nx = $nx
Driver::global_ny = $ny
Driver::global_nz = $nz
Driver::ghost_size = $ghosts
Driver::processor_topology = "$topology"
HaloBench::radius = $radius
Driver::overlap_sync = $overlap
Driver::sync_faces_only = ${HALO_FACES_ONLY:-yes}
PAR
  mpirun -np "$ranks" --bind-to none "$bench" "$par" >"$work/out.txt" 2>&1 || { cat "$work/out.txt" >&2; return 1; }
  awk '/^timer report/ { w = substr($3, 2) } /CAKERNEL_Launch_HaloBench/ { c = $4 } /SYNC: pack/ { p = $(NF-1) }
       /SYNC: messages/ { m = $(NF-1) } /SYNC: unpack/ { u = $(NF-1) } END { print w + 0, c + 0, p + 0, m + 0, u + 0 }' \
    "$work/out.txt"
}

# run OVERLAP GHOSTS RANKS RADIUS NX NY NZ: "compute pack messages unpack step" in microseconds per iteration.
run() {
  local short long iterations=$(( (1 << 34) / ($5 * $6 * $7 / $3) ))
  [ $iterations -ge 400 ] || iterations=400
  [ $iterations -le 4000 ] || iterations=4000
  iterations=${HALO_ITERATIONS:-$iterations}
  for repeat in 1 2; do
    short=$(totals "$iterations" "$@") || return 1
    long=$(totals $((2 * iterations)) "$@") || return 1
    awk -v it="$iterations" -v a="$short" -v b="$long" 'BEGIN {
      split(a, x, " "); split(b, y, " "); s = 1e6 / it
      printf "%.1f %.1f %.1f %.1f %.1f\n", (y[2] - x[2]) * s, (y[3] - x[3]) * s, (y[4] - x[4]) * s, (y[5] - x[5]) * s, (y[1] - x[1]) * s
    }'
  done | sort -g -k5 | head -1
}

nvidia-smi -L 2>/dev/null
row() { printf '%-7s %-7s %-5s %-8s %-7s %-14s %11s %9s %12s %10s %9s\n' "$@"; }
row radius scaling GPUs overlap ghosts grid compute_us pack_us messages_us unpack_us step_us
for radius in ${HALO_RADII:-1 4}; do
  for kind in ${HALO_KINDS:-weak strong}; do
    if [ $kind = weak ]; then n=$weak_n; grid2="$n $n $((2 * n))"; else n=$strong_n; grid2="$n $n $n"; fi
    read -r c p m u t1 < <(run no $radius 1 $radius $n $n $n) || exit 1
    row $radius $kind 1 - - "${n}^3" $c $p $m $u $t1
    for factor in ${HALO_GHOST_FACTORS:-1}; do
      ghosts=$((factor * radius))
      for overlap in no yes; do
        read -r c p m u t2 < <(run $overlap $ghosts 2 $radius $grid2) || exit 1
        row $radius $kind 2 $overlap $ghosts "${grid2// /x}" $c $p $m $u $t2
        awk -v a="$t1" -v b="$t2" -v k=$kind -v r=$radius -v o=$overlap -v g=$ghosts 'BEGIN {
          printf "  radius %s, %s scaling on 2 GPUs, ghost zones %s, overlap %s: %.1f%% efficiency\n", r, k, g, o, 100 * a / (k == "weak" ? b : 2 * b) }'
      done
    done
  done
done
