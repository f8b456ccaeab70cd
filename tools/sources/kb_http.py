"""A knowledge base behind a Zendesk-Help-Center-style API, with sections as collections.

    GET {base}/api/v2/help_center/articles/search.json?query=...&per_page=N
    GET {base}/api/v2/help_center/articles/{id}.json
    GET {base}/api/v2/help_center/sections.json

Article bodies are HTML; they are turned into markdown-ish text (headings, lists, code, links)
so the same page renderer and citation rules apply as for the folder KB. Network failures are
logged and reported as "nothing found" rather than crashing a tool call.
"""

from __future__ import annotations

import logging
import re
import threading
from html import unescape
from html.parser import HTMLParser
from typing import Any

import httpx

from tools.search import Document, Hit
from tools.sources.hidden import strip_hidden
from tools.sources.mdx import parse_markdown
from tools.text import sanitize_external

log = logging.getLogger(__name__)

TIMEOUT = httpx.Timeout(10.0, connect=5.0)
API = "/api/v2/help_center"


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
    """The KB tools' backend for a help-center API (see the module docstring for the endpoints)."""

    def __init__(self, base_url: str, token: str = "", client: httpx.Client | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        # Sent with every request, so an injected client (tests, a proxy setup) gets them too.
        self._headers = {"Accept": "application/json"}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"
        self._client = client or httpx.Client(timeout=TIMEOUT, follow_redirects=True)
        self._sections: dict[str, str] | None = None
        self._lock = threading.Lock()

    def _json(self, path: str, params: dict[str, Any] | None = None) -> dict[str, Any] | None:
        try:
            resp = self._client.get(self.base_url + path, params=params, headers=self._headers)
        except httpx.HTTPError as exc:
            log.warning("help center %s unreachable: %s", self.base_url, exc)
            return None
        if resp.status_code == 404:
            return None
        if not resp.is_success:
            log.warning("help center %s%s answered %s", self.base_url, path, resp.status_code)
            return None
        try:
            data = resp.json()
        except ValueError:
            log.warning("help center %s%s answered non-JSON", self.base_url, path)
            return None
        return data if isinstance(data, dict) else None

    def _section_names(self) -> dict[str, str]:
        """Section id -> name, read once (following `next_page`, at most 20 pages)."""
        with self._lock:
            if self._sections is not None:
                return self._sections
            names: dict[str, str] = {}
            path: str | None = f"{API}/sections.json"
            for _ in range(20):
                if not path:
                    break
                data = self._json(path)
                if data is None:
                    break
                for s in data.get("sections", []):
                    names[str(s.get("id"))] = str(s.get("name") or s.get("id"))
                nxt = data.get("next_page")
                path = nxt.removeprefix(self.base_url) if isinstance(nxt, str) and nxt else None
            self._sections = names
            return names

    def list_collections(self) -> list[str]:
        """Section names."""
        return sorted(set(self._section_names().values()))

    def search(self, query: str, limit: int, collections: list[str] | None = None) -> list[Hit]:
        """Ranked articles from the API's search, optionally kept to some sections."""
        limit = max(1, min(int(limit), 100))
        data = self._json(f"{API}/articles/search.json", {"query": query, "per_page": limit})
        if not data:
            return []
        names = self._section_names()
        hits: list[Hit] = []
        for rank, art in enumerate(data.get("results", [])):
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
                    score=float(len(data.get("results", [])) - rank),
                    snippet=snippet,
                )
            )
            if len(hits) >= limit:
                break
        return hits

    def get(self, key: str) -> Document | None:
        """One article by id, its HTML body as markdown sections; None when unknown."""
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", key or ""):
            return None
        data = self._json(f"{API}/articles/{key}.json")
        art = (data or {}).get("article")
        if not isinstance(art, dict):
            return None
        title = strip_hidden(str(art.get("title") or art.get("name") or key))
        body = html_to_markdown(strip_hidden(str(art.get("body") or ""), html=True))
        page = parse_markdown(f"{key}.md", f"# {title}\n\n{body}")
        collection = self._section_names().get(str(art.get("section_id")), "")
        meta = {k: art[k] for k in ("updated_at", "locale", "section_id") if k in art}
        return Document(
            key, str(art.get("html_url") or ""), title, "", collection, page.sections, meta
        )
