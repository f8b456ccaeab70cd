"""`SearchIndex`: one source's index (storage, lexical engine, ranking) behind one lock, safe to share."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path

from tools.search.lexical import LexicalReader
from tools.search.phrases import RERANK_DEPTH, phrase_boost, query_pairs
from tools.search.records import (
    Document,
    Hit,
    LookupsChanged,
    Parser,
    Progress,
    Reader,
    SourceFile,
    SyncStats,
)
from tools.search.scoring import (
    MAX_RANKED_SECTIONS,
    MAX_RANKED_TITLES,
    PRIOR_WEIGHT,
    CorpusStats,
    bm25_anchors,
    rank_pages,
)
from tools.search.snapshot import follower, is_snapshot
from tools.search.snippets import snippet
from tools.search.storage import IndexStore, build_lock
from tools.text import index_terms

log = logging.getLogger(__name__)


def index_path(index_dir: Path, kind: str, identity: str) -> Path:
    """Where the index for one source lives: one file per (kind, source) pair."""
    digest = hashlib.sha1(identity.encode()).hexdigest()[:12]
    return index_dir / f"{kind}-{digest}.sqlite"


class SearchIndex:
    """One SQLite file holding one source's pages, and its tantivy generations; safe to share.

    Reads run in one snapshot each (`_reading`); a sync writes on a connection of its own in
    one transaction, so searches go on, on the index as it was, while it runs, and the first
    search after its commit reloads the statistics and reads the new index whole. The same
    holds when the writer is another process (`make index` beside a running server): nothing
    is read half-written, and the server needs no restart to see the new pages. The lexical
    engine's searchers are those of the generation the snapshot names (tools/search/lexical.py),
    so the section ids they return are the snapshot's own.
    """

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._lock = threading.RLock()
        # A published snapshot's folder (tools/search/snapshot.py): this index reads the
        # current generation's copy, read-only, and moves to the next one when it is published.
        self._follower = follower(db_path.parent) if is_snapshot(db_path.parent) else None
        self._generation = self._follower.current() if self._follower else ""
        self._store = (
            IndexStore(self._follower.path(db_path.name), read_only=True)
            if self._follower
            else IndexStore(db_path)
        )
        self._stats: CorpusStats | None = None
        self._stats_version: int | None = None
        self._lexical: LexicalReader | None = None

    @property
    def read_only(self) -> bool:
        """Whether this index is a published snapshot's (synced by its publisher, not here)."""
        return self._follower is not None

    @property
    def generation(self) -> str:
        """The snapshot generation being read ("" for a live index)."""
        return self._generation

    def files(self) -> list[Path]:
        """The index's files on disk (SQLite file, its log, the lexical engine's folder)."""
        path = self._store.db_path
        return [path, path.with_name(path.name + "-wal"), self._store.lexical_root]

    def _follow(self) -> None:
        """Open the snapshot's new generation when one was published (the caller holds the lock)."""
        if self._follower is None:
            return
        name = self._follower.current()
        if name == self._generation:
            return
        store = IndexStore(self._follower.path(self.db_path.name), read_only=True)
        self._store.close()
        self._store, self._generation = store, name
        self._stats = self._stats_version = self._lexical = None
        log.info("index %s: reading snapshot generation %s", self.db_path.name, name)

    def __len__(self) -> int:
        with self._reading():
            return self._store.count()

    @contextmanager
    def _reading(self) -> Iterator[int]:
        """The lock and one read snapshot; statistics of an older version are dropped."""
        with self._lock:
            self._follow()
            with self._store.snapshot() as version:
                if version != self._stats_version:
                    self._stats = None
                    self._stats_version = version
                yield version

    def _engine(self) -> LexicalReader:
        """The lexical engine's searchers of the snapshot's generation (the caller is reading).

        A generation another process has just pruned (this snapshot is two syncs behind) is
        not an error: the next read sees a newer snapshot, so this one answers from no lexical
        matches rather than from another generation's ids.
        """
        generation = self._store.generation()
        if self._lexical is None or self._lexical.generation != generation:
            try:
                self._lexical = LexicalReader(self._store.lexical_root, generation)
            except (OSError, ValueError):
                log.warning("lexical index generation %s not readable", generation, exc_info=True)
                return LexicalReader(self._store.lexical_root, 0)
        return self._lexical

    # -- writing -------------------------------------------------------------------------------

    def sync(
        self,
        files: Iterable[SourceFile],
        read: Reader,
        parse: Parser,
        progress: Progress | None = None,
        workers: int | None = None,
        lookups_changed: LookupsChanged | None = None,
    ) -> SyncStats:
        """Bring the index in line with `files`: re-read changed ones (by content hash), drop gone ones.

        `parse(key, raw)` returns the page, its URL and its collection. Many changed pages are
        analysed in `workers` processes (default: one per core) when `read` and `parse` can be
        pickled. The returned stats name the section ids added and removed, for stores that
        follow this index: this is where they learn what changed.
        """
        if self.read_only:
            # A replica reads what the publisher wrote; it never writes the shared files.
            return SyncStats(unchanged=sum(1 for _ in files))
        with build_lock(self.db_path), closing(IndexStore(self.db_path)) as writer:
            stats = writer.sync(files, read, parse, progress, workers, lookups_changed)
            if stats.added or stats.updated or stats.removed:
                writer.checkpoint()
        # The readers' snapshot now has an older data version: the next read reloads.
        return stats

    def section_texts(self, ids: Sequence[int]) -> list[tuple[int, str, str, str]]:
        """(section id, page key, heading, text) of stored sections, e.g. those a sync added."""
        with self._reading():
            return self._store.section_texts(ids)

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> None:
        """Read the corpus statistics every search needs now, not in the first search."""
        with self._reading():
            self._current_stats()

    def _current_stats(self) -> CorpusStats:
        """The statistics of the index as it is now (the caller holds the lock)."""
        if self._stats is None:
            with self._store.unmapped():  # it scans every section row: no need to map them
                self._stats = CorpusStats(self._store.db)
        return self._stats

    def search(
        self,
        query: str,
        limit: int = 10,
        collections: Sequence[str] | None = None,
        prior_weight: float | None = None,
        snippets: bool = True,
        terms: Sequence[str] | None = None,
    ) -> list[Hit]:
        """The lexical ranking, each hit with its calibrated score (`Hit.calibrated`).

        `snippets=False` skips the snippets for callers that list titles only (the KB search).
        Section vectors are fused with this ranking a level up, where the vector store lives
        (`FolderCorpus.ranked`, tools/search/fusion.py). Sections score by BM25 over their heading
        trail and body (the engine, tools/search/lexical.py); a page scores by its best
        section plus a share of its next ones, plus its title field, lifted by its link prior.
        The best pages are then re-ranked by the query's word pairs (`phrase_boost`).
        `terms`: index terms to search instead of the query's own (an instant search's words,
        the last one completed from the index: `completions`).
        """
        sequence = list(terms) if terms is not None else index_terms(query[:2000])
        terms = list(dict.fromkeys(sequence))
        if not terms:
            return []
        limit = max(1, min(int(limit), 100))
        with self._reading():
            stats = self._current_stats()
            engine = self._engine()
            sec_score = engine.section_scores(terms, MAX_RANKED_SECTIONS, len(stats.sec_doc))
            title_score = engine.title_scores(terms, MAX_RANKED_TITLES, stats.n_pages)
            title_score += bm25_anchors(terms, stats)
            sec_weights = engine.section_term_weights(terms, stats.n_secs)
            weight = PRIOR_WEIGHT if prior_weight is None else prior_weight
            # Without a collection filter only the re-ranked head and the page asked for matter.
            need = 200 if collections else max(limit, RERANK_DEPTH)
            ranked = rank_pages(sec_score, title_score, stats, weight, need)
            if collections:
                wanted = set(collections)
                ranked = [r for r in ranked if stats.collection.get(r[1], "") in wanted]
            ranked = ranked[: max(limit, RERANK_DEPTH)]
            sections = self._store.best_sections([s for _, _, s in ranked if s >= 0], snippets)
            scale = stats.calibration(len(terms), sec_weights, weight)
        no_section = ("", 0, "", "", None)
        rows = [
            stats.page.get(doc, (None, "", "", "")) + sections.get(sec, no_section)
            for _, doc, sec in ranked
        ]
        boost = phrase_boost(query_pairs(sequence), [row[-1] for row in rows])
        order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][0] * boost[i], ranked[i][1]))
        hits = []
        for i in order[:limit]:
            key, url, title, collection, heading, level, anchor, prose, _ = rows[i]
            if key is None:
                continue
            score = ranked[i][0] * boost[i]
            hits.append(
                Hit(
                    key,
                    url,
                    title,
                    collection,
                    score,
                    section=heading if level else "",
                    anchor=anchor or "",
                    snippet=snippet(prose or "", terms) if snippets else "",
                    calibrated=score / scale if scale > 0 else None,
                )
            )
        return hits

    def completions(self, prefix: str, limit: int = 3) -> list[tuple[str, int]]:
        """Index terms that begin with `prefix` and their section counts, most common first."""
        with self._reading():
            return self._engine().terms_with_prefix(prefix, limit)

    def known_terms(self, terms: Sequence[str]) -> set[str]:
        """Those of the (index) terms that the index holds: the words its lexical side can read."""
        with self._reading():
            return self._engine().known_terms(list(dict.fromkeys(terms)))

    def get(self, key: str) -> Document | None:
        """A stored page by key (its path or article id)."""
        with self._reading():
            return self._store.get(key)

    def find(self, ref: str) -> Document | None:
        """A page by key, URL (with or without anchor/trailing slash) or path without extension."""
        ref = ref.strip().split("#", 1)[0].rstrip("/")
        if not ref:
            return None
        doc = self.get(ref)
        if doc:
            return doc
        with self._reading():
            return self._store.find(ref)

    def link_version(self) -> int:
        """The stored pages' version: what links shown from them are resolved against changes with it."""
        with self._reading() as version:
            return version

    def address(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        """A page's URL and every id its sections serve, for links to it (tools/presentation/site_links.py)."""
        with self._reading():
            return self._store.address(key)

    def keys(self) -> list[str]:
        """Every stored key."""
        with self._reading():
            return self._store.keys()

    def priors(self) -> dict[str, float]:
        """Each page's link prior by key, for rankers that lift pages as the lexical one does."""
        with self._reading():
            return self._store.priors()

    def collections(self) -> list[str]:
        """Distinct collections."""
        with self._reading():
            return self._store.collections()
