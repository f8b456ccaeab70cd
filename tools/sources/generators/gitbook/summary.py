r"""`SUMMARY.md` (the space's table of contents, its pages and their order) and GitBook 3's `LANGS.md`.

GitBook's documentation ("Content configuration > Summary"): the list's links are the pages,
nested items are sub-pages, `## Title` headings are page groups (no page of their own) and
`# Table of contents` is the list's title; a link out of the space (`https://…`) is a link in
the navigation, no page. GitBook writes the page's title as the link's text, with Markdown's
escapes (`when\(\)`). `LANGS.md` lists a book's languages (`* [English](en/)`), the first
being the default one.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from tools.sources.markdown.inline import plain_heading

_COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_LINK_RE = re.compile(
    r"\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]"
    r"\(\s*(<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_GROUP_RE = re.compile(r"^ {0,3}#{2,6}[ \t]+(.*?)[ \t#]*$")


@dataclass(frozen=True)
class Entry:
    """One linked page: its file relative to the summary's folder, its title, its group."""

    path: str
    title: str
    group: str = ""


def link_title(text: str) -> str:
    """A link's text as GitBook shows it: escapes read, emphasis and code marks gone."""
    return re.sub(r"(`+)(.*?)\1", r"\2", plain_heading(text)).strip()


def link_target(href: str) -> str | None:
    """The file a link names (relative, normalised), None for a link out of the space or none."""
    href = href.strip()
    if href.startswith("<") and href.endswith(">"):
        href = href[1:-1].strip()
    href = href.split("#", 1)[0].replace("%20", " ")
    if not href or "://" in href or href.startswith(("/", "mailto:")):
        return None
    path = posixpath.normpath(href)
    return None if path.startswith("..") else path


def parse_summary(text: str) -> list[Entry]:
    """Every page the table of contents links, in order, each with its group."""
    entries: list[Entry] = []
    group = ""
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
        heading = _GROUP_RE.match(line)
        if heading:
            group = link_title(heading.group(1))
            continue
        for link in _LINK_RE.finditer(line):
            path = link_target(link.group(2))
            if path is not None:
                entries.append(Entry(path, link_title(link.group(1)), group))
    return entries


def parse_langs(text: str) -> list[tuple[str, str]]:
    """(folder, name) of each language `LANGS.md` lists, the default one first."""
    out: list[tuple[str, str]] = []
    for entry in parse_summary(text):
        folder = entry.path.rstrip("/")
        if folder.lower().endswith((".md", "/readme.md")):
            folder = posixpath.dirname(folder)
        if folder and folder != ".":
            out.append((folder, entry.title))
    return out
