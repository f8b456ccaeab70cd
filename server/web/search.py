"""Instant search: the docs' sections as the reader types (contract C4 of docs/web.md).

`GET /chat/api/search?q=<text>&limit=<1..10>` with the page's Authorization header answers
`{"results": [{ref, kind, title, section, snippet, url}], "took_ms"}`: the same index
`search_docs` ranks with (the docs source's `SearchIndex`, lexical side), one result per page at
its best section, with the section's heading trail and the site URL with its anchor (None when
no site is configured: the page then opens `/chat/source?ref=…`, server/web/sources.py).

A keystroke's query ends in a word being typed: the words before it are searched as written,
and the last one is completed from the index's own term dictionary (the most common term it
begins; or, when none does, the known term it inflects, `streami` → `stream`), so `how do I
stre` finds the streaming pages before the word is finished. No vectors: they cost tens of
milliseconds a query and this answers on every keystroke (bench/instant_search.py).

Guests are limited per guest and per address in sliding windows of their own
(`DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE`, `DOCS_AGENT_GUEST_ADDRESS_SEARCHES_PER_MINUTE`), as
server/guest.py limits their runs, so typing never spends the guest's API allowance; over a
limit the answer is 429 with `Retry-After`. Signed-in users are not limited here.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from langgraph_sdk import Auth

from graphs.source_cards import heading_trail, web_url
from server import guest
from server.web import feedback
from settings import current
from settings.guests import SearchLimits
from tools import load_sources
from tools.presentation.site_links import hit_snippets, source_links
from tools.search.records import Hit
from tools.sources.release_notes import RELEASE_NOTES, about_release
from tools.text import index_terms

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 200
DEFAULT_LIMIT = 6
MAX_LIMIT = 10
# The word being typed is completed once it has this many characters (fewer match too much).
MIN_PREFIX_CHARS = 3
# How far a typed word may run past the term it inflects (`streami` → `stream`).
MAX_BACKOFF_CHARS = 3
_WORD_RE = re.compile(r"\w+", re.UNICODE)
_MD_LINK_RE = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
# A snippet window that starts inside a link's address: `…e-docs-as-you-type)). Signed-in…`.
_CUT_URL_TAIL_RE = re.compile(r"^…[^\s()]*\)+[.,;:]?\s*")


class GuestSearchLimiter:
    """The two sliding windows of guests' instant searches (server/guest.py's `SlidingWindow`)."""

    def __init__(self, limits: SearchLimits, clock: Any = time.monotonic) -> None:
        """Empty counters; `clock` is injectable for tests."""
        self.per_guest = guest.SlidingWindow(limits.per_guest_minute, 60, clock)
        self.per_address = guest.SlidingWindow(limits.per_address_minute, 60, clock)

    def hit(self, identity: str, address_key: str) -> None:
        """Count one search; GuestLimitError when the guest or its address is over its limit."""
        self.per_guest.hit(identity, "instant searches per minute")
        self.per_address.hit(address_key, "instant searches per address per minute")


LIMITER = GuestSearchLimiter(current().guest_searches)


def keystroke_terms(index: Any, query: str) -> list[str]:
    """The index terms of a query typed so far: its words, the last one completed if unfinished."""
    query = query[:MAX_QUERY_CHARS]
    words = list(_WORD_RE.finditer(query))
    if not words:
        return []
    last = words[-1]
    typing = last.end() == len(query)  # no space after it yet: a word being typed
    terms = index_terms(query[: last.start()] if typing else query)
    unknown = set(terms) - index.known_terms(terms) if terms else set()
    # A finished word the index does not hold may be an inflection of one it does (`streame`).
    terms = [_stem_of(index, t) if t in unknown else t for t in terms]
    if typing:
        terms += _completed(index, last.group(0))
    return list(dict.fromkeys(terms))


# What a word may have after the stem the index keeps (tools/text.py's stemmer drops them).
INFLECTIONS = ("ing", "ed", "es", "s")
# A stem found by cutting an ending has at least this many characters (`stre` is no `str`+`e`).
MIN_STEM_CHARS = 4


def _inflected(index: Any, word: str) -> tuple[str, int] | None:
    """The known term a word inflects, with its section count (`streami` → `stream`), or None.

    Only a cut that is the start of an ending counts: `checkp` is on its way to `checkpoint`,
    not an inflection of `check`.
    """
    for cut in range(1, MAX_BACKOFF_CHARS + 1):
        stem, ending = word[:-cut], word[-cut:]
        if len(stem) < MIN_STEM_CHARS:
            break
        if not any(full.startswith(ending) for full in INFLECTIONS):
            continue
        for term, count in index.completions(stem, 8):
            if term == stem:
                return term, count
    return None


def _stem_of(index: Any, term: str) -> str:
    """The known term an unknown one inflects, else the term itself."""
    found = _inflected(index, term)
    return found[0] if found else term


def _completed(index: Any, word: str) -> list[str]:
    """The index term a word being typed most likely becomes ([] for too short a word).

    The most common term it begins, or the known term it inflects when that is more common
    (`streami`: `stream`, not `streamingstdoutcallbackhandler`).
    """
    prefix = word.lower()
    if len(prefix) < MIN_PREFIX_CHARS:
        return []
    found = index.completions(prefix, 1)
    best = found[0] if found else None
    inflected = _inflected(index, prefix)
    if inflected is not None and (best is None or inflected[1] > best[1]):
        best = inflected
    if best is not None:
        return [best[0]]
    # Neither: the word's own terms (an identifier `StateGr` still searches `state`).
    return [t for t in index_terms(word) if index.known_terms([t])]


def _plain_snippet(text: str) -> str:
    """A snippet as reading text: links as their words, no code backticks, no cut-off URL tail."""
    text = _MD_LINK_RE.sub(r"\1", text).replace("`", "")
    return _CUT_URL_TAIL_RE.sub("…", text)


@dataclass(frozen=True)
class _Heading:
    """What a heading trail needs of a section (`graphs.source_cards.heading_trail`)."""

    heading: str
    level: int
    anchors: tuple[str, ...]


@lru_cache(maxsize=4096)
def _outline(corpus: Any, key: str, version: object) -> tuple[_Heading, ...]:
    """A page's headings (no text), kept per index version.

    Successive keystrokes find the same pages again, and reading a whole page for its trail
    costs more than the search itself.
    """
    try:
        doc = corpus.get(key)
    except Exception:  # noqa: BLE001 — a trail is a nicety; the result stands without it
        log.debug("instant search: no page %r for its trail", key, exc_info=True)
        return ()
    if doc is None:
        return ()
    return tuple(_Heading(s.heading, s.level, tuple(s.anchors)) for s in doc.sections)


def _result(corpus: Any, hit: Hit, version: object) -> dict[str, Any]:
    anchor = hit.anchor
    section = [hit.section] if hit.section else []
    if anchor and getattr(corpus, "get", None) is not None:
        section = heading_trail(_outline(corpus, hit.key, version), anchor, hit.title) or section
    site = web_url(hit.url.split("#", 1)[0])
    return {
        "ref": hit.url + (f"#{anchor}" if anchor else ""),
        "kind": "doc",
        "title": hit.title,
        "section": [s for s in section if s],
        "snippet": _plain_snippet(hit.snippet),
        "url": (site + (f"#{anchor}" if anchor else "")) if site else None,
    }


@lru_cache(maxsize=8)
def _page_links(corpus: Any) -> Any:
    """One link table per docs source, kept: it is rebuilt only when the index changes."""
    return source_links(corpus)


def instant_results(corpus: Any, query: str, limit: int) -> list[dict[str, Any]]:
    """The sections a query typed so far finds in a docs source (blocking: index reads)."""
    ensure = getattr(corpus, "ensure_synced", None)
    if ensure is not None:
        ensure()
    index = corpus.index
    terms = keystroke_terms(index, query)
    if not terms:
        return []
    hide = getattr(getattr(corpus, "pages", None), "mark_release_notes", False)
    hide = hide and not about_release(query)
    hits = index.search(query, limit + (5 if hide else 0), terms=terms)
    if hide:
        hits = [h for h in hits if h.collection != RELEASE_NOTES]
    hits = hit_snippets(hits[:limit], _page_links(corpus))
    version = index.link_version()
    return [_result(corpus, h, version) for h in hits]


def _search_docs_source(query: str, limit: int) -> list[dict[str, Any]] | None:
    """Instant results from the docs source the graphs search (None: there is none to search)."""
    corpus = load_sources().docs  # one per process (tools.load_sources)
    if corpus is None or getattr(corpus, "index", None) is None:
        return None
    return instant_results(corpus, query, limit)


router = APIRouter()


def _json(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        body, status_code=status, headers={"Cache-Control": "no-store", **(headers or {})}
    )


async def _admit(request: Request) -> Response | None:
    """None when the caller may search now; else the 401/429 answer.

    A guest token is verified here without counting it against the guest's API allowance
    (typing is not a request a person makes), then counted in the search windows; every other
    caller goes through the server's own authentication.
    """
    token = guest.bearer_token(request.headers.get("authorization"))
    if guest.CONFIG.enabled and token.startswith(guest.PREFIX):
        claims = guest.SERVICE.verify(token)
        if claims is None:
            return _json({"detail": "Invalid or expired guest token"}, 401)
        try:
            LIMITER.hit(str(claims["sub"]), str(claims["addr"]))
        except guest.GuestLimitError as exc:
            return _json({"detail": str(exc)}, 429, {"Retry-After": str(exc.retry_after_s)})
        return None
    try:
        await feedback.caller(request)
    except Auth.exceptions.HTTPException as exc:
        return _json({"detail": exc.detail}, exc.status_code, dict(exc.headers or {}))
    return None


@router.get("/chat/api/search")
async def instant_search(request: Request) -> Response:
    """Sections matching what the reader has typed so far (see the module docstring)."""
    started = time.perf_counter()
    refused = await _admit(request)
    if refused is not None:
        return refused
    query = (request.query_params.get("q") or "").strip()[:MAX_QUERY_CHARS]
    raw_limit = request.query_params.get("limit") or str(DEFAULT_LIMIT)
    if not raw_limit.isdigit():
        return _json({"detail": f"limit must be a whole number from 1 to {MAX_LIMIT}"}, 422)
    limit = max(1, min(int(raw_limit), MAX_LIMIT))
    results: list[dict[str, Any]] | None = []
    if query:
        try:  # one hop to a worker thread: index reads block (and the first one may sync)
            results = await asyncio.to_thread(_search_docs_source, query, limit)
        except Exception:  # noqa: BLE001 — a reader sees a plain sentence, the log the rest
            log.exception("instant search failed for a %d-character query", len(query))
            return _json({"detail": "Search is unavailable right now; try again shortly."}, 503)
        if results is None:
            return _json({"detail": "Instant search needs a docs source with an index."}, 503)
    took_ms = round((time.perf_counter() - started) * 1000, 2)
    return _json(
        {"results": results, "took_ms": took_ms}, headers={"Server-Timing": f"search;dur={took_ms}"}
    )
