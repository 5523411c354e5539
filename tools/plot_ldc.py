#!/usr/bin/env python3
"""Plots a lid-driven cavity run against Ghia, Ghia & Shin (1982).

    plot_ldc.py OUT_DIR --reynolds 100 [--out OUT_DIR/lid_driven_cavity.png]

Reads the run's HDF5 output (IOHDF5::out_vars = "liddrivencavity::vx liddrivencavity::vy"):
OUT_DIR/vx.h5 and vy.h5, the last iteration both hold, in the mid-z plane. Draws (a) u along
the vertical centreline x = 0.5 and (b) v along the horizontal one y = 0.5 against Ghia's points
(docs/reference/), and (c) the speed |(u, v)| at the cell centres with streamlines. Prints the
same comparison lines as tools/ldc_compare.py, then where the PNG is; the PNG is written under a
temporary name and renamed, so a failed run leaves none.

The grid (thorns/LidDrivenCavity): N cells a side and a ghost cell each side, array indices
0..N+1, [z][y][x]; vx is vertex-centred in x (index i at x = (i - 1) h, the walls at i = 1 and
N + 1), vy in y; everything else cell-centred (index i at (i - 1/2) h).
Needs numpy, h5py and matplotlib (Debian: python3-numpy python3-h5py python3-matplotlib).
Exit status 0, or 1 with a message naming the file where it cannot read or write one.
"""
import argparse
import dataclasses
import os
import pathlib
import re
import sys
import tempfile

try:
    import h5py
    import matplotlib
    import numpy as np
except ImportError as e:
    sys.exit(f"{os.path.basename(sys.argv[0])}: error: {e.name} is missing: this tool needs numpy, h5py and "
             "matplotlib (Debian: python3-numpy python3-h5py python3-matplotlib; scripts/install_deps.sh installs "
             f"them) in {sys.executable}")
matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from csv_lines import input_error, whole_file_error
from ghia_reference import CENTRE, compare_centrelines, computed_line

IMPLEMENTATION = "LIDDRIVENCAVITY"
CENTERING = {"vx": "vcc", "vy": "cvc"}  # x, y, z: vertex- or cell-centred
AXES = "xyz"


@dataclasses.dataclass
class plane:
    """One velocity component in the mid-z plane, [y][x], ghost cells included."""
    path: str
    dataset: str
    values: object  # numpy array
    origin: tuple  # x, y, z of index 0
    delta: tuple
    time: float

    def coordinates(self, axis):
        d = AXES.index(axis)
        n = self.values.shape[1 - d]
        return [self.origin[d] + i * self.delta[d] for i in range(n)]


def open_hdf5(path):
    try:
        return h5py.File(path, "r")
    except OSError as e:
        # h5py's own errors (not HDF5, truncated) carry no errno.
        reason = os.strerror(e.errno) if e.errno else f"not an HDF5 file ({e})"
        raise whole_file_error(path, f"cannot read file: {reason}") from None


def iterations_in(path, variable):
    """The iterations of `variable`'s datasets in the HDF5 file `path`."""
    pattern = re.compile(re.escape(f"{IMPLEMENTATION}::{variable} it=") + r"(\d+)" + re.escape(" tl=0"))
    with open_hdf5(path) as f:
        return {int(m.group(1)) for m in map(pattern.fullmatch, f.keys()) if m}


def mid_z_plane(values):
    """The array [z][y][x] at the middle of its z points: the one cell of a 2D run (3 points
    along z), half way between the two middle planes of an even count."""
    nz = values.shape[0]
    lower = (nz - 1) // 2
    return values[lower] if nz % 2 else 0.5 * (values[lower] + values[lower + 1])


def read_plane(out_dir, variable, iteration):
    path = os.path.join(out_dir, f"{variable}.h5")
    name = f"{IMPLEMENTATION}::{variable} it={iteration} tl=0"
    with open_hdf5(path) as f:
        dataset = f[name]
        for key in ("origin", "delta", "centering", "time"):
            if key not in dataset.attrs:
                raise whole_file_error(path, f'"{name}" has no attribute "{key}"')
        centering = dataset.attrs["centering"]
        centering = centering.decode() if isinstance(centering, bytes) else str(centering)
        if centering != CENTERING[variable]:
            raise whole_file_error(path, f'"{name}" is centred "{centering}", not "{CENTERING[variable]}"')
        if dataset.ndim != 3 or min(dataset.shape[1:]) < 3:
            raise whole_file_error(path, f'"{name}" has the shape {dataset.shape}; expected [z][y][x] with at least '
                                         "one cell and its ghosts along x and y")
        try:
            values = mid_z_plane(np.asarray(dataset[()], dtype=float))
        except OSError as e:
            raise whole_file_error(path, f'cannot read "{name}": {e}') from None
        return plane(path, name, values, tuple(float(v) for v in dataset.attrs["origin"]),
                     tuple(float(v) for v in dataset.attrs["delta"]), float(dataset.attrs["time"]))


def latest_planes(out_dir):
    """vx and vy in the mid-z plane at the last iteration both files hold, and that iteration."""
    paths = {v: os.path.join(out_dir, f"{v}.h5") for v in CENTERING}
    found = {v: iterations_in(paths[v], v) for v in CENTERING}
    for v, iterations in found.items():
        if not iterations:
            raise whole_file_error(paths[v], f'no dataset "{IMPLEMENTATION}::{v} it=<n> tl=0"')
    common = found["vx"] & found["vy"]
    if not common:
        listed = "; ".join(f"{v}.h5: {', '.join(str(i) for i in sorted(its))}" for v, its in found.items())
        raise whole_file_error(paths["vy"], f"no iteration that vx.h5 holds too ({listed})")
    iteration = max(common)
    vx, vy = (read_plane(out_dir, v, iteration) for v in CENTERING)
    if vx.values.shape != vy.values.shape:
        raise whole_file_error(vy.path, f'"{vy.dataset}" has {vy.values.shape[1]} x {vy.values.shape[0]} points in '
                                        f'the plane, "{vx.dataset}" {vx.values.shape[1]} x {vx.values.shape[0]}')
    return vx, vy, iteration


def centreline(p, line, iteration):
    """The component of plane `p` along line.axis, interpolated linearly across to line.across =
    0.5; points outside its range are an input_error."""
    across = p.coordinates(line.across)
    if not across[0] <= CENTRE <= across[-1]:
        raise whole_file_error(p.path, f'the line {line.across} = {CENTRE:g} lies outside the points of "{p.dataset}", '
                                       f"{line.across} = {across[0]:g} to {across[-1]:g}")
    k = min(int(np.searchsorted(across, CENTRE, side="right")) - 1, len(across) - 2)
    t = (CENTRE - across[k]) / (across[k + 1] - across[k])
    values = p.values if line.across == "x" else p.values.T  # [along the line][across]
    # On a point (even N: the centrelines are faces of vx and vy) its values alone.
    profile = values[:, k] if t == 0 else (1 - t) * values[:, k] + t * values[:, k + 1]
    return computed_line(p.coordinates(line.axis), [float(v) for v in profile], p.path, iteration)


def cell_centred_velocity(vx, vy):
    """u and v at the interior cell centres [y][x] (indices 1..N), each the mean of the two
    faces of the cell it is staggered to, and the cells' x and y."""
    u = 0.5 * (vx.values[1:-1, 1:-1] + vx.values[1:-1, 2:])
    v = 0.5 * (vy.values[1:-1, 1:-1] + vy.values[2:, 1:-1])
    x = vy.coordinates("x")[1:-1]  # vy is cell-centred in x, vx in y
    y = vx.coordinates("y")[1:-1]
    return u, v, x, y


def draw_centreline(ax, c, reynolds, panel):
    """Panel `panel` ("a", "b"): the run's line `c` against Ghia's points, u against y and v
    against x as Ghia draws them."""
    line, run = c.line, c.computed
    value_across = line.component == "u"  # the value along the horizontal axis
    ax.set_title(f"({panel}) {line.component} along {line.across} = {CENTRE:g}")
    label = "this run"
    if c.reference is not None:
        points = [float(t) for t in c.reference.coordinates]
        ax.plot(*((c.reference.values, points) if value_across else (points, c.reference.values)), "o", mfc="none",
                color="black", label="Ghia, Ghia & Shin (1982)")
        label += f": max |{line.component} - {line.component}_Ghia| = {c.result.error:.4g}"
    else:
        label += f" (Ghia's tables here have no {line.component} at Re = {reynolds})"
    ax.plot(*((run.values, run.points) if value_across else (run.points, run.values)), "-", color="tab:blue",
            label=label)
    ax.set_xlabel(line.component if value_across else line.axis)
    ax.set_ylabel(line.axis if value_across else line.component)
    (ax.set_ylim if value_across else ax.set_xlim)(0, 1)  # the cavity, not its ghost cells
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")


def draw_speed(figure, ax, vx, vy):
    """Panel (b): |(u, v)| at the cell centres, and the streamlines where the field is finite."""
    u, v, x, y = cell_centred_velocity(vx, vy)
    speed = np.hypot(u, v)
    x, y = np.asarray(x), np.asarray(y)
    edges_x = np.append(x - vx.delta[0] / 2, x[-1] + vx.delta[0] / 2)
    edges_y = np.append(y - vx.delta[1] / 2, y[-1] + vx.delta[1] / 2)
    mesh = ax.pcolormesh(edges_x, edges_y, speed, cmap="viridis", shading="flat")
    finite = bool(np.isfinite(speed).all())
    if finite and np.any(speed > 0):
        ax.streamplot(x, y, u, v, color="white", density=1.4, linewidth=0.6, arrowsize=0.7)
    figure.colorbar(mesh, ax=ax, label="|(u, v)| at the cell centres")
    ax.set_aspect("equal")
    ax.set_xlim(edges_x[0], edges_x[-1])
    ax.set_ylim(edges_y[0], edges_y[-1])
    ax.set_title("(c) speed and streamlines" if finite else "(c) speed (NaN or Inf in it: no streamlines)")
    ax.set_xlabel("x")
    ax.set_ylabel("y")


def draw(comparisons, vx, vy, iteration, reynolds):
    figure, axes = plt.subplots(1, 3, figsize=(16, 5.2), constrained_layout=True)
    cells_y, cells_x = (n - 2 for n in vx.values.shape)
    figure.suptitle(f"lid-driven cavity, Re = {reynolds}, {cells_x} x {cells_y} cells, iteration {iteration}, "
                    f"t = {vx.time:.4g}")
    for ax, c, panel in zip(axes, comparisons, "ab"):
        draw_centreline(ax, c, reynolds, panel)
    draw_speed(figure, axes[2], vx, vy)
    return figure


def save_atomically(figure, path):
    """The PNG under a temporary name in the same folder, renamed when complete."""
    path = pathlib.Path(path)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise whole_file_error(str(path), f"cannot write file: {os.strerror(e.errno)}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 is for secrets; a plot is read as any output
        with os.fdopen(handle, "wb") as out:
            figure.savefig(out, format="png", dpi=110)
        os.replace(temporary, path)
    except BaseException as e:
        os.unlink(temporary)
        if isinstance(e, OSError):
            raise whole_file_error(str(path), f"cannot write file: {os.strerror(e.errno)}") from None
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", help="the run's IO::out_dir")
    parser.add_argument("--reynolds", type=int, required=True, help="the run's Reynolds number: 100 or 400")
    parser.add_argument("--out", help="the PNG to write (default: OUT_DIR/lid_driven_cavity.png)")
    arguments = parser.parse_args()
    out = arguments.out or os.path.join(arguments.out_dir, "lid_driven_cavity.png")
    try:
        vx, vy, iteration = latest_planes(arguments.out_dir)
        planes = {"vx": vx, "vy": vy}
        comparisons = []
        for c in compare_centrelines(arguments.reynolds, lambda line: centreline(planes[line.variable], line, iteration)):
            print(c.text, flush=True)
            comparisons.append(c)
        for k, c in enumerate(comparisons):
            if c.computed is None:  # no reference at this Re: the run's line alone
                comparisons[k] = dataclasses.replace(c, computed=centreline(planes[c.line.variable], c.line, iteration))
        save_atomically(draw(comparisons, vx, vy, iteration, arguments.reynolds), out)
    except input_error as e:
        print(e, file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
