#!/usr/bin/env python3
"""The examples of the reference pages work as shown. Every fenced block whose first line starts
with `$ ` is a terminal session: each `$ COMMAND` line (and the lines after it while they end in
a backslash) is run with bash from the repository root, and what it prints (stdout and stderr together) must be the lines below it, up to the next `$ `
line or the end of the block. A line `...` there stands for any number of lines.

    $ cat PATH          is not run: the lines below it are written to PATH (this is how a page
                        shows a file and the test makes it)
    build/release/      at the start of a command names this build's programs: opuntia and
                        generator/opuntia-gen (and where they print their own path, it is
                        spelled so too)
    /tmp/opuntia-ref    in commands and files is a fresh scratch folder, the same for every page of
                        one run (and in what they print, that folder is /tmp/opuntia-ref again)

The pages run in the order given, so a later page may use the files an earlier one wrote.
Usage: check_examples.py SOURCE_DIR OPUNTIA OPUNTIA_GEN PAGE.md..."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SCRATCH = "/tmp/opuntia-ref"
FENCE = re.compile(r"^(`{3,}|~{3,})")


def sessions(text):
    """(line number, lines) of each fenced block that starts with a `$ ` line."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(m.group(1))), len(lines))
        block = lines[i + 1:end]
        if block and block[0].startswith("$ "):
            yield i + 2, block
        i = end + 1


def commands(block):
    """(index in the block, command, expected output lines) of each `$ ` line of a session; a
    command whose line ends in a backslash goes on on the next line."""
    starts = [i for i, line in enumerate(block) if line.startswith("$ ")]
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(block)
        last = i
        while block[last].endswith("\\") and last + 1 < end:
            last += 1
        yield i, "\n".join(block[i:last + 1])[2:], block[last + 1:end]


def matches(expected, actual):
    """Whether `actual` is `expected`, each `...` line standing for any number of lines."""
    pieces = [[]]
    for line in expected:
        if line == "...":
            pieces.append([])
        else:
            pieces[-1].append(line)
    if len(pieces) == 1:
        return expected == actual
    first, last = pieces[0], pieces[-1]
    if actual[:len(first)] != first or (last and actual[len(actual) - len(last):] != last):
        return False
    at, end = len(first), len(actual) - len(last)
    for piece in pieces[1:-1]:
        found = next((k for k in range(at, end - len(piece) + 1) if actual[k:k + len(piece)] == piece), None)
        if found is None:
            return False
        at = found + len(piece)
    return at <= end


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    source, opuntia, generator = argv[1], os.path.abspath(argv[2]), os.path.abspath(argv[3])
    scratch = tempfile.mkdtemp(prefix="opuntia-ref.")
    failures = ran = 0
    try:
        for page in argv[4:]:
            with open(os.path.join(source, page), encoding="utf-8") as f:
                text = f.read()
            for first_line, block in sessions(text):
                for index, command, expected in commands(block):
                    place = f"{page}:{first_line + index}"
                    command = command.replace(SCRATCH, scratch)
                    if command.startswith("cat ") and len(command.split()) == 2:
                        path = command.split()[1]
                        os.makedirs(os.path.dirname(path), exist_ok=True)
                        with open(path, "w", encoding="utf-8") as f:
                            f.write("".join(line.replace(SCRATCH, scratch) + "\n" for line in expected))
                        continue
                    command = re.sub(r"^build/release/generator/opuntia-gen\b", generator, command)
                    command = re.sub(r"^build/release/opuntia\b", opuntia, command)
                    ran += 1
                    result = subprocess.run(["bash", "-c", command], cwd=source, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT, text=True, env=dict(os.environ, LC_ALL="C"))
                    # The programs as the page spells them (a help's usage line names its own path).
                    printed = result.stdout.replace(generator, "build/release/generator/opuntia-gen")
                    printed = printed.replace(opuntia, "build/release/opuntia")
                    actual = printed.replace(scratch, SCRATCH).split("\n")
                    if actual and actual[-1] == "":
                        actual.pop()
                    if not matches(expected, actual):
                        failures += 1
                        print(f"{place}: error: `{block[index][2:]}` printed (exit {result.returncode}):")
                        print("\n".join("    " + line for line in actual))
                        print("  where the page shows:")
                        print("\n".join("    " + line for line in expected))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{ran} commands, {failures} printed something else")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
