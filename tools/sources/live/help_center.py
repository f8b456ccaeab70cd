"""A knowledge base behind a Zendesk-Help-Center-style API, with sections as collections.

    GET {base}/api/v2/help_center/articles/search.json?query=...&per_page=N
    GET {base}/api/v2/help_center/articles/{id}.json
    GET {base}/api/v2/help_center/sections.json

Article bodies are HTML; they are turned into markdown-ish text (headings, lists, code, links)
so the same page renderer and citation rules apply as for the folder KB. A failure of the API
is raised as `SourceUnavailable` with its reason, which the tools report as such (never as
"nothing found", never as a crashed run).
"""

from __future__ import annotations

import base64
import logging
import re
import threading
import time
from html import unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from tools.search import Document, Hit
from tools.settings import LiveSourceSettings
from tools.sources.hidden.strip import strip_hidden
from tools.sources.live.fetch import SourceUnavailable, client_for, get, same_site, status_reason
from tools.sources.markdown.parse import parse_markdown
from tools.text import sanitize_external

log = logging.getLogger(__name__)

API = "/api/v2/help_center"
MAX_PAGES = 20  # of a paginated list (sections): pagination is bounded
RETRY_FAILED_S = 60.0  # a section list that failed to load is tried again this soon
NOT_MODIFIED = "__not_modified__"  # what `_json` returns for a 304
ETAG = "__etag__"  # where `_json` puts the answer's ETag


class _HtmlToMarkdown(HTMLParser):
    """Just enough HTML -> markdown for help-center articles; unknown tags keep their text."""

    BLOCK = {"p", "div", "section", "article", "table", "tr", "blockquote", "ul", "ol"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.pre = 0
        self.href: list[str | None] = []
        self.lists: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self.skip += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag in {"ul", "ol"}:
            self.lists.append(tag)
            self.out.append("\n")
        elif tag == "li":
            marker = "1." if self.lists and self.lists[-1] == "ol" else "-"
            self.out.append("\n" + "  " * max(0, len(self.lists) - 1) + marker + " ")
        elif tag == "pre":
            self.pre += 1
            self.out.append("\n\n```\n")
        elif tag == "code" and not self.pre:
            self.out.append("`")
        elif tag == "br":
            self.out.append("\n")
        elif tag == "a":
            self.href.append(dict(attrs).get("href"))
            self.out.append("[")
        elif tag in {"td", "th"}:
            self.out.append(" | ")
        elif tag in self.BLOCK:
            self.out.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self.skip = max(0, self.skip - 1)
        elif re.fullmatch(r"h[1-6]", tag):
            self.out.append("\n\n")
        elif tag in {"ul", "ol"}:
            if self.lists:
                self.lists.pop()
            self.out.append("\n")
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            self.out.append("\n```\n\n")
        elif tag == "code" and not self.pre:
            self.out.append("`")
        elif tag == "a":
            href = self.href.pop() if self.href else None
            self.out.append(f"]({href})" if href else "]")
        elif tag in self.BLOCK:
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        self.out.append(data if self.pre else re.sub(r"\s+", " ", data))

    def text(self) -> str:
        raw = "".join(self.out)
        raw = re.sub(r"\[([^\]]*)\]\(\)", r"\1", raw)
        lines = [line.rstrip() for line in raw.splitlines()]
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def html_to_markdown(html: str) -> str:
    """Readable markdown-ish text of an HTML article body."""
    parser = _HtmlToMarkdown()
    try:
        parser.feed(html or "")
        parser.close()
    except Exception:  # noqa: BLE001 — a broken body still yields its text
        return unescape(re.sub(r"<[^>]+>", " ", html or ""))
    return parser.text()


class HelpCenterKnowledgeBase:
    """The KB tools' backend for a help-center API (see the module docstring for the endpoints).

    A failure of the API raises `SourceUnavailable` with its reason (down, 401, 403, 429, 5xx,
    a timeout, malformed JSON, an HTML page, a `next_page` on another host), so the tools say
    which source failed instead of "nothing found". The section list is read once it loads;
    a failed load is tried again on the next call, never kept as an empty map.
    """

    localized = True  # `search` takes the user's locale

    def __init__(
        self,
        base_url: str,
        token: str = "",
        client: httpx.Client | None = None,
        live: LiveSourceSettings | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.live = live or LiveSourceSettings()
        # Sent with every request, so an injected client (tests, a proxy setup) gets them too.
        self._headers = {"Accept": "application/json"}
        if token:
            self._headers["Authorization"] = auth_header(token, self.live.kb_email)
        self._client = client or client_for(self.live)
        self._sections: dict[str, str] | None = None
        self._sections_at = 0.0
        # The first sections page's ETag and the names it led to: a refresh is conditional.
        self._known: tuple[str, dict[str, str]] | None = None
        # Why the section list did not load, while it has not (a note for the search result).
        self.sections_problem: str | None = None
        self._lock = threading.Lock()

    def _json(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        etag: str = "",
    ) -> dict[str, Any] | None:
        """The JSON object at `path`; None for a 404; `SourceUnavailable` for any other failure.

        With an `etag` the request is conditional: a 304 comes back as `{NOT_MODIFIED: True}`.
        """
        what = "the help center"
        headers = {**self._headers, **({"If-None-Match": etag} if etag else {})}
        resp = get(self._client, self.base_url + path, what, self.live, headers, params)
        if resp.status_code == 304 and etag:
            return {NOT_MODIFIED: True}
        if resp.status_code == 404:
            return None
        if not resp.is_success:
            log.warning("help center %s%s answered %s", self.base_url, path, resp.status_code)
            raise SourceUnavailable(status_reason(resp, what))
        ctype = resp.headers.get("content-type", "").lower()
        if "html" in ctype or resp.content.lstrip()[:1] == b"<":
            log.warning("help center %s%s answered an HTML page", self.base_url, path)
            raise SourceUnavailable(f"{what} answered an HTML page instead of JSON")
        try:
            data = resp.json()
        except ValueError:
            log.warning("help center %s%s answered malformed JSON", self.base_url, path)
            raise SourceUnavailable(f"{what} answered malformed JSON") from None
        if not isinstance(data, dict):
            raise SourceUnavailable(f"{what} answered malformed JSON (not an object)")
        data[ETAG] = resp.headers.get("etag", "")
        return data

    def _next_path(self, data: dict[str, Any]) -> str | None:
        """The path of `next_page`, only on the configured host; refused anywhere else."""
        nxt = data.get("next_page")
        if not isinstance(nxt, str) or not nxt:
            return None
        url = urljoin(self.base_url + "/", nxt)
        if not same_site(url, self.base_url):
            log.warning("help center next_page %s is on another host; not followed", nxt)
            raise SourceUnavailable(
                f"the help center's next_page points to another host ({urlsplit(url).netloc})"
            )
        parts = urlsplit(url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def _section_names(self) -> dict[str, str]:
        """Section id -> name, once it loads (following `next_page`, at most MAX_PAGES pages).

        A failed load is not kept: the next call tries again, and meanwhile searches name
        sections by id and say why (`sections_problem`).
        """
        with self._lock:
            if self._sections is not None:
                return self._sections
            names: dict[str, str] = {}
            path: str | None = f"{API}/sections.json"
            self._sections_at = time.monotonic()
            first_etag = ""
            try:
                for n in range(MAX_PAGES):
                    if not path:
                        break
                    # A refresh asks for the first page conditionally: unchanged, all is kept.
                    data = self._json(path, etag=self._known[0] if n == 0 and self._known else "")
                    if data is not None and data.get(NOT_MODIFIED) and self._known:
                        names = dict(self._known[1])
                        break
                    if data is None:
                        break
                    if n == 0:
                        first_etag = str(data.get(ETAG) or "")
                    sections = data.get("sections")
                    if not isinstance(sections, list):
                        raise SourceUnavailable("the help center's section list is malformed")
                    for sec in sections:
                        if isinstance(sec, dict):
                            names[str(sec.get("id"))] = str(sec.get("name") or sec.get("id"))
                    path = self._next_path(data)
                else:
                    if path:
                        log.warning("help center: more than %d pages of sections", MAX_PAGES)
            except SourceUnavailable as exc:
                self.sections_problem = exc.reason
                return names
            self._sections, self.sections_problem = names, None
            if first_etag:
                self._known = (first_etag, dict(names))
            return names

    def refresh_due(self, now: float | None = None) -> bool:
        """Whether the schedule should reload the sections: every `refresh_s`, sooner after a failure."""
        if self.live.refresh_s <= 0:
            return False
        period = self.live.refresh_s
        if self.sections_problem:
            period = min(period, RETRY_FAILED_S)
        return (time.monotonic() if now is None else now) - self._sections_at >= period

    def refresh(self) -> None:
        """Reload the section list now (a scheduled refresh: sections get added and renamed)."""
        with self._lock:
            self._sections = None
        self._section_names()

    def list_collections(self) -> list[str]:
        """Section names."""
        return sorted(set(self._section_names().values()))

    def search(
        self,
        query: str,
        limit: int,
        collections: list[str] | None = None,
        locale: str | None = None,
    ) -> list[Hit]:
        """Ranked articles from the API's search, optionally kept to some sections.

        With a `locale` (the user's language) the help center searches that locale first; when
        it has nothing there, the default locale (`DOCS_AGENT_KB_LOCALE`, else the help
        center's own) is searched.
        """
        limit = max(1, min(int(limit), 100))
        params: dict[str, Any] = {"query": query, "per_page": limit}
        default = self.live.kb_locale
        first = locale or default
        data = self._json(f"{API}/articles/search.json", {**params, **_locale(first)})
        results = _results(data)
        if not results and first != default:
            results = _results(
                self._json(f"{API}/articles/search.json", {**params, **_locale(default)})
            )
        names = self._section_names()
        hits: list[Hit] = []
        for rank, art in enumerate(results):
            collection = names.get(str(art.get("section_id")), str(art.get("section_id") or ""))
            if collections and collection not in collections:
                continue
            snippet = sanitize_external(
                html_to_markdown(
                    strip_hidden(str(art.get("snippet") or art.get("body") or ""), html=True)
                ),
                220,
            )
            hits.append(
                Hit(
                    key=str(art.get("id")),
                    url=str(art.get("html_url") or ""),
                    title=strip_hidden(str(art.get("title") or art.get("name") or art.get("id"))),
                    collection=collection,
                    score=float(len(results) - rank),
                    snippet=snippet,
                )
            )
            if len(hits) >= limit:
                break
        return hits

    def get(self, key: str) -> Document | None:
        """One article by id, its HTML body as markdown sections; None when unknown.

        A failure of the API raises `SourceUnavailable`: an article that could not be read is
        not an unknown one.
        """
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", key or ""):
            return None
        data = self._json(f"{API}/articles/{key}.json")
        if data is None:
            return None
        art = data.get("article")
        if not isinstance(art, dict):
            raise SourceUnavailable("the help center answered malformed JSON (no article)")
        title = strip_hidden(str(art.get("title") or art.get("name") or key))
        body = html_to_markdown(strip_hidden(str(art.get("body") or ""), html=True))
        page = parse_markdown(f"{key}.md", f"# {title}\n\n{body}")
        collection = self._section_names().get(str(art.get("section_id")), "")
        meta = {k: art[k] for k in ("updated_at", "locale", "section_id") if k in art}
        return Document(
            key, str(art.get("html_url") or ""), title, "", collection, page.sections, meta
        )


def auth_header(token: str, email: str = "") -> str:
    """`Authorization` for a help center: Zendesk API token with an email, else OAuth bearer.

    Zendesk's API tokens authenticate as Basic `{email}/token:{token}`; OAuth access tokens as
    `Bearer {token}`. A token given as `email/token:TOKEN` already is sent as Basic too.
    """
    if email:
        token = f"{email}/token:{token}"
    if "/token:" in token:
        return "Basic " + base64.b64encode(token.encode()).decode()
    return f"Bearer {token}"


def _locale(locale: str) -> dict[str, str]:
    return {"locale": locale} if locale else {}


def _results(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The `results` of a search answer; a malformed one is a failure, not an empty list."""
    if data is None:
        return []
    results = data.get("results", [])
    if not isinstance(results, list):
        raise SourceUnavailable("the help center answered malformed JSON (no results list)")
    return [r for r in results if isinstance(r, dict)]
