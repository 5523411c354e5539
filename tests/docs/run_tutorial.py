#!/usr/bin/env python3
"""Runs a tutorial's commands and checks its files and results, so that it cannot rot.

    run_tutorial.py TUTORIAL.md SOURCE_DIR BUILD_DIR

The Markdown's fenced blocks, in order:
- ```sh: commands, run by one bash (set -euo pipefail) in the order of the tutorial, with HOME a
  fresh temporary folder; the first block runs in SOURCE_DIR, each later one where the one
  before left off. `build/release` in a command stands for BUILD_DIR.
- ```<language> file=PATH: the file's whole text, written to PATH (relative to where the
  commands are) before the commands after it run.
- ```text right after a sh block (prose between them allowed): what those commands print. Each
  line must be a line of their output (stdout and stderr), where "…" stands for any text; a line
  "..." alone skips lines.
Blocks of other languages are not run. A failing command, a missing output line or a file that
cannot be written fails the run, naming the tutorial's line.
"""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\S*)(.*)$")


def blocks(path):
    """(first line number, info, attributes, text) of every fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start = i + 1
        language, rest = match.group(1), match.group(2)
        attributes = dict(re.findall(r"(\w+)=(\S+)", rest))
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            sys.exit(f"{path}:{start}: error: a code block that is never closed")
        yield start, language, attributes, "\n".join(body) + "\n"
        i += 1


def expected_line_matches(expected, output_lines):
    pattern = "^" + ".*".join(re.escape(part) for part in expected.split("…")) + "$"
    regex = re.compile(pattern)
    return any(regex.match(line.rstrip()) for line in output_lines)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tutorial, source, build = (os.path.abspath(a) for a in sys.argv[1:])
    home = tempfile.mkdtemp(prefix="tutorial_home_")
    script = ["set -euo pipefail", f"cd {source!r}"]
    checks = []  # (line of the text block, index of the command block, expected lines)
    command_blocks = 0
    last_kind = None
    for line, language, attributes, text in blocks(tutorial):
        if language == "sh":
            command_blocks += 1
            script.append(f"echo '@@@ block {command_blocks} (line {line}) @@@'")
            script.append(text.replace("build/release", build))
            last_kind = "sh"
        elif "file" in attributes:
            path = attributes["file"]
            marker = f"TUTORIAL_FILE_{command_blocks}_{line}"
            script.append(f"mkdir -p \"$(dirname {path!r})\"\ncat > {path!r} <<'{marker}'\n{text}{marker}")
            last_kind = "file"
        elif language == "text" and last_kind == "sh":
            expected = [l for l in text.split("\n") if l.strip()]
            checks.append((line, command_blocks, expected))
            last_kind = "text"
    script.append("echo '@@@ end @@@'")
    environment = dict(os.environ, HOME=home)
    result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=source, env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = result.stdout
    sys.stdout.write(output)
    parts = re.split(r"^@@@ (block \d+ \(line \d+\)|end) @@@$", output, flags=re.M)
    # parts: [before, name1, out1, name2, out2, ..., "end", after]
    outputs = {}
    for k in range(1, len(parts) - 1, 2):
        name = parts[k]
        if name.startswith("block"):
            outputs[int(name.split()[1])] = parts[k + 1].split("\n")
    if result.returncode != 0:
        ran = max(outputs) if outputs else 0
        failed_at = re.search(r"line (\d+)", [parts[k] for k in range(1, len(parts), 2)][-1] if outputs else "")
        where = f"{tutorial}:{failed_at.group(1)}" if failed_at else tutorial
        sys.exit(f"{where}: error: the commands of block {ran} failed (exit status {result.returncode})")
    status = 0
    for line, block, expected in checks:
        printed = outputs.get(block, [])
        for e in expected:
            if e.strip() == "...":
                continue
            if not expected_line_matches(e, printed):
                print(f"{tutorial}:{line}: error: the commands before this block did not print\n    {e}")
                status = 1
    if status == 0:
        print(f"{tutorial}: {command_blocks} command blocks ran, {len(checks)} outputs as shown")
    subprocess.run(["rm", "-rf", home])
    return status


if __name__ == "__main__":
    sys.exit(main())
