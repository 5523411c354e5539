#!/usr/bin/env python3
"""Reads back what IOHDF5 and IOASCII wrote for tests/thorns/OutputCheck and checks every byte of it.

    output_check.py check DIR --iterations 0,1,2 [--periodic-z] [--xline-y Y --xline-z Z] [--pvpython-expect FILE]
        The HDF5 files (dataset names, shapes, types, attributes, values against the formulas of
        tests/thorns/OutputCheck/src/Fill.kernel), the XDMF files (parsed: the temporal collection,
        the mesh's origin and spacing, the datasets they point to) and the CSV lines (their points
        and coordinates, and values equal to the HDF5 data). --pvpython-expect writes what
        output_pvpython.py must find through ParaView.
    output_check.py same DIR1 DIR2
        The two runs wrote the same datasets bit for bit, the same attributes, XDMF and CSV text.

Prints one line per failure and exits 1 if there was any.
"""
import argparse
import csv
import json
import math
import pathlib
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

# The grid of tests/e2e/output_test.sh: sizes, domain minimum and spacing along x, y, z, and dt.
GLOBAL = (13, 11, 9)
ORIGIN = (-1.0, 0.0, -2.0)
DELTA = (0.125, 0.25, 0.5)
DT = 0.25

# Each variable: its implementation's name as Cactus writes it, centering, type, and its values
# at global indices (i, j, k) (numpy arrays, z slowest) and iteration `it`.
def coordinate(d, index, offset):
    return ORIGIN[d] + (index + offset) * DELTA[d]


def formulas():
    def x(o, i): return coordinate(0, i, o)
    def y(o, j): return coordinate(1, j, o)
    def z(o, k): return coordinate(2, k, o)
    return {
        "v": ("vvv", "f8", lambda i, j, k, it: x(0, i) + 2 * y(0, j) + 4 * z(0, k) + 8 * (it * DT)),
        "c": ("ccc", "f8", lambda i, j, k, it: x(0.5, i) - y(0.5, j) + 2 * z(0.5, k) + it * DT),
        "c2": ("ccc", "f8", lambda i, j, k, it: 2 * (x(0.5, i) - y(0.5, j) + 2 * z(0.5, k) + it * DT)),
        "f": ("vcc", "f8", lambda i, j, k, it: 4 * x(0, i) + y(0.5, j) - z(0.5, k) - it * DT),
        "n": ("vvv", "i4", lambda i, j, k, it: i + 100 * j + 10000 * k + 1000000 * it),
    }


failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
    return condition


def offsets(centering):
    return [0.5 if letter == "c" else 0.0 for letter in centering]


def check_hdf5(folder, name, centering, dtype, value, iterations, extent):
    path = folder / f"{name}.h5"
    if not expect(path.is_file(), f"{path} is missing"):
        return {}
    datasets = {}
    with h5py.File(path, "r") as f:
        expected_names = {f"OUTPUTCHECK::{name} it={it} tl=0" for it in iterations} | {"xdmf"}
        expect(set(f.keys()) == expected_names, f"{path}: datasets {sorted(f.keys())}, expected {sorted(expected_names)}")
        links = {f"it={it}" for it in iterations}
        expect("xdmf" in f and set(f["xdmf"].keys()) == links, f"{path}: the group xdmf holds "
               f"{sorted(f['xdmf'].keys()) if 'xdmf' in f else 'nothing'}, expected {sorted(links)}")
        o = offsets(centering)
        k, j, i = np.meshgrid(np.arange(extent[2]), np.arange(extent[1]), np.arange(extent[0]), indexing="ij")
        for it in iterations:
            key = f"OUTPUTCHECK::{name} it={it} tl=0"
            if key not in f:
                continue
            d = f[key]
            where = f"{path}:{key}"
            expect(f.get(f"xdmf/it={it}") == d, f"{where}: xdmf/it={it} is not a second name of the dataset")
            expect(d.shape == (extent[2], extent[1], extent[0]), f"{where}: shape {d.shape}")
            expect(d.dtype == np.dtype(dtype), f"{where}: type {d.dtype}, expected {dtype}")
            a = d.attrs
            expect(a["time"] == it * DT, f"{where}: time {a['time']}")
            expect(a["iteration"] == it, f"{where}: iteration {a['iteration']}")
            origin = [ORIGIN[axis] + o[axis] * DELTA[axis] for axis in range(3)]
            expect(list(a["origin"]) == origin, f"{where}: origin {list(a['origin'])}, expected {origin}")
            expect(list(a["delta"]) == list(DELTA), f"{where}: delta {list(a['delta'])}")
            centering_attribute = a["centering"]
            if isinstance(centering_attribute, bytes):
                centering_attribute = centering_attribute.decode()
            expect(centering_attribute == centering, f"{where}: centering {centering_attribute!r}")
            data = d[()]
            wanted = value(i, j, k, it).astype(dtype)
            if expect(data.shape == wanted.shape, f"{where}: shape") and not np.array_equal(data, wanted):
                bad = np.argwhere(data != wanted)[0]
                expect(False, f"{where}: value at [z][y][x] = {list(bad)} is {data[tuple(bad)]!r}, "
                              f"expected {wanted[tuple(bad)]!r} ({len(np.argwhere(data != wanted))} points differ)")
            datasets[it] = data
    return datasets


def check_xdmf(folder, name, centering, dtype, iterations, extent):
    path = folder / f"{name}.xmf"
    if not expect(path.is_file(), f"{path} is missing"):
        return
    root = ET.parse(path).getroot()
    expect(root.tag == "Xdmf", f"{path}: root element {root.tag}")
    collection = root.find("Domain/Grid")
    expect(collection is not None and collection.get("GridType") == "Collection"
           and collection.get("CollectionType") == "Temporal", f"{path}: no temporal collection")
    if collection is None:
        return
    grids = collection.findall("Grid")
    expect([float(g.find("Time").get("Value")) for g in grids] == [it * DT for it in iterations],
           f"{path}: times {[g.find('Time').get('Value') for g in grids]}")
    o = offsets(centering)
    dims = f"{extent[2]} {extent[1]} {extent[0]}"
    origin = [ORIGIN[axis] + o[axis] * DELTA[axis] for axis in (2, 1, 0)]
    for grid, it in zip(grids, iterations):
        where = f"{path}, iteration {it}"
        topology = grid.find("Topology")
        expect(topology.get("TopologyType") == "3DCoRectMesh" and topology.get("Dimensions") == dims,
               f"{where}: topology {topology.attrib}")
        geometry = grid.find("Geometry")
        expect(geometry.get("GeometryType") == "ORIGIN_DXDYDZ", f"{where}: geometry {geometry.attrib}")
        items = {item.get("Name"): [float(x) for x in item.text.split()] for item in geometry.findall("DataItem")}
        expect(items.get("Origin") == origin, f"{where}: origin {items.get('Origin')}, expected {origin} (z y x)")
        expect(items.get("Spacing") == [DELTA[2], DELTA[1], DELTA[0]], f"{where}: spacing {items.get('Spacing')}")
        attribute = grid.find("Attribute")
        expect(attribute.get("Name") == name and attribute.get("Center") == "Node", f"{where}: {attribute.attrib}")
        item = attribute.find("DataItem")
        number = ("Int", "4") if dtype == "i4" else ("Float", "8")
        expect((item.get("NumberType"), item.get("Precision")) == number and item.get("Dimensions") == dims
               and item.get("Format") == "HDF", f"{where}: data item {item.attrib}")
        file_name, _, dataset = item.text.strip().partition(":")
        expect(file_name == f"{name}.h5" and dataset == f"/xdmf/it={it}",
               f"{where}: points to {item.text!r}")
        with h5py.File(folder / file_name, "r") as f:
            expect(dataset in f, f"{where}: {dataset} is not in {file_name}")


def line_index(d, centering, coordinate_or_none):
    """The index along d of the lines through the domain's centre or the given coordinate."""
    o = offsets(centering)[d]
    if coordinate_or_none is None:
        return (GLOBAL[d] - 1 - int(2 * o) + 1) // 2
    return math.floor((coordinate_or_none - ORIGIN[d]) / DELTA[d] - o + 0.5)


def check_csv(folder, name, centering, datasets, iterations, extent, line_coordinates):
    o = offsets(centering)
    for axis, axis_name in enumerate("xyz"):
        path = folder / f"{name}.{axis_name}.csv"
        if not expect(path.is_file(), f"{path} is missing"):
            continue
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        expect(rows[0] == ["iteration", "time", "x", "y", "z", name], f"{path}: header {rows[0]}")
        through = [line_index(d, centering, line_coordinates.get((axis, d))) for d in range(3)]
        expected_rows = []
        for it in iterations:
            for i in range(extent[axis]):
                index = list(through)
                index[axis] = i
                point = [coordinate(d, index[d], o[d]) for d in range(3)]
                expected_rows.append((it, it * DT, point, datasets[it][index[2], index[1], index[0]]))
        body = rows[1:]
        if not expect(len(body) == len(expected_rows), f"{path}: {len(body)} rows, expected {len(expected_rows)}"):
            continue
        for number, (row, (it, time, point, value)) in enumerate(zip(body, expected_rows), start=2):
            got = (int(row[0]), float(row[1]), [float(x) for x in row[2:5]])
            if not expect(got == (it, time, point), f"{path}:{number}: {row[:5]}, expected {it}, {time}, {point}"):
                break
            parsed = int(row[5]) if datasets[it].dtype.kind == "i" else float(row[5])
            if not expect(parsed == value, f"{path}:{number}: value {row[5]}, the HDF5 file has {value!r}"):
                break


def pvpython_expectations(folder, name, centering, datasets, extent):
    o = offsets(centering)
    first = [ORIGIN[d] + o[d] * DELTA[d] for d in range(3)]
    samples = []
    for it, data in sorted(datasets.items()):
        for (i, j, k) in [(0, 0, 0), (extent[0] - 1, 1, 2), (3, extent[1] - 1, extent[2] - 1), (5, 4, 3)]:
            samples.append({"time": it * DT, "ijk": [i, j, k], "value": data[k, j, i].item()})
    return {
        "file": str((folder / f"{name}.xmf").resolve()),
        "array": name,
        "times": [it * DT for it in sorted(datasets)],
        "bounds": [b for d in range(3) for b in (first[d], first[d] + (extent[d] - 1) * DELTA[d])],
        "dimensions": list(extent),
        "samples": samples,
    }


def check(args):
    folder = pathlib.Path(args.dir)
    iterations = [int(x) for x in args.iterations.split(",")]
    extent = [GLOBAL[0], GLOBAL[1], GLOBAL[2] - (1 if args.periodic_z else 0)]
    line_coordinates = {}
    if args.xline_y is not None:
        line_coordinates[(0, 1)] = args.xline_y
    if args.xline_z is not None:
        line_coordinates[(0, 2)] = args.xline_z
    expectations = []
    for name, (centering, dtype, value) in formulas().items():
        datasets = check_hdf5(folder, name, centering, dtype, value, iterations, extent)
        check_xdmf(folder, name, centering, dtype, iterations, extent)
        if name != "c2" and len(datasets) == len(iterations):  # IOASCII::out1D_vars names c, not c2
            check_csv(folder, name, centering, datasets, iterations, extent, line_coordinates)
        if datasets:
            expectations.append(pvpython_expectations(folder, name, centering, datasets, extent))
    if args.pvpython_expect:
        pathlib.Path(args.pvpython_expect).write_text(json.dumps(expectations))
    leftovers = sorted(p.name for p in folder.iterdir() if ".tmp" in p.name)
    expect(not leftovers, f"{folder}: temporary files left: {leftovers}")


def same(args):
    a, b = pathlib.Path(args.dir1), pathlib.Path(args.dir2)
    names = sorted(p.name for p in a.iterdir() if p.suffix in (".h5", ".xmf", ".csv"))
    expect(names == sorted(p.name for p in b.iterdir() if p.suffix in (".h5", ".xmf", ".csv")),
           f"{a} and {b} hold different files")
    for name in names:
        if name.endswith(".h5"):
            with h5py.File(a / name, "r") as fa, h5py.File(b / name, "r") as fb:
                expect(sorted(fa.keys()) == sorted(fb.keys()), f"{name}: different datasets")
                for key in fa.keys():
                    if key not in fb:
                        continue
                    da, db = fa[key], fb[key]
                    if isinstance(da, h5py.Group):  # the second names of the datasets (xdmf/it=N)
                        expect(sorted(da.keys()) == sorted(db.keys()), f"{name}:{key}: different links")
                        continue
                    expect(da.dtype == db.dtype and da[()].tobytes() == db[()].tobytes(),
                           f"{name}:{key}: the values differ in some bit")
                    expect(sorted(da.attrs.keys()) == sorted(db.attrs.keys())
                           and all(np.array_equal(da.attrs[k], db.attrs[k]) for k in da.attrs.keys()),
                           f"{name}:{key}: the attributes differ")
        else:
            expect((a / name).read_bytes() == (b / name).read_bytes(), f"{name}: the text differs")


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("check")
    c.add_argument("dir")
    c.add_argument("--iterations", required=True)
    c.add_argument("--periodic-z", action="store_true")
    c.add_argument("--xline-y", type=float)
    c.add_argument("--xline-z", type=float)
    c.add_argument("--pvpython-expect")
    s = commands.add_parser("same")
    s.add_argument("dir1")
    s.add_argument("dir2")
    args = parser.parse_args()
    check(args) if args.command == "check" else same(args)
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
