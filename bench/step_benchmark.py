#!/usr/bin/env python3
"""The application-step benchmark of issue 28: HeatEquation's and WaveToy's whole step against
the sum of its kernels and against the copy bandwidth, at several grid sizes, on one device.

For each thorn and size, one run of 10 + STEPS iterations (no output, no progress lines, the
descriptor's variants: `CaKernel::autotune = "no"` unless --parameter says otherwise); its timer
report's steady-state section (bench/timer_report.py) gives the step's wall time and each
kernel's device time. Printed per run:
- the step against its kernels: the sum of the kernel rows' device time an iteration, and what
  the step costs beyond it (host work the device waits for, synchronisations, gaps between
  launches); the issue's target is a step at most 10% above its kernels;
- the step as a fraction of the copy: the bytes of the step's bulk kernel (every array it reads or
  writes once a point, BYTES_A_POINT below) over the step's time, against a device-to-device copy
  timed in the same run (torch's where torch sees a GPU, numpy's on the host otherwise);
- the host's time a launch (`kernel launches: host time`).

Usage:
  step_benchmark.py OPUNTIA [--thorn HeatEquation --thorn WaveToy] [--n 128 --n 256 --n 512]
                    [--steps 100] [--backend cuda] [--precision fp32|fp64] [--work DIR]
                    [--parameter 'Thorn::name = value' ...]
--precision is the build's CCTK_REAL (OPUNTIA_REAL_PRECISION); the run's start-up line must agree.
The last lines are a markdown table for bench/RESULTS.md. Not a test: it prints figures and
exits 0 whatever they are; 1 when a run fails."""
import argparse
import os
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
import ldc_benchmark  # noqa: E402  (the host's copy)
import ldc_torch  # noqa: E402  (the device's copy)
import timer_report  # noqa: E402

# Arrays the bulk kernel reads or writes a point (thorns/<thorn>/cakernel.ccl): Heat_Update reads u
# and writes the second buffer (separateinout); WaveToy_Evolve reads phi_p and phi_p_p, writes phi.
BYTES_A_POINT = {"HeatEquation": 2, "WaveToy": 3}
REAL_BYTES = {"fp64": 8, "fp32": 4}
REAL_TYPE = {"fp64": "double", "fp32": "float"}
# Rows of the report that are device time of kernels: launches, and a SYNC's packs and unpacks.
DEVICE_ROWS = ("CAKERNEL_Launch_", "SYNC: pack kernels", "SYNC: unpack kernels")


def parfile_text(args, thorn, n, iterations):
    lines = [
        f'ActiveThorns = "{thorn}"',
        f"Driver::global_nx = {n}", f"Driver::global_ny = {n}", f"Driver::global_nz = {n}",
        f'CaKernel::backend = "{args.backend}"',
        'Cactus::terminate = "iteration"',
        f"Cactus::cctk_itlast = {iterations}",
        "Cactus::progress_every = 0",
        f'IO::out_dir = "{os.path.join(args.work, "out")}"',
        f'CaKernel::cache_dir = "{os.path.join(args.work, "cache")}"',
        'CaKernel::autotune = "no"',
    ]
    if thorn == "HeatEquation":
        # Explicit Euler is stable for dt <= dx^2 / (6 alpha): the parfile's 0.08 dx^2.
        lines.append(f"Time::timestep = {0.08 / (n - 1) ** 2!r}")
    else:
        lines.append("Time::dtfac = 0.25")
    return "\n".join(lines + args.parameter + [""])


def copy_bandwidth(on_gpu):
    """Bytes read plus written per second by a copy on the device (or on the host), and what
    measured it: the same copies as bench/ldc_benchmark.py's."""
    if on_gpu:
        return ldc_torch.copy_bandwidth("cuda", 1024, 5)[0], "torch device-to-device copy"
    return ldc_benchmark.host_copy_bandwidth(), "numpy copy on the host"


def torch_sees_gpu():
    return ldc_torch.torch is not None and ldc_torch.torch.cuda.is_available()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opuntia")
    parser.add_argument("--thorn", action="append", choices=sorted(BYTES_A_POINT))
    parser.add_argument("--n", type=int, action="append")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--backend", default="cuda")
    parser.add_argument("--precision", choices=sorted(REAL_TYPE), default="fp64")
    parser.add_argument("--parameter", action="append", default=[],
                        help="a parameter line added to every run's file, e.g. 'CaKernel::variant = \"3dstencil\"'")
    parser.add_argument("--work", help="folder for the parameter files (default: a temporary one)")
    args = parser.parse_args()
    args.opuntia = os.path.abspath(args.opuntia)
    args.thorn = args.thorn or ["HeatEquation", "WaveToy"]
    args.n = args.n or [128, 256, 512]
    with tempfile.TemporaryDirectory(prefix="step_bench.") as scratch:
        args.work = os.path.abspath(args.work or scratch)
        os.makedirs(args.work, exist_ok=True)
        return benchmark(args)


def benchmark(args):
    on_gpu = args.backend != "openmp" and torch_sees_gpu()
    copy_bps, copy_source = copy_bandwidth(on_gpu)
    print(f"copy bandwidth: {copy_bps / 1e9:.1f} GB/s ({copy_source})")
    table = []
    for thorn in args.thorn:
        for n in args.n:
            iterations = timer_report.STEADY_AFTER + args.steps
            path = os.path.join(args.work, f"{thorn}_{n}.par")
            with open(path, "w") as f:
                f.write(parfile_text(args, thorn, n, iterations))
            run = timer_report.run(args.opuntia, path, args.work, "step_benchmark")
            if run.real_type != REAL_TYPE[args.precision]:
                raise SystemExit(f"step_benchmark: --precision {args.precision}, but {args.opuntia} has CCTK_REAL "
                                 f"{run.real_type}")
            if run.step is None:
                raise SystemExit(f"step_benchmark: no steady-state section in the timer report of {path}")
            for line in run.autotune_lines():
                print(line)
            kernels = {name: calls * per_call / args.steps for name, (calls, per_call) in run.rows.items()
                       if name.startswith(DEVICE_ROWS)}
            kernel_sum = sum(kernels.values())
            launches, host_per_launch = run.rows.get("kernel launches: host time", (0, 0.0))
            floor_bytes = BYTES_A_POINT[thorn] * REAL_BYTES[args.precision] * n ** 3
            fraction = floor_bytes / run.step / copy_bps
            print(f"{thorn} {n}^3 {args.precision} ({run.device}): step {run.step * 1e6:.1f} us, kernels "
                  f"{kernel_sum * 1e6:.1f} us ({', '.join(f'{k} {s * 1e6:.1f}' for k, s in kernels.items())}): "
                  f"the step {100 * (run.step / kernel_sum - 1):+.1f}% beyond its kernels; "
                  f"{100 * fraction:.1f}% of copy; host {host_per_launch * 1e6:.1f} us a launch "
                  f"({launches / args.steps:g} a step)")
            table.append((thorn, n, run.step, kernel_sum, fraction, host_per_launch))
    print()
    print(f"| thorn | n^3 | step (us) | its kernels (us) | step beyond kernels | step, of copy "
          f"({copy_bps / 1e9:.0f} GB/s) | host a launch (us) |")
    print("|---|---|---|---|---|---|---|")
    for thorn, n, step, kernel_sum, fraction, host in table:
        print(f"| {thorn} {args.precision} | {n} | {step * 1e6:.1f} | {kernel_sum * 1e6:.1f} | "
              f"{100 * (step / kernel_sum - 1):+.1f}% | {100 * fraction:.1f}% | {host * 1e6:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
