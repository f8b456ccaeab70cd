r"""mdBook's `links` preprocessor: `{{#include}}`, `{{#rustdoc_include}}`, `{{#playground}}`, `{{#title}}`.

A port of mdBook 0.5's `builtin_preprocessors/links.rs` and `links/take_lines.rs` (MPL-2.0; the
rules re-written here, no code copied): the directive's regular expression, the line ranges
(`:2`, `:2:10`, `::10`, `:2:`, 1-based and inclusive), the `ANCHOR:` / `ANCHOR_END:` regions
(marker lines of any anchor left out), rustdoc includes (the lines outside the range or anchor
kept behind `# `, which hides them in a Rust block), playground blocks, `\{{#…}}` escapes,
nested includes (their paths relative to the included file) and the indentation of the line a
directive sits on, repeated on every included line.

Where mdBook reads any file the process may open, this reads only inside the repository that
holds the book (`IncludeFiles`, `tools.sources.reading.may_include`): an index is served to
every user, a page must not pull `/etc/passwd` or a `.env` into it. A directive that cannot be
resolved (missing file, outside the repository, too deep, too large) is dropped with a warning
on the page, where mdBook would print the raw `{{#…}}` text and fail the build's check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tools.sources.hidden.invisible import strip_invisible
from tools.sources.hidden.strip import strip_hidden
from tools.sources.reading import may_include, note_read

# mdBook's MAX_LINK_NESTED_DEPTH: an include inside an included file, and so on, this deep.
MAX_DEPTH = 10
MAX_FILE_BYTES = 1 << 20
# A page whose includes grow it past this many characters stops expanding (a file included
# twice at each of ten levels is a thousand copies): the rest of its directives are dropped.
MAX_PAGE_CHARS = 4 << 20

# links.rs `find_links`: an escaped directive (to the last `}}` of its line), or
# `{{#type target and properties}}`.
LINK_RE = re.compile(r"\\\{\{#.*\}\}|\{\{\s*#([a-zA-Z0-9_]+)\s+([^}]+)\}\}")
_ANCHOR_START_RE = re.compile(r"ANCHOR:\s*([\w-]+)")
_ANCHOR_END_RE = re.compile(r"ANCHOR_END:\s*([\w-]+)")
_NUMBER_RE = re.compile(r"\+?\d+")
_FILE_TYPES = ("include", "rustdoc_include", "playground", "playpen")
# A code fence's opening or closing line (in a block quote too).
_FENCE_RE = re.compile(r"^(?:[ \t]*>[ \t]?)*[ \t]*(`{3,}|~{3,})(.*)$")


@dataclass(frozen=True)
class LineRange:
    """Lines `start` (0-based, inclusive) to `end` (exclusive; None: to the file's end)."""

    start: int = 0
    end: int | None = None

    def __contains__(self, index: int) -> bool:
        return index >= self.start and (self.end is None or index < self.end)


@dataclass
class Expanded:
    """A chapter's text with its directives resolved, the `{{#title}}` it set, what failed."""

    text: str
    title: str | None = None
    problems: list[str] = field(default_factory=list)


class IncludeFiles:
    """Reads the files directives name: inside `confine` (the book's repository) only."""

    def __init__(self, confine: Path) -> None:
        """Keep the folder no included file may come from outside of (resolved)."""
        self.confine = confine.resolve()

    def read(self, path: Path) -> str | None:
        """The file's text, or None when it is missing, outside the repository, hidden or too large."""
        try:
            real = path.resolve()
            if not may_include(real, self.confine):
                return None
            note_read(real)  # found or not: a file that appears there later is read then
            if real.is_file() and real.stat().st_size <= MAX_FILE_BYTES:
                return real.read_text("utf-8", errors="replace")
        except (OSError, ValueError):
            return None
        return None


def rust_lines(text: str) -> list[str]:
    r"""`str::lines()`: split at `\n`, a `\r` before it dropped, no empty line after a final one."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def parse_range_or_anchor(spec: str | None) -> LineRange | str:
    """links.rs `parse_range_or_anchor`: `2` one line, `2:10`, `:10`, `2:`, else an anchor's name."""
    parts = (spec or "").split(":", 2)
    first = parts[0]
    if _NUMBER_RE.fullmatch(first):
        start: int | None = max(int(first) - 1, 0)
    elif first == "":
        start = None
    else:
        return first
    end_text = parts[1] if len(parts) > 1 else None
    end = int(end_text) if end_text is not None and _NUMBER_RE.fullmatch(end_text) else None
    if start is not None:
        if end_text is None:
            return LineRange(start, start + 1)
        return LineRange(start, end)  # `2:` (or `2:x`) runs to the end
    return LineRange(0, end)


def take_lines(text: str, lines: LineRange) -> str:
    """The lines of the range, joined (an end before the start takes none)."""
    taken = rust_lines(text)[lines.start :]
    if lines.end is not None:
        taken = taken[: max(lines.end - lines.start, 0)]
    return "\n".join(taken)


def take_anchored_lines(text: str, anchor: str) -> str:
    """The lines between `ANCHOR: name` and `ANCHOR_END: name`, other anchors' marker lines left out."""
    kept: list[str] = []
    inside = False
    for line in rust_lines(text):
        if inside:
            end = _ANCHOR_END_RE.search(line)
            if end is not None:
                if end.group(1) == anchor:
                    break
            elif not _ANCHOR_START_RE.search(line):
                kept.append(line)
        else:
            start = _ANCHOR_START_RE.search(line)
            if start is not None and start.group(1) == anchor:
                inside = True
    return "\n".join(kept)


def take_rustdoc_lines(text: str, lines: LineRange) -> str:
    """Every line, those outside the range behind `# ` (hidden in a Rust block, not gone)."""
    return "\n".join(line if i in lines else "# " + line for i, line in enumerate(rust_lines(text)))


def take_rustdoc_anchored_lines(text: str, anchor: str) -> str:
    """The anchor's lines as they are, the others behind `# `; marker lines left out."""
    out: list[str] = []
    inside = False
    for line in rust_lines(text):
        if inside:
            end = _ANCHOR_END_RE.search(line)
            if end is not None:
                if end.group(1) == anchor:
                    inside = False
            elif not _ANCHOR_START_RE.search(line):
                out.append(line)
        else:
            start = _ANCHOR_START_RE.search(line)
            if start is not None:
                if start.group(1) == anchor:
                    inside = True
            elif not _ANCHOR_END_RE.search(line):
                out.append("# " + line)
    return "\n".join(out)


def _rendered(kind: str, target: str, props: list[str], text: str) -> str:
    """What one file directive puts in the chapter, before its own directives are resolved."""
    path, _, spec = target.partition(":")
    if kind in ("playground", "playpen"):
        language = "rust," if props else "rust"
        body = text if text.endswith("\n") else text + "\n"
        return f"```{language}{','.join(props)}\n{body}```\n"
    taken = parse_range_or_anchor(spec if ":" in target else None)
    if kind == "rustdoc_include":
        if isinstance(taken, str):
            return take_rustdoc_anchored_lines(text, taken)
        return take_rustdoc_lines(text, taken)
    if isinstance(taken, str):
        return take_anchored_lines(text, taken)
    return take_lines(text, taken)


def _fenced_spans(text: str) -> list[tuple[int, int]]:
    """Where the text's fenced code blocks are (character offsets, start to end)."""
    spans: list[tuple[int, int]] = []
    pos = start = 0
    fence = ""
    for line in text.split("\n"):
        m = _FENCE_RE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                if not m.group(2).strip():
                    spans.append((start, pos + len(line)))
                    fence = ""
        elif m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence, start = m.group(1), pos
        pos += len(line) + 1
    if fence:
        spans.append((start, len(text)))
    return spans


def _line_so_far(out: list[str]) -> str:
    """The text after the last line break of what is written so far (the directive's line)."""
    tail: list[str] = []
    for piece in reversed(out):
        if "\n" in piece:
            tail.append(piece.rsplit("\n", 1)[-1])
            break
        tail.append(piece)
    return "".join(reversed(tail))


def expand_links(text: str, folder: Path, files: IncludeFiles) -> Expanded:
    """The chapter with every directive resolved, as mdBook's `links` preprocessor leaves it.

    `folder` is the chapter's own folder: the paths of its directives start there.
    """
    result = Expanded("")
    budget = [MAX_PAGE_CHARS]
    result.text = _replace_all(text, folder, 0, files, result, budget)
    return result


def _replace_all(
    text: str, folder: Path, depth: int, files: IncludeFiles, result: Expanded, budget: list[int]
) -> str:
    if "{{" not in text:
        return text
    out: list[str] = []
    pos = 0
    code: list[tuple[int, int]] | None = None  # the fenced blocks, found when first needed
    for m in LINK_RE.finditer(text):
        whole = m.group(0)
        if whole.startswith("\\"):
            out.append(text[pos : m.start()] + whole[1:])  # an escape: the directive as text
            pos = m.end()
            continue
        kind, rest = m.group(1), m.group(2)
        words = rest.split()
        if kind == "title":
            result.title = rest.strip()
            out.append(text[pos : m.start()])
            pos = m.end()
            continue
        if kind not in _FILE_TYPES or not words:
            continue  # not a directive mdBook knows: the text stays as it is
        out.append(text[pos : m.start()])
        pos = m.end()
        target = words[0]
        path = folder / target.partition(":")[0]
        content = files.read(path)
        if content is None:
            result.problems.append(f"{whole}: no such file in the book's repository")
            continue
        if depth >= MAX_DEPTH:
            result.problems.append(f"{whole}: included more than {MAX_DEPTH} levels deep")
            continue
        if budget[0] <= 0:
            result.problems.append(f"{whole}: the page is over {MAX_PAGE_CHARS} characters")
            continue
        inner = _replace_all(
            _rendered(kind, target, words[1:], content),
            path.parent,
            depth + 1,
            files,
            result,
            budget,
        )
        if code is None:
            code = _fenced_spans(text)
        # Included text is page text: what a reader never sees goes, as from the page itself
        # (`read_page` cleaned the page alone). Inside a code block it is code, shown as written.
        in_code = any(start <= m.start() < end for start, end in code)
        inner = strip_invisible(inner) if in_code else strip_hidden(inner)
        budget[0] -= len(inner)
        # The text before the directive on its line starts every included line (a directive
        # indented in a list item includes an indented block).
        prefix = _line_so_far(out)
        out.append(("\n" + prefix).join(rust_lines(inner)))
    out.append(text[pos:])
    return "".join(out)
