"""Docs from a site that publishes `llms.txt`: an index of pages, each also served as markdown.

The pages are mirrored into an on-disk cache (one markdown file per page) and that folder is
indexed by the same `FolderCorpus` engine as a local docs folder, so ranking, incremental
re-indexing and page rendering are shared. Re-fetches are conditional (ETag / Last-Modified):
an unchanged page costs a 304 and is not re-indexed. When the site is unreachable the cache
is used as it is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from tools.search import SyncStats
from tools.search.embeddings import Embedder
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.hidden import strip_hidden

log = logging.getLogger(__name__)

TIMEOUT = httpx.Timeout(15.0, connect=5.0)
MAX_PAGES = 5_000
MAX_PAGE_BYTES = 2_000_000
_LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_SAFE_SEGMENT_RE = re.compile(r"[^A-Za-z0-9._-]+")


def parse_llms_txt(text: str, base_url: str) -> list[tuple[str, str]]:
    """(title, absolute URL) of every page linked from an llms.txt, in order, each once."""
    seen: dict[str, str] = {}
    for title, href in _LINK_RE.findall(text):
        url = urljoin(base_url, href.strip())
        if urlsplit(url).scheme in {"http", "https"} and url not in seen:
            seen[url] = title.strip()
    return [(title, url) for url, title in seen.items()]


def cache_path_for(url: str) -> str | None:
    """Relative cache file for a page URL (`/docs/a/b.md` -> `docs/a/b.md`); None if unusable."""
    path = urlsplit(url).path
    parts = [_SAFE_SEGMENT_RE.sub("_", p) for p in PurePosixPath(path).parts if p not in {"/", ""}]
    if not parts or any(p in {".", ".."} for p in parts):
        return None
    rel = "/".join(parts)
    if not rel.endswith((".md", ".mdx", ".markdown")):
        rel = rel.removesuffix(".txt").removesuffix(".html") + ".md"
    return rel


class LlmsTxtCorpus(FolderCorpus):
    """Pages listed in an `llms.txt`, mirrored to `index_dir` and searched like a docs folder.

    Interface as `FolderCorpus`: `search(query, limit, collections=None)`, `find(ref)`, `get(key)`.
    Citation URLs are the page URLs without a trailing `.md`.
    """

    def __init__(
        self,
        url: str,
        index_dir: Path,
        language: str = "python",
        client: httpx.Client | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.llms_url = url
        parts = urlsplit(url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        digest = hashlib.sha1(url.encode()).hexdigest()[:12]
        self.cache_dir = Path(index_dir) / f"llms-{digest}"
        (self.cache_dir / "pages").mkdir(parents=True, exist_ok=True)
        self._client = client
        super().__init__(
            self.cache_dir / "pages",
            "llms",
            index_dir,
            UrlRule(self.origin),
            language=language,
            embedder=embedder,
        )

    # -- fetching ------------------------------------------------------------------------------

    def _state_file(self) -> Path:
        return self.cache_dir / "state.json"

    def _load_state(self) -> dict[str, Any]:
        try:
            return dict(json.loads(self._state_file().read_text()))
        except (OSError, ValueError):
            return {}

    def _get(self, client: httpx.Client, url: str, cached: dict[str, Any] | None) -> httpx.Response:
        headers = {"Accept": "text/markdown, text/plain;q=0.9, */*;q=0.5"}
        if cached and cached.get("etag"):
            headers["If-None-Match"] = cached["etag"]
        if cached and cached.get("last_modified"):
            headers["If-Modified-Since"] = cached["last_modified"]
        return client.get(url, headers=headers)

    def fetch(self) -> dict[str, int]:
        """Mirror llms.txt and its pages into the cache; returns counts of fetched/unchanged/failed.

        Network errors are logged, never raised: the cache keeps serving what it has.
        """
        counts = {"fetched": 0, "unchanged": 0, "failed": 0, "removed": 0}
        state = self._load_state()
        pages_state: dict[str, Any] = state.get("pages", {})
        client = self._client or httpx.Client(timeout=TIMEOUT, follow_redirects=True)
        try:
            try:
                index = self._get(client, self.llms_url, state.get("index"))
            except httpx.HTTPError as exc:
                log.warning("llms.txt %s unreachable (%s); using the cache", self.llms_url, exc)
                counts["failed"] += 1
                return counts
            if index.status_code == 304:
                text = (self.cache_dir / "llms.txt").read_text("utf-8")
            elif index.is_success:
                text = index.text
                (self.cache_dir / "llms.txt").write_text(text, "utf-8")
                state["index"] = _validators(index)
            else:
                log.warning(
                    "llms.txt %s answered %s; using the cache", self.llms_url, index.status_code
                )
                counts["failed"] += 1
                return counts
            listed: dict[str, str] = {}
            for _title, url in parse_llms_txt(text, self.llms_url)[:MAX_PAGES]:
                if not url.startswith(self.origin + "/"):
                    continue  # another site: its pages are not ours to cite
                rel = cache_path_for(url)
                if rel:
                    listed[url] = rel
            for url, rel in listed.items():
                target = self.root / rel
                cached = pages_state.get(url) if target.exists() else None
                try:
                    resp = self._get(client, url, cached)
                except httpx.HTTPError as exc:
                    log.warning("page %s unreachable: %s", url, exc)
                    counts["failed"] += 1
                    continue
                if resp.status_code == 304 and cached:
                    counts["unchanged"] += 1
                    continue
                if not resp.is_success or len(resp.content) > MAX_PAGE_BYTES:
                    log.warning("page %s answered %s; skipped", url, resp.status_code)
                    counts["failed"] += 1
                    continue
                body = resp.content
                if "html" in resp.headers.get("content-type", ""):  # no Markdown code rules in HTML
                    body = strip_hidden(resp.text, html=True).encode()
                if target.exists() and target.read_bytes() == body:
                    counts["unchanged"] += 1
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(body)
                    counts["fetched"] += 1
                pages_state[url] = {**_validators(resp), "file": rel}
            for url in set(pages_state) - set(listed):
                stale = self.root / pages_state.pop(url).get("file", "")
                if stale.is_file():
                    stale.unlink()
                    counts["removed"] += 1
            state["pages"] = pages_state
            self._state_file().write_text(json.dumps(state, indent=1))
        finally:
            if self._client is None:
                client.close()
        return counts

    def sync(
        self, progress: Callable[[int, int], None] | None = None, workers: int | None = None
    ) -> SyncStats:
        """Fetch what changed on the site, then re-index what changed in the cache."""
        counts = self.fetch()
        log.info("llms.txt %s: %s", self.llms_url, counts)
        return super().sync(progress, workers)


def _validators(resp: httpx.Response) -> dict[str, str]:
    out = {}
    if resp.headers.get("etag"):
        out["etag"] = resp.headers["etag"]
    if resp.headers.get("last-modified"):
        out["last_modified"] = resp.headers["last-modified"]
    return out
