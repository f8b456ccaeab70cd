"""Docs from a site that publishes `llms.txt`: an index of pages, each also served as markdown.

The pages are mirrored into an on-disk cache (one markdown file per page) and that folder is
indexed by the same `FolderCorpus` engine as a local docs folder, so ranking, incremental
re-indexing and page rendering are shared. Re-fetches are conditional (ETag / Last-Modified):
an unchanged page costs a 304 and is not re-indexed.

The cache is never lost by an upstream's mistake: an `llms.txt` that comes back as an HTML
page, empty, binary or without links keeps the previous copy (and says so); so does a refresh
that would drop more than `max_drop` of the pages, and a page that answers 404 stays, until
the same is seen on `confirm_refreshes` refreshes in a row. `llms-full.txt` (the whole site in
one file) is split into its pages rather than crawled. One fetch runs at a time per source,
across threads and processes; a server refreshes on a schedule (`tools.build_index`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from html import unescape
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from tools.search import SyncStats
from tools.search.embeddings import Embedder
from tools.search.storage import build_lock
from tools.settings import LiveSourceSettings
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.hidden.strip import strip_hidden
from tools.sources.html.page import parse_html
from tools.sources.live.fetch import SourceUnavailable, client_for, get, status_reason
from tools.sources.markdown.inline import slugify

log = logging.getLogger(__name__)

_LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_SAFE_SEGMENT_RE = re.compile(r"[^A-Za-z0-9._-]+")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_SOURCE_LINE_RE = re.compile(r"^\s*(?:source|url)\s*:\s*<?(https?://\S+?)>?\s*$", re.I)
_TITLE_RE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
# The frontmatter key that carries a full-text page's citation URL.
FULL_SOURCE_KEY = "llms_full_source"
# A source that failed is tried again after this long, however long the refresh period.
RETRY_FAILED_S = 60.0


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
        rel = rel.removesuffix(".txt").removesuffix(".html").removesuffix(".htm") + ".md"
    return rel


def is_full_text(url: str) -> bool:
    """Whether the configured file is an `llms-full.txt`: the pages' text itself, not links."""
    return PurePosixPath(urlsplit(url).path).name.lower().startswith("llms-full")


def looks_html(resp: httpx.Response) -> bool:
    """An HTML document, by its content type or its first bytes."""
    if "html" in resp.headers.get("content-type", "").lower():
        return True
    head = resp.content.lstrip()[:64].lower()
    return head.startswith((b"<!doctype html", b"<html", b"<head", b"<body"))


def looks_binary(body: bytes) -> bool:
    """Data that is not text: a NUL byte, or not UTF-8."""
    if b"\x00" in body[:65536]:
        return True
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def suspicious_index(resp: httpx.Response, full_text: bool, base_url: str) -> str | None:
    """Why an answered llms.txt is not one (a maintenance page, empty, binary, no links); None if fine."""
    body = resp.content
    if not body.strip():
        return "an empty file"
    if looks_binary(body):
        return "binary data"
    if looks_html(resp):
        return "an HTML page (a maintenance or login page?)"
    if not full_text and not parse_llms_txt(resp.text, base_url):
        return "a file with no page links"
    return None


def html_page_markdown(url: str, html: str) -> str:
    """The Markdown of an HTML page an llms.txt links to, through the built-HTML reader.

    `tools/sources/html/page.py` keeps the main content only (no navigation, header, footer or
    hidden elements), with headings, lists, tables and code blocks in their language; hidden
    text is dropped first. The page's title goes into front matter when the body has no
    top heading of its own, so the Markdown reader that indexes the cached copy names it.
    """
    html = strip_hidden(html, html=True)
    page = parse_html(url, html, url)
    text = page.body
    # Without a top heading the page's <title> names it better than its first subheading.
    title_tag = _TITLE_RE.search(html)
    title = unescape(title_tag.group(1)).strip() if title_tag else page.title
    if title and not text.lstrip().startswith("# "):
        return f"---\ntitle: {json.dumps(title)}\n---\n\n{text}\n"
    return text + "\n"


def split_full_text(text: str, llms_url: str) -> dict[str, bytes]:
    """An `llms-full.txt` cut into its pages: relative cache file -> page markdown.

    A page starts at a top-level `# ` heading outside code fences. Its citation is the
    `Source:`/`URL:` line under the heading when it names a page of the same site, else the
    file's URL with the heading's anchor.
    """
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(llms_url))
    chunks: list[list[str]] = [[]]
    fence = False
    for line in text.replace("\r\n", "\n").split("\n"):
        if _FENCE_RE.match(line):
            fence = not fence
        if not fence and line.startswith("# ") and any(s.strip() for s in chunks[-1]):
            chunks.append([])
        chunks[-1].append(line)
    pages: dict[str, bytes] = {}
    for lines in chunks:
        body = "\n".join(lines).strip()
        if not body:
            continue
        heading = next((ln[2:].strip() for ln in lines if ln.startswith("# ")), "")
        slug = slugify(heading) or f"part-{len(pages) + 1}"
        source = ""
        for ln in lines[1:8]:
            m = _SOURCE_LINE_RE.match(ln)
            if m and m.group(1).startswith(origin + "/"):
                source = m.group(1)
                break
        rel = cache_path_for(source) if source else None
        rel = rel or f"llms-full/{slug}.md"
        base = rel
        n = 2
        while rel in pages:
            rel = base.removesuffix(".md") + f"-{n}.md"
            n += 1
        url = source.removesuffix(".md") if source else f"{llms_url}#{slug}"
        front = f"---\n{FULL_SOURCE_KEY}: {json.dumps(url)}\n---\n\n"
        pages[rel] = (front + body + "\n").encode()
    return pages


class LlmsTxtCorpus(FolderCorpus):
    """Pages listed in an `llms.txt`, mirrored to `index_dir` and searched like a docs folder.

    Interface as `FolderCorpus`: `search(query, limit, collections=None)`, `find(ref)`, `get(key)`,
    plus `problem` (what the last refresh could not do, for the tools to say) and the
    schedule's `refresh_due()` / `refresh()`. Citation URLs are the page URLs without `.md`.
    """

    def __init__(
        self,
        url: str,
        index_dir: Path,
        language: str = "python",
        client: httpx.Client | None = None,
        embedder: Embedder | None = None,
        live: LiveSourceSettings | None = None,
    ) -> None:
        self.llms_url = url
        self.live = live or LiveSourceSettings()
        self.full_text = is_full_text(url)
        parts = urlsplit(url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        digest = hashlib.sha1(url.encode()).hexdigest()[:12]
        self.cache_dir = Path(index_dir) / f"llms-{digest}"
        (self.cache_dir / "pages").mkdir(parents=True, exist_ok=True)
        self._client = client
        # What the last refresh could not do, in a sentence for the tools; None when all went.
        self.problem: str | None = None
        self.notes: list[str] = []
        self.last_refresh = 0.0
        self.last_failed = False
        self._first_sync = threading.Lock()
        super().__init__(
            self.cache_dir / "pages",
            "llms",
            index_dir,
            UrlRule(self.origin),
            language=language,
            url_from_meta=FULL_SOURCE_KEY,
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

    def _save_state(self, state: dict[str, Any]) -> None:
        """Write the state whole or not at all (a crash mid-write must not lose the validators)."""
        tmp = self._state_file().with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=1))
        os.replace(tmp, self._state_file())

    def _get(self, client: httpx.Client, url: str, cached: dict[str, Any] | None) -> httpx.Response:
        headers = {"Accept": "text/markdown, text/plain;q=0.9, text/html;q=0.5, */*;q=0.3"}
        if cached and cached.get("etag"):
            headers["If-None-Match"] = cached["etag"]
        if cached and cached.get("last_modified"):
            headers["If-Modified-Since"] = cached["last_modified"]
        return get(client, url, "the docs site", self.live, headers)

    def fetch(self) -> dict[str, int]:
        """Mirror llms.txt and its pages into the cache; counts of fetched/unchanged/failed/removed.

        Network errors are logged, never raised: the cache keeps serving what it has, and
        `problem` says what went wrong.
        """
        counts = {"fetched": 0, "unchanged": 0, "failed": 0, "removed": 0}
        self.notes = []
        client = self._client or client_for(self.live)
        try:
            self.problem = self._fetch(client, counts)
        finally:
            if self._client is None:
                client.close()
        self.last_refresh = time.monotonic()
        self.last_failed = self.problem is not None
        if self.problem:
            log.warning("llms.txt %s: %s; the cached copy is kept", self.llms_url, self.problem)
        return counts

    def _fetch(self, client: httpx.Client, counts: dict[str, int]) -> str | None:
        """The body of `fetch`; returns the problem to report, None when all went well."""
        state = self._load_state()
        pages_state: dict[str, Any] = state.setdefault("pages", {})
        cached_index = self.cache_dir / "llms.txt"
        try:
            index = self._get(
                client, self.llms_url, state.get("index") if cached_index.exists() else None
            )
        except SourceUnavailable as exc:
            counts["failed"] += 1
            return exc.reason
        if index.status_code == 304:
            text = cached_index.read_text("utf-8")
        elif index.is_success:
            odd = suspicious_index(index, self.full_text, self.llms_url)
            if odd:
                counts["failed"] += 1
                return f"its llms.txt came back as {odd}"
            text = index.text
        else:
            counts["failed"] += 1
            return status_reason(index, "the docs site")
        before = len(pages_state)
        wanted = self._wanted(text, client, pages_state, counts)
        gone = [url for url in pages_state if url not in wanted]
        held = self._held_back(state, before, len(wanted))
        if held:
            return held
        for url in gone:
            stale = self.root / pages_state.pop(url).get("file", "")
            if stale.is_file():
                stale.unlink()
                counts["removed"] += 1
        if index.is_success and index.status_code != 304:
            cached_index.write_text(text, "utf-8")
            state["index"] = _validators(index)
        self._save_state(state)
        if counts["failed"]:
            return f"{counts['failed']} of its pages could not be refreshed"
        return None

    def _held_back(self, state: dict[str, Any], before: int, after: int) -> str | None:
        """Why a large drop in pages is not applied yet, None when it may be.

        A drop of more than `max_drop` of the cached pages is applied only once it has been
        seen on `confirm_refreshes` refreshes in a row: a site half-published for a minute
        must not empty the index; a site that really shrank does so a refresh later.
        """
        if before and after < before * (1.0 - self.live.max_drop):
            seen = int(state.get("drop_seen", 0)) + 1
            if seen < self.live.confirm_refreshes:
                state["drop_seen"] = seen
                self._save_state(state)
                return (
                    f"its llms.txt now lists {after} of the {before} cached pages (kept until "
                    f"that is seen on {self.live.confirm_refreshes} refreshes in a row)"
                )
        state["drop_seen"] = 0
        return None

    def _wanted(
        self, text: str, client: httpx.Client, pages_state: dict[str, Any], counts: dict[str, int]
    ) -> set[str]:
        """Bring the cached pages the index lists up to date; the keys of the state they use."""
        if self.full_text:
            files = split_full_text(text, self.llms_url)
            return {
                self._store_file(f"full:{rel}", rel, body, pages_state, counts)
                for rel, body in files.items()
            }
        listed: dict[str, str] = {}
        links = parse_llms_txt(text, self.llms_url)
        for _title, url in links:
            if not url.startswith(self.origin + "/"):
                continue  # another site: its pages are not ours to cite
            rel = cache_path_for(url)
            if rel:
                listed[url] = rel
        if len(listed) > self.live.max_pages:
            self._note(
                f"llms.txt lists {len(listed)} pages; only the first {self.live.max_pages} "
                "are indexed (DOCS_AGENT_LLMS_MAX_PAGES)"
            )
            listed = dict(list(listed.items())[: self.live.max_pages])
        kept: set[str] = set()
        for url, rel in listed.items():
            kept.add(url)
            self._refresh_page(client, url, rel, pages_state, counts)
        return kept

    def _refresh_page(
        self,
        client: httpx.Client,
        url: str,
        rel: str,
        pages_state: dict[str, Any],
        counts: dict[str, int],
    ) -> None:
        """One page: a conditional GET; a 404 drops it only when seen on consecutive refreshes."""
        target = self.root / rel
        cached = pages_state.get(url) if target.exists() else None
        try:
            resp = self._get(client, url, cached)
        except SourceUnavailable as exc:
            log.warning("page %s: %s", url, exc.reason)
            counts["failed"] += 1
            return
        if resp.status_code == 304 and cached:
            cached.pop("missing", None)
            counts["unchanged"] += 1
            return
        if resp.status_code in (404, 410) and cached:
            missing = int(cached.get("missing", 0)) + 1
            if missing >= self.live.confirm_refreshes:
                # Gone on consecutive refreshes: left out of the wanted set, removed below.
                pages_state.pop(url, None)
                target.unlink(missing_ok=True)
                counts["removed"] += 1
            else:
                cached["missing"] = missing
                log.warning("page %s answered %s; kept until seen again", url, resp.status_code)
            return
        if not resp.is_success:
            log.warning("page %s answered %s; skipped", url, resp.status_code)
            counts["failed"] += 1
            return
        if len(resp.content) > self.live.max_page_bytes:
            self._note(
                f"{url} is larger than {self.live.max_page_bytes} bytes and was not indexed "
                "(DOCS_AGENT_LLMS_MAX_PAGE_BYTES)"
            )
            counts["failed"] += 1
            return
        body = resp.content
        if looks_binary(body):
            log.warning("page %s is not text; skipped", url)
            counts["failed"] += 1
            return
        if looks_html(resp):
            body = html_page_markdown(url, resp.text).encode()
        self._store_file(url, rel, body, pages_state, counts, _validators(resp))

    def _store_file(
        self,
        key: str,
        rel: str,
        body: bytes,
        pages_state: dict[str, Any],
        counts: dict[str, int],
        validators: dict[str, str] | None = None,
    ) -> str:
        """Write a page to the cache when its bytes changed; returns its state key."""
        target = self.root / rel
        if target.is_file() and target.read_bytes() == body:
            counts["unchanged"] += 1
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(target.suffix + ".tmp")
            tmp.write_bytes(body)
            os.replace(tmp, target)
            counts["fetched"] += 1
        pages_state[key] = {**(validators or {}), "file": rel}
        return key

    def _note(self, text: str) -> None:
        """A cap reached: logged once per refresh and kept for the tools to announce."""
        if text not in self.notes:
            log.warning("llms.txt %s: %s", self.llms_url, text)
            self.notes.append(text)

    # -- syncing -------------------------------------------------------------------------------

    def sync(
        self, progress: Callable[[int, int], None] | None = None, workers: int | None = None
    ) -> SyncStats:
        """Fetch what changed on the site, then re-index what changed in the cache.

        One fetch at a time per source, across threads and processes (`make refresh` beside
        a server): the second waits, then finds every page unchanged.
        """
        with build_lock(self.cache_dir / "fetch"):
            counts = self.fetch()
            log.info("llms.txt %s: %s", self.llms_url, counts)
            return super().sync(progress, workers)

    def ensure_synced(self) -> None:
        """Sync once per process, never twice at once.

        A question during the warm-up's first fetch does not start a second one: with pages
        cached from before it is answered from them at once, else it waits for that fetch.
        """
        if self._synced:
            return
        if self._first_sync.locked() and len(self.index):
            return
        with self._first_sync:
            if not self._synced:
                super().ensure_synced()

    def refresh_due(self, now: float | None = None) -> bool:
        """Whether the schedule should refresh now: every `refresh_s`, sooner after a failure."""
        if self.live.refresh_s <= 0:
            return False
        period = (
            min(self.live.refresh_s, RETRY_FAILED_S) if self.last_failed else self.live.refresh_s
        )
        return (time.monotonic() if now is None else now) - self.last_refresh >= period

    def refresh(self) -> SyncStats:
        """A scheduled or requested refresh: conditional GETs, then the changed pages re-indexed."""
        with self._first_sync:
            stats = self.sync()
            self._synced = True
        return stats

    def status(self) -> tuple[str, list[str]]:
        """What the tools say of the last refresh: its problem ("" if none) and the caps reached."""
        return self.problem or "", list(self.notes)


def _validators(resp: httpx.Response) -> dict[str, str]:
    out = {}
    if resp.headers.get("etag"):
        out["etag"] = resp.headers["etag"]
    if resp.headers.get("last-modified"):
        out["last_modified"] = resp.headers["last-modified"]
    return out
