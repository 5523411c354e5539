#!/usr/bin/env python3
"""Checks that every #include "..." of the repository follows the layers of docs/architecture.md.

    ccl/        reads CCL files and parameter files           includes ccl/ only
    generator/  opuntia-gen: templates in, code out           ccl/, generator/
    flesh/      the run time: parameters, schedule, grid       ccl/, flesh/, opuntia/ (its public headers)
    thorns/     drivers, CaKernel, physics                     anything but generator/
    program/    the `opuntia` program                          ccl/, flesh/, opuntia/, program/: it asks the
                                                               providers, and includes no thorn header

Usage: check_layers.py ROOT. Prints `path:line:column: error: ...` for each forbidden include and
exits 1; exits 0 when there is none. Only quoted includes are checked: system headers are not layers.
"""
import pathlib
import re
import sys

ALLOWED = {
    "ccl": {"ccl"},
    "generator": {"ccl", "generator"},
    "flesh": {"ccl", "flesh", "opuntia"},
    "thorns": {"ccl", "flesh", "opuntia", "thorns"},
    "program": {"ccl", "flesh", "opuntia", "program"},
}
# Folders an include may name: a quoted include of anything else is a file beside the includer.
LAYERS = {"ccl", "generator", "flesh", "opuntia", "thorns", "program"}
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# A C++ raw string literal's opening, R"delimiter( : its lines are text, not includes (the
# files opuntia-gen new-thorn writes are such text).
RAW_OPENING = re.compile(r'R"([^()\\\s]{0,16})\(')


def code_lines(lines):
    """(number, line) of the lines that are not inside a raw string literal."""
    closing = None
    for number, line in enumerate(lines, start=1):
        rest = line
        if closing is not None:
            end = rest.find(closing)
            if end < 0:
                continue
            rest = rest[end + len(closing):]
            closing = None
        else:
            yield number, line
        while (opening := RAW_OPENING.search(rest)) is not None:
            candidate = ")" + opening.group(1) + '"'
            end = rest.find(candidate, opening.end())
            if end < 0:
                closing = candidate
                break
            rest = rest[end + len(candidate):]


def layer_of(relative: pathlib.PurePosixPath) -> str:
    # flesh/include/opuntia/ holds the flesh's public headers: a layer of the flesh.
    return relative.parts[0]


def check(root: pathlib.Path) -> list[str]:
    errors = []
    for top in ALLOWED:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            relative = pathlib.PurePosixPath(path.relative_to(root).as_posix())
            allowed = ALLOWED[layer_of(relative)]
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for number, line in code_lines(lines):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = match.group(1).split("/")[0]
                if target in LAYERS and target not in allowed:
                    column = match.start(1)
                    errors.append(f"{relative}:{number}:{column + 1}: error: {relative.parts[0]}/ may not include "
                                  f"{target}/ (allowed: {', '.join(sorted(allowed))})\n{line}\n{' ' * column}^")
    return errors


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: check_layers.py ROOT", file=sys.stderr)
        return 2
    errors = check(pathlib.Path(sys.argv[1]))
    for error in errors:
        print(error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
