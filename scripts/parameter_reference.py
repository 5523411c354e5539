#!/usr/bin/env python3
"""docs/parameters.md: every parameter of every thorn of thorns/, as the program prints them with
`opuntia --describe-all --format markdown` (the code of `opuntia --describe`).

    parameter_reference.py write OPUNTIA SOURCE_DIR   writes docs/parameters.md (the build target
                                                      parameter_reference)
    parameter_reference.py check OPUNTIA SOURCE_DIR BUILD_DIR
                                                      exits 1 when docs/parameters.md differs from
                                                      what OPUNTIA prints (the test
                                                      docs_parameter_reference)

The page holds the thorns of thorns/ only: a build may compile others (tests', a user's), which
are left out. `write` refuses a build that lacks one of them (IOHDF5 is built only with HDF5);
`check` compares the thorns the build has and says which it could not."""
import difflib
import os
import pathlib
import subprocess
import sys
import tempfile

HEADER = ("<!-- Generated from the thorns' param.ccl by `opuntia --describe-all --format markdown`: do not edit. "
          "`cmake --build <build folder> --target parameter_reference` writes it again "
          "(scripts/parameter_reference.py). -->\n")


def sections(text):
    """The text before the first `## ` heading, and each thorn's section as (name, text)."""
    head, parts = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            parts.append([line[3:].strip(), line])
        elif parts:
            parts[-1][1] += line
        else:
            head.append(line)
    return "".join(head), [tuple(p) for p in parts]


def repository_thorns(source):
    return {p.parent.name for p in (source / "thorns").glob("*/interface.ccl")}


def printed(opuntia, source):
    """OPUNTIA's page, with the sections of thorns outside thorns/ left out, and the thorns of
    thorns/ that the build lacks."""
    result = subprocess.run([opuntia, "--describe-all", "--format", "markdown"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{opuntia} --describe-all --format markdown failed ({result.returncode}):\n{result.stderr}")
    head, parts = sections(result.stdout)
    ours = repository_thorns(source)
    kept = [(name, text) for name, text in parts if name in ours]
    missing = sorted(ours - {name for name, _ in kept})
    return head, kept, missing


def page(head, parts):
    """The header comment, the head and the sections, a blank line between each two."""
    return "\n".join(part.rstrip("\n") + "\n" for part in [HEADER, head] + [text for _, text in parts])


def write(opuntia, source):
    head, parts, missing = printed(opuntia, source)
    if missing:
        sys.exit(f"error: this build of opuntia lacks the thorns {', '.join(missing)} of thorns/; docs/parameters.md "
                 "covers them all: write it from a build that has them (IOHDF5 needs HDF5, OPUNTIA_ENABLE_HDF5=ON)")
    target = source / "docs" / "parameters.md"
    text = page(head, parts)
    if target.exists() and target.read_text() == text:
        return
    # A temporary file beside the target, then a rename: never a half-written page.
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".parameters.md.")
    with os.fdopen(handle, "w") as f:
        f.write(text)
    os.replace(temporary, target)
    print(f"wrote {target}")


def check(opuntia, source, build):
    head, parts, missing = printed(opuntia, source)
    target = source / "docs" / "parameters.md"
    committed = target.read_text() if target.exists() else ""
    _, committed_parts = sections(committed)
    merged = parts
    if missing:
        # What this build cannot print stays as committed, in its place.
        printed_text = dict(parts)
        kept = dict(committed_parts)
        merged = [(name, kept[name] if name in missing else printed_text[name])
                  for name, _ in committed_parts if name in missing or name in printed_text]
        merged += [p for p in parts if p[0] not in kept]
    expected = page(head, merged)
    for name in missing:
        print(f"note: this build has no thorn {name}: its section of docs/parameters.md was not compared")
    if committed == expected:
        print(f"docs/parameters.md: {len(parts)} thorns as {opuntia} prints them")
        return 0
    print("error: docs/parameters.md is not what this build's opuntia prints (--describe-all --format markdown); "
          f"refresh it with: cmake --build {build} --target parameter_reference")
    diff = difflib.unified_diff(committed.splitlines(keepends=True), expected.splitlines(keepends=True),
                                "docs/parameters.md (committed)", "docs/parameters.md (printed)")
    sys.stdout.writelines(list(diff)[:80])
    return 1


def main(argv):
    if len(argv) >= 4 and argv[1] == "write":
        write(argv[2], pathlib.Path(argv[3]))
        return 0
    if len(argv) >= 5 and argv[1] == "check":
        return check(argv[2], pathlib.Path(argv[3]), argv[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
