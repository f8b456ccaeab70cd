"""Links inside page text as the real site's URLs, at display time.

The index keeps a page's text as its source file writes it (`[types](concepts/types.md)`,
`../reference/exit-codes.html#exit-codes`, `/oss/python/langgraph/streaming`): the link prior
and the anchor field match those targets to pages by path suffix (tools/search/analysis.py).
Shown as written, they break wherever the text lands — the model's tool results, the offline
model's quotes, the chat page — because they resolve against the wrong base, and `.md` targets
are no URLs the site serves. So whatever leaves the index for display passes through
`resolve_links`, with the rules:

- a link to a page of the same source (matched exactly as the link prior matches it:
  `analysis.link_target` + `analysis.match_target`) becomes that page's site URL; its fragment
  becomes the anchor the target page serves for it when one of its sections has that id (up to
  case or the default slug rule), else it is kept as written;
- a root-relative link that names no page becomes absolute against the citing page's URL;
- a relative link that names no page keeps its text without the link: never a broken or
  invented URL;
- `http(s)://` and `mailto:` links stay; any other scheme (`javascript:`, `data:`, a
  protocol-relative `//host`) loses the link and keeps its text;
- images follow the same rules, but no image is a page: a relative image (whose served place
  depends on how the generator lays out pages) drops to its alt text.

Code (fences and inline spans) is left as written. Only text is rewritten, per shown section:
the page table is computed once per index version (`IndexLinks`).
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol
from urllib.parse import quote, unquote, urljoin, urlsplit

from tools.search.analysis import link_target, match_target, page_suffixes
from tools.search.anchors import prose_and_code
from tools.search.records import Hit
from tools.sources.markdown.inline import slugify

# `[text](dest)` / `![alt](dest "title")`; dest may be `<…>` or hold one level of parentheses.
# Its text may hold code spans with brackets of their own (`[`cfg['x']`](…)`; a `](` ends the
# text even there, so two spans on a line never pair up across a link), or an image
# (`[![badge](b.svg)](page.md)`).
_LINK_RE = re.compile(
    r"(!?)\[((?:`(?:[^`\n\]]|\](?!\())*`|!\[[^\[\]\n]*\]\([^()\s]*\)|[^\[\]\n`]|`)*)\]\(\s*(<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"
)
# A CommonMark autolink `<scheme:…>`: a link whatever its scheme, so it is checked too.
_AUTOLINK_RE = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]*)>")
# A backtick run: inline code spans open and close with runs of the same length.
_TICKS_RE = re.compile(r"`+")
_BLANK_LINE_RE = re.compile(r"\n[ \t]*\n")
# A link whose destination a cut ended: `[text](https://docs.exa` at the end of the text.
_OPEN_LINK_RE = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\s]*$")
# Anything that reads as a scheme before the first `/`, `?` or `#`: not a path of this site.
_SCHEME_RE = re.compile(r"^[^/?#]*:")
# What stays of a URL as written: no controls, spaces or characters that end a Markdown link.
_URL_SAFE = ":/?#[]@!$&'*+,;=%~-._"


@dataclass(frozen=True)
class PageAddress:
    """A page as links to it are shown: its URL and every id its sections serve."""

    url: str
    anchors: tuple[str, ...] = ()

    def fragment(self, written: str) -> str:
        """The served anchor for a fragment as written, or the fragment as written."""
        anchors = set(self.anchors)
        if written in anchors:
            return written
        wanted = unquote(written)
        folded = {a.lower(): a for a in self.anchors}
        for form in (wanted, wanted.lower(), slugify(wanted)):
            if form in anchors:
                return form
            if form.lower() in folded:
                return folded[form.lower()]
        return written


class LinkPages(Protocol):
    """The pages links can point to: a link target resolved to a page key, a key to its address."""

    def page_for(self, link: str, page_key: str) -> str | None:
        """The key of the page a link (path part, as written on `page_key`) points to."""
        ...

    def address(self, key: str) -> PageAddress | None:
        """A page's URL and anchors by key."""
        ...


class IndexLinks:
    """`LinkPages` over a search index: its page table, recomputed when the index changes.

    Why a cache: the suffix table is the whole index's keys; building it per shown section
    would cost a scan of the index each time. Addresses are read per target page, on demand.
    """

    def __init__(self, index: IndexedPages) -> None:
        self.index = index
        self._lock = threading.Lock()
        self._version: object = None
        self._suffixes: Mapping[str, str | None] = {}
        self._addresses: dict[str, PageAddress | None] = {}

    def refresh(self) -> IndexLinks:
        """Recompute the table if the index changed since: once per page or list shown."""
        version = self.index.link_version()
        with self._lock:
            if version != self._version:
                self._suffixes = page_suffixes((k, k) for k in self.index.keys())
                self._addresses = {}
                self._version = version
        return self

    def _table(self) -> Mapping[str, str | None]:
        if self._version is None:
            self.refresh()
        return self._suffixes

    def page_for(self, link: str, page_key: str) -> str | None:
        """The page key the link names, matched as the link prior matches it."""
        target = link_target(link, page_key)
        return match_target(target, self._table()) if target else None

    def address(self, key: str) -> PageAddress | None:
        """The page's URL and section ids, read once per index version."""
        self._table()
        with self._lock:
            if key in self._addresses:
                return self._addresses[key]
        stored = self.index.address(key)
        found = PageAddress(*stored) if stored is not None else None
        with self._lock:
            self._addresses[key] = found
        return found


class IndexedPages(Protocol):
    """What `IndexLinks` reads of an index (tools/search/index.py `SearchIndex`)."""

    def keys(self) -> list[str]:
        """Every stored key."""
        ...

    def link_version(self) -> object:
        """A value that changes whenever the stored pages do."""
        ...

    def address(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        """The page's URL and every anchor its sections serve."""
        ...


def resolve_links(
    text: str, page_url: str, page_key: str = "", pages: LinkPages | None = None
) -> str:
    """The text with each link (outside code) as a URL of the real site, or as its bare text.

    `page_url` is the cited URL of the page the text is from, `page_key` its key in `pages`;
    without `pages` (a source with no index) only the rules that need no page table apply.
    """
    if "](" not in text and "<" not in text:
        return text
    out: list[str] = []
    for chunk, is_code in prose_and_code(text, strict=True):
        out.append(chunk if is_code else _resolve_prose(chunk, page_url, page_key, pages))
    return "".join(out)


def resolve_snippet(
    snippet: str, page_url: str, page_key: str = "", pages: LinkPages | None = None
) -> str:
    """A snippet's links resolved; a link the snippet's window cut in two shows only its text."""
    if "](" not in snippet and "<" not in snippet:
        return snippet
    text = resolve_links(snippet, page_url, page_key, pages)
    # Cut at the start: `…pes](concepts/types.md) and` (no `[` opened it in the window).
    head = re.match(r"^(…?[^\[\]`]*)\]\([^()\s]*\)", text)
    if head:
        text = head.group(1) + text[head.end() :]
    # Cut at the end: `see [types](concepts/ty…`.
    if text.endswith("…"):
        return without_open_link(text[:-1]) + "…"
    return text


def without_open_link(text: str) -> str:
    """Text cut short, with a link the cut left open (`see [types](https://x.dev/ty`) as its text."""
    return _OPEN_LINK_RE.sub(r"\1", text) if "](" in text else text


def _code_spans(chunk: str) -> list[tuple[int, int]]:
    """(start, end) of each inline code span of a prose chunk (CommonMark backtick runs).

    A span closes with the next run of as many backticks in the same paragraph; a run with no
    such closer is a literal backtick.
    """
    spans: list[tuple[int, int]] = []
    runs = list(_TICKS_RE.finditer(chunk))
    breaks = [m.start() for m in _BLANK_LINE_RE.finditer(chunk)]
    paragraph = [bisect.bisect(breaks, r.start()) for r in runs]
    i = 0
    while i < len(runs):
        opener = runs[i]
        closer = next(
            (
                j
                for j in range(i + 1, len(runs))
                if paragraph[j] == paragraph[i] and len(runs[j].group()) == len(opener.group())
            ),
            None,
        )
        if closer is None:
            i += 1
            continue
        spans.append((opener.start(), runs[closer].end()))
        i = closer + 1
    return spans


def _resolve_prose(chunk: str, page_url: str, page_key: str, pages: LinkPages | None) -> str:
    spans = _code_spans(chunk) if "`" in chunk else []

    def in_code(pos: int) -> bool:
        return any(start <= pos < end for start, end in spans)

    def link(m: re.Match[str], inner: bool = False) -> str:
        if not inner and in_code(m.start()):
            return m.group(0)
        image, words, dest = m.group(1) == "!", m.group(2), m.group(3)
        if "![" in words:  # an image inside the link's text: the same rules
            words = _LINK_RE.sub(lambda i: link(i, inner=True), words)
        if dest.startswith("<"):
            dest = dest[1:-1]
        url = _site_url(dest.strip(), page_url, page_key, pages, image)
        if url is None:
            return words
        return f"{'!' if image else ''}[{words}]({url})"

    def autolink(m: re.Match[str]) -> str:
        if in_code(m.start()):
            return m.group(0)
        return m.group(0) if _external(m.group(1)) else m.group(1)

    text = _LINK_RE.sub(link, chunk) if "](" in chunk else chunk
    if "<" in text:
        spans = _code_spans(text) if "`" in text else []
        text = _AUTOLINK_RE.sub(autolink, text)
    return text


def _external(dest: str) -> str | None:
    """The destination as a safe absolute link when it is `http(s)://host…` or `mailto:`."""
    if any(ord(c) < 33 or c == "\\" for c in dest):
        return None
    scheme = dest.split(":", 1)[0].lower() if ":" in dest else ""
    if scheme == "mailto" and len(dest) > len("mailto:"):
        return _quoted(dest)
    if scheme in ("http", "https") and dest[len(scheme) :].startswith("://"):
        try:
            netloc = urlsplit(dest).netloc
        except ValueError:
            return None
        return _quoted(dest) if netloc and not netloc.startswith(("@", ":")) else None
    return None


def _quoted(url: str) -> str:
    """The URL with what would end or break a Markdown link percent-encoded."""
    return quote(url, safe=_URL_SAFE)


def _site_url(
    dest: str, page_url: str, page_key: str, pages: LinkPages | None, image: bool
) -> str | None:
    """Where a link should point on the real site, or None to show its text only."""
    if not dest:
        return None
    if _SCHEME_RE.match(dest) or dest.startswith("//"):
        return _external(dest)  # http(s), mailto: kept; every other scheme dropped
    if any(ord(c) < 32 or c == "\\" for c in dest):
        return None
    path, _, fragment = dest.partition("#")
    path = path.split("?", 1)[0]
    if not image:
        if not path:  # `#anchor`: a section of this page
            here = pages.address(page_key) if pages is not None and page_key else None
            return _page_url(here or PageAddress(page_url), fragment)
        key = pages.page_for(path, page_key) if pages is not None else None
        address = pages.address(key) if pages is not None and key else None
        if address is not None:
            return _page_url(address, fragment)
    if dest.startswith("/") and _external(page_url):
        return _external(_quoted(urljoin(page_url, dest)))
    return None


def _page_url(address: PageAddress, fragment: str) -> str | None:
    """A page's site URL with the served form of the fragment; None when it is no web URL."""
    url = _external(address.url.split("#", 1)[0])
    if url is None:
        return None
    anchor = address.fragment(fragment) if fragment else ""
    return url + ("#" + _quoted(anchor) if anchor else "")


def source_links(source: object) -> IndexLinks | None:
    """The page table of a source that keeps its pages in a search index, else None.

    A folder or llms.txt corpus, and the folder KB, keep one (`.index`); a help-center KB
    reads articles from its API and has none: its links get the rules that need no table.
    """
    index = getattr(source, "index", None)
    needed = ("keys", "link_version", "address")
    if index is None or not all(callable(getattr(index, name, None)) for name in needed):
        return None
    return IndexLinks(index)


def page_links(url: str, key: str = "", pages: IndexLinks | None = None) -> Callable[[str], str]:
    """`resolve_links` bound to one page: what its shown sections pass through.

    The page table is brought up to date here, once for the page, not per link.
    """
    if pages is not None:
        pages.refresh()

    def rewrite(text: str) -> str:
        return resolve_links(text, url, key, pages)

    return rewrite


def hit_snippets(hits: Sequence[Hit], pages: IndexLinks | None) -> list[Hit]:
    """Search hits with their snippets' links resolved (`resolve_snippet`), the table checked once."""
    if pages is not None:
        pages.refresh()
    return [replace(h, snippet=resolve_snippet(h.snippet, h.url, h.key, pages)) for h in hits]
