"""The records every reader produces and every layer reads: `Page`, `Section`, `CodeBlock`.

They sit at the bottom of `tools.sources`: the search index (tools/search), the renderer and the
citation check import them without importing any reader. A reader turns one file into a `Page`;
its `sections` are in document order, each with the id the real site gives its heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class CodeBlock:
    """A fenced code block of a section: its language (`""` when the fence names none) and code."""

    language: str
    code: str


CODE_FENCE_RE = re.compile(
    r"^([ \t]*)(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(.*?)^\1\2[`~]*[ \t]*$", re.M | re.S
)


@dataclass
class Section:
    """One heading and the text under it (up to the next heading of any level).

    `anchor` is the id the site gives the heading (cited as `url#anchor`); `ids` are the other
    ids the site serves for the same section (explicit targets, labels), which open it too.
    """

    heading: str
    level: int
    text: str
    anchor: str
    ids: tuple[str, ...] = ()

    @property
    def anchors(self) -> tuple[str, ...]:
        """Every id that opens this section on the site, the cited one first."""
        return tuple(dict.fromkeys(a for a in (self.anchor, *self.ids) if a))

    @property
    def code_blocks(self) -> list[CodeBlock]:
        """The fenced code blocks of the section's text, each with its language."""
        return [
            CodeBlock(m.group(3).lower(), m.group(4).rstrip("\n"))
            for m in CODE_FENCE_RE.finditer(self.text)
        ]


@dataclass
class Page:
    """A parsed page: metadata plus sections in document order."""

    path: str
    title: str
    description: str
    sections: list[Section]
    meta: dict[str, Any] = field(default_factory=dict)

    def heading_paths(self) -> list[tuple[str, ...]]:
        """Each section's heading trail, page title first (`("Models", "Fields", "Aliases")`)."""
        trail: list[tuple[int, str]] = []
        out: list[tuple[str, ...]] = []
        for s in self.sections:
            while trail and trail[-1][0] >= s.level > 0:
                trail.pop()
            if s.level > 0:
                trail.append((s.level, s.heading))
            heads = [h for _, h in trail]
            out.append(tuple([self.title, *(h for h in heads if h != self.title)]))
        return out

    @property
    def body(self) -> str:
        """The page as markdown, headings included."""
        parts: list[str] = []
        for s in self.sections:
            if s.level > 0:
                parts.append("#" * s.level + " " + s.heading)
            if s.text:
                parts.append(s.text)
        return "\n\n".join(parts).strip()


def plain_page(path: str, text: str, problem: str = "", anchor: str = "") -> Page:
    """A file as one section of its text, titled by its file name: what a failed reader leaves."""
    title = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    meta: dict[str, Any] = {"plain": True}
    if problem:
        meta["warnings"] = [problem]
    return Page(path, title, "", [Section(title, 1, text, anchor)], meta)
