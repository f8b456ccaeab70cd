"""A docs or KB folder kept in a `SearchIndex`: the shared engine of docs and KB folders.

The folder's site profile (tools/sources/site.py, detected by tools/sources/registry.py) says
which files are pages, which reader takes each (tools/sources/readers.py), and the URL and
anchors the real site gives them; the index sees only the readers' `Page` records.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from tools.search import Document, Hit, SearchIndex, SourceFile, SyncStats, index_path
from tools.search.embeddings import Embedder
from tools.search.function_words import content_query
from tools.search.fusion import fuse, lexical_weight, unread_words
from tools.search.phrases import RERANK_DEPTH
from tools.search.vectors import VectorStore
from tools.settings import REPO_ROOT
from tools.sources.readers import has_reader, read_page
from tools.sources.records import Page
from tools.sources.registry import SiteOptions, detect_site
from tools.sources.release_notes import RELEASE_NOTES, about_release, is_release_notes
from tools.sources.site import DOCUMENT_SUFFIXES, Site
from tools.sources.unread import format_route

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
    """The configured URL rule: base URL, prefixes stripped from paths, or a repo-relative prefix.

    Applied through the site profile it becomes part of (`plain_site`, `detect_site`).
    """

    base_url: str = ""
    strip_prefixes: tuple[str, ...] = ()
    path_prefix: str = ""


def same_path(rel: str) -> str:
    """The default key of a file: its path relative to the root."""
    return rel


def no_collection(rel: str) -> str:
    """The default collection: none."""
    return ""


def plain_site(rule: UrlRule) -> Site:
    """The profile of a folder read as plain Markdown with this URL rule (KB folders, tests)."""
    return Site(
        base_url=rule.base_url, strip_prefixes=rule.strip_prefixes, path_prefix=rule.path_prefix
    )


@dataclass
class SourceReport:
    """What listing a folder found: its pages, unread document files, the profile's notes.

    Unread files are those no reader on this site takes; the notes are what the site profile
    was unsure of (`Site.notes`).
    """

    root: Path
    generator: str
    config: str
    pages: int
    unread: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def problems(self) -> list[str]:
        """Loud, plain sentences about a source that yields nothing or skips files; [] when fine.

        Each unread format is named with its count and the route that reads it (build the site,
        point at its output: tools/sources/unread.py); the profile's notes say why a source
        yields nothing (a site to build first).
        """
        out: list[str] = []
        found = ", ".join(f"{n} {suffix}" for suffix, n in sorted(self.unread.items()))
        config = f" (site: {self.generator}{', ' + self.config if self.config else ''})"
        routes = [] if self.notes else self._routes()
        if self.pages == 0:
            out.append(
                f"{self.root} yields 0 pages{config}"
                + (
                    f"; files found that no reader takes: {found}"
                    if found
                    else "; no page files found"
                )
                + "".join(f"; {text}" for text in (*self.notes, *routes))
            )
        elif found:
            out.append(
                f"{self.root}: files no reader takes were skipped{config}: {found}"
                + "".join(f"; {route}" for route in routes)
            )
        return out

    @property
    def warnings(self) -> list[str]:
        """What the site profile was unsure of, for a source that yields pages (said, not fatal)."""
        return list(self.notes) if self.pages else []

    def _routes(self) -> list[str]:
        out: list[str] = []
        for suffix, n in sorted(self.unread.items()):
            route = format_route(suffix)
            if route:
                out.append(f"{n} {suffix} files are {route}")
        return out


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
    site: Site = field(default_factory=Site)
    mark_release_notes: bool = False

    def read(self, key: str) -> bytes:
        """The file's bytes."""
        return (self.root / self.paths[key]).read_bytes()

    def parse(self, key: str, raw: bytes) -> tuple[Page, str, str]:
        """The file's page, citation URL and collection.

        The navigation's title wins over the page's own, as the generator shows it. Release
        notes pages of a docs folder get the collection `release-notes` (kept out of answers
        unless the question is about a release: `FolderCorpus.ranked`).
        """
        rel = self.paths[key]
        page = read_page(rel, raw, self.site, self.root, self.language)
        nav_title = self.site.title_for(rel)
        if nav_title:
            page.title = nav_title
            if page.sections and page.sections[0].level == 0:
                page.sections[0].heading = nav_title
        url = self.site.url_for(rel, page.meta)
        if self.site.rules.canonical_url and isinstance(page.meta.get("canonical"), str):
            url = page.meta["canonical"]  # a built page that names its own address
        if self.url_from_meta and isinstance(page.meta.get(self.url_from_meta), str):
            url = page.meta[self.url_from_meta]
        # Extra ids (explicit targets, labels) and the nav position ride in the page's metadata,
        # which the index stores as it is; `with_section_ids` puts the ids back on the sections.
        ids = {sec.anchor: list(sec.ids) for sec in page.sections if sec.ids}
        if ids:
            page.meta["section_ids"] = json.dumps(ids)
        position = self.site.nav_position(rel)
        if position is not None:
            page.meta["nav_position"] = position
        collection = self.collection_for(rel)
        if (
            self.mark_release_notes
            and not collection
            and is_release_notes(rel, page.title, page.meta)
        ):
            collection = RELEASE_NOTES
        return page, url, collection


class FolderCorpus:
    """The pages under `root`, indexed lazily and incrementally on first use.

    `site` is the folder's site profile; by default a docs folder's is detected from its config
    files (tools/sources/registry.py, with `url_rule` put over it) and a KB folder is plain
    Markdown. `hide_release_notes` keeps release notes pages out of rankings for questions that
    are not about a release.

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
        site: Site | None = None,
        hide_release_notes: bool = True,
    ) -> None:
        self.root = root.resolve()
        self.kind = kind
        self.url_rule = url_rule
        self.language = language
        self.key_for = key_for
        self.collection_for = collection_for
        self.url_from_meta = url_from_meta
        if site is None:
            # A docs folder's generator is detected from its config; a KB folder is plain Markdown.
            site = (
                detect_site(
                    self.root,
                    SiteOptions(
                        base_url=url_rule.base_url,
                        strip_prefixes=url_rule.strip_prefixes,
                        path_prefix=url_rule.path_prefix,
                    ),
                )
                if kind == "docs"
                else plain_site(url_rule)
            )
        self.site = site
        self.hide_release_notes = hide_release_notes
        # What decides the stored records: a new value is a new index. Which files are pages
        # (nav, built list) is not: a page added to the navigation is one page added by a sync.
        shape = replace(site, nav=None, built=None)
        identity = f"{kind}|{self.root}|{url_rule}|{language}|{shape}|{hide_release_notes}"
        self.index = SearchIndex(index_path(index_dir, kind, identity))
        self.pages = FolderPages(
            self.root,
            language,
            url_rule,
            collection_for,
            url_from_meta,
            site=site,
            mark_release_notes=hide_release_notes and kind != "kb",
        )
        self.last_report: SourceReport | None = None
        self.embedder = embedder
        self.vectors = VectorStore.beside(self.index.db_path, embedder) if embedder else None
        self._synced = False
        self._lock = threading.Lock()

    def files(self) -> list[SourceFile]:
        """Every page file under the root, with what tells a change (mtime, size).

        A page is a file the site profile counts as one (navigation, include/exclude globs,
        partials and snippets left out) and a reader takes. Document files no reader takes are
        counted in `last_report`, so a folder in an unread format is reported, not silently empty.
        """
        out: list[SourceFile] = []
        unread: dict[str, int] = {}
        self.pages.paths.clear()
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(
                d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
            )
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                if not has_reader(self.site.reader_for(rel)):
                    suffix = os.path.splitext(name)[1].lower()
                    if suffix in DOCUMENT_SUFFIXES and not self.site.is_part(rel):
                        unread[suffix] = unread.get(suffix, 0) + 1
                    continue
                if not self.site.is_page(rel):
                    continue
                # A linked page is served only when it stays inside the folder: every user can
                # read every indexed page, so a link must not pull in a file from elsewhere.
                if os.path.islink(full) and not self._inside(full):
                    log.warning("skipped %s: a link out of %s", full, self.root)
                    continue
                st = os.stat(full)
                key = self.key_for(rel)
                self.pages.paths[key] = rel
                out.append(SourceFile(key, st.st_mtime, st.st_size))
        self.last_report = SourceReport(
            self.root, self.site.generator, self.site.config, len(out), unread, self.site.notes
        )
        return out

    def report(self) -> SourceReport:
        """What the folder yields (lists it when not yet listed): pages, and unread files."""
        if self.last_report is None:
            with self._lock:
                self.files()
        assert self.last_report is not None
        return self.last_report

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
            report = self.last_report
            for problem in [*report.problems, *report.warnings] if report else []:
                log.warning("%s source: %s", self.kind, problem)
            stats = self.index.sync(
                files,
                self.pages.read,
                self.pages.parse,
                progress,
                workers,
                self.site.rules.uses_changed,
            )
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
        docs = (doc for doc in map(self.index.get, stale) if doc is not None)  # read as embedded
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
        """The lexical ranking, fused with the section vectors when it is weak.

        Release notes pages are left out unless the question is about a release
        (tools/sources/release_notes.py): a long changelog names every feature once, and would
        otherwise answer every question with a one-line entry.
        """
        limit = max(1, min(int(limit), 100))  # as the index clamps it
        hits = self._ranked(query, limit, collections, snippets)
        if self._hides(query, collections) and any(h.collection == RELEASE_NOTES for h in hits):
            # Only then a deeper ranking, to fill the places the release pages leave.
            hits = self._ranked(query, limit + RERANK_DEPTH, collections, snippets)
            hits = [h for h in hits if h.collection != RELEASE_NOTES]
        return hits[:limit]

    def _hides(self, query: str, collections: list[str] | None) -> bool:
        return self.pages.mark_release_notes and not collections and not about_release(query)

    def _ranked(
        self, query: str, limit: int, collections: list[str] | None = None, snippets: bool = True
    ) -> list[Hit]:
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

    def page_urls(self) -> list[str]:
        """Every indexed page's URL, as citations name it (after a sync, as every read)."""
        self.ensure_synced()
        return [address[0] for key in self.index.keys() if (address := self.index.address(key))]

    def find(self, ref: str) -> Document | None:
        """A page by key, URL or path."""
        self.ensure_synced()
        return with_section_ids(self.index.find(ref))

    def get(self, key: str) -> Document | None:
        """A page by exact key."""
        self.ensure_synced()
        return with_section_ids(self.index.get(key))


def with_section_ids(doc: Document | None) -> Document | None:
    """The stored page with each section's extra ids back from its metadata (`FolderPages.parse`)."""
    raw = doc.meta.get("section_ids") if doc is not None else None
    if doc is None or not isinstance(raw, str):
        return doc
    try:
        ids = json.loads(raw)
    except ValueError:
        return doc
    doc.sections = [
        replace(sec, ids=tuple(ids.get(sec.anchor, ()))) if sec.anchor in ids else sec
        for sec in doc.sections
    ]
    return doc


def _log_progress(kind: str) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        if total >= 200:
            log.info("indexing %s: %d/%d pages", kind, done, total)

    return report
