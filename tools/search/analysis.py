"""What the index keeps of a page: its rows and its terms, computed without touching the index.

A pure function of the page, so pages can be analysed anywhere (in worker processes during a
build, `tools.search.workers`) and only the compact result travels to the writer: the page's
rows and each section's terms as the lexical engine indexes them (tools/search/lexical.py).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any, TypeVar

from tools.search.anchors import BODY_UNITS, link_texts, split_links
from tools.search.phrases import pair_codes, term_hashes
from tools.search.snippets import snippet_prose
from tools.sources.records import Page
from tools.text import index_terms

# Text indexed per section. A few pages carry megabytes of embedded data (base64 images, notebook
# output); past this the words are noise and they cost build time and memory. Reading is whole.
MAX_INDEXED_CHARS = 100_000
# How many of each section's terms are kept (in order, as pair codes) for phrase re-ranking.
RERANK_TERMS = 400

_LINK_RE = re.compile(r"\]\(([^)\s#?]*)|href=[\"']([^\"'#?]*)")
# Link targets that are not pages of this source: other sites, mail, in-page anchors.
_EXTERNAL_RE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
# Suffixes that name a page rather than a file to download: the source formats the readers take
# and the built site's pages. A link to `x.rst` (a Sphinx source) or `x.html` (its built page, as
# Sphinx and plain HTML sites link) names page `x`, as `x.md` does in a Markdown folder.
_PAGE_SUFFIXES = (".md", ".mdx", ".markdown", ".rst", ".txt", ".html", ".htm", ".ipynb")

PageId = TypeVar("PageId")


@dataclass
class SectionRecord:
    """A section's row."""

    heading: str
    level: int
    anchor: str
    text: str
    blen: int
    hlen: int
    pairs: bytes
    prose: str
    # The lexical engine's fields (tools/search/lexical.py): the body's own words, its anchor
    # words and the heading trail's terms, space-joined, each as often as it occurs.
    body_terms: str = ""
    anchor_terms: str = ""
    head_terms: str = ""


@dataclass
class PageRecord:
    """A page's row, its title-field terms and its sections, ready to write."""

    key: str
    url: str
    title: str
    description: str
    collection: str
    digest: str
    mtime: float
    size: int
    meta_json: str
    links_json: str
    title_terms: list[str]
    sections: list[SectionRecord]
    # {path: [mtime, size]} of the other files the page shows, and its lookups
    # (`page_dependencies`).
    reads_json: str = "{}"


# The key of `reads_json` that holds the site-wide lookups a page made (`page.meta["lookups"]`,
# e.g. the Sphinx targets its references resolved); every other key is an absolute file path.
LOOKUPS = ":lookups"


def page_dependencies(meta: dict[str, Any]) -> dict[str, Any]:
    """What a page shows besides its own file: other files' states, and its site-wide lookups."""
    out: dict[str, Any] = page_reads(meta.get("reads"))
    lookups = meta.get("lookups")
    if isinstance(lookups, dict) and lookups:
        out[LOOKUPS] = lookups
    return out


def page_reads(paths: Any) -> dict[str, list[float]]:
    """The files a page's reader read besides its own (`page.meta["reads"]`), with their state now.

    Stored with the page, so a sync reads the page again when one of them changes or goes
    (`IndexStore.sync`); a file gone already is recorded as such ([-1, -1]).
    """
    return {str(p): file_state(str(p)) for p in (paths if isinstance(paths, list) else [])}


def file_state(path: str) -> list[float]:
    """[mtime, size] of a file, [-1, -1] when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return [-1.0, -1.0]
    return [st.st_mtime, float(st.st_size)]


def analyse_page(
    key: str, mtime: float, size: int, digest: str, page: Page, url: str, collection: str
) -> PageRecord:
    """The record of one parsed page."""
    meta = {k: v for k, v in page.meta.items() if isinstance(v, str | int | float | bool)}
    path_words = key.rsplit(".", 1)[0].replace("/", " ").replace("-", " ")
    # The title field is a set: title, description and path repeat each other, and a word
    # named twice there is no more "about" the page than one named once.
    title_terms = list(set(index_terms(f"{page.title}\n{page.description}\n{path_words}")))
    records: list[SectionRecord] = []
    trail: list[tuple[int, str]] = []
    named_links: list[tuple[str, str]] = []  # (text, URL) of the page's links, for `links`
    for s in page.sections:
        while trail and trail[-1][0] >= s.level > 0:
            trail.pop()
        if s.level > 0:
            trail.append((s.level, s.heading))
        head = Counter(index_terms(" / ".join(h for _, h in trail)))
        # Own words and anchor words (a link's text, a link list entry's description) go to
        # separate engine fields, the anchor one weighed `ANCHOR_WEIGHT` (tools.search.anchors,
        # tools.search.lexical). The reading order holds the own and the anchor words, so the
        # own words' counts are its counts less the anchors' (one tokenisation of the section,
        # not two). The length, in BODY_UNITS, counts every word said in full.
        split = split_links(s.text[:MAX_INDEXED_CHARS])
        named_links.extend(split.links)
        body_terms = index_terms(split.reading)
        own = Counter(body_terms)
        anchor = Counter(index_terms(split.anchors)) if split.anchors else Counter()
        for t, a in anchor.items():
            own[t] = max(0, own.get(t, 0) - a)
        sequence = index_terms(s.heading)[:50] + body_terms[:RERANK_TERMS]
        records.append(
            SectionRecord(
                heading=s.heading,
                level=s.level,
                anchor=s.anchor,
                text=s.text,
                blen=len(body_terms) * BODY_UNITS,
                hlen=head.total(),
                pairs=pair_codes(term_hashes(sequence)).tobytes(),
                prose=snippet_prose(s.text),
                body_terms=repeated(own),
                anchor_terms=repeated(anchor),
                head_terms=repeated(head),
            )
        )
    return PageRecord(
        key=key,
        url=url,
        title=page.title,
        description=page.description,
        collection=collection,
        digest=digest,
        mtime=mtime,
        size=size,
        meta_json=json.dumps(meta, default=str),
        links_json=json.dumps(links(page, key, named_links)),
        title_terms=title_terms,
        sections=records,
        reads_json=json.dumps(page_dependencies(page.meta)),
    )


def repeated(counts: Counter[str]) -> str:
    """The terms space-joined, each as often as its count.

    The engine's field text: a whitespace tokenizer reads it back as these terms with these
    frequencies, so tantivy scores exactly the terms our analyzer produced.
    """
    return " ".join(chain.from_iterable(repeat(t, n) for t, n in counts.items() if n > 0))


def links(
    page: Page, key: str = "", named: Sequence[tuple[str, str]] | None = None
) -> dict[str, str]:
    """Link targets of a page within its source, each once, with the words of its links to it.

    Site-relative targets as written (`/oss/langgraph/streaming`); relative ones (`auth.md`,
    `../guides/x.mdx`), the usual form in a folder of Markdown files, resolved against the
    page's own key (`docs/auth`) without the file suffix. Both are matched to pages by path
    suffix (`IndexStore._update_priors`). The words are the texts of the Markdown links to the
    target, one line each (an HTML `href` adds the target without words); `named` are the page's
    (link text, URL) pairs when the caller has split its sections already.
    """
    found: dict[str, list[str]] = {}
    base = posixpath.dirname(key)
    for s in page.sections:
        for a, b in _LINK_RE.findall(s.text):
            target = _target(a or b, base)
            if target:
                found.setdefault(target, [])
    if named is None:
        named = [pair for s in page.sections for pair in link_texts(s.text)]
    for words, url in named:
        target = _target(url.split("#", 1)[0].split("?", 1)[0], base)
        if target and words.strip():
            found.setdefault(target, []).append(words.strip())
    return {target: "\n".join(dict.fromkeys(words)) for target, words in found.items()}


def link_target(link: str, page_key: str) -> str:
    """A link's target page as `links` names it, for a link written on page `page_key`."""
    return _target(link, posixpath.dirname(page_key))


def _target(link: str, base: str) -> str:
    """A link's target page as `links` names it, or "" for one outside the source."""
    link = link.strip()
    if not link or _EXTERNAL_RE.match(link):
        return ""
    if not link.startswith("/"):
        link = posixpath.normpath(posixpath.join(base, link))
        if link.startswith(".."):
            link = link.lstrip("./")  # above the source's root: its path words only
    for suffix in _PAGE_SUFFIXES:
        if link.endswith(suffix):
            link = link[: -len(suffix)]
            break
    if link == "index" or link.endswith("/index"):
        link = link[: -len("index")]  # a folder's index page is keyed by its folder
    link = link.rstrip("/")
    return "" if link == "." else link


def page_suffixes(pages: Iterable[tuple[PageId, str]]) -> dict[str, PageId | None]:
    """Every path suffix of each page's key (no file suffix, `index` as its folder), to its page.

    A suffix two pages share maps to None: a link that ends there names neither for sure. The
    one table link targets (`links`, `_target`) are matched against, by the link prior
    (`IndexStore._update_priors`) and by the links shown to users (tools/presentation/site_links.py).
    """
    by_suffix: dict[str, PageId | None] = {}
    for page, key in pages:
        parts = key.rsplit(".", 1)[0].split("/")
        if parts[-1] == "index":
            parts = parts[:-1]
        for i in range(len(parts)):
            suffix = "/".join(parts[i:])
            by_suffix[suffix] = None if suffix in by_suffix and by_suffix[suffix] != page else page
    return by_suffix


def match_target(target: str, by_suffix: Mapping[str, PageId | None]) -> PageId | None:
    """The page a link target (as `_target` names it) points to: its longest known path suffix."""
    parts = [p for p in target.split("/") if p]
    for i in range(len(parts)):
        page = by_suffix.get("/".join(parts[i:]))
        if page is not None:
            return page
    return None
