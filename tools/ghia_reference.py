"""Ghia, Ghia & Shin's (1982) centreline velocities of the lid-driven cavity
(docs/reference/), and the comparison of a computed centreline with them.

    for c in compare_centrelines(100, read_run_line):  # read_run_line(centreline) -> computed_line
        print(c.text)
    # u along x = 0.5: max |u - u_Ghia| = 0.0123 at y = 0.1719 (17 points, Re = 100)
    # v along y = 0.5: max |v - v_Ghia| = 0.00456 at x = 0.8047 (17 points, Re = 100)

Standard library only: tools/ldc_compare.py must run where numpy is not installed.
"""
import bisect
import dataclasses
import math
import pathlib

from csv_lines import error_at, expect_fields, number, read_csv_lines, whole_file_error

REFERENCE_DIR = pathlib.Path(__file__).resolve().parent.parent / "docs" / "reference"


@dataclasses.dataclass(frozen=True)
class centreline:
    """The velocity component `component` (the grid function `variable`) along `axis`, through
    `across` = 0.5; Ghia's values in `table`, columns `<component>_Re<n>`."""
    component: str
    variable: str
    axis: str
    across: str
    table: str


U_LINE = centreline("u", "vx", "y", "x", "ghia1982_centerlines.csv")
V_LINE = centreline("v", "vy", "x", "y", "ghia1982_v_horizontal_re100.csv")
CENTRE = 0.5  # the centrelines' place across the unit cavity


@dataclasses.dataclass
class reference_points:
    line: centreline
    reynolds: int
    path: str
    coordinates: list  # along line.axis, as the table prints them (text)
    values: list


def table_lines(line):
    """The table's path, its header line and its rows: its lines less the comments."""
    path = str(REFERENCE_DIR / line.table)
    lines = [l for l in read_csv_lines(path) if not l.text.startswith("#")]
    if not lines:
        raise whole_file_error(path, f'no header; expected a line beginning with "{line.axis},"')
    if lines[0].fields[0] != line.axis:
        raise error_at(path, lines[0], 1, f'expected a header beginning with "{line.axis},"')
    return path, lines[0], lines[1:]


def reynolds_numbers(line):
    """The Reynolds numbers the table of `line` has a column for."""
    _, header, _ = table_lines(line)
    prefix = f"{line.component}_Re"
    return [int(name[len(prefix):]) for name in header.fields[1:]
            if name.startswith(prefix) and name[len(prefix):].isdigit()]


def read_reference(line, reynolds):
    """Ghia's points of `line` at `reynolds`, or None where the table has no column for it."""
    path, header, rows = table_lines(line)
    column = f"{line.component}_Re{reynolds}"
    if column not in header.fields:
        return None
    index = header.fields.index(column)
    coordinates, values = [], []
    for row in rows:
        expect_fields(path, row, header.fields)
        number(path, row, 0)
        coordinates.append(row.fields[0])
        values.append(number(path, row, index))
    if not rows:
        raise whole_file_error(path, "no rows after the header")
    return reference_points(line, reynolds, path, coordinates, values)


def linear_at(points, values, x):
    """The piecewise linear function through (points, values) at x; points increase and hold x."""
    k = bisect.bisect_left(points, x)
    if points[k] == x:
        return values[k]
    t = (x - points[k - 1]) / (points[k] - points[k - 1])
    return values[k - 1] + t * (values[k] - values[k - 1])


@dataclasses.dataclass
class deviation:
    error: float  # max |computed - Ghia| over Ghia's points; nan where the computed line is not finite
    at: str  # the coordinate where it is largest, as Ghia's table prints it
    points: int


def compare(points, values, reference, source):
    """The computed line (values at increasing points along reference.line.axis) interpolated
    linearly to Ghia's points, against his values. A point of Ghia's outside the computed line is
    an input_error about `source`."""
    axis = reference.line.axis
    errors = []
    for text, expected in zip(reference.coordinates, reference.values):
        at = float(text)
        if not points[0] <= at <= points[-1]:
            raise whole_file_error(
                source, f"Ghia's point {axis} = {text} lies outside the line's points, "
                f"{axis} = {points[0]:g} to {points[-1]:g}")
        errors.append((abs(linear_at(points, values, at) - expected), text))
    not_finite = [e for e in errors if not math.isfinite(e[0])]
    error, at = not_finite[0] if not_finite else max(errors, key=lambda e: e[0])
    return deviation(error, at, len(errors))


def summary(reference, result):
    c = reference.line.component
    return (f"{c} along {reference.line.across} = {CENTRE:g}: max |{c} - {c}_Ghia| = {result.error:.4g} "
            f"at {reference.line.axis} = {result.at} ({result.points} points, Re = {reference.reynolds})")


@dataclasses.dataclass
class computed_line:
    points: list  # along the line's axis, increasing
    values: list
    source: str  # the file it comes from, for errors
    iteration: int


@dataclasses.dataclass
class line_comparison:
    line: centreline
    reference: object  # reference_points, or None where Ghia's table has no column for the run's Re
    computed: object  # computed_line, or None with no reference
    result: object  # deviation, or None with no reference
    text: str  # what the tools print


def compare_centrelines(reynolds, computed):
    """Both centrelines against Ghia's values at `reynolds`, one after the other (a generator);
    computed(line) gives the run's computed_line, asked for only where Ghia's table has values to
    compare it with."""
    known = reynolds_numbers(U_LINE)
    if reynolds not in known:
        raise whole_file_error(str(REFERENCE_DIR / U_LINE.table),
                               f"no column {U_LINE.component}_Re{reynolds} (--reynolds {reynolds}); the table has Re = "
                               + ", ".join(str(r) for r in known))
    for line in (U_LINE, V_LINE):
        reference = read_reference(line, reynolds)
        if reference is None:
            text = f"{line.component} along {line.across} = {CENTRE:g}: no reference values for Re = {reynolds} in {line.table}"
            yield line_comparison(line, None, None, None, text)
            continue
        run = computed(line)
        result = compare(run.points, run.values, reference, run.source)
        yield line_comparison(line, reference, run, result, summary(reference, result))
