#!/usr/bin/env bash
# Weak and strong scaling of the MPI driver on 1, 2, 4 and 8 GPUs of one host, one rank a GPU.
#   bench/halo_scaling.sh HALO_BENCH [OPUNTIA]
# HALO_BENCH (bench/halo_bench) runs HaloBench: a radius-1 (Star7) or radius-4 (Star25) stencil
# sweep and one SYNC an iteration; OPUNTIA, when given, also runs the lid-driven cavity's step
# (LidDrivenCavity, 3D, 20 Jacobi pressure sweeps a step with a SYNC each, no residual, no output).
# The precision is the build's CCTK_REAL (OPUNTIA_REAL_PRECISION); run the script once per build.
#
# Every figure comes from one run's timer report, steady-state section (the iterations after the
# first 10: flesh/runtime/simulation.hpp, steady_after_iterations), in µs an iteration:
#   step      wall clock of an iteration
#   compute   the kernels' device time (with overlap: the rim and the interior launches)
#   pack      the device's time in the SYNC's pack kernels (with CUDA IPC they write straight
#             into the neighbour's memory: the transfer is in them), staging copies included
#   messages  host time in MPI (the zero-byte messages of CUDA IPC, waiting for the neighbour)
#   unpack    the device's time in the unpack kernels
#   exposed   step - compute: what the exchange adds to the kernels (the GPU idle or busy packing)
# Efficiency: weak = step(1 GPU, block) / step(P GPUs, P blocks); strong = step(1 GPU, N^3) /
# (P step(P GPUs, N^3)). Weak grids are P blocks of n^3: n x n x 2n on 2 GPUs, 2n x 2n x n on 4
# (automatic splits it 2x2x1 into cubes, no_x_split 1x2x2 into blocks of 2n x n x n/2), 2n x 2n x
# 2n on 8 (2x2x2 against 1x2x4). Where both split a grid alike (2 GPUs; 4 in strong scaling),
# automatic is not run again. Settings (environment; defaults in brackets):
#   SCALING_GPUS ["1 2 4 8"]            counts beyond the GPUs present are skipped
#   SCALING_RADII ["1 4"]               HaloBench's radius
#   SCALING_WEAK_N [256]                points a side of a GPU's block in weak scaling
#   SCALING_STRONG_N ["512 1024"]       global sides in strong scaling
#   SCALING_GHOST_FACTORS ["1 2 3"]     ghost zones k times the radius (exchanges every k-th SYNC)
#   SCALING_TOPOLOGIES ["no_x_split automatic"]  run where they split the grid differently
#   SCALING_OVERLAP [yes]               Driver::overlap_sync; "no yes" for both
#   SCALING_LDC_N [256]                 the cavity's cells a side a GPU (weak) and of the strong run
#   SCALING_SECONDS [0.4]               steady-state seconds a run aims at
#   SCALING_CSV [scaling.csv]           every row, for bench/scaling_model.py --compare; beside it,
#                                       scaling.autotune.txt: what autotuning chose in each run
# Runs ranks with mpirun (as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1).
set -uo pipefail
bench=$1
opuntia=${2:-}
csv=${SCALING_CSV:-scaling.csv}
notes=${csv%.csv}.autotune.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gpus_present=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus_present" -ge 1 ] || { echo "halo_scaling.sh: no GPU found" >&2; exit 1; }

# iterations POINTS_PER_GPU POINTS_PER_SECOND: enough for SCALING_SECONDS of steady state.
iterations() {
  awk -v p="$1" -v r="$2" -v s="${SCALING_SECONDS:-0.4}" 'BEGIN {
    n = int(s * r / p) + 10; if (n < 40) n = 40; if (n > 6000) n = 6000; print n }'
}

# measure RANKS PARFILE: "topology step compute pack messages unpack" (µs an iteration), from the
# timer report's steady-state section; the topology as the driver chose it (1x1x1 on one rank).
measure() {
  local ranks=$1 par=$2
  mpirun -np "$ranks" --bind-to none "$bench_now" "$par" >"$work/out.txt" 2>&1 || { tail -20 "$work/out.txt" >&2; return 1; }
  awk '
    /driver Cartesian/ { t = "1x1x1"; if (match($0, /\([0-9]+x[0-9]+x[0-9]+\)/)) t = substr($0, RSTART + 1, RLENGTH - 2) }
    /^  steady state, iterations/ { steady = 1; step = $(NF - 3) * 1000; next }
    steady && /CAKERNEL_Launch_/ { compute += $NF * 1000 }
    steady && /SYNC: pack kernels/ { pack = $NF * 1000 }
    steady && /SYNC: messages between ranks/ { messages = $NF * 1000 }
    steady && /SYNC: unpack kernels/ { unpack = $NF * 1000 }
    END { if (!steady) exit 1; printf "%s %.1f %.1f %.1f %.1f %.1f\n", t, step, compute, pack, messages, unpack }
  ' "$work/out.txt" || { echo "halo_scaling.sh: no steady-state report in the run of $par" >&2; tail -5 "$work/out.txt" >&2; return 1; }
}

halo_par() {  # halo_par RADIUS NX NY NZ GHOSTS TOPOLOGY OVERLAP ITERATIONS
  cat <<PAR
ActiveThorns = "HaloBench"
CaKernel::backend = "cuda"
HaloBench::radius = $1
Driver::global_nx = $2
Driver::global_ny = $3
Driver::global_nz = $4
Driver::ghost_size = $5
Driver::processor_topology = "$6"
Driver::overlap_sync = $7
Cactus::cctk_itlast = $8
Cactus::progress_every = 0
PAR
}

ldc_par() {  # ldc_par CELLS_X CELLS_Y CELLS_Z GHOSTS TOPOLOGY OVERLAP ITERATIONS: cells of h = 1/CELLS_X
  awk -v x="$1" -v y="$2" -v z="$3" 'BEGIN { h = 1 / x
    printf "ActiveThorns = \"LidDrivenCavity\"\nCaKernel::backend = \"cuda\"\n"
    printf "Driver::global_nx = %d\nDriver::global_ny = %d\nDriver::global_nz = %d\n", x + 2, y + 2, z + 2
    printf "Driver::xmin = %.17g\nDriver::xmax = 1\nDriver::ymin = %.17g\nDriver::ymax = %.17g\n", -h, -h, y * h
    printf "Driver::zmin = %.17g\nDriver::zmax = %.17g\n", -h, z * h }'
  cat <<PAR
Driver::ghost_size = $4
Driver::processor_topology = "$5"
Driver::overlap_sync = $6
LidDrivenCavity::dimensions = 3
LidDrivenCavity::pressure_solver = "jacobi"
LidDrivenCavity::pressure_tolerance = 0
LidDrivenCavity::max_pressure_iterations = 20
LidDrivenCavity::diagnostics_every = 0
Cactus::cctk_itlast = $7
Cactus::progress_every = 0
PAR
}

halo_par 1 16 16 16 1 no_x_split yes 12 >"$work/p.par"
precision=$("$bench" "$work/p.par" 2>&1 | sed -n 's/.*CCTK_REAL \([a-z]*\).*/\1/p' | head -1)
[ "$precision" = float ] && precision=fp32 || precision=fp64
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^/device: /'
echo "CCTK_REAL: $precision"
: >"$notes"
echo "precision,kernel,scaling,gpus,topology_asked,topology,ghosts,overlap,nx,ny,nz,iterations,step_us,compute_us,pack_us,messages_us,unpack_us,efficiency" >"$csv"
row() { printf '%-5s %-9s %-14s %4s %-10s %-7s %6s %-7s %-15s %8s %8s %8s %8s %8s %8s %8s %6s\n' "$@"; }
row prec kernel scaling GPUs asked split ghosts overlap grid step compute pack messages unpack exposed iters eff%

# one KERNEL SCALING GPUS GHOSTS TOPOLOGY OVERLAP NX NY NZ BASELINE_US: runs and prints a row; sets $step.
one() {
  local kernel=$1 scaling=$2 gpus=$3 ghosts=$4 topology=$5 overlap=$6 nx=$7 ny=$8 nz=$9 baseline=${10}
  local points=$(( nx * ny * nz / gpus )) it par=$work/run.par rate=2e11
  case $kernel in radius4) rate=1.2e11 ;; ldc) rate=3e9 ;; esac
  it=$(iterations $points $rate)
  if [ $kernel = ldc ]; then
    bench_now=$opuntia; ldc_par $((nx - 2)) $((ny - 2)) $((nz - 2)) $ghosts $topology $overlap $it >"$par"
  else
    bench_now=$bench; halo_par ${kernel#radius} $nx $ny $nz $ghosts $topology $overlap $it >"$par"
  fi
  local out; out=$(measure $gpus "$par") || return 1
  grep -h "autotune:" "$work/out.txt" | sed "s/^/$kernel $scaling ${gpus} GPUs ${nx}x${ny}x${nz} ghosts $ghosts $topology: /" >>"$notes"
  read -r split step compute pack messages unpack <<<"$out"
  local efficiency
  efficiency=$(awk -v b="$baseline" -v s="$step" -v p="$gpus" -v k="$scaling" 'BEGIN {
    if (b <= 0) { print 100; exit } printf "%.1f", 100 * b / (k == "weak" ? s : p * s) }')
  row $precision $kernel $scaling $gpus $topology $split $ghosts $overlap "${nx}x${ny}x${nz}" $step $compute $pack \
    $messages $unpack "$(awk -v s=$step -v c=$compute 'BEGIN { printf "%.1f", s - c }')" $it $efficiency
  echo "$precision,$kernel,$scaling,$gpus,$topology,$split,$ghosts,$overlap,$nx,$ny,$nz,$it,$step,$compute,$pack,$messages,$unpack,$efficiency" >>"$csv"
}

# weak_grid N P: the global grid of P blocks of n^3 (n = N, or N cells plus the cavity's 2 walls).
weak_grid() {
  local n=$1 p=$2 walls=${3:-0}
  case $p in
    1) echo $((n + walls)) $((n + walls)) $((n + walls)) ;;
    2) echo $((n + walls)) $((n + walls)) $((2 * n + walls)) ;;
    4) echo $((2 * n + walls)) $((2 * n + walls)) $((n + walls)) ;;
    8) echo $((2 * n + walls)) $((2 * n + walls)) $((2 * n + walls)) ;;
  esac
}

# series KERNEL SCALING SIDE RADIUS: the 1-GPU baseline, then every count, ghost width, topology
# and overlap setting asked for.
series() {
  local kernel=$1 scaling=$2 side=$3 radius=$4 walls=0 grid
  [ $kernel = ldc ] && walls=2
  if [ $scaling = weak ]; then grid=$(weak_grid $side 1 $walls); else grid="$((side + walls)) $((side + walls)) $((side + walls))"; fi
  one $kernel $scaling 1 $radius no_x_split no $grid 0 || return 1
  local baseline=$step
  for gpus in ${SCALING_GPUS:-1 2 4 8}; do
    [ $gpus -gt 1 ] && [ $gpus -le $gpus_present ] || continue
    if [ $scaling = weak ]; then grid=$(weak_grid $side $gpus $walls); fi
    local factors=${SCALING_GHOST_FACTORS:-1 2 3}
    [ $kernel = ldc ] && factors=1  # the cavity's kernels set their own reach; ghost zones of 1
    for factor in $factors; do
      for topology in ${SCALING_TOPOLOGIES:-no_x_split automatic}; do
        # automatic splits these grids as no_x_split does on 2 GPUs, and on 4 in strong scaling
        if [ $topology = automatic ] && { [ $gpus -eq 2 ] || { [ $gpus -eq 4 ] && [ $scaling = strong ]; }; }; then continue; fi
        for overlap in ${SCALING_OVERLAP:-yes}; do
          one $kernel $scaling $gpus $((factor * radius)) $topology $overlap $grid $baseline || return 1
        done
      done
    done
  done
}

for radius in ${SCALING_RADII-1 4}; do
  series radius$radius weak ${SCALING_WEAK_N:-256} $radius || exit 1
  for n in ${SCALING_STRONG_N:-512 1024}; do series radius$radius strong $n $radius || exit 1; done
done
if [ -n "$opuntia" ]; then
  series ldc weak ${SCALING_LDC_N:-256} 1 || exit 1
  series ldc strong ${SCALING_LDC_N:-256} 1 || exit 1
fi
echo "rows: $csv"
