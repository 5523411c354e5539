#!/usr/bin/env python3
"""What the pages show of `opuntia --help` and `opuntia --list-thorns` is what this build's opuntia
prints, which a page copied once would otherwise keep as options and parameters change:
- a fenced block that starts with `$ build/release/opuntia --help` holds the program's help, line
  for line (the program's path spelled as the page spells it, each "Excludes:" list in any order);
- in every fenced block that holds the `--list-thorns` table's header, each row of a thorn that this
  build compiled equals the program's row of it (a thorn the build lacks, such as an outside thorn
  the page builds or IOHDF5 without HDF5, is not compared).
Usage: check_program_listings.py SOURCE_DIR OPUNTIA PAGE.md..."""
import subprocess
import sys

HEADER = "thorn              implementation     parameters  kernels  routines"
HELP = "$ build/release/opuntia --help"


def canonical(line):
    """A help line with its "Excludes:" options in sorted order: CLI11 lists them in the order of
    the options' addresses, which changes from build to build."""
    line = line.rstrip()
    head, sep, rest = line.partition(" Excludes: ")
    return head + sep + " ".join(sorted(rest.split())) if sep else line


def printed(opuntia, option):
    text = subprocess.run([opuntia, option], capture_output=True, text=True, check=True).stdout
    return text.replace(opuntia, "build/release/opuntia").splitlines()


def main():
    source, opuntia, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    listed = printed(opuntia, "--list-thorns")
    rows = {line.split()[0]: line.rstrip() for line in listed[listed.index(HEADER) + 1:] if line.strip()}
    help_lines = [canonical(l) for l in printed(opuntia, "--help")]
    while help_lines and not help_lines[-1]:
        help_lines.pop()
    failures = checked = 0
    for page in pages:
        lines = open(f"{source}/{page}", encoding="utf-8").read().split("\n")
        for number, line in enumerate(lines, 1):
            if line.rstrip() not in (HELP, HEADER):
                continue
            end = next((i for i in range(number, len(lines)) if lines[i].startswith("```")), len(lines))
            if line.rstrip() == HELP:
                checked += 1
                shown = [canonical(l) for l in lines[number:end]]
                while shown and not shown[-1]:
                    shown.pop()
                if shown != help_lines:
                    failures += 1
                    wrong = next((i for i in range(min(len(shown), len(help_lines))) if shown[i] != help_lines[i]),
                                 min(len(shown), len(help_lines)))
                    print(f"{page}:{number + 1 + wrong}: the help shown differs from what opuntia --help prints:\n"
                          f"  page:    {shown[wrong] if wrong < len(shown) else '(end)'}\n"
                          f"  printed: {help_lines[wrong] if wrong < len(help_lines) else '(end)'}")
            else:
                checked += 1
                for index in range(number, end):
                    row = lines[index].rstrip()
                    name = row.split()[0] if row.strip() else None
                    if name in rows and row != rows[name]:
                        failures += 1
                        print(f"{page}:{index + 1}: the row of {name} is\n  {row}\nbut opuntia --list-thorns prints\n  {rows[name]}")
    if checked == 0:
        print("no --help or --list-thorns listing found in " + " ".join(pages))
        return 1
    print(f"{checked} listings checked: " + ("OK" if failures == 0 else f"{failures} differ"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
