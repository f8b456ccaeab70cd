"""`#region` / `#endregion` markers of an imported file, as VitePress finds them (regions.ts).

A snippet import (`<<< file.ts#setup`) or an include (`<!--@include: x.md#setup-->`) shows only
the lines between a region's markers. Every comment style VS Code folds is tried on every file
(the marker list below is VitePress's); a named end closes the innermost region of that name, an
unnamed one the innermost opened in its style; nested regions of the same name give the outer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MAYBE_MARKER_RE = re.compile(r"region", re.I)
_QUOTED_RE = re.compile(r'^"(.*)"$')

# (start, end) marker patterns per comment style; group 1 is the region's name.
MARKERS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (  # line comments: js, ts, go, rust, java, sql, bat
        re.compile(r"^\s*(?://\s*#?|(?:--|::|@?[rR][eE][mM])\s*#)region\b\s*(.*?)\s*$"),
        re.compile(r"^\s*(?://\s*#?|(?:--|::|@?[rR][eE][mM])\s*#)endregion\b\s*(.*?)\s*$"),
    ),
    (  # hash comments: c#, python, yaml, shell, visual basic, powershell, c/c++ pragmas
        re.compile(r"^\s*#\s*(?:#\s*|pragma\s+)?[rR]egion\b\s*(.*?)\s*$"),
        re.compile(r"^\s*#\s*(?:#\s*|pragma\s+)?[eE]nd ?[rR]egion\b\s*(.*?)\s*$"),
    ),
    (  # markdown, html, vue templates
        re.compile(r"^\s*<!--\s*#?region\b\s*(.*?)\s*-->"),
        re.compile(r"^\s*<!--\s*#?endregion\b\s*(.*?)\s*-->"),
    ),
    (  # css, less, scss
        re.compile(r"^\s*/\*\s*#region\b\s*(.*?)\s*\*/"),
        re.compile(r"^\s*/\*\s*#endregion\b\s*(.*?)\s*\*/"),
    ),
    (  # f# block comments
        re.compile(r"^\s*\(\*\s*#region\b\s*(.*?)\s*\*\)"),
        re.compile(r"^\s*\(\*\s*#endregion\b\s*(.*?)\s*\*\)"),
    ),
    (  # json keys: `"// #region name": "",`
        re.compile(r'^\s*"/{2,}\s*#region\b\s*(.*?)":\s*"",?\s*$'),
        re.compile(r'^\s*"/{2,}\s*#endregion\b\s*(.*?)":\s*"",?\s*$'),
    ),
)


@dataclass(frozen=True)
class Region:
    """Lines `start` (after the opening marker) up to `end` (the closing marker), and its style."""

    start: int
    end: int
    style: int


def _unquote(name: str) -> str:
    m = _QUOTED_RE.match(name)
    return m.group(1) if m else name


def find_regions(lines: list[str], name: str) -> list[Region]:
    """Every region of that name, in document order (the outermost of nested ones)."""
    regions: list[Region] = []
    opened: list[tuple[str, int, int]] = []  # (name, first line, style)
    for i, line in enumerate(lines):
        if not _MAYBE_MARKER_RE.search(line):
            continue
        started = next(
            ((style, m) for style, (start, _) in enumerate(MARKERS) if (m := start.match(line))),
            None,
        )
        if started is not None:
            opened.append((_unquote(started[1].group(1)), i + 1, started[0]))
            continue
        if not opened:
            continue
        for style, (_, end) in enumerate(MARKERS):
            m = end.match(line)
            if m is None:
                continue
            end_name = _unquote(m.group(1))
            index = next(
                (
                    k
                    for k in range(len(opened) - 1, -1, -1)
                    if (opened[k][0] == end_name if end_name else opened[k][2] == style)
                ),
                -1,
            )
            if index < 0:
                continue
            closed = opened[index]
            del opened[index:]
            if closed[0] == name and not any(o[0] == name for o in opened):
                regions.append(Region(closed[1], i, closed[2]))
            break
    return regions


def strip_region_markers(lines: list[str], styles: set[int] | None = None) -> list[str]:
    """The lines without region marker lines (of these styles; every style when None)."""
    chosen = [m for s, m in enumerate(MARKERS) if styles is None or s in styles]
    return [
        line
        for line in lines
        if not _MAYBE_MARKER_RE.search(line)
        or not any(start.match(line) or end.match(line) for start, end in chosen)
    ]


def dedent(lines: list[str]) -> list[str]:
    """The lines without the indentation they share (blank lines do not count)."""
    indents = [len(line) - len(line.lstrip(" \t")) for line in lines if line.strip(" \t")]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines] if cut else lines
