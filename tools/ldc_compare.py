#!/usr/bin/env python3
"""Compares a lid-driven cavity run with Ghia, Ghia & Shin (1982) on the centrelines.

    ldc_compare.py OUT_DIR --reynolds 100 [--max-error 0.02]

Reads the run's IOASCII lines (IOASCII::out1D_vars = "liddrivencavity::vx liddrivencavity::vy",
IOASCII::out1D_yline_x = 0.5, IOASCII::out1D_xline_y = 0.5): OUT_DIR/vx.y.csv, u along the
vertical centreline, and OUT_DIR/vy.x.csv, v along the horizontal one (header
iteration,time,x,y,z,<var>). Takes each file's last iteration, interpolates it linearly to
Ghia's points (docs/reference/) and prints, for each line Ghia has values for at that Reynolds
number,

    u along x = 0.5: max |u - u_Ghia| = 0.0123 at y = 0.1719 (17 points, Re = 100)

Exit status: 0; 1 where an error exceeds --max-error (or is not a number); 2 where the files
cannot be read or compared (the message names the file and line).
Standard library only: it runs where numpy is not installed.
"""
import argparse
import math
import os
import sys

from csv_lines import error_at, expect_fields, expect_header, input_error, integer, number, read_csv_lines, \
    whole_file_error
from ghia_reference import CENTRE, compare_centrelines, computed_line

COLUMNS = ("iteration", "time", "x", "y", "z")
# Coordinates IOASCII prints with every digit: a line through 0.5 is at 0.5 to rounding.
SAME_COORDINATE = 1e-9


def read_ioascii_line(out_dir, line):
    """The last iteration of `line`'s variable along its axis, from <out_dir>/<var>.<axis>.csv,
    checked to run through `across` = 0.5."""
    path = os.path.join(out_dir, f"{line.variable}.{line.axis}.csv")
    lines = read_csv_lines(path)
    names = COLUMNS + (line.variable,)
    expect_header(path, lines, ",".join(names))
    rows = lines[1:]
    if not rows:
        raise whole_file_error(path, "no rows after the header")
    iterations = []
    for row in rows:
        expect_fields(path, row, names)
        iteration = integer(path, row, 0)
        for index in range(1, len(names)):
            number(path, row, index)
        if iterations and iteration < iterations[-1]:
            raise error_at(path, row, 1, f"iteration {iteration} after iteration {iterations[-1]}; "
                                         "IOASCII appends the iterations in order")
        iterations.append(iteration)
    last = [row for row, iteration in zip(rows, iterations) if iteration == iterations[-1]]
    axis, across = names.index(line.axis), names.index(line.across)
    points, values = [], []
    for row in last:
        place = number(path, row, across)
        if not abs(place - CENTRE) <= SAME_COORDINATE:
            raise error_at(path, row, row.columns[across],
                           f"the line runs through {line.across} = {row.fields[across]}, not {line.across} = "
                           f"{CENTRE:g} (IOASCII::out1D_{line.axis}line_{line.across} = {CENTRE:g} puts it there)")
        point = number(path, row, axis)
        if points and not point > points[-1]:
            raise error_at(path, row, row.columns[axis],
                           f"{line.axis} = {row.fields[axis]} does not increase along the line "
                           f"(the row before has {line.axis} = {points[-1]!r})")
        points.append(point)
        values.append(number(path, row, len(names) - 1))
    return computed_line(points, values, path, iterations[-1])


def non_negative(text):
    value = float(text)
    if not value >= 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, not {text}")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", help="the run's IO::out_dir")
    parser.add_argument("--reynolds", type=int, required=True, help="the run's Reynolds number: 100 or 400")
    parser.add_argument("--max-error", type=non_negative, help="exit 1 where max |u - u_Ghia| or max |v - v_Ghia| "
                                                               "exceeds this")
    arguments = parser.parse_args()
    program = os.path.basename(sys.argv[0])
    exceeded = []
    try:
        for c in compare_centrelines(arguments.reynolds, lambda line: read_ioascii_line(arguments.out_dir, line)):
            print(c.text, flush=True)
            if c.result is not None and arguments.max_error is not None and not c.result.error <= arguments.max_error:
                name = c.line.component
                exceeded.append(f"max |{name} - {name}_Ghia| = {c.result.error:.4g} exceeds --max-error "
                                f"{arguments.max_error:g} (iteration {c.computed.iteration} of {c.computed.source})")
    except input_error as e:
        print(e, file=sys.stderr)
        return 2
    for text in exceeded:
        print(f"{program}: error: {text}", file=sys.stderr)
    return 1 if exceeded else 0


if __name__ == "__main__":
    sys.exit(main())
