#!/usr/bin/env bash
# Weak and strong scaling of the MPI driver on 1 and 2 GPUs (bench/halo_bench: a radius-1 or
# radius-4 stencil sweep and one SYNC per iteration). Prints, per run, each iteration's time
# split into the kernel (compute) and the SYNC's pack (kernels, and the copy to the host when
# staged), messages (MPI, waiting for the neighbour included) and unpack, then the efficiencies:
# weak = t(1 GPU, n^3) / t(2 GPUs, 2n x n x n), strong = t(1 GPU, N^3) / (2 t(2 GPUs, N^3)).
#   bench/halo_scaling.sh HALO_BENCH [weak_n=256] [strong_n=512] [iterations=200] [topology=no_x_split]
# Runs ranks with mpirun (as root: set OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1).
set -uo pipefail
bench=$1
weak_n=${2:-256}
strong_n=${3:-512}
iterations=${4:-200}
topology=${5:-no_x_split}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# totals ITERATIONS RANKS RADIUS NX NY NZ: the seconds of "compute pack messages unpack" in all.
totals() {
  local iterations=$1 ranks=$2 radius=$3 nx=$4 ny=$5 nz=$6 par=$work/run.par
  cat >"$par" <<PAR
ActiveThorns = "HaloBench"
CaKernel::backend = "cuda"
Cactus::cctk_itlast = $iterations
Cactus::progress_every = 0
Driver::global_nx = $nx
Driver::global_ny = $ny
Driver::global_nz = $nz
Driver::ghost_size = $radius
Driver::processor_topology = "$topology"
HaloBench::radius = $radius
PAR
  mpirun -np "$ranks" --bind-to none "$bench" "$par" >"$work/out.txt" 2>&1 || { cat "$work/out.txt" >&2; return 1; }
  awk '/CAKERNEL_Launch_HaloBench/ { c = $4 } /SYNC: pack/ { p = $(NF-1) } /SYNC: messages/ { m = $(NF-1) }
       /SYNC: unpack/ { u = $(NF-1) } END { print c + 0, p + 0, m + 0, u + 0 }' "$work/out.txt"
}

# run RANKS RADIUS NX NY NZ: "compute pack messages unpack step" in microseconds per iteration,
# from the difference between runs of 2 x iterations and of iterations, so that what happens
# once (the first launch, the first allocation of message buffers) is left out.
run() {
  local short long
  short=$(totals "$iterations" "$@") || return 1
  long=$(totals $((2 * iterations)) "$@") || return 1
  awk -v it="$iterations" -v a="$short" -v b="$long" 'BEGIN {
    split(a, x, " "); split(b, y, " "); s = 1e6 / it; total = 0
    for (f = 1; f <= 4; ++f) { d[f] = (y[f] - x[f]) * s; total += d[f] }
    printf "%.1f %.1f %.1f %.1f %.1f\n", d[1], d[2], d[3], d[4], total
  }'
}

nvidia-smi -L 2>/dev/null
printf '%-8s %-6s %-5s %-15s %10s %10s %10s %10s %10s\n' radius kind GPUs grid compute_us pack_us messages_us unpack_us step_us
for radius in 1 4; do
  for kind in weak strong; do
    if [ $kind = weak ]; then n=$weak_n; grid1="$n $n $n"; grid2="$n $n $((2 * n))"; else n=$strong_n; grid1="$n $n $n"; grid2=$grid1; fi
    read -r c1 p1 m1 u1 t1 < <(run 1 $radius $grid1) || exit 1
    read -r c2 p2 m2 u2 t2 < <(run 2 $radius $grid2) || exit 1
    printf '%-8s %-6s %-5s %-15s %10s %10s %10s %10s %10s\n' $radius $kind 1 "${grid1// /x}" $c1 $p1 $m1 $u1 $t1
    printf '%-8s %-6s %-5s %-15s %10s %10s %10s %10s %10s\n' $radius $kind 2 "${grid2// /x}" $c2 $p2 $m2 $u2 $t2
    if [ $kind = weak ]; then
      awk -v a="$t1" -v b="$t2" -v r=$radius 'BEGIN { printf "radius %s weak scaling efficiency on 2 GPUs: %.1f%%\n", r, 100 * a / b }'
    else
      awk -v a="$t1" -v b="$t2" -v r=$radius 'BEGIN { printf "radius %s strong scaling efficiency on 2 GPUs: %.1f%%\n", r, 100 * a / (2 * b) }'
    fi
  done
done
