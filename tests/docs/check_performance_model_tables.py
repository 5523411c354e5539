#!/usr/bin/env python3
"""The tables of docs/performance-model.md are what bench/scaling_model.py --markdown prints: each
block between `<!-- scaling_model.py: NAME -->` and `<!-- end -->` in the page must be, line for
line, the block of that name in the script's output, and the page must hold every block the script
prints, in its order. A change of the model or of its inputs then fails here until the tables are
pasted again (`python3 bench/scaling_model.py --markdown`).
Usage: check_performance_model_tables.py SOURCE_DIR"""
import pathlib
import re
import subprocess
import sys

BLOCK = re.compile(r"^<!-- scaling_model\.py: (\w+) -->\n(.*?)^<!-- end -->$", re.S | re.M)


def blocks(text):
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in BLOCK.finditer(text)]


root = pathlib.Path(sys.argv[1])
page_path = root / "docs" / "performance-model.md"
printed = subprocess.run([sys.executable, str(root / "bench" / "scaling_model.py"), "--markdown"],
                         check=True, capture_output=True, text=True).stdout
expected = blocks(printed)
found = blocks(page_path.read_text(encoding="utf-8"))
failures = 0
if [name for name, _, _ in found] != [name for name, _, _ in expected]:
    print(f"{page_path}: blocks {[n for n, _, _ in found]}, the script prints {[n for n, _, _ in expected]}")
    failures += 1
printed_by_name = {name: body for name, body, _ in expected}
for name, body, line in found:
    if name in printed_by_name and body != printed_by_name[name]:
        page_lines, script_lines = body.splitlines(), printed_by_name[name].splitlines()
        first = next((k for k in range(max(len(page_lines), len(script_lines)))
                      if k >= len(page_lines) or k >= len(script_lines) or page_lines[k] != script_lines[k]))
        print(f"{page_path}:{line + 1 + first}:1: error: block '{name}' differs from scaling_model.py --markdown:")
        print(f"  page:   {page_lines[first] if first < len(page_lines) else '(end of block)'}")
        print(f"  script: {script_lines[first] if first < len(script_lines) else '(end of block)'}")
        failures += 1
print(f"{len(found)} blocks: " + ("PASS" if failures == 0 else f"FAIL ({failures})"))
sys.exit(1 if failures else 0)
