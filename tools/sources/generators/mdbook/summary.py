"""`SUMMARY.md`: the book's navigation and its page list, as mdBook's `mdbook-summary` reads it.

Prefix chapters (`[Introduction](README.md)`), part titles (`# User Guide`), numbered chapters
(list items, nested), separators (`---`) and suffix chapters: every linked file is a chapter,
in order, and only they are built. A list item's chapter is its first link; a draft chapter
(`[Draft]()`) has no file and no page. A chapter's name is its link's text (code spans as
their text, no emphasis). Links are relative to the `src` folder; `%20` is a space.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from tools.sources.generators.mdbook.ids import heading_text

_COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_HEADING_RE = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_ITEM_RE = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$")
# `[text](target "title")`: text with nested brackets and escapes; a target in `<…>` or one
# with balanced parentheses.
_LINK_RE = re.compile(
    r"\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]"
    r"\(\s*(<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)


@dataclass(frozen=True)
class Chapter:
    """One SUMMARY entry: its file relative to `src` (None: a draft) and its name."""

    path: str | None
    name: str


def _target(href: str) -> str | None:
    """The chapter file a link names, relative to `src`; None for a draft or no file of the book."""
    href = href.strip()
    if href.startswith("<") and href.endswith(">"):
        href = href[1:-1].strip()
    href = href.replace("%20", " ")
    if not href:
        return None
    if "://" in href or href.startswith(("/", "mailto:")):
        return ""
    path = posixpath.normpath(href)
    return "" if path.startswith("..") else path


def parse_summary(text: str) -> list[Chapter]:
    """Every chapter SUMMARY.md lists, drafts included (path None), in the book's order."""
    chapters: list[Chapter] = []
    fence = ""
    for line in _COMMENT_RE.sub("", text.replace("\r\n", "\n")).split("\n"):
        m = _FENCE_RE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = ""
            continue
        if m:
            fence = m.group(1)
            continue
        if _HEADING_RE.match(line):
            continue  # the title, or a part's
        item = _ITEM_RE.match(line)
        links = list(_LINK_RE.finditer(item.group(1) if item else line))
        for link in links[:1] if item else links:
            path = _target(link.group(2))
            if path == "":
                continue  # a link out of the book: no chapter mdBook can build
            chapters.append(Chapter(path, heading_text(link.group(1), smart=False).strip()))
    return chapters
