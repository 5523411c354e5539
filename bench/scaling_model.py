#!/usr/bin/env python3
"""Predicts the weak-scaling efficiency of the Cartesian driver on 8 to 1024 GPUs from measured
per-GPU costs. What it models, its formulas and its limits: docs/performance-model.md.

Usage: scaling_model.py [--inputs FILE] (--markdown | --all | --check | --compare CSV)
  --inputs FILE  the per-GPU costs (default: scaling_model_inputs.json beside this script)
  --markdown     the tables docs/performance-model.md includes, each between marker comments
  --all          every configuration's efficiency at every GPU count, one CSV line each
  --check        the model's sanity: efficiency in (0, 1], never higher on more GPUs, overlap
                 never worse, wide ghosts send 1/k the messages a step; exit 1 if one fails
An input file with a mistake gives `path:line:column: error: message`, the line and a caret."""
import argparse
import json
import math
import pathlib
import re
import sys
from dataclasses import dataclass, replace
from functools import lru_cache

GPUS_PER_NODE = 8
RANK_COUNTS = tuple(2**e for e in range(3, 11))  # 8 .. 1024
BLOCK_SIDES = (256, 512)  # points per GPU: side^3
GHOST_FACTORS = (1, 2, 3)  # ghost width g = k * radius
TOPOLOGIES = ("automatic", "no_x_split", "slab")
LINE_RATES_GBIT = (200, 400)  # network per GPU
PRECISIONS = ("fp32", "fp64")
VALUE_BYTES = {"fp32": 4, "fp64": 8}
TARGET = 0.80


@dataclass(frozen=True)
class kernel:
    name: str
    radius: int
    rate_of: str  # which measured kernel's rate: "radius1" or "radius4"
    values_per_point: int  # values read plus written; the measured stencils move 2 (u in, u_out out)
    residual: bool  # a global reduction after every pressure_sweeps_per_residual sweeps


KERNELS = (
    kernel("radius 1", 1, "radius1", 2, False),
    kernel("radius 4", 4, "radius4", 2, False),
    # Jacobi: p_new = (sum of the 6 neighbours of p - h^2 rhs) / 6 reads p and rhs, writes p_new.
    kernel("pressure sweep", 1, "radius1", 3, True),
)


@dataclass(frozen=True)
class setting:
    kernel: kernel
    precision: str
    side: int
    line_rate_gbit: int
    topology: str
    ghost_factor: int
    overlap: bool
    staged: bool = False  # MPI without CUDA support: halos through pinned host buffers


# ---------------------------------------------------------------------------------- inputs

INPUT_NAMES = (
    "radius1_fp32_points_per_second", "radius1_fp64_points_per_second",
    "radius4_fp32_points_per_second", "radius4_fp64_points_per_second",
    "kernel_launch_seconds", "host_device_bandwidth", "host_device_latency_seconds",
    "mpi_message_overhead_seconds", "nvlink_latency_seconds", "network_latency_seconds",
    "nvlink_bandwidth", "host_shared_memory_bandwidth", "network_efficiency",
    "pressure_sweeps_per_residual",
    "step_overhead_seconds", "rim_face_seconds", "rim_efficiency", "x_face_overhead",
    "exposed_exchange_seconds", "host_driven_exchange_seconds",
)
AT_MOST = {"network_efficiency": 1, "rim_efficiency": 1}  # fractions
# What an input must say about where its value comes from, by status.
PROVENANCE = {"measured": ("device", "date", "command", "how"), "assumed": ("reasoning",)}


class input_error(Exception):
    pass


def diagnostic(path, text, offset, message):
    """`path:line:column: error: message`, the line, a caret under the column."""
    line_number = text.count("\n", 0, offset) + 1
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    column = offset - line_start + 1
    caret = "".join("\t" if c == "\t" else " " for c in line[:column - 1]) + "^"
    return f"{path}:{line_number}:{column}: error: {message}\n{line}\n{caret}"


def key_offset(text, keys):
    """Where the last of `keys` (a path of object keys, each searched after the previous) is written."""
    offset = 0
    for key in keys:
        match = re.compile(r'"' + re.escape(key) + r'"\s*:').search(text, offset)
        if not match:
            return offset
        offset = match.start()
    return offset


def value_offset(text, keys):
    match = re.compile(r'"[^"]*"\s*:\s*').match(text, key_offset(text, keys))
    return match.end() if match else key_offset(text, keys)


def load_inputs(path):
    """The input values by name, and the entries as written; raises input_error with the
    diagnostic of the first mistake."""
    text = pathlib.Path(path).read_text(encoding="utf-8")

    def error(offset, message):
        return input_error(diagnostic(path, text, offset, message))

    try:
        document = json.loads(text)
    except json.JSONDecodeError as e:
        raise error(e.pos, e.msg.lower())
    entries = document.get("inputs") if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        raise error(0, 'the file must be an object with an object "inputs"')
    for name in entries:
        if name not in INPUT_NAMES:
            raise error(key_offset(text, ["inputs", name]), f"unknown input '{name}'")
    for name in INPUT_NAMES:
        if name not in entries:
            raise error(key_offset(text, ["inputs"]), f"input '{name}' is missing")
    values = {}
    for name, entry in entries.items():
        where = ["inputs", name]
        if not isinstance(entry, dict):
            raise error(value_offset(text, where), f"input '{name}' must be an object")

        def at(field):  # the field's value where it is written, else the entry's name
            return value_offset(text, where + [field]) if field in entry else key_offset(text, where)

        value = entry.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise error(at("value"), f"input '{name}' needs a positive number 'value'")
        if value > AT_MOST.get(name, math.inf):
            raise error(at("value"), f"input '{name}' is at most {AT_MOST[name]:g}")
        status = entry.get("status")
        if status not in PROVENANCE:
            raise error(at("status"), f"input '{name}': 'status' must be \"measured\" or \"assumed\"")
        for field in PROVENANCE[status] + ("unit",):
            if not isinstance(entry.get(field), str) or not entry[field].strip():
                raise error(at(field), f"{status} input '{name}' needs '{field}'")
        values[name] = float(value)
    return values, entries


# ---------------------------------------------------------------------------- topologies

def prime_factors(n):
    """The prime factors of n, largest first."""
    factors, p = [], 2
    while p * p <= n:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    if n > 1:
        factors.append(n)
    return sorted(factors, reverse=True)


def choose_topology(ranks, owned, split_x):
    """thorns/Driver/src/cartesian_topology.cpp, choose_topology: each prime factor, largest first,
    splits the free direction whose blocks are largest; among equal blocks z, then y, then x."""
    topology = [1, 1, 1]
    for p in prime_factors(ranks):
        best = None
        for d in (2, 1, 0):
            if d == 0 and not split_x:
                continue
            if best is None or owned[d] / topology[d] > owned[best] / topology[best]:
                best = d
        topology[best] *= p
    return tuple(topology)


def global_grid(ranks, side):
    """The grid of the weak-scaling run: what `automatic` cuts into blocks of side^3 points."""
    return tuple(side * p for p in choose_topology(ranks, (side, side, side), True))


def topology_of(name, ranks, grid):
    if name == "slab":  # Driver::processor_topology = "manual", 1 x 1 x N
        return (1, 1, ranks)
    return choose_topology(ranks, grid, name == "automatic")


@lru_cache(maxsize=None)
def rank_views(ranks, topology):
    """What a rank sees, for every kind of rank: per direction, the links to its neighbours
    ("nvlink" within a node, "network" across nodes). Ranks are numbered x fastest (as
    MPI_Cart_create and rank_coordinates) and nodes hold GPUS_PER_NODE consecutive ranks."""
    px, py, _ = topology
    views = set()
    for rank in range(ranks):
        coordinates = (rank % px, rank // px % py, rank // (px * py))
        view = []
        for d in range(3):
            links = []
            for step in (-1, 1):
                c = list(coordinates)
                c[d] += step
                if 0 <= c[d] < topology[d]:  # not periodic: the outer faces are physical
                    neighbour = c[0] + px * (c[1] + py * c[2])
                    links.append("nvlink" if neighbour // GPUS_PER_NODE == rank // GPUS_PER_NODE else "network")
            view.append(tuple(sorted(links)))
        views.add(tuple(view))
    return frozenset(views)


# --------------------------------------------------------------------------------- model

@dataclass
class step_costs:
    seconds: float  # a step on N GPUs, averaged over the k steps between exchanges
    single_gpu_seconds: float  # the same step on one GPU: no exchange, no redundant points
    messages_per_step: float  # sent by the busiest rank
    exchange: float  # seconds of one exchange without overlap, the slowest rank's
    network_bytes: float  # sent over the network in one exchange by the busiest rank

    @property
    def efficiency(self):
        return self.single_gpu_seconds / self.seconds


def allreduce_seconds(ranks, i):
    """Recursive doubling: log2(N) exchanges of one small message, the first 3 within a node."""
    hops = math.ceil(math.log2(ranks))
    within = min(hops, int(math.log2(GPUS_PER_NODE)))
    hop_overhead = 2 * i["mpi_message_overhead_seconds"]
    return within * (i["nvlink_latency_seconds"] + hop_overhead) + \
        (hops - within) * (i["network_latency_seconds"] + hop_overhead)


def faces(view, block, g):
    """(direction, neighbour sides, points of one face's slab) for each direction `view` exchanges:
    a slab is g layers deep and spans the owned block in the other two directions (the SYNC of a
    star stencil fills the faces only, in one round: Driver::sync_faces_only)."""
    sides = [len(view[d]) for d in range(3)]
    return [(d, sides[d], g * math.prod(block[e] for e in range(3) if e != d)) for d in range(3) if sides[d]]


def link_costs(s, i):
    """Latency and bandwidth of a message within a node ("nvlink"; through host memory on the
    staged path) and across nodes ("network")."""
    return {"network": (i["network_latency_seconds"], s.line_rate_gbit * 1e9 / 8 * i["network_efficiency"]),
            "nvlink": (i["nvlink_latency_seconds"],
                       i["host_shared_memory_bandwidth"] if s.staged else i["nvlink_bandwidth"])}


def link_seconds(s, view, block, i, link):
    """The messages of one exchange on `link` ("network" or "nvlink"): each neighbour's face over
    the GPU's one link of that kind, one after the other; 0 where no neighbour is across it."""
    g, value_bytes = s.ghost_factor * s.kernel.radius, VALUE_BYTES[s.precision]
    latency, bandwidth = link_costs(s, i)[link]
    sent = sum(points * value_bytes * view[d].count(link) for d, _, points in faces(view, block, g))
    return latency + sent / bandwidth if sent else 0.0


def network_seconds(s, view, block, i):
    """What crosses the network in one exchange."""
    return link_seconds(s, view, block, i, "network")


def staging_seconds(s, view, block, i):
    """The staged path's copies of one exchange: its faces to the host and back."""
    if not s.staged:
        return 0.0
    g, value_bytes = s.ghost_factor * s.kernel.radius, VALUE_BYTES[s.precision]
    face_bytes = sum(sides * points * value_bytes for _, sides, points in faces(view, block, g))
    return 2 * (i["host_device_latency_seconds"] + face_bytes / i["host_device_bandwidth"])


def within_node_seconds(s, view, block, i):
    """Messages within the node: through host memory on the staged path (the device path's
    packs write into the neighbour over NVLink, inside the measured exchange costs)."""
    return link_seconds(s, view, block, i, "nvlink") if s.staged else 0.0


def exchange_seconds(s, view, block, i):
    """One exchange without overlap, for one kind of rank: the host-driven chain of kernel wait,
    packs, messages and unpacks (host_driven_exchange_seconds, measured on one node), then what
    crosses the network, and the staged path's copies."""
    return (i["host_driven_exchange_seconds"] + network_seconds(s, view, block, i)
            + within_node_seconds(s, view, block, i) + staging_seconds(s, view, block, i))


def predict(s, ranks, i, grid=None, topology=None, rate=None):
    """The step_costs of setting `s` on `ranks` GPUs, or None where the driver refuses the split
    (a block thinner than its ghost zones). By default the weak-scaling grid of blocks of
    s.side^3, split as s.topology says, at the input's kernel rate; `grid`, `topology` and `rate`
    (points a second on one GPU) give a measured run's instead (--compare)."""
    r, k = s.kernel.radius, s.ghost_factor
    g = k * r
    if rate is None:
        rate = i[f"{s.kernel.rate_of}_{s.precision}_points_per_second"] * 2 / s.kernel.values_per_point
    launch = i["kernel_launch_seconds"]
    grid = grid or global_grid(ranks, s.side)
    topology = topology or topology_of(s.topology, ranks, grid)
    block = [grid[d] / topology[d] for d in range(3)]
    if any(topology[d] > 1 and block[d] < g for d in range(3)):
        return None

    def kernel_seconds(points):
        return launch + points / rate

    views = rank_views(ranks, topology)
    # One round of faces; a rank waits for its slowest neighbour, so the slowest rank sets it.
    exchange = max(exchange_seconds(s, view, block, i) for view in views)
    messages = max(sum(len(links) for links in view) for view in views)
    network_bytes = max(sum(points * VALUE_BYTES[s.precision] * view[d].count("network")
                            for d, _, points in faces(view, block, g)) for view in views)

    steps = [0.0] * k  # the k steps from one exchange to the next, each the slowest rank's
    for view in views:
        sides = [len(links) for links in view]
        # Step j after an exchange updates the points the later steps still need: (k-1-j) r
        # layers of ghost points beyond the owned block on every face with a neighbour.
        work = [math.prod(block[d] + sides[d] * (k - 1 - j) * r for d in range(3)) for j in range(k)]
        # With overlap the rim goes first, one launch a face with a neighbour (2g layers, run at
        # rim_efficiency of the kernel's rate, plus rim_face_seconds for the launch and the
        # interior's sub-box), then the interior while the halo moves. What the measurements
        # (bench/RESULTS.md, 2026-11-27) show of the rest: the packs, which carry the transfer
        # within the node, wait for the interior's blocks to leave the SMs, so the exchange adds
        # exposed_exchange_seconds (its host waits; the faces of a round go together), and the
        # network's messages after the packs are not hidden either. A rank with x neighbours computes x_face_overhead more.
        interior = math.prod(max(0.0, block[d] - sides[d] * r) for d in range(3))
        own = sum(sides)
        # Measured on blocks of 256-point rows; with or without overlap (shorter rows, strided packs).
        x_split = i["x_face_overhead"] * kernel_seconds(work[0]) if sides[0] else 0.0
        if s.overlap and interior > 0 and own:
            # A face's rim is 2g layers (twice its slab's points): two layers at rim_efficiency
            # (what was fitted, g = 1), the rest at the kernel's rate.
            rims = sum(n * (i["rim_face_seconds"] + (2 * points / g) / (rate * i["rim_efficiency"])
                            + (2 * points - 2 * points / g) / rate)
                       for _, n, points in faces(view, block, g))
            first = (kernel_seconds(work[0]) + rims + x_split + i["exposed_exchange_seconds"]
                     + network_seconds(s, view, block, i) + within_node_seconds(s, view, block, i)
                     + staging_seconds(s, view, block, i))
        elif own:
            first = kernel_seconds(work[0]) + x_split + exchange
        else:
            first = kernel_seconds(work[0])
        costs = [first] + [kernel_seconds(w) for w in work[1:]]
        steps = [max(a, b) for a, b in zip(steps, costs)]
    single = kernel_seconds(math.prod(block)) + i["step_overhead_seconds"]
    seconds = sum(steps) / k + i["step_overhead_seconds"]
    if s.kernel.residual:
        sweeps = i["pressure_sweeps_per_residual"]
        local = launch + i["host_device_latency_seconds"]  # the last reduction kernel, one value to the host
        single += local / sweeps
        seconds += (local + allreduce_seconds(ranks, i)) / sweeps
    return step_costs(seconds, single, messages / k, exchange, network_bytes)


# ------------------------------------------------------------------------------- output

def every_setting(staged=False):
    for kern in KERNELS:
        for precision in PRECISIONS:
            for side in BLOCK_SIDES:
                for rate in LINE_RATES_GBIT:
                    for topology in TOPOLOGIES:
                        for k in GHOST_FACTORS:
                            for overlap in (False, True):
                                yield setting(kern, precision, side, rate, topology, k, overlap, staged)


def efficiency(s, ranks, i):
    costs = predict(s, ranks, i)
    return None if costs is None else costs.efficiency


def percent(e):
    return "refused" if e is None else f"{100 * e:.0f}"


def pair(a, b):
    return f"{percent(a)} / {percent(b)}"


def without_with(s, ranks, i):
    """"without / with overlap" for setting `s`."""
    return pair(efficiency(replace(s, overlap=False), ranks, i), efficiency(replace(s, overlap=True), ranks, i))


def table(labels, columns, rows):
    """A markdown table: `labels` name the left-aligned columns that open each row, `columns` the
    right-aligned ones after them."""
    return (["| " + " | ".join(labels + columns) + " |", "|" + "---|" * len(labels) + "---:|" * len(columns)]
            + ["| " + " | ".join(row) + " |" for row in rows])


def section(name, lines):
    return [f"<!-- scaling_model.py: {name} -->"] + lines + ["<!-- end -->", ""]


def inputs_table(entries):
    return ["| input | value | unit | status |", "|---|---:|---|---|"] + [
        f"| `{name}` | {entries[name]['value']:.4g} | {entries[name]['unit']} | {entries[name]['status']} |"
        for name in INPUT_NAMES]


def at_largest_table(i, precision):
    """Efficiency at the largest GPU count: without / with overlap, per network rate and ghost width."""
    n = RANK_COUNTS[-1]
    return table(["kernel", "per GPU", "topology"],
                 [f"{rate} Gb/s, g = {k}r" for rate in LINE_RATES_GBIT for k in GHOST_FACTORS],
                 [[kern.name, f"{side}³", topology]
                  + [without_with(setting(kern, precision, side, rate, topology, k, False), n, i)
                     for rate in LINE_RATES_GBIT for k in GHOST_FACTORS]
                  for kern in KERNELS for side in BLOCK_SIDES for topology in TOPOLOGIES])


def versus_ranks_table(i):
    """automatic, fp32, overlap: efficiency at 200 / 400 Gb/s against the GPU count."""
    return table(["kernel", "per GPU", "g"], [str(n) for n in RANK_COUNTS],
                 [[kern.name, f"{side}³", f"{k}r"]
                  + [pair(*(efficiency(setting(kern, "fp32", side, rate, "automatic", k, True), n, i)
                            for rate in LINE_RATES_GBIT)) for n in RANK_COUNTS]
                  for kern in KERNELS for side in BLOCK_SIDES for k in GHOST_FACTORS])


def topologies_table(i):
    """radius 1, fp32, 200 Gb/s, g = r: every topology without / with overlap against the GPU count."""
    return table(["per GPU", "topology"], [str(n) for n in RANK_COUNTS],
                 [[f"{side}³", topology]
                  + [without_with(setting(KERNELS[0], "fp32", side, LINE_RATES_GBIT[0], topology, 1, False), n, i)
                     for n in RANK_COUNTS]
                  for side in BLOCK_SIDES for topology in TOPOLOGIES])


def breakdown_table(i):
    """Where the time goes at the largest count: automatic, fp32, 200 Gb/s, g = r."""
    n = RANK_COUNTS[-1]
    rows = []
    for kern in KERNELS:
        for side in BLOCK_SIDES:
            s = setting(kern, "fp32", side, LINE_RATES_GBIT[0], "automatic", 1, False)
            without, overlapped = predict(s, n, i), predict(replace(s, overlap=True), n, i)
            rows.append([kern.name, f"{side}³", f"{1e6 * without.single_gpu_seconds:.1f}",
                         f"{1e6 * without.exchange:.1f}", f"{without.network_bytes / 1e6:.2f}",
                         f"{1e6 * without.seconds:.1f} / {1e6 * overlapped.seconds:.1f}",
                         pair(without.efficiency, overlapped.efficiency)])
    return table(["kernel", "per GPU"], ["step on 1 GPU, µs", "exchange without overlap, µs", "network MB",
                                         "step without / with overlap, µs", "efficiency, %"], rows)


def staged_table(i):
    """The staged path at the largest count: automatic, fp32, 200 Gb/s."""
    n = RANK_COUNTS[-1]
    return table(["kernel", "per GPU"], [f"g = {k}r" for k in GHOST_FACTORS],
                 [[kern.name, f"{side}³"]
                  + [without_with(setting(kern, "fp32", side, LINE_RATES_GBIT[0], "automatic", k, False, staged=True),
                                  n, i) for k in GHOST_FACTORS]
                  for kern in KERNELS for side in BLOCK_SIDES])


def passing_list(i):
    """Every setting at or above the target at the largest GPU count, grouped."""
    n = RANK_COUNTS[-1]
    groups = {}
    for s in every_setting():
        e = efficiency(s, n, i)
        if e is not None and e >= TARGET:
            key = (s.kernel.name, s.precision, s.side, s.line_rate_gbit)
            groups.setdefault(key, []).append(f"{s.topology} g = {s.ghost_factor}r "
                                              f"{'overlap' if s.overlap else 'no overlap'} ({percent(e)}%)")
    lines = [f"- {name}, {precision}, {side}³, {rate} Gb/s: " + "; ".join(found)
             for (name, precision, side, rate), found in groups.items()]
    missing = [f"{kern.name} {precision} {side}³" for kern in KERNELS for precision in PRECISIONS
               for side in BLOCK_SIDES
               if not any(key[:3] == (kern.name, precision, side) for key in groups)]
    if missing:
        lines.append("- none at either network rate: " + "; ".join(missing))
    return lines


def markdown(i, entries):
    out = []
    out += section("inputs", inputs_table(entries))
    out += section("breakdown_at_1024", breakdown_table(i))
    out += section("fp32_at_1024", at_largest_table(i, "fp32"))
    out += section("fp64_at_1024", at_largest_table(i, "fp64"))
    out += section("versus_gpus", versus_ranks_table(i))
    out += section("topologies_versus_gpus", topologies_table(i))
    out += section("staged_at_1024", staged_table(i))
    out += section("at_least_80", passing_list(i))
    return "\n".join(out)


def every_line(i):
    out = ["kernel,precision,per_gpu,gbit,topology,ghost_factor,overlap,path," + ",".join(map(str, RANK_COUNTS))]
    for staged in (False, True):
        for s in every_setting(staged):
            cells = [percent(efficiency(s, n, i)) for n in RANK_COUNTS]
            out.append(f"{s.kernel.name},{s.precision},{s.side},{s.line_rate_gbit},{s.topology},{s.ghost_factor},"
                       f"{int(s.overlap)},{'staged' if staged else 'device'}," + ",".join(cells))
    return "\n".join(out)


def intra_node_no_slower(s, i):
    """Whether a message within a node costs no more than one across nodes. Only then must more
    GPUs never raise the efficiency: otherwise a split that sends a face over the network instead
    of the slower link within the node gains (the staged path, whose messages within a node go
    through host memory, slower than a 400 Gb/s network)."""
    links = link_costs(s, i)
    return links["nvlink"][0] <= links["network"][0] and links["nvlink"][1] >= links["network"][1]


def check(i):
    """The model's sanity; returns the list of what failed. (Whether overlap wins is not one of
    them: with measured rim and exposure costs a face, it loses where a rank has many faces and
    little interior, and measurements decide the default.)"""
    failures = []
    for staged in (False, True):
        for s in every_setting(staged):
            monotone = intra_node_no_slower(s, i)
            previous, previous_n, refused_n = None, None, None
            for n in RANK_COUNTS:
                costs = predict(s, n, i)
                if costs is None:
                    refused_n = refused_n or n
                    continue
                if refused_n:  # blocks only get thinner with more GPUs
                    failures.append(f"{s}: refused on {refused_n} GPUs but not on {n}")
                e = costs.efficiency
                if not 0 < e <= 1:
                    failures.append(f"{s} on {n} GPUs: efficiency {e} outside (0, 1]")
                if monotone and previous is not None and e > previous * (1 + 1e-12):
                    failures.append(f"{s}: efficiency {e} on {n} GPUs above {previous} on {previous_n}")
                previous, previous_n = e, n
                if s.ghost_factor > 1:
                    once = predict(replace(s, ghost_factor=1), n, i)
                    if once is not None and abs(costs.messages_per_step * s.ghost_factor
                                                - once.messages_per_step) > 1e-12:
                        failures.append(f"{s} on {n} GPUs: {costs.messages_per_step} messages a step, "
                                        f"not 1/{s.ghost_factor} of {once.messages_per_step}")
    return failures


COMPARED_KERNELS = {"radius1": KERNELS[0], "radius4": KERNELS[1]}


def compare(path, i):
    """Markdown rows of a measured table (bench/halo_scaling.sh's CSV) with the model's step and
    efficiency beside each: the model at the measured grid and split, its kernel rate the
    measured one (the 1-GPU row of the same kernel and size: points / compute), so that what it
    is held to is the cost of the exchange. Returns the lines and the largest miss of the step."""
    import csv
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    lines = table(["precision", "kernel", "scaling", "GPUs", "split", "ghosts", "overlap", "grid"],
                  ["step µs", "compute", "pack", "messages", "unpack", "model step µs", "miss %", "efficiency %",
                   "model %"], [])
    worst = 0.0
    baseline = None
    for row in rows:
        gpus = int(row["gpus"])
        grid = tuple(int(row[a]) for a in ("nx", "ny", "nz"))
        points = math.prod(grid)
        step = float(row["step_us"]) * 1e-6
        if gpus == 1:
            baseline = (points, float(row["compute_us"]) * 1e-6, step)
        model_step = model_efficiency = None
        kern = COMPARED_KERNELS.get(row["kernel"])
        if kern is not None and baseline is not None:
            whole, compute, _ = baseline
            rate = whole / (compute - i["kernel_launch_seconds"])
            split = tuple(int(p) for p in row["topology"].split("x"))
            ghosts = int(row["ghosts"])
            s = setting(kern, row["precision"], 0, LINE_RATES_GBIT[0], row["topology_asked"],
                        max(1, ghosts // kern.radius), row["overlap"] == "yes")
            costs = predict(s, gpus, i, grid=grid, topology=split, rate=rate) if gpus > 1 else None
            single = i["kernel_launch_seconds"] + whole / rate + i["step_overhead_seconds"]
            model_step = costs.seconds if costs else single
            model_efficiency = single / (model_step * (gpus if row["scaling"] == "strong" else 1))
            worst = max(worst, abs(model_step - step) / step)
        cells = [row[c] for c in ("precision", "kernel", "scaling", "gpus", "topology", "ghosts", "overlap")]
        cells.append("x".join(map(str, grid)))
        cells += [row[c] for c in ("step_us", "compute_us", "pack_us", "messages_us", "unpack_us")]
        if model_step is None:
            cells += ["-", "-", row["efficiency"], "-"]
        else:
            cells += [f"{1e6 * model_step:.1f}", f"{100 * (model_step - step) / step:+.0f}", row["efficiency"],
                      f"{100 * model_efficiency:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", default=str(pathlib.Path(__file__).with_name("scaling_model_inputs.json")))
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--markdown", action="store_true")
    what.add_argument("--all", action="store_true")
    what.add_argument("--check", action="store_true")
    what.add_argument("--compare", metavar="CSV", help="bench/halo_scaling.sh's rows beside the model's")
    arguments = parser.parse_args()
    try:
        i, entries = load_inputs(arguments.inputs)
    except input_error as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{arguments.inputs}: error: {e.strerror}", file=sys.stderr)
        return 2
    if arguments.markdown:
        print(markdown(i, entries), end="")
    elif arguments.all:
        print(every_line(i))
    elif arguments.compare:
        try:
            lines, worst = compare(arguments.compare, i)
        except OSError as e:
            print(f"{arguments.compare}: error: {e.strerror}", file=sys.stderr)
            return 2
        except (KeyError, ValueError) as e:
            print(f"{arguments.compare}: error: not a table of bench/halo_scaling.sh: {type(e).__name__} {e}",
                  file=sys.stderr)
            return 1
        print("\n".join(lines))
        print(f"\nlargest miss of the model's step: {100 * worst:.0f}%")
    else:
        failures = check(i)
        for failure in failures:
            print(failure)
        settings = 2 * sum(1 for _ in every_setting())
        print(f"{settings} settings x {len(RANK_COUNTS)} GPU counts: "
              + ("all sane" if not failures else f"{len(failures)} failure(s)"))
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
