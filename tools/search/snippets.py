"""Snippets: each section's first prose prepared at index time, a window of it cut per query."""

from __future__ import annotations

import bisect

from tools.text import sanitize_external

# Characters of a section scanned for its snippet prose, and of prose kept to cut snippets from.
SNIPPET_SCAN_CHARS = 2_000
SNIPPET_PROSE_CHARS = 1_200


def snippet_prose(text: str) -> str:
    """The part of a section that snippets are cut from: its first prose, flat and sanitised.

    Computed once at index time (code lines dropped, whitespace folded, headings and bold
    removed) so a search only picks a window. Only the first few thousand characters count: a
    snippet is a pointer to the section, not a summary.
    """
    kept: list[str] = []
    in_fence = False
    for line in text[:SNIPPET_SCAN_CHARS].splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and not line.startswith(("    ", "\t")):
            kept.append(table_row_prose(line))
    return sanitize_external(" ".join(kept), SNIPPET_PROSE_CHARS)


def table_row_prose(line: str) -> str:
    """A Markdown table row as flat prose (`| a | b |` -> `a — b;`); its `|---|` rule as nothing.

    Folded onto one line, the pipes and rules of a table read as noise in a snippet (and in the
    opening a section vector is made of); the cells, joined, still read.
    """
    row = line.strip()
    if not row.startswith("|"):
        return line
    cells = [c.strip() for c in row.strip("|").split("|")]
    if all(set(c) <= set("-: ") for c in cells):
        return ""
    return " — ".join(c for c in cells if c) + ";"


def snippet(prose: str, terms: list[str], width: int = 220) -> str:
    """The window of a section's snippet prose that first holds the most distinct query terms.

    Only each term's first occurrence is looked for (one `str.find` per term): a snippet points
    at the section, and this is a fraction of what scanning for every occurrence costs.
    """
    if len(prose) <= width:
        return prose
    lower = prose.lower()
    positions = sorted(pos for pos in map(lower.find, terms) if pos >= 0)
    best_pos, best_count = 0, 0
    for i, pos in enumerate(positions):
        count = bisect.bisect_left(positions, pos + width, i) - i
        if count > best_count:
            best_pos, best_count = max(0, pos - width // 4), count
    best_pos = min(best_pos, max(0, len(prose) - width))
    piece = prose[best_pos : best_pos + width].strip()
    return ("…" if best_pos else "") + piece + "…"
