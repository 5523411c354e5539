"""The lines of a CSV file with their places, and errors that point into them as every Opuntia
tool reports them: `path:line:column: error: message`, the line, a caret under the column;
`path: error: message` where the error is about the whole file.

    lines = read_csv_lines("out/vx.y.csv")
    expect_header("out/vx.y.csv", lines, "iteration,time,x,y,z,vx")
    x = number("out/vx.y.csv", lines[1], 2)

Standard library only: tools/ldc_compare.py must run where numpy is not installed.
"""
import dataclasses
import os
import pathlib
import re


class input_error(Exception):
    pass


@dataclasses.dataclass
class csv_line:
    number: int  # 1-based
    text: str  # without its end-of-line characters
    fields: list
    columns: list  # the 1-based column of each field

    def column_after_last_field(self):
        return len(self.text) + 1


def error_at(path, line, column, message):
    caret = "".join("\t" if c == "\t" else " " for c in line.text[:column - 1]) + "^"
    return input_error(f"{path}:{line.number}:{column}: error: {message}\n{line.text}\n{caret}")


def whole_file_error(path, message):
    return input_error(f"{path}: error: {message}")


def read_csv_lines(path):
    """Every line of the file, CRLF or LF, split at its commas: the files these tools read
    (IOASCII's lines, the reference tables) quote nothing, and splitting keeps each field's
    column for the caret."""
    try:
        data = pathlib.Path(path).read_bytes()
    except IsADirectoryError:
        raise whole_file_error(path, "is a directory, not a file") from None
    except OSError as e:
        raise whole_file_error(path, f"cannot read file: {os.strerror(e.errno)}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_number = data.count(b"\n", 0, e.start) + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line_end = data.find(b"\n", e.start)
        line_bytes = data[line_start:line_end if line_end >= 0 else len(data)].rstrip(b"\r")
        shown = line_bytes.decode("utf-8", errors="replace")
        column = len(data[line_start:e.start].decode("utf-8", errors="replace")) + 1
        raise error_at(path, csv_line(line_number, shown, [], []), column, "not UTF-8 text") from None
    rows = text.split("\n")
    if rows[-1] == "":
        rows.pop()  # the newline that ends the last line
    lines = []
    for number, row in enumerate(rows, start=1):
        row = row.removesuffix("\r")
        fields = row.split(",")
        columns, column = [], 1
        for field in fields:
            columns.append(column)
            column += len(field) + 1
        lines.append(csv_line(number, row, fields, columns))
    return lines


def expect_header(path, lines, header):
    """`lines` begin with `header`; the caret goes where the first line first differs from it."""
    if not lines:
        raise whole_file_error(path, f'empty file; expected the header "{header}"')
    first = lines[0].text
    if first != header:
        column = next((i for i, (a, b) in enumerate(zip(first, header)) if a != b), min(len(first), len(header))) + 1
        raise error_at(path, lines[0], column, f'expected the header "{header}"')


def expect_fields(path, line, names):
    """The line has one field for each of `names`."""
    if len(line.fields) == len(names):
        return
    column = line.columns[len(names)] if len(line.fields) > len(names) else line.column_after_last_field()
    raise error_at(path, line, column,
                   f"expected {len(names)} fields ({','.join(names)}), found {len(line.fields)}")


# The numbers fmt's {:.17g} and the reference tables write, "nan" and "inf" included, and no
# more: Python's float() would also take blanks and "1_0".
NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|nan|inf|infinity)", re.IGNORECASE)
INTEGER = re.compile(r"[+-]?\d+")


def number(path, line, index):
    field = line.fields[index]
    if not NUMBER.fullmatch(field):
        raise error_at(path, line, line.columns[index], f'"{field}" is not a number')
    return float(field)


def integer(path, line, index):
    field = line.fields[index]
    if not INTEGER.fullmatch(field):
        raise error_at(path, line, line.columns[index], f'"{field}" is not an integer')
    return int(field)
