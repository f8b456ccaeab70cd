"""Remove text a reader of the rendered page never sees, before a page or article is indexed.

A page can carry text that no browser shows but a model reads: elements hidden by `hidden`,
`display:none`, `visibility:hidden` or `aria-hidden="true"`, `<script>`/`<style>`/`<template>`,
HTML and MDX comments, Markdown's `[//]: # (…)` comment idiom, Unicode tag characters, zero-width
and bidi controls, and front matter no reader can parse. `strip_hidden` drops all of that once, at
ingestion (tools/sources/readers.py for folders and llms.txt mirrors, tools/sources/live/help_center.py
for help-center articles), so every consumer — tools, snippets, the offline answer, the researchers —
reads the same clean text. Visible text is left byte for byte as it was; code (fenced blocks,
inline code spans) only loses invisible characters (code is masked first: `mask_code`).
"""

from __future__ import annotations

import bisect
import re

from tools.sources.hidden.elements import HiddenElements, scan_tag
from tools.sources.hidden.front_matter import split_front_matter
from tools.sources.hidden.invisible import strip_invisible

# Any indent, as the MDX reader allows: fences inside JSX components are indented.
_FENCE_OPEN_RE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
_TICKS_RE = re.compile(r"`+")
_TAG_START_RE = re.compile(r"<[A-Za-z]")
_STRICT_ATTR_RE = re.compile(r"[A-Za-z_:@][\w.:-]*")
_PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t]*\n")
_ESCAPED_RE = re.compile(r"\\+[<\[{]")
# CommonMark autolinks (`<https://x.org/a>`, `<me@x.org>`): a link, never a tag.
_AUTOLINK_RE = re.compile(
    r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>"
    r"|<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>"
)
FILL = "x"  # what code and comments look like to the tokenizer: no markup character, same length


def _fenced_ranges(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks, each closed by a fence of its kind and length or by the end of text."""
    ranges: list[tuple[int, int]] = []
    pos = 0
    start: int | None = None
    fence = ""
    indent = 0
    for line in text.splitlines(keepends=True):
        if ("`" not in line and "~" not in line) or (start is not None and fence[0] not in line):
            pos += len(line)  # no fence can open or close here: most lines
            continue
        body = line.rstrip("\n")
        if start is None:
            m = _FENCE_OPEN_RE.match(body)
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                start, fence, indent = pos, m.group(1), len(body) - len(body.lstrip())
        else:
            stripped = body.strip()
            run = len(stripped) - len(stripped.lstrip(fence[0]))
            deeper = len(body) - len(body.lstrip()) >= indent + 4  # a line of the code
            if run >= len(fence) and not stripped[run:].strip() and not deeper:
                ranges.append((start, pos + len(line)))
                start = None
        pos += len(line)
    if start is not None:
        ranges.append((start, len(text)))
    return ranges


def _code_span_ranges(text: str) -> list[tuple[int, int]]:
    """Inline code spans: a backtick run closed by the next run as long in the same paragraph.

    Read left to right as CommonMark reads them: a tag that starts first wins over a backtick
    inside it (`<span title="`" hidden>` is a tag, not the start of a span), and a span that starts
    first wins over a tag inside it. `text` has its fenced blocks masked already.
    """
    if "`" not in text:
        return []
    runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    breaks = [m.start() for m in _PARAGRAPH_BREAK_RE.finditer(text)]
    tag_starts = [m.start() for m in _TAG_START_RE.finditer(text)] if "<" in text else []
    ranges: list[tuple[int, int]] = []
    pos = t = i = 0
    while i < len(runs):
        start, end = runs[i]
        while t < len(tag_starts) and tag_starts[t] < start:
            if tag_starts[t] >= pos:
                pos = max(pos, _tag_end(text, tag_starts[t], breaks))
            t += 1
        if start < pos:  # inside a tag
            i += 1
            continue
        same = by_length[end - start]
        k = bisect.bisect_right(same, i)
        if k < len(same):
            close = runs[same[k]]
            b = bisect.bisect_left(breaks, end)
            if b == len(breaks) or breaks[b] >= close[0]:
                ranges.append((start, close[1]))
                pos = close[1]
                i = same[k]
        i += 1
    return ranges


def mask_code(text: str) -> str:
    """Markdown `text` with its fenced code and inline code spans masked (same length, FILL).

    Where a Markdown pattern may match only outside code, it is searched in this text and its
    positions used on the original.
    """
    masked = _mask(text, _fenced_ranges(text))
    return _mask(masked, _code_span_ranges(masked))


def _tag_end(text: str, start: int, breaks: list[int]) -> int:
    """Where the tag at `start` ends; `start` when it is none (unclosed, or odd attribute names)."""
    tag = scan_tag(text, start)
    if not tag.closed or any(not _STRICT_ATTR_RE.fullmatch(k) for k, _ in tag.written):
        return start
    b = bisect.bisect_left(breaks, start)
    return tag.end if b == len(breaks) or breaks[b] >= tag.end else start


def _mask_escaped(m: re.Match[str]) -> str:
    """An odd run of backslashes escapes the character after it."""
    run = m.group(0)
    return run[:-1] + FILL if (len(run) - 1) % 2 else run


def _mask(text: str, ranges: list[tuple[int, int]]) -> str:
    """`text` with each range replaced by FILL of the same length, newlines kept."""
    if not ranges:
        return text
    out: list[str] = []
    pos = 0
    for start, end in ranges:
        out.append(text[pos:start])
        out.append("\n".join(FILL * len(line) for line in text[start:end].split("\n")))
        pos = end
    out.append(text[pos:])
    return "".join(out)


# -- comments ------------------------------------------------------------------------------------

# HTML comments as browsers read them (`-->` or `--!>` ends one; `<!-->` and `<!--->` are empty;
# an unclosed one runs to the end), bogus comments (`<?…>`, `<!…>`: doctype, CDATA), and MDX
# comments `{/* … */}`.
_COMMENT_RE = re.compile(r"<!--(?:-?>|.*?(?:--!?>|\Z))|<\?[^>]*(?:>|\Z)|<![^>]*(?:>|\Z)", re.DOTALL)
_MDX_COMMENT_RE = re.compile(
    r"<!--(?:-?>|.*?(?:--!?>|\Z))|<\?[^>]*(?:>|\Z)|<![^>]*(?:>|\Z)|\{/\*.*?\*/\}", re.DOTALL
)


# An MDX comment that ends a heading and starts with `#` is the heading's explicit id in
# Docusaurus 3 (`## Title {/* #my-id */}`; its first word is the id): it is kept as the `{#id}`
# the readers understand, not dropped as a comment.
HEADING_ID_COMMENT_RE = re.compile(
    r"^([ \t]{0,3}#{1,6}[ \t].*?)[ \t]*\{/\*\s*#([^\s*]+)(?:[^*]|\*(?!/))*\*/\}[ \t]*$", re.M
)


def _heading_id_edits(masked: str) -> list[tuple[int, int, str]]:
    """The `{/* #id */}` heading ids of the text, each to be written `{#id}`."""
    if "{/*" not in masked:
        return []
    return [
        (m.end(1), m.end(0), f" {{#{m.group(2)}}}") for m in HEADING_ID_COMMENT_RE.finditer(masked)
    ]


def _comment_ranges(masked: str, markdown: bool) -> list[tuple[int, int]]:
    pattern = _MDX_COMMENT_RE if markdown else _COMMENT_RE
    return [(m.start(), m.end()) for m in pattern.finditer(masked)]


# -- Markdown link reference definitions -----------------------------------------------------------

_REF_DEF_RE = re.compile(
    r"^ {0,3}\[((?:[^\]\\\n]|\\.)+)\]:[ \t]*(<[^>\n]*>|\S*)[ \t]*(.*)$", re.MULTILINE
)
# CommonMark lets the destination follow on the next line (`[foo]:` ⏎ `/url "title"`). That
# line is a definition's only when nothing but a title follows the destination: otherwise it
# is a paragraph's (`[foo]:` ⏎ `- an item` defines nothing).
_REF_DEF_NEXT_LINE_RE = re.compile(
    r"^ {0,3}\[((?:[^\]\\\n]|\\.)+)\]:[ \t]*\n[ \t]*(<[^>\n]*>|[^\s<]\S*)"
    r"[ \t]*((?<=[ \t])(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$",
    re.MULTILINE,
)
_EMPTY_DESTINATIONS = frozenset({"#", "<>", "<#>"})


def _label(text: str) -> str:
    return " ".join(text.lower().split())


# An inline link's or image's title: `[text](url "title")` shows "title" only as a tooltip.
_LINK_TITLE_RE = re.compile(
    r"(\]\([ \t]*(?:<[^>\n]*>|[^\s()]+))[ \t\n]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))[ \t]*\)"
)


def _link_title_edits(masked: str) -> list[tuple[int, int, str]]:
    """Edits that drop inline link and image titles, keeping text and URL."""
    return [(m.start(), m.end(), m.group(1) + ")") for m in _LINK_TITLE_RE.finditer(masked)]


def _may_start_definition(text: str, m: re.Match[str], before: re.Match[str] | None) -> bool:
    """A definition cannot interrupt a paragraph: the line before it is blank, a heading or one."""
    start = text.rfind("\n", 0, max(m.start() - 1, 0)) + 1 if m.start() else 0
    previous = text[start : max(m.start() - 1, 0)] if m.start() else ""
    if not previous.strip() or previous.lstrip().startswith("#"):
        return True
    return before is not None and before.end() >= m.start() - 1


def _ref_def_edits(masked: str, text: str) -> list[tuple[int, int, str]]:
    """Edits for reference definitions, which a renderer never shows (`text`: `masked` unmasked).

    `[//]: # (…)` (any label, an empty `<>` or `#` destination) is the Markdown comment idiom:
    removed. A definition no link uses is removed whole; a used one keeps its label and URL but
    loses its title (shown only as a tooltip). As in CommonMark, a line without a destination
    (`[label]:`, on that line and the next) or one that would interrupt a paragraph is no
    definition: it is text, and so is a footnote (`[^1]: text`). A used definition written
    over two lines is put on one (`[label]: url`), the form the Markdown reader reads.
    """
    edits: list[tuple[int, int, str]] = []
    found = [*_REF_DEF_RE.finditer(masked), *_REF_DEF_NEXT_LINE_RE.finditer(masked)]
    # `[^x]: text` is a footnote (its text is shown), not a link reference definition.
    defs = sorted(
        (m for m in found if m.group(2) and m.group(1)[0] != "^"), key=lambda m: m.start()
    )
    defs = [
        m
        for i, m in enumerate(defs)
        if _may_start_definition(masked, m, defs[i - 1] if i else None)
    ]
    if not defs:
        return edits
    kept = [0, *(i for m in defs for i in m.span()), len(masked)]
    outside = "".join(masked[kept[i] : kept[i + 1]] for i in range(0, len(kept), 2)).lower()
    for m in defs:
        label, title = m.group(1), (m.group(3) or "").strip()
        dest = text[m.start(2) : m.end(2)]  # an autolink destination is masked in `masked`
        end = m.end() + 1 if masked[m.end() : m.end() + 1] == "\n" else m.end()
        if dest in _EMPTY_DESTINATIONS or f"[{_label(label)}]" not in " ".join(outside.split()):
            edits.append((m.start(), end, ""))
        elif title or "\n" in m.group(0):
            edits.append((m.start(), m.end(), f"[{text[m.start(1) : m.end(1)]}]: {dest}"))
    return edits


def _apply(text: str, removed: list[tuple[int, int]], edits: list[tuple[int, int, str]]) -> str:
    """Delete `removed` ranges and apply `edits` (start, end, replacement) lying outside them."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(removed):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    ops = [(s, e, "") for s, e in merged]

    def inside(s: int, e: int) -> bool:
        return any(ms <= s and e <= me for ms, me in merged)

    ops += [(s, e, r) for s, e, r in edits if not inside(s, e)]
    ops.sort()
    out: list[str] = []
    pos = 0
    for start, end, replacement in ops:
        if start < pos:  # overlaps an earlier operation: that one wins
            continue
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _strip_markup(body: str, markdown: bool) -> str:
    """Remove comments, hidden elements and (Markdown) comment definitions; tidy visible tags."""
    masked = body
    if markdown:
        masked = _mask(masked, _fenced_ranges(masked))
        masked = _mask(masked, _code_span_ranges(masked))
        # `\\<` and `\\[` are literal characters in Markdown: nothing they start is markup.
        if "\\" in masked:
            masked = _ESCAPED_RE.sub(_mask_escaped, masked)
        if "<" in masked:
            masked = _AUTOLINK_RE.sub(lambda m: FILL * len(m.group(0)), masked)
    if "<" not in masked and "{/*" not in masked and "]" not in masked:
        return body  # no markup outside code: most pages of most folders
    ids = _heading_id_edits(masked) if markdown else []
    masked = _mask(masked, [(s, e) for s, e, _ in ids])
    comments = _comment_ranges(masked, markdown)
    masked = _mask(masked, comments)
    edits = ids + (_ref_def_edits(masked, body) if markdown and "]:" in masked else [])
    if markdown and "](" in masked:
        edits += _link_title_edits(masked)
    scanner = HiddenElements(masked)
    if "<" in masked:
        try:
            scanner.feed(masked)
            scanner.finish()
        except Exception:  # noqa: BLE001 — the stdlib tokenizer raises on nothing; belt and braces
            return re.sub(r"<[^>]*>", "", _apply(body, comments, []))
    removed = comments + scanner.removed + [(s, e) for s, e, r in edits if r == ""]
    return _apply(body, removed, [e for e in edits if e[2]] + scanner.rewritten)


def strip_hidden(text: str, *, html: bool = False) -> str:
    """The text without what a reader of the rendered page never sees.

    `text` is Markdown/MDX (front matter, code fences and inline code understood) or, with
    `html=True`, an HTML document or fragment (no Markdown code rules: backticks mean nothing
    there). Idempotent; visible text is unchanged.
    """
    text = strip_invisible(text)
    if html:
        return _strip_markup(text, markdown=False)
    front, body = split_front_matter(text)
    return front + _strip_markup(body, markdown=True)
