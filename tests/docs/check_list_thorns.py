#!/usr/bin/env python3
"""The `--list-thorns` tables the pages show are what this build's opuntia prints: in every fenced
block of the pages that holds the table's header, each row of a thorn that this build compiled
equals the program's row of it (a thorn the build lacks, such as an outside thorn the page builds
or IOHDF5 without HDF5, is not compared). A thorn's parameters change its counts, which a page
copied once would otherwise keep.
Usage: check_list_thorns.py SOURCE_DIR OPUNTIA PAGE.md..."""
import subprocess
import sys

HEADER = "thorn              implementation     parameters  kernels  routines"


def rows(lines):
    """{thorn name: row} of a table's lines after its header."""
    return {line.split()[0]: line.rstrip() for line in lines if line.strip()}


def main():
    source, opuntia, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    printed = subprocess.run([opuntia, "--list-thorns"], capture_output=True, text=True, check=True).stdout.splitlines()
    actual = rows(printed[printed.index(HEADER) + 1:])
    failures = tables = 0
    for page in pages:
        lines = open(f"{source}/{page}", encoding="utf-8").read().split("\n")
        for number, line in enumerate(lines, 1):
            if line.rstrip() != HEADER:
                continue
            tables += 1
            end = next(i for i in range(number, len(lines)) if lines[i].startswith("```"))
            for index in range(number, end):
                row = lines[index].rstrip()
                name = row.split()[0] if row.strip() else None
                if name in actual and row != actual[name]:
                    failures += 1
                    print(f"{page}:{index + 1}: the row of {name} is\n  {row}\nbut opuntia --list-thorns prints\n  {actual[name]}")
    if tables == 0:
        print("no --list-thorns table found in " + " ".join(pages))
        return 1
    print(f"{tables} tables checked: " + ("OK" if failures == 0 else f"{failures} rows differ"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
