"""GitBook's blocks (`{% hint %}`, `{% tabs %}`, `{% content-ref %}`, …) read as the reader sees them.

GitBook writes its blocks as Liquid-like tags in the Markdown it syncs. A reader of the page
sees: a hint's text in a coloured box (its style an icon; a warning's or danger's is said in
bold here, since it changes what the text means), each tab's title over its content, a code
block's title (its file name) over the code, an embed as a link to what it embeds, a
content-ref as a card naming the linked page (its title, linking its address), and an
include's reusable block as if written in the page. Other tags (`stepper`, `columns`,
`swagger`, `file`, GitBook 3's `raw`, …) are dropped, their content kept. Code blocks and
code spans keep their text: a page about Liquid shows its tags.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_TAG_RE = re.compile(r"\{%-?\s*(end)?([a-zA-Z][\w-]*)((?:[^%]|%(?!\}))*?)-?%\}")
_CONTENT_REF_RE = re.compile(
    r"\{%-?\s*content-ref\b((?:[^%]|%(?!\}))*?)-?%\}(.*?)\{%-?\s*endcontent-ref\s*-?%\}", re.S
)
_CODE_SPAN_RE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_ATTR_RE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_INCLUDE_RE = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|(\S+))""")
_LINK_TEXT_RE = re.compile(r"\[([^\]]*)\]\(")
# A hint's styles whose meaning a reader takes from its icon, said in words here.
_SAID_STYLES = {"warning": "Warning", "danger": "Danger"}
# Tags that stand on a line of their own: replaced by a line break, so blocks stay apart.
_BLOCK_TAGS = frozenset({"hint", "tabs", "tab", "code", "embed", "stepper", "step", "columns"})
MAX_INCLUDE_DEPTH = 3


@dataclass
class PageLinks:
    """What a page's blocks need from the site: another page's title and address, an include."""

    # A link relative to the page -> (the linked page's title, None if unknown; its address).
    page: Callable[[str], tuple[str | None, str]]
    # A path relative to the page's folder -> the reusable block's text (None: not read).
    include: Callable[[str], str | None]
    problems: list[str] = field(default_factory=list)


def _attrs(text: str) -> dict[str, str]:
    return {
        m.group(1): m.group(2) if m.group(2) is not None else m.group(3) or ""
        for m in _ATTR_RE.finditer(text)
    }


def _chunks(body: str) -> Iterator[tuple[str, bool]]:
    """The page cut into runs of prose and fenced code blocks, in order (lines whole)."""
    run: list[str] = []
    fence = ""
    for line in body.split("\n"):
        m = _FENCE_RE.match(line)
        if fence:
            run.append(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                if not m.group(2).strip():
                    fence = ""
                    yield "\n".join(run), True
                    run = []
            continue
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            if run:
                yield "\n".join(run), False
            run, fence = [line], m.group(1)
            continue
        run.append(line)
    if run:
        yield "\n".join(run), bool(fence)


class _Reader:
    """The tags of one page (and of the blocks it includes, `depth` deep)."""

    def __init__(self, links: PageLinks, depth: int) -> None:
        self.links = links
        self.depth = depth

    def content_ref(self, m: re.Match[str]) -> str:
        url = _attrs(m.group(1)).get("url", "")
        title, address = self.links.page(url)
        if title is None:
            inner = _LINK_TEXT_RE.search(m.group(2))
            title = inner.group(1) if inner and inner.group(1) else url
        return f"\n[{title}]({address})\n"

    def tag(self, m: re.Match[str]) -> str:
        end, name, rest = m.group(1), m.group(2).lower(), m.group(3)
        attrs = _attrs(rest)
        if not end and name == "hint":
            said = _SAID_STYLES.get(attrs.get("style", "").lower())
            return f"\n**{said}**\n" if said else "\n"
        if not end and name in ("tab", "code") and attrs.get("title"):
            return f"\n**{attrs['title']}**\n"
        if not end and name == "embed" and attrs.get("url"):
            return f"\n[{attrs['url']}]({attrs['url']})\n"
        if not end and name == "include":
            return self.include(rest)
        return "\n" if (end or name in _BLOCK_TAGS) else ""

    def include(self, rest: str) -> str:
        m = _INCLUDE_RE.match(rest)
        target = next((g for g in m.groups() if g), "") if m else ""
        text = self.links.include(target) if target else None
        if text is None or self.depth >= MAX_INCLUDE_DEPTH:
            self.links.problems.append(f"{{% include {rest.strip()} %}}: not read")
            return ""
        return "\n" + read_blocks(text, self.links, self.depth + 1) + "\n"

    def prose(self, text: str) -> str:
        text = _CONTENT_REF_RE.sub(self.content_ref, text)
        if "{%" not in text:
            return text
        return "\n".join(self.line(line) if "{%" in line else line for line in text.split("\n"))

    def line(self, line: str) -> str:
        """A line's tags read; one that starts inside a code span is code, shown as written.

        (A tag's attribute may hold a code span itself: `{% tab title="`x`" %}`.)
        """
        spans = [m.span() for m in _CODE_SPAN_RE.finditer(line)]

        def tag(m: re.Match[str]) -> str:
            if any(start <= m.start() < end for start, end in spans):
                return m.group(0)
            return self.tag(m)

        return _TAG_RE.sub(tag, line)


def read_blocks(body: str, links: PageLinks, depth: int = 0) -> str:
    """The page with GitBook's blocks as their reader sees them (see the module)."""
    if "{%" not in body:
        return body
    reader = _Reader(links, depth)
    return "\n".join(text if code else reader.prose(text) for text, code in _chunks(body))
