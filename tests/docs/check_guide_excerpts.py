#!/usr/bin/env python3
"""The generated code that docs/template-author-guide.md shows is the generator's real output:
every fenced block that mentions CAKERNEL_Heat_Update_3dblock must be lines of the golden files
of tests/generator/cases/heat_openmp (the CUDA .h/.cu, or the OpenMP .h), verbatim up to the
padding before a continuation backslash, and the runs between '...' lines must be contiguous and
in order in one file. A template change that regenerates the goldens then fails here until the
guide's excerpts are copied again.

Likewise every fenced block of docs/writing-a-thorn.md right after a line
`<!-- excerpt: PATH -->` (PATH relative to the repository) is lines of that file, verbatim up to
trailing blanks once the block's own indentation is taken off, the runs between '...' lines
contiguous and in order: a thorn's kernel, descriptor or routine that changes fails here until
the page's excerpt is copied again.
Usage: check_guide_excerpts.py SOURCE_DIR"""
import re, sys
root = sys.argv[1].rstrip('/') + '/'
G = root + 'tests/generator/cases/heat_openmp/expected/HeatEquation/'
def norm(l): return re.sub(r'\s+\\$', r' \\', l.rstrip('\r'))
files = {n: [norm(l) for l in open(G + n).read().split('\n')]
         for n in ('cuda/Heat_Update_3dblock.h', 'cuda/Heat_Update_3dblock.cu', 'openmp/Heat_Update_3dblock.h')}
guide = open(root + 'docs/template-author-guide.md').read()
fails = 0
for m in re.finditer(r'^```[^\n]*\n(.*?)^```$', guide, re.S | re.M):
    body = m.group(1)
    if 'CAKERNEL_Heat_Update_3dblock' not in body: continue
    line0 = guide[:m.start()].count('\n') + 1
    lines = body.rstrip('\n').split('\n')
    if 'OPUNTIA_OPENMP' in body or '_dynamic' in body:
        kind = 'openmp'
        if '_dynamic' in body:
            print(f'block at guide line {line0}: OpenMP scratch demo (3dblock_dynamic), not generated CUDA: skipped')
            continue
        cands = ['openmp/Heat_Update_3dblock.h']
    else:
        kind = 'cuda'
        cands = ['cuda/Heat_Update_3dblock.h', 'cuda/Heat_Update_3dblock.cu']
    # split into runs at '...'; a show header '// ===== <path> =====' is opuntia-gen's, not the file's
    runs, cur = [], []
    for i, l in enumerate(lines):
        if l.strip() == '...':
            runs.append(cur); cur = []
        elif l.startswith('// ===== ') and l.endswith(' ====='):
            continue
        else:
            cur.append((i, norm(l)))
    runs.append(cur)
    bad = 0
    # each line must occur in some candidate file
    for run in runs:
        for i, l in run:
            if not any(l in files[c] for c in cands):
                print(f'  MISSING (guide line {line0 + 1 + i}): {l!r}'); bad += 1
    # each run contiguous and runs in order, within one file
    placed = None
    for c in cands:
        pos, ok = 0, True
        for run in runs:
            if not run: continue
            seq = [l for _, l in run]
            f = files[c]
            hit = next((k for k in range(pos, len(f) - len(seq) + 1) if f[k:k + len(seq)] == seq), None)
            if hit is None: ok = False; break
            pos = hit + len(seq)
        if ok: placed = c; break
    if placed is None:
        print(f'  block at guide line {line0}: runs not contiguous/in order in any of {cands}'); bad += 1
    nl = sum(len(r) for r in runs)
    print(f'block at guide line {line0} ({kind}): {nl} lines in {len([r for r in runs if r])} runs -> '
          + ('OK in ' + placed if not bad else f'{bad} FAILURE(S)'))
    fails += bad

# Excerpts of the repository's own files, marked <!-- excerpt: PATH --> on the line before the fence.
def check_marked_excerpts(page):
    bad_total = 0
    lines = open(root + page).read().split('\n')
    marked = 0
    for n, line in enumerate(lines):
        m = re.match(r'^(\s*)<!-- excerpt: (\S+) -->$', line)
        if not m: continue
        marked += 1
        indent, path = m.group(1), m.group(2)
        fence = lines[n + 1] if n + 1 < len(lines) else ''
        if not fence.startswith(indent + '```'):
            print(f'  {page}:{n + 1}: excerpt marker of {path} is not right before a fenced block'); bad_total += 1; continue
        try:
            f = [l.rstrip() for l in open(root + path).read().split('\n')]
        except OSError as e:
            print(f'  {page}:{n + 1}: cannot read {path}: {e}'); bad_total += 1; continue
        end = next((k for k in range(n + 2, len(lines)) if lines[k].strip().startswith('```')), len(lines))
        runs, cur = [], []
        for k in range(n + 2, end):
            l = lines[k][len(indent):] if lines[k].startswith(indent) else lines[k].lstrip()
            if l.strip() == '...':
                runs.append(cur); cur = []
            else:
                cur.append((k + 1, l.rstrip()))
        runs.append(cur)
        pos, bad = 0, 0
        for run in runs:
            if not run: continue
            seq = [l for _, l in run]
            hit = next((k for k in range(pos, len(f) - len(seq) + 1) if f[k:k + len(seq)] == seq), None)
            if hit is None:
                # name the first line that is not where it should be
                first_bad = next(((ln, l) for ln, l in run if l not in f[pos:]), run[0])
                print(f'  {page}:{first_bad[0]}: not in {path} (or not contiguous/in order): {first_bad[1]!r}')
                bad = 1; break
            pos = hit + len(seq)
        print(f'excerpt at {page}:{n + 2} of {path}: ' + ('OK' if not bad else 'FAILURE'))
        bad_total += bad
    if marked == 0:
        print(f'  {page}: no <!-- excerpt: PATH --> markers found'); bad_total += 1
    return bad_total

fails += check_marked_excerpts('docs/writing-a-thorn.md')
print('PASS' if fails == 0 else f'FAIL ({fails})')
sys.exit(1 if fails else 0)
