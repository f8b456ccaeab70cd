"""Link anchor text: a link's words describe the page it points to, not the section that holds it.

An overview page ("Where to go next: [Authentication](auth.md) — …") links everywhere. Counting
each link's text, and the words of its URL, as the section's own words makes that section match
every topic it links to at full strength, and it outranks the pages it points at. So a
section's text is read in three parts (`split_links`):

- its own words: the text without the links' texts and without their URLs;
- its anchor words: the links' texts. They count for the section at `ANCHOR_WEIGHT` of an own
  word, not zero, because an inline link often names the sentence's subject
  ("build it with a [`StateGraph`](/oss/graph-api)");
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

# An anchor word's share of an own word in a section's body term frequency. Body tf is stored
# in units of this share (`BODY_UNITS` per own word), so the postings stay integer counts.
ANCHOR_WEIGHT = 0.5
BODY_UNITS = round(1 / ANCHOR_WEIGHT)

# `[text](url)` or `[text](url "title")`; the URL may hold one level of parentheses.
_LINK_RE = re.compile(
    r"(!?)\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+[\"'][^\"'\n]*[\"'])?\)"
)
_FENCE_LINE_RE = re.compile(r"^\s*(`{3,}|~{3,})", re.MULTILINE)


def split_links(text: str) -> tuple[str, str, str]:
    """(own text, anchor text, reading text) of a section's markdown; see the module docstring."""
    if "](" not in text:  # most sections: no link at all
        return text, "", text
    own: list[str] = []
    anchors: list[str] = []
    reading: list[str] = []
    for chunk, is_code in _prose_and_code(text):
        if is_code:
            own.append(chunk)
            reading.append(chunk)
            continue
        own.append(_LINK_RE.sub(lambda m: m.group(2) if m.group(1) else " ", chunk))
        anchors.extend(m.group(2) for m in _LINK_RE.finditer(chunk) if not m.group(1))
        reading.append(_LINK_RE.sub(lambda m: m.group(2), chunk))
    return "".join(own), "\n".join(anchors), "".join(reading)


def link_texts(text: str) -> list[tuple[str, str]]:
    """(link text, URL) of each Markdown link outside code fences, in order; images left out."""
    if "](" not in text:
        return []
    out: list[tuple[str, str]] = []
    for chunk, is_code in _prose_and_code(text):
        if not is_code:
            for m in _LINK_RE.finditer(chunk):
                if not m.group(1):
                    url = m.group(0)[m.group(0).index("](") + 2 : -1].split()
                    out.append((m.group(2), url[0] if url else ""))
    return out


def _prose_and_code(text: str) -> list[tuple[str, bool]]:
    """The text cut into runs of prose and fenced code blocks, in order, each marked."""
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
            out.append((text[start:end], True))
            start, fence = end, None
    out.append((text[start:], fence is not None))
    return out
