#!/usr/bin/env python3
"""Every relative link of the documentation leads somewhere: each `[text](target)`, `![alt](src)`
and `[id]: target` of docs/**/*.md, README.md, parfiles/README.md and the thorns' READMEs names a
file or folder of the repository, and its `#anchor`, if any, a heading of that Markdown file (as
GitHub makes anchors of headings). Links in code blocks and code spans are not links; links with a
scheme (https:, mailto:) are not checked.
Prints `path:line:column: error: ...` for each broken link and exits 1; exits 0 when there is none.
Usage: check_links.py SOURCE_DIR"""
import pathlib
import re
import sys
import urllib.parse

INLINE = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
DEFINITION = re.compile(r'^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$')
HEADING = re.compile(r'^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+(?:name|id)="([^"]+)"')
FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')


def documents(root):
    files = sorted((root / "docs").rglob("*.md"))
    files += [root / "README.md", root / "parfiles" / "README.md"]
    files += sorted((root / "thorns").glob("*/README.md"))
    return [f for f in files if f.is_file()]


def lines_outside_code(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
        elif m:
            fence = m.group(1)
        else:
            yield number, line


def prose_lines(text):
    """The lines outside code blocks, code spans blanked out (so that columns stay as they are)."""
    for number, line in lines_outside_code(text):
        yield number, CODE_SPAN.sub(lambda s: " " * len(s.group(0)), line)


def slug(heading):
    """GitHub's anchor of a heading: lower case, link texts for links, punctuation but `-` and
    `_` dropped, blanks as `-`."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading).lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """The anchors of a Markdown file: its headings' (a repeated one gets -1, -2, ...), and those of
    <a name="..."> and <a id="...">."""
    if path not in cache:
        found, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for _, line in lines_outside_code(text):
            found.update(HTML_ANCHOR.findall(line))
            h = HEADING.match(line)
            if h:
                base = slug(h.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def check(root, path):
    errors = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        targets = [(m.start(1), m.group(1)) for m in INLINE.finditer(line)]
        d = DEFINITION.match(line)
        if d:
            targets.append((d.start(1), d.group(1)))
        for column, target in targets:
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue
            place = f"{path.relative_to(root)}:{number}:{column + 1}"
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / urllib.parse.unquote(file_part)).resolve() if file_part else path
            if not linked.exists():
                errors.append(f"{place}: error: link to '{target}': no such file or folder")
                continue
            if root.resolve() not in linked.resolve().parents and linked.resolve() != root.resolve():
                errors.append(f"{place}: error: link to '{target}' leaves the repository")
                continue
            if anchor:
                if linked.suffix != ".md" or not linked.is_file():
                    errors.append(f"{place}: error: link to '{target}': an anchor into a file that is not Markdown")
                elif urllib.parse.unquote(anchor) not in anchors(linked):
                    errors.append(f"{place}: error: link to '{target}': "
                                  f"{linked.relative_to(root.resolve())} has no heading with the anchor '#{anchor}'")
    return errors


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    files = documents(root)
    errors = [e for f in files for e in check(root, f)]
    for e in errors:
        print(e)
    print(f"{len(files)} files, {len(errors)} broken links")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
