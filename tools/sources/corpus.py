"""A folder of Markdown/MDX files kept in a `SearchIndex`: the shared engine of docs and KB folders."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tools.search import Document, Hit, SearchIndex, SourceFile, SyncStats, index_path
from tools.search.embeddings import Embedder
from tools.search.function_words import content_query
from tools.search.fusion import fuse, lexical_weight, unread_words
from tools.search.phrases import RERANK_DEPTH
from tools.search.vectors import VectorStore
from tools.settings import REPO_ROOT
from tools.sources.hidden import strip_hidden
from tools.sources.mdx import Page, parse_markdown

log = logging.getLogger(__name__)

SUFFIXES = (".md", ".mdx", ".markdown")
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv"}


def repo_prefix(root: Path) -> str:
    """`docs/` for a folder inside this repository (citations then name repo paths), else ``."""
    try:
        return root.resolve().relative_to(REPO_ROOT).as_posix() + "/"
    except ValueError:
        return ""


@dataclass(frozen=True)
class UrlRule:
    """How a file path becomes a citation URL: strip a prefix, drop the extension and `/index`."""

    base_url: str = ""
    strip_prefixes: tuple[str, ...] = ()
    path_prefix: str = ""

    def url_for(self, rel_path: str) -> str:
        """URL for a path relative to the corpus root; without a base URL, the repo-relative path."""
        if not self.base_url:
            return f"{self.path_prefix}{rel_path}"
        path = rel_path
        for prefix in self.strip_prefixes:
            if path.startswith(prefix):
                path = path[len(prefix) :]
                break
        path = path.rsplit(".", 1)[0] if path.endswith(SUFFIXES) else path
        if path == "index":
            path = ""
        elif path.endswith("/index"):
            path = path[: -len("/index")]
        return self.base_url.rstrip("/") + ("/" + path if path else "")


def same_path(rel: str) -> str:
    """The default key of a file: its path relative to the root."""
    return rel


def no_collection(rel: str) -> str:
    """The default collection: none."""
    return ""


@dataclass
class FolderPages:
    """How a folder's files are read and parsed: plain data, so worker processes get a copy.

    `paths` maps each key to its file relative to `root` (filled when the folder is listed).
    """

    root: Path
    language: str
    url_rule: UrlRule
    collection_for: Callable[[str], str]
    url_from_meta: str | None
    paths: dict[str, str] = field(default_factory=dict)

    def read(self, key: str) -> bytes:
        """The file's bytes."""
        return (self.root / self.paths[key]).read_bytes()

    def parse(self, key: str, raw: bytes) -> tuple[Page, str, str]:
        """The file's page, citation URL and collection."""
        rel = self.paths[key]
        page = parse_markdown(
            rel, strip_hidden(raw.decode("utf-8", errors="replace")), self.language
        )
        url = self.url_rule.url_for(rel)
        if self.url_from_meta and isinstance(page.meta.get(self.url_from_meta), str):
            url = page.meta[self.url_from_meta]
        return page, url, self.collection_for(rel)


class FolderCorpus:
    """Markdown files under `root`, indexed lazily and incrementally on first use.

    `key_for` maps a relative path to the key users cite (the path itself for docs, the path
    without extension for KB article ids); `collection_for` gives a file's collection. A large
    sync parses pages in worker processes when `collection_for` is a module-level function
    (a lambda cannot be sent to them; the sync then runs in this process). With an `embedder`,
    section vectors are kept beside the index and fused with the lexical ranking when it is weak
    (tools/search/fusion.py): questions in other languages find the pages.
    """

    def __init__(
        self,
        root: Path,
        kind: str,
        index_dir: Path,
        url_rule: UrlRule,
        language: str = "python",
        key_for: Callable[[str], str] = same_path,
        collection_for: Callable[[str], str] = no_collection,
        url_from_meta: str | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.root = root.resolve()
        self.kind = kind
        self.url_rule = url_rule
        self.language = language
        self.key_for = key_for
        self.collection_for = collection_for
        self.url_from_meta = url_from_meta
        identity = f"{kind}|{self.root}|{url_rule}|{language}"
        self.index = SearchIndex(index_path(index_dir, kind, identity))
        self.pages = FolderPages(self.root, language, url_rule, collection_for, url_from_meta)
        self.embedder = embedder
        self.vectors = VectorStore.beside(self.index.db_path, embedder) if embedder else None
        self._synced = False
        self._lock = threading.Lock()

    def files(self) -> list[SourceFile]:
        """Every Markdown file under the root, with what tells a change (mtime, size)."""
        out: list[SourceFile] = []
        self.pages.paths.clear()
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(
                d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
            )
            for name in sorted(filenames):
                if not name.endswith(SUFFIXES) or name.startswith("."):
                    continue
                full = os.path.join(dirpath, name)
                # A linked page is served only when it stays inside the folder: every user can
                # read every indexed page, so a link must not pull in a file from elsewhere.
                if os.path.islink(full) and not self._inside(full):
                    log.warning("skipped %s: a link out of %s", full, self.root)
                    continue
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                st = os.stat(full)
                key = self.key_for(rel)
                self.pages.paths[key] = rel
                out.append(SourceFile(key, st.st_mtime, st.st_size))
        return out

    def _inside(self, path: str) -> bool:
        return Path(os.path.realpath(path)).is_relative_to(Path(os.path.realpath(self.root)))

    def rel_path(self, key: str) -> str | None:
        """The file (relative to the root) behind a key, once the corpus has been listed."""
        self.ensure_synced()
        return self.pages.paths.get(key)

    def sync(
        self, progress: Callable[[int, int], None] | None = None, workers: int | None = None
    ) -> SyncStats:
        """Re-index what changed since the last sync (content hash), drop deleted files.

        `workers`: processes that parse pages when many changed (default: one per core).
        """
        with self._lock:
            files = self.files()
            stats = self.index.sync(files, self.pages.read, self.pages.parse, progress, workers)
            if self.vectors is not None:
                self._sync_vectors(stats)
                if stats.added or stats.updated or stats.removed or not self._synced:
                    self.vectors.set_priors(self.index.priors())
            self._synced = True
        if stats.added or stats.updated or stats.removed:
            log.info(
                "%s index %s: +%d ~%d -%d (%d unchanged) in %.2fs",
                self.kind,
                self.root,
                stats.added,
                stats.updated,
                stats.removed,
                stats.unchanged,
                stats.seconds,
            )
        return stats

    def _sync_vectors(self, stats: SyncStats) -> None:
        """Re-embed the pages the index rewrote (and any the vector store lacks); drop gone ones.

        The index reports the section ids it wrote; their pages are re-read whole, because a
        section's embedded text carries its page title and heading trail. Only texts the store
        has not seen are embedded again (tools/search/vectors.py).
        """
        assert self.vectors is not None
        have = self.vectors.keys()
        keys = set(self.index.keys())
        # A first build embeds every page anyway: no need to read the sections' text back.
        added = stats.sections_added if have else []
        written = {row[1] for row in self.index.section_texts(added)}
        stale = sorted((written | (keys - have)) & keys)
        gone = have - keys
        if not stale and not gone:
            return
        docs = [doc for doc in map(self.index.get, stale) if doc is not None]
        done = self.vectors.sync(docs, gone)
        log.info(
            "%s vectors: %d pages, %d sections embedded, %d reused, %d pages dropped",
            self.kind,
            done.pages,
            done.embedded,
            done.reused,
            done.removed,
        )

    def ensure_synced(self) -> None:
        """Sync once per process; later changes are picked up by an explicit `sync()`."""
        if not self._synced:
            preload = getattr(self.embedder, "preload", None)
            if preload is not None:
                preload()  # the model loads while the lexical index syncs
            self.sync(progress=_log_progress(self.kind))

    def load_lexical(self) -> None:
        """Sync and read the lexical statistics: what every search needs.

        A server's warm-up calls this, then `load_vectors`, so the first question pays for neither.
        """
        self.ensure_synced()
        self.index.load()

    def load_vectors(self) -> None:
        """Read the section vectors and start loading the model: only weak lexical rankings use them."""
        if self.vectors is not None:
            self.vectors.load()

    def search(self, query: str, limit: int, collections: list[str] | None = None) -> list[Hit]:
        """Ranked pages for the query."""
        return self.ranked(query, limit, collections)

    def ranked(
        self, query: str, limit: int, collections: list[str] | None = None, snippets: bool = True
    ) -> list[Hit]:
        """The lexical ranking, fused with the section vectors when it is weak."""
        self.ensure_synced()
        if self.vectors is None:
            return self.index.search(query, limit, collections, snippets=snippets)
        # The index re-ranks its best RERANK_DEPTH pages anyway: asking for them costs nothing,
        # and they are the lexical candidates of a blend.
        depth = max(limit, RERANK_DEPTH)
        hits = self.index.search(query, depth, collections, snippets=snippets)
        weight = lexical_weight(hits)
        if weight is not None and weight < 1.0:
            # Weak: perhaps a question in another language, whose function words the index
            # takes for rare terms (tools/search/function_words.py). The vectors read the words
            # the lexical side could not (`unread_words`, tools/search/fusion.py).
            content = content_query(query)
            if content and content != query:
                hits = self.index.search(content, depth, collections, snippets=snippets)
            unread = unread_words(query, self.index.known_terms)
            return fuse(hits, unread, self.vectors, limit, collections)
        return list(hits[:limit])

    def find(self, ref: str) -> Document | None:
        """A page by key, URL or path."""
        self.ensure_synced()
        return self.index.find(ref)

    def get(self, key: str) -> Document | None:
        """A page by exact key."""
        self.ensure_synced()
        return self.index.get(key)


def _log_progress(kind: str) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        if total >= 200:
            log.info("indexing %s: %d/%d pages", kind, done, total)

    return report
