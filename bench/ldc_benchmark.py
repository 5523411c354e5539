#!/usr/bin/env python3
"""The lid-driven cavity benchmark of issue 27: thorns/LidDrivenCavity's step against its byte
floors and against the same algorithm in PyTorch (bench/ldc_torch.py), on one device, in one run.

The thorn runs the benchmark setting of bench/ldc_torch.py: 3D (or 2D) on N^3 cells, a fixed number
of weighted-Jacobi pressure sweeps a step (pressure_tolerance = 0: no residual, no reduction), no
output. One run of 10 + STEPS iterations: each kernel's time a call and the step's time come
from its timer report's steady-state section (the iterations after the first 10,
flesh/runtime/simulation.hpp steady_after_iterations), which leaves out the first launches (a
program built, variants measured where --parameter sets CaKernel::autotune); one run's figures
and not the difference of two, which went negative where another process took the core in one
of them. Each
kernel's byte floor is ldc_torch.py's (every array it touches read or written once a point), so
that both sides are held against the same bytes; the copy bandwidth is a device-to-device copy
timed in the same run (torch's, where torch is installed; numpy's on the host otherwise).

Usage:
  ldc_benchmark.py OPUNTIA [--n 256] [--dims 3] [--sweeps 20] [--steps 100]
                   [--backend cuda] [--precision fp32|fp64] [--peer auto|yes|no] [--work DIR]
                   [--parameter 'Thorn::name = value' ...]
--precision is the build's CCTK_REAL (OPUNTIA_REAL_PRECISION); the run's start-up line must agree.
The last lines are a markdown table for bench/RESULTS.md. Not a test: it prints figures (the
targets: each kernel >= 80% of the copy bandwidth, the step >= 70% of its floors' time, >= 8x
torch eager and >= 1.5x torch compiled) and exits 0 whatever they are; 1 when a run fails."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import ldc_torch  # noqa: E402  (the floors and the copy bandwidth: one definition for both sides)
import timer_report  # noqa: E402

# The thorn's timer rows and the ldc_torch stage each stands for.
KERNELS = [
    ("CAKERNEL_Launch_LDC_Momentum", "momentum"),
    ("LDC_PredictedWalls", "velocity_boundary"),
    ("CAKERNEL_Launch_LDC_Divergence", "divergence"),
    ("CAKERNEL_Launch_LDC_Pressure", "jacobi_sweep"),
    ("CAKERNEL_Launch_LDC_Correction", "correction"),
    ("LDC_CorrectedWalls", "velocity_boundary"),
]
REAL_TYPE = {"fp64": "double", "fp32": "float"}


def parfile_text(args, iterations):
    n, dims = args.n, args.dims
    h = 1.0 / n
    nz = n if dims == 3 else 1
    return "\n".join([
        'ActiveThorns = "LidDrivenCavity"',
        f"Driver::global_nx = {n + 2}", f"Driver::global_ny = {n + 2}", f"Driver::global_nz = {nz + 2}",
        f"Driver::xmin = {-h!r}", "Driver::xmax = 1", f"Driver::ymin = {-h!r}", "Driver::ymax = 1",
        f"Driver::zmin = {-h!r}", f"Driver::zmax = {1 if dims == 3 else h!r}",
        f'CaKernel::backend = "{args.backend}"',
        f"LidDrivenCavity::dimensions = {dims}",
        f"LidDrivenCavity::reynolds = {args.reynolds!r}",
        f"LidDrivenCavity::alpha = {args.alpha!r}",
        f"LidDrivenCavity::cfl = {args.cfl!r}",
        'LidDrivenCavity::pressure_solver = "jacobi"',
        "LidDrivenCavity::pressure_tolerance = 0",
        f"LidDrivenCavity::max_pressure_iterations = {args.sweeps}",
        "LidDrivenCavity::diagnostics_every = 0",
        f"Cactus::cctk_itlast = {iterations}",
        "Cactus::progress_every = 0",
        f'CaKernel::cache_dir = "{os.path.join(args.work, "cache")}"',
        # The descriptor's first variant unless --parameter names one: the figures of
        # bench/RESULTS.md are of it, and no run times variants (CaKernel::autotune).
        'CaKernel::autotune = "no"',
    ] + args.parameter + [""])


STEADY_AFTER = timer_report.STEADY_AFTER


def run_thorn(args, iterations):
    """Runs the thorn for `iterations` and returns its timer report (bench/timer_report.py)."""
    path = os.path.join(args.work, f"ldc_bench_{iterations}.par")
    with open(path, "w") as f:
        f.write(parfile_text(args, iterations))
    return timer_report.run(args.opuntia, path, args.work, "ldc_benchmark")


def torch_peer(args):
    """bench/ldc_torch.py on the same device: (copy bytes/s, {variant: best step seconds})."""
    command = [sys.executable, os.path.join(BENCH, "ldc_torch.py"), "--n", str(args.n), "--dims", str(args.dims),
               "--precision", args.precision, "--sweeps", str(args.sweeps), "--mode", "both",
               "--alpha", repr(args.alpha), "--cfl", repr(args.cfl), "--reynolds", repr(args.reynolds),
               "--device", "cuda" if args.backend == "cuda" else "cpu"]
    result = subprocess.run(command, capture_output=True, text=True)
    print(result.stdout, end="")
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-4000:])
        raise SystemExit(f"ldc_benchmark: {' '.join(command)} failed (exit {result.returncode})")
    copy = re.search(r"^copy: .*: ([\d.]+) GB/s", result.stdout, re.M)
    steps = {m.group(1): float(m.group(2)) * 1e-6
             for m in re.finditer(r"^(.+?): step: best ([\d.]+) us", result.stdout, re.M)}
    return float(copy.group(1)) * 1e9, steps


def host_copy_bandwidth():
    """Bytes read plus written per second by a numpy copy of 256 MiB (the best of 5)."""
    import time
    import numpy as np
    source = np.ones(2**25, dtype=np.float64)
    target = np.empty_like(source)
    best = float("inf")
    for _ in range(5):
        begin = time.perf_counter()
        np.copyto(target, source)
        best = min(best, time.perf_counter() - begin)
    return 2 * source.nbytes / best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opuntia")
    parser.add_argument("--n", type=int, default=256)
    parser.add_argument("--dims", type=int, choices=(2, 3), default=3)
    parser.add_argument("--sweeps", type=int, default=20)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--backend", default="cuda")
    parser.add_argument("--precision", choices=("fp32", "fp64"), default="fp64")
    parser.add_argument("--peer", choices=("auto", "yes", "no"), default="auto",
                        help="run bench/ldc_torch.py too (auto: where torch is installed)")
    parser.add_argument("--parameter", action="append", default=[],
                        help="a parameter line added to the runs' file, e.g. 'CaKernel::variant = \"3dstencil\"'")
    parser.add_argument("--reynolds", type=float, default=100.0)
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--cfl", type=float, default=0.5)
    parser.add_argument("--work", help="folder for the parameter files (default: a temporary one)")
    args = parser.parse_args()
    args.opuntia = os.path.abspath(args.opuntia)
    with tempfile.TemporaryDirectory(prefix="ldc_bench.") as scratch:
        args.work = os.path.abspath(args.work or scratch)
        os.makedirs(args.work, exist_ok=True)
        return benchmark(args)


def benchmark(args):
    have_torch = ldc_torch.torch is not None
    on_gpu = args.backend != "openmp" and have_torch and ldc_torch.torch.cuda.is_available()
    torch_steps = {}
    if args.peer == "yes" or (args.peer == "auto" and have_torch):
        copy_bps, torch_steps = torch_peer(args)
        copy_source = "torch device-to-device copy" if on_gpu else "torch copy on the host"
    elif on_gpu:
        copy_bps, _ = ldc_torch.copy_bandwidth("cuda", 1024, 5)
        copy_source = "torch device-to-device copy"
    else:
        copy_bps = host_copy_bandwidth()
        copy_source = "numpy copy on the host"
    long = run_thorn(args, STEADY_AFTER + args.steps)
    if long.real_type != REAL_TYPE[args.precision]:
        raise SystemExit(f"ldc_benchmark: --precision {args.precision}, but {args.opuntia} has CCTK_REAL "
                         f"{long.real_type}")
    cfg = ldc_torch.config((args.n, args.n, args.n if args.dims == 3 else 1), args.dims, 1.0, 1.0, args.alpha,
                           sweeps=args.sweeps)
    floors = ldc_torch.byte_floors(cfg, 8 if args.precision == "fp64" else 4)

    print(f"ldc_benchmark: {args.dims}D n = {args.n}, {args.precision}, {args.sweeps} Jacobi sweeps a step, "
          f"{args.steps} steps after {STEADY_AFTER}; {long.device}{''.join('; ' + p for p in args.parameter)}")
    print(f"copy bandwidth: {copy_bps / 1e9:.1f} GB/s ({copy_source})")
    for line in long.autotune_lines():
        print(line)
    table = []
    floor_seconds = 0.0
    if long.step is None:
        raise SystemExit(f"ldc_benchmark: no steady-state section in the timer report of {args.opuntia}")
    for row, stage in KERNELS:
        calls, per_call = long.rows[row]
        bandwidth = floors[stage] / per_call
        per_step = calls / args.steps
        floor_seconds += per_step * floors[stage] / copy_bps
        table.append((row, per_step, per_call, floors[stage], bandwidth, bandwidth / copy_bps))
        print(f"{row}: {per_step:g} a step, {per_call * 1e6:.1f} us a call; floor {floors[stage] / 1e6:.4g} MB: "
              f"{bandwidth / 1e9:.1f} GB/s, {100 * bandwidth / copy_bps:.1f}% of copy")
    step = long.step
    kernels = sum(per_step * per_call for _, per_step, per_call, *_ in table)
    print(f"step: {step * 1e3:.3f} ms (its kernels {kernels * 1e3:.3f} ms); the sum of the kernels' floors at the "
          f"copy bandwidth {floor_seconds * 1e3:.3f} ms: {100 * floor_seconds / step:.1f}% of the step")
    for name, seconds in torch_steps.items():
        print(f"torch {name}: {seconds * 1e3:.3f} ms a step: the thorn is {seconds / step:.2f}x faster")

    print()
    print(f"| kernel | a step | us a call | floor (MB) | GB/s | % of copy ({copy_bps / 1e9:.0f} GB/s) |")
    print("|---|---|---|---|---|---|")
    for row, per_step, per_call, floor, bandwidth, fraction in table:
        print(f"| {row} | {per_step:g} | {per_call * 1e6:.1f} | {floor / 1e6:.4g} | {bandwidth / 1e9:.1f} | "
              f"{100 * fraction:.1f}% |")
    print(f"| step | 1 | {step * 1e6:.1f} | | | floors {100 * floor_seconds / step:.1f}% of the step |")
    for name, seconds in torch_steps.items():
        print(f"| torch {name} step | 1 | {seconds * 1e6:.1f} | | | thorn {seconds / step:.2f}x faster |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
