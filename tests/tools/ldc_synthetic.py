#!/usr/bin/env python3
"""Writes the files a lid-driven cavity run would write, from fields whose error against Ghia's
tables is known, for tests/tools/ldc_compare_test.sh and plot_ldc_test.sh.

    ldc_synthetic.py csv DIR [--cells 16] [--ghia-points] [--crlf]
        DIR/vx.y.csv and DIR/vy.x.csv as IOASCII writes them (header iteration,time,x,y,z,<var>):
        iteration 0 all zero, then iteration 40 with u = y - 0.2 along x = 0.5 and v = 0.3 x along
        y = 0.5 at the points of a grid of --cells cells, ghost cells included. The lines are
        linear, so interpolation returns them exactly at Ghia's points: the largest |u - u_Ghia|
        is at y = 0.6172, |0.4172 + 0.13641| = 0.55361 at Re 100 and at y = 0.4531,
        |0.2531 + 0.17119| = 0.42429 at Re 400; the largest |v - v_Ghia| at x = 0.8047,
        |0.24141 + 0.24533| = 0.48674.
        --ghia-points: the points of Ghia's table instead, each with Ghia's value at Re 100, less
        0.0125 at y = 0.1719 and x = 0.8047 (0.005 at his other points): the largest error
        0.0125 there, found without interpolation.
    ldc_synthetic.py hdf5 DIR [--cells 16] [--three-d]
        DIR/vx.h5 and DIR/vy.h5 as IOHDF5 writes them (datasets "LIDDRIVENCAVITY::<var> it=<n>
        tl=0" of the arrays [z][y][x] with ghost cells, attributes origin, delta, centering,
        iteration, time; the group xdmf linking them), iterations 0 (zero) and 40, the grid of
        thorns/LidDrivenCavity's layout (vx vertex-centred in x, vy in y, xmin = -h). Along the
        centrelines of the mid-z plane the same u and v as `csv`; off them the fields vary
        linearly in x, y and z, so a column, row or plane taken beside the centreline changes
        the errors.
"""
import argparse
import pathlib

ITERATIONS = ((0, 0.0), (40, 0.5))
U_SLOPE_X, V_SLOPE_Y, SLOPE_Z = 0.4, -0.7, 0.3


def u_line(y):
    return y - 0.2


def v_line(x):
    return 0.3 * x


def ghia_rows(table, column):
    lines = [l for l in (pathlib.Path(__file__).resolve().parents[2] / "docs" / "reference" / table)
             .read_text().splitlines() if not l.startswith("#")]
    index = lines[0].split(",").index(column)
    rows = [(float(l.split(",")[0]), float(l.split(",")[index]), l.split(",")[0]) for l in lines[1:]]
    return sorted(rows)


def planted(rows, at):
    """Ghia's values less 0.0125 at `at` and 0.005 elsewhere, alternately above and below."""
    return [(x, value - 0.0125 if text == at else value + (0.005 if k % 2 else -0.005))
            for k, (x, value, text) in enumerate(rows)]


def write_csv(folder, cells, ghia_points, crlf):
    h = 1.0 / cells
    z = 0.5 * h  # the one cell of a 2D run along z
    if ghia_points:
        u = planted(ghia_rows("ghia1982_centerlines.csv", "u_Re100"), "0.1719")
        v = planted(ghia_rows("ghia1982_v_horizontal_re100.csv", "v_Re100"), "0.8047")
    else:
        points = [(j - 0.5) * h for j in range(cells + 2)]
        u = [(y, u_line(y)) for y in points]
        v = [(x, v_line(x)) for x in points]
    end = "\r\n" if crlf else "\n"
    for name, line, place in (("vx.y.csv", u, lambda s: (0.5, s, z)), ("vy.x.csv", v, lambda s: (s, 0.5, z))):
        text = f"iteration,time,x,y,z,{name[:2]}{end}"
        for iteration, time in ITERATIONS:
            for s, value in line:
                x, y, zz = place(s)
                text += f"{iteration},{time!r},{x!r},{y!r},{zz!r},{(value if iteration else 0.0)!r}{end}"
        (folder / name).write_bytes(text.encode())


def write_hdf5(folder, cells, three_d):
    import h5py
    import numpy as np

    h = 1.0 / cells
    n = cells + 2
    nz = n if three_d else 3
    zmid = 0.5 if three_d else 0.5 * h  # the middle of the cavity's cells along z
    index = np.arange(n, dtype=float)
    z = (np.arange(nz) - 0.5) * h
    cell = (index - 0.5) * h  # cell centres, ghosts included
    face = (index - 1) * h  # faces: index 1 the wall at 0
    Z = z[:, None, None]
    fields = {
        "vx": ("vcc", (-h, -0.5 * h, -0.5 * h),
               lambda: u_line(cell[None, :, None]) + U_SLOPE_X * (face[None, None, :] - 0.5) + SLOPE_Z * (Z - zmid)),
        "vy": ("cvc", (-0.5 * h, -h, -0.5 * h),
               lambda: v_line(cell[None, None, :]) + V_SLOPE_Y * (face[None, :, None] - 0.5) + SLOPE_Z * (Z - zmid)),
    }
    for name, (centering, origin, values) in fields.items():
        with h5py.File(folder / f"{name}.h5", "w") as f:
            group = f.create_group("xdmf")
            for iteration, time in ITERATIONS:
                data = np.broadcast_to(values(), (nz, n, n)) * (1.0 if iteration else 0.0)
                dataset = f.create_dataset(f"LIDDRIVENCAVITY::{name} it={iteration} tl=0", data=data)
                dataset.attrs["time"] = time
                dataset.attrs["iteration"] = np.int32(iteration)
                dataset.attrs["origin"] = np.array(origin)
                dataset.attrs["delta"] = np.array([h, h, h])
                dataset.attrs["centering"] = np.bytes_(centering)
                group[f"it={iteration}"] = dataset


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=("csv", "hdf5"))
    parser.add_argument("folder", type=pathlib.Path)
    parser.add_argument("--cells", type=int, default=16)
    parser.add_argument("--ghia-points", action="store_true")
    parser.add_argument("--crlf", action="store_true")
    parser.add_argument("--three-d", action="store_true")
    arguments = parser.parse_args()
    arguments.folder.mkdir(parents=True, exist_ok=True)
    if arguments.kind == "csv":
        write_csv(arguments.folder, arguments.cells, arguments.ghia_points, arguments.crlf)
    else:
        write_hdf5(arguments.folder, arguments.cells, arguments.three_d)


if __name__ == "__main__":
    main()
