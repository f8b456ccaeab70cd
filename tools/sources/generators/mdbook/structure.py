"""A chapter's block structure as mdBook's Markdown reads it: headings, terms, admonitions.

mdBook's pulldown-cmark options (`mdbook-markdown`) differ from the shared Markdown reader's
in what gets an id and how it reads: setext headings (`Title` over `===`) are headings, a
definition list's terms (`Term` over `: definition`) get ids like headings do, in the same
count, and GFM admonitions (`> [!NOTE]`) show a title. This pass writes each heading's id as
an explicit `{#id}` (so the shared reader keeps mdBook's, including its `-1` counting, in
which explicit ids do not take part), turns setext headings into ATX ones, terms into bold
lines and admonition markers into their titles, and returns the ids no section of the shared
reader holds (terms, empty headings, headings inside block quotes) with the section they sit in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tools.sources.generators.mdbook.code import unquoted
from tools.sources.generators.mdbook.ids import UniqueIds, heading_text, smart_dashes
from tools.sources.markdown.inline import split_heading_attrs

_FENCE_RE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_ATX_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_QUOTED_ATX_RE = re.compile(r"^ {0,3}>[ \t]?(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_DEFINITION_RE = re.compile(r"^([ \t]*):[ \t]+(\S.*)$")
# Lines that start a block of their own: never a paragraph's (so never a term's) line.
# A link reference definition (`[x]: url`) is no paragraph either.
_BLOCK_START_RE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\||<|#{1,6}(?:[ \t]|$)|\[[^\]]+\]:[ \t]*\S)"
)
# An id written in raw HTML (`<a id="x"></a>`, `<h2 id="x">`): served as written, not counted.
_RAW_ID_RE = re.compile(r"<[A-Za-z][\w-]*\s[^<>]*?\bid=(?:\"([^\"]+)\"|'([^']+)')")
_CODE_SPAN_RE = re.compile(r"(`+)[^`]*?\1")
_ADMONITION_RE = re.compile(
    r"^([ \t]*>[ \t]*)\[!(note|tip|important|warning|caution)\][ \t]*$", re.IGNORECASE
)


@dataclass
class Structure:
    """The chapter rewritten for the shared reader, and the ids its sections do not carry."""

    text: str
    # Ids of terms, empty headings and quoted headings, by the id of the section they are in
    # ("" before the first heading).
    extra_ids: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Line:
    """A paragraph line: its index in the output, its text, whether it is a definition's first."""

    index: int
    text: str
    definition: bool = False


def _term_lines(paragraph: list[_Line]) -> list[_Line] | None:
    """The lines a definition below makes a term, None when it is another definition.

    After a definition, only the lines that continue it form the next term, with it (a nested
    list's term: `: l1` then `level two` over `: l2` is the term "l1 level two").
    """
    last = max((i for i, line in enumerate(paragraph) if line.definition), default=-1)
    if last < 0:
        return paragraph or None
    return paragraph[last:] if last < len(paragraph) - 1 else None


def _joined(lines: list[str]) -> str:
    r"""A multi-line paragraph's text: a soft break stays a line break, a hard break (`\`, two spaces) none."""
    out = ""
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        if not last and line.endswith("\\"):
            out += line[:-1]
        elif not last and line.endswith("  "):
            out += line.rstrip()
        else:
            out += line + ("" if last else "\n")
    return out


class _Walk:
    """One pass over a chapter's lines (code blocks left alone)."""

    def __init__(self, slug: Callable[[str], str], smart: bool, terms: bool, admonitions: bool):
        self.slug = slug
        self.smart = smart
        self.terms = terms
        self.admonitions = admonitions
        self.ids = UniqueIds()
        self.out: list[str | None] = []
        self.current = ""
        self.extra: dict[str, list[str]] = {}
        self.paragraph: list[_Line] = []
        self.loose: list[_Line] = []  # the paragraph before the last blank line
        self.after_blank = False

    def _id(self, text: str) -> str:
        base = self.slug(heading_text(text, self.smart))
        return self.ids.take(base) if base else ""

    def _note(self, anchor: str) -> None:
        if anchor:
            self.extra.setdefault(self.current, []).append(anchor)

    def heading(self, level: int, source: str) -> None:
        """An ATX heading: its id written out explicitly (an explicit one kept, not counted)."""
        text, explicit = split_heading_attrs(source)
        if self.smart:
            text = smart_dashes(text)
        anchor = explicit or self._id(text)
        if not text.strip() or not anchor:
            self._note(anchor)  # an empty heading still takes an id
            self.out.append("")
            return
        self.current = anchor
        self.out.append(f"{'#' * level} {text.strip()} {{#{anchor}}}")

    def definition(self, line: str, m: re.Match[str]) -> None:
        """A definition's first line; the paragraph above it (or above a blank line) is a term."""
        candidate = self.paragraph or (self.loose if self.after_blank else [])
        term = _term_lines(candidate) if self.terms else None
        if term:
            self._note(self._id(_joined([t.text.strip() for t in term])))
            if not any(t.definition for t in term):
                self.out[term[0].index] = f"**{_joined([t.text.strip() for t in term])}**"
                for t in term[1:]:
                    self.out[t.index] = None
            self.loose = []
        if term or candidate:
            line = m.group(1) + m.group(2)  # the marker of a definition list goes
        self.paragraph = [_Line(len(self.out), m.group(2), definition=True)]
        self.out.append(line)

    def line(self, line: str) -> None:
        """A line outside code; the ids its raw HTML sets belong to the section it ends in."""
        self._line(line)
        if "id=" in line:
            for m in _RAW_ID_RE.finditer(_CODE_SPAN_RE.sub("", line)):
                self._note(m.group(1) or m.group(2))

    def _line(self, line: str) -> None:
        if not line.strip():
            if self.paragraph:
                self.loose = self.paragraph
            self.paragraph = []
            self.after_blank = True
            self.out.append(line)
            return
        m_def = _DEFINITION_RE.match(line)
        if m_def:
            self.definition(line, m_def)
            self.after_blank = False
            return
        setext = _SETEXT_RE.match(line)
        if (
            setext
            and len(self.paragraph) == 1
            and not self.paragraph[0].definition
            and not line.startswith(("    ", "\t"))
        ):
            level = 1 if setext.group(1)[0] == "=" else 2
            para = self.paragraph[0]
            self.out[para.index] = None
            self.paragraph = []
            self.after_blank = False
            self.heading(level, para.text.strip())
            return
        self.after_blank = False
        if setext:  # `---` with no one-line paragraph above: a thematic break
            self.paragraph = []
            self.out.append(line)
            return
        atx = _ATX_RE.match(line) if not line.startswith(("    ", "\t")) else None
        if atx:
            self.paragraph = []
            self.heading(len(atx.group(1)), atx.group(2) or "")
            return
        quoted = _QUOTED_ATX_RE.match(line)
        if quoted:
            text, explicit = split_heading_attrs(quoted.group(2))
            self._note(explicit or self._id(text))
            self.paragraph = []
            self.out.append(line)
            return
        if self.admonitions:
            admonition = _ADMONITION_RE.match(line)
            if admonition:
                self.paragraph = []
                self.out.append(f"{admonition.group(1)}**{admonition.group(2).capitalize()}**")
                return
        if _BLOCK_START_RE.match(line):
            self.paragraph = []
        else:
            self.paragraph.append(_Line(len(self.out), line))
        self.out.append(line)


def chapter_structure(
    body: str,
    slug: Callable[[str], str],
    smart: bool = True,
    terms: bool = True,
    admonitions: bool = True,
) -> Structure:
    """The chapter with mdBook's heading ids written out, terms and admonitions read (see the module)."""
    walk = _Walk(slug, smart, terms, admonitions)
    fence = ""
    for line in body.split("\n"):
        m = _FENCE_RE.match(unquoted(line)[1])
        if fence:
            if m and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence):
                if not m.group(3).strip():
                    fence = ""
            walk.out.append(line)
            continue
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            fence = m.group(2)
            walk.paragraph = []
            walk.out.append(line)
            continue
        walk.line(line)
    text = "\n".join(line for line in walk.out if line is not None)
    return Structure(text, walk.extra)
