"""Opens IOHDF5's XDMF files in ParaView, as a person would (File > Open: the default reader for
.xmf; and the XDMF 2 reader), and checks what ParaView shows: the time steps, the grid's bounds and size, and values at
sample points. Run by pvpython: output_pvpython.py EXPECT.json, from output_check.py --pvpython-expect.
Prints one line per failure and exits 1 if there was any."""
import json
import sys

from paraview import servermanager
from paraview.simple import OpenDataFile, XDMFReader

failures = []
expected = json.load(open(sys.argv[1]))
# The reader ParaView picks for .xmf (XDMF 3), and its XDMF 2 reader, whose library VisIt's reader
# shares: XDMF 2 splits a dataset's path at its colons.
readers = [("default reader", lambda path: OpenDataFile(path)),
           ("XDMF 2 reader", lambda path: XDMFReader(FileNames=[path]))]
for (reader_name, open_with), series in [(r, s) for r in readers for s in expected]:
    where = f"{series['file']} ({reader_name})"
    reader = open_with(series["file"])
    if reader is None:
        failures.append(f"{where}: ParaView has no reader for it")
        continue
    reader.UpdatePipelineInformation()
    times = list(reader.TimestepValues) if hasattr(reader.TimestepValues, "__len__") else [reader.TimestepValues]
    if times != series["times"]:
        failures.append(f"{where}: ParaView sees the times {times}, expected {series['times']}")
    for time in series["times"]:
        reader.UpdatePipeline(time)
        data = servermanager.Fetch(reader)
        # A temporal collection arrives as one dataset per time; a multiblock holds it in block 0.
        while data.IsA("vtkMultiBlockDataSet"):
            data = data.GetBlock(0)
        bounds = [round(b, 12) for b in data.GetBounds()]
        if bounds != [round(b, 12) for b in series["bounds"]]:
            failures.append(f"{where}, time {time}: bounds {bounds}, expected {series['bounds']}")
        if list(data.GetDimensions()) != series["dimensions"]:
            failures.append(f"{where}, time {time}: dimensions {list(data.GetDimensions())}")
        array = data.GetPointData().GetArray(series["array"])
        if array is None:
            failures.append(f"{where}, time {time}: no point array {series['array']}")
            continue
        nx, ny, _ = series["dimensions"]
        for sample in series["samples"]:
            if sample["time"] != time:
                continue
            i, j, k = sample["ijk"]
            value = array.GetTuple1(i + nx * (j + ny * k))
            if value != sample["value"]:
                failures.append(f"{where}, time {time}: point {sample['ijk']} is {value}, expected {sample['value']}")

for failure in failures:
    print(failure)
print(f"pvpython: {len(expected)} series, each through {len(readers)} readers, {len(failures)} failures")
sys.exit(1 if failures else 0)
