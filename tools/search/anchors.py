"""Link anchor text: a link's words describe the page it points to, not the section that holds it.

An overview page ("Where to go next: [Authentication](auth.md) — …") links everywhere. Counting
each link's text, and the words of its URL, as the section's own words makes that section match
every topic it links to at full strength, and it outranks the pages it points at. So a
section's text is read in three parts (`split_links`):

- its own words: the text without the links' texts and without their URLs;
- its anchor words: the links' texts, and the rest of the line of a list item that opens with a
  link ("- [Streaming](/streaming) — stream tokens from subgraphs": a link list's entry, whose
  words describe the page linked, as extended anchor text does in web search). They count for
  the section at `ANCHOR_WEIGHT` of an own word, not zero, because an inline link often names
  the sentence's subject ("build it with a [`StateGraph`](/oss/graph-api)"). They count in
  full in the section's length (`tools.search.analysis`): length normalisation measures how
  much a section says, and a list of links described in passing says a lot, about other pages;
- its reading order, for word pairs (`tools.search.phrases`): each link replaced by its text,
  the URL dropped, so the sentence reads as a person reads it.

The other half of a link's weight goes to the page it points to: the words other pages use to
link to a page form that page's anchor field (`link_texts` here; gathered per target page with
the link prior, `IndexStore._update_priors`; scored in `tools.search.scoring`), the classic
anchor-text evidence of web search: how others name a page is what users ask for it by.

A URL is an address, never prose, so its path words are dropped everywhere. An image's alt text
describes the image on this page: it stays an own word. Code fences are code: left as written.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# An anchor word's share of an own word in a section's body term frequency. Body tf is stored
# in units of this share (`BODY_UNITS` per own word), so stored lengths stay integer counts.
ANCHOR_WEIGHT = 0.5
BODY_UNITS = round(1 / ANCHOR_WEIGHT)

# `[text](url)` or `[text](url "title")`; the URL may hold one level of parentheses.
_LINK_RE = re.compile(
    r"(!?)\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+[\"'][^\"'\n]*[\"'])?\)"
)
# A list item's line up to a link that opens it ("- [Streaming](/streaming): how to …"): such
# an item is a link list's entry, and the rest of its line describes the linked page.
_LIST_LINK_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+[*_]*$")
_FENCE_LINE_RE = re.compile(r"^\s*(`{3,}|~{3,})", re.MULTILINE)


class LinkSplit(NamedTuple):
    """A section's markdown read three ways (see the module docstring), and its links."""

    own: str
    anchors: str
    reading: str
    links: list[tuple[str, str]]  # (link text, URL) of each link, in order; images left out


def split_links(text: str) -> LinkSplit:
    """A section's markdown split by its links, in one pass over its prose; code left as is."""
    if "](" not in text:  # most sections: no link at all
        return LinkSplit(text, "", text, [])
    own: list[str] = []
    reading: list[str] = []
    links: list[tuple[str, str]] = []
    described: list[str] = []  # the rest of link-list items' lines (see `_LIST_LINK_RE`)
    for chunk, is_code in prose_and_code(text):
        pos = 0
        describing = False  # inside a list item that a link opens, before its line ends
        if not is_code:
            for m in _LINK_RE.finditer(chunk):
                before, words = chunk[pos : m.start()], m.group(2)
                describing = _keep_prose(before, describing, own, described)
                reading.append(before)
                reading.append(words)
                if m.group(1):  # an image: its alt text describes this page
                    own.append(words)
                else:
                    own.append(" ")
                    target = m.group(0)[m.group(0).index("](") + 2 : -1].split()
                    links.append((words, target[0] if target else ""))
                    line = chunk[chunk.rfind("\n", 0, m.start()) + 1 : m.start()]
                    describing = describing or bool(_LIST_LINK_RE.match(line))
                pos = m.end()
        _keep_prose(chunk[pos:], describing, own, described)
        reading.append(chunk[pos:])
    anchors = "\n".join([*(words for words, _ in links), *described])
    return LinkSplit("".join(own), anchors, "".join(reading), links)


def _keep_prose(part: str, describing: bool, own: list[str], described: list[str]) -> bool:
    """Add prose between links to `own`, or, up to the line's end, to `described`.

    Returns whether the next part still describes a link (the line has not ended).
    """
    if not describing:
        own.append(part)
        return False
    end = part.find("\n")
    if end < 0:
        described.append(part)
        own.append(" ")
        return True
    described.append(part[:end])
    own.append(" " + part[end:])
    return False


def link_texts(text: str) -> list[tuple[str, str]]:
    """(link text, URL) of each Markdown link outside code fences, in order; images left out."""
    return split_links(text).links


def prose_and_code(text: str, strict: bool = False) -> list[tuple[str, bool]]:
    """The text cut into runs of prose and fenced code blocks, in order, each marked.

    `strict`: a fence closes only on a line of fence characters alone, as CommonMark has it
    (a "```python" line inside a block whose source forgot to close it is code). What users
    see is rendered that way; the index keeps the looser reading it was built with.
    """
    out: list[tuple[str, bool]] = []
    start = 0
    fence: str | None = None
    for m in _FENCE_LINE_RE.finditer(text):
        mark = m.group(1)
        if fence is None:
            out.append((text[start : m.start()], False))
            start, fence = m.start(), mark
        elif mark[0] == fence[0] and len(mark) >= len(fence):
            end = text.find("\n", m.end())
            end = len(text) if end < 0 else end
            if strict and text[m.end() : end].strip():
                continue
            out.append((text[start:end], True))
            start, fence = end, None
    out.append((text[start:], fence is not None))
    return out
