"""Runs opuntia on a parameter file and reads its timer report: what bench/ldc_benchmark.py and
bench/step_benchmark.py take their figures from.

The steady-state section of the report (flesh/runtime/simulation.cpp, print_timer_report) holds
the iterations after the first 10 (simulation.hpp, steady_after_iterations): the first launches'
one-off costs (programs built, modules loaded, variants measured) are left out. Its rows are
"routine thorn calls µs-a-call ms-an-iteration"; a kernel's row is its device time (events around
its launch), a host routine's its host time."""
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

# The iterations the timer report leaves out of its steady-state section.
STEADY_AFTER = 10


@dataclass
class report:
    step: float | None  # steady-state seconds an iteration; None where the run was too short
    rows: dict = field(default_factory=dict)  # {routine: (calls, seconds a call)}, steady state
    real_type: str = "?"  # the start-up line's CCTK_REAL
    device: str = "?"  # rank 0's device, from the start-up report
    stdout: str = ""

    def autotune_lines(self):
        """What autotuning chose in the run (CaKernel::autotune = "cached" or "always"), one line
        a kernel: a benchmark prints them, so that its figures say which shapes they are of."""
        return [line for line in self.stdout.splitlines() if line.startswith("autotune:")]


def parse(stdout):
    steady = re.search(r"^\s+steady state, iterations \d+ to \d+: ([\d.]+) ms an iteration$", stdout, re.M)
    rows = {}
    if steady:
        for line in stdout[steady.end():].splitlines():
            # The routine's name may hold spaces ("kernel launches: host time"); the thorn does not.
            m = re.match(r"\s+(.+?)\s+(\S+)\s+(\d+)\s+([\d.]+)\s+[\d.]+$", line)
            if m:
                rows[m.group(1)] = (int(m.group(3)), float(m.group(4)) * 1e-6)
    real = re.search(r"CCTK_REAL (\w+)", stdout)
    device = re.search(r"^\s+rank 0 on .*?; (.*)$", stdout, re.M)
    return report(float(steady.group(1)) * 1e-3 if steady else None, rows, real.group(1) if real else "?",
                  device.group(1) if device else "?", stdout)


def run(opuntia, parfile, cwd, who):
    """Runs `opuntia parfile` in `cwd` and returns its report; a failed run ends the benchmark
    (`who` names it) with the run's last output."""
    # Every kernel loaded at start-up: with CUDA's lazy loading a kernel's first launch loads its
    # module, milliseconds that differ from run to run.
    environment = dict(os.environ, CUDA_MODULE_LOADING="EAGER")
    result = subprocess.run([opuntia, parfile], cwd=cwd, capture_output=True, text=True, env=environment)
    # Kept beside the parameter file: the run's notes (e.g. what autotuning chose) to read later.
    with open(os.path.splitext(parfile)[0] + ".out", "w") as output:
        output.write(result.stdout + result.stderr)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(f"{who}: {opuntia} {parfile} failed (exit {result.returncode})")
    parsed = parse(result.stdout)
    if parsed.real_type == "?":
        raise SystemExit(f"{who}: no CCTK_REAL in the output of {parfile}")
    return parsed
