"""Section vectors beside a lexical index: compact on disk, read memory-mapped, updated per page.

What is embedded: one short text per section, "page title › heading trail: first ~150
characters of its prose" (a page's intro gets its description). Sections, not pages: a
question asks about one thing, and a whole page's vector averages all its topics away
(measured in issue 13: section texts found the right page far more often than whole pages).
A heading trail names the topic in few words, which is what a sentence encoder reads best;
the opening prose is what carries most of the gain for questions in other languages
(bench/vector_texts.py, issue 34: cutting it loses several questions per language).

Storage (issue 34: a 20k-page index held 1.85 GB of float32 vectors in every server):
- `<index>.vectors.sqlite`: each page's row (its sections' slots, the sum of its section
  vectors, its version), its sections' headings and snippets, and one slot per distinct text
  hash (`texts`, reference-counted): identical texts are embedded and stored once.
- `<index>.vectors.i8` and `<index>.vectors.scale`: one int8 vector and one float32 scale per
  slot, append-only (a slot is never rewritten), read through a memory map. int8 keeps the
  cosine to within 1% of float32 (0.4% mean, measured on the model's vectors); the recall
  on the shared corpora's questions is bench/vector_texts.py's.

Searching: a page's best section decides its similarity. The query is compared first with
every page's normalised mean section vector (a float32 matrix of one row per page, 2 KB a
page), then exactly with the sections of the best `coarse_pages` pages and of the pages the
lexical side found. So a search reads a few thousand section vectors, not all of them, and a
server's memory grows with the pages (2 KB each), not with the sections.

Updates: a sync rewrites the rows of the pages that changed and embeds only texts it has not
stored. Readers (this process's searches, another process's server) learn what changed from
the pages' versions: one changed page costs one page row, never a reload. A large sync with
`background` set (a server's warm-up, `make index`) returns at once and embeds in a thread of
its own, committing every batch: the lexical index answers meanwhile, and `warming()` says so.
"""

from __future__ import annotations

import hashlib
import logging
import os
import queue
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from tools.search import Document, snippet_prose
from tools.search.embeddings import Embedder
from tools.search.scoring import PRIOR_WEIGHT
from tools.search.snapshot import follower, is_snapshot, read_only_uri
from tools.search.storage import BUSY_TIMEOUT_S
from tools.search.workers import default_workers

log = logging.getLogger(__name__)

# 2: int8 vectors in a memory-mapped file, one slot per distinct text, page rows with versions.
SCHEMA_VERSION = 2
# Characters of a section's prose embedded after its heading trail: the opening sentence or
# two, which says what the section is about; more dilutes the topic with examples.
PROSE_CHARS = 150
# Characters of a section's prose kept as the snippet of a hit found by its vector alone.
SNIPPET_CHARS = 220
TRAIL_SEPARATOR = " › "
# Characters of a query that are embedded: the encoder reads sentences and short paragraphs,
# and a pasted log of megabytes must not cost seconds (the lexical search reads 2,000).
QUERY_CHARS = 1_000
# Unseen texts embedded per call and pages committed together: a batch is what the encoder
# amortises its weights over (tools/search/embeddings.py), and a commit every batch makes a
# long build's progress visible to searches and resumable after a stop.
BATCH_TEXTS = 256
# A sync with at most this many sections to write embeds them before it returns even in the
# background mode: one changed page is searchable as soon as its sync is done.
INLINE_SECTIONS = 512
# Pages whose sections are compared exactly with the query, besides the lexical candidates:
# the best by their mean vector. A share of the corpus, within bounds. Measured on the
# LangChain corpus's 160 questions (1.5k pages): every page compared gives R@5 30/26/28/26/28
# (en/pl/de/ru/es), the best 200 30/26/28/27/27, the best 100 30/25/27/25/27, the best 30
# 30/24/27/25/26: the mean vector ranks a page whose one section answers below pages about
# the topic at large, so the step keeps a tenth of the pages and at least 200.
COARSE_SHARE = 0.1
COARSE_MIN = 200
COARSE_MAX = 2_000
# Times a batch is embedded again when the texts it counted on were dropped meanwhile.
WRITE_TRIES = 3
# A batch is split over several embedding threads only when each gets at least this many.
MIN_TEXTS_PER_THREAD = 32
# A background build logs its progress every this many pages.
LOG_EVERY_PAGES = 1_000


@dataclass(frozen=True)
class SectionText:
    """One section's embedded text and what a hit shows of it."""

    heading: str
    anchor: str
    text: str
    snippet: str


@dataclass(frozen=True)
class PageInfo:
    """What a hit found by its vector alone shows of its page."""

    key: str
    url: str
    title: str
    collection: str


@dataclass
class VectorSyncStats:
    """What one vector sync did: pages rewritten or dropped, and texts actually embedded.

    `queued`: the pages were handed to the background builder (`VectorStore.wait`).
    """

    pages: int = 0
    removed: int = 0
    embedded: int = 0
    reused: int = 0
    queued: bool = False


def section_texts(doc: Document) -> list[SectionText]:
    """The texts to embed for a page: one per section, with its heading trail."""
    out: list[SectionText] = []
    trail: list[tuple[int, str]] = []
    for s in doc.sections:
        while trail and trail[-1][0] >= s.level > 0:
            trail.pop()
        if s.level > 0:
            trail.append((s.level, s.heading))
        prose = snippet_prose(s.text)
        opening = prose[:PROSE_CHARS]
        if s.level == 0 and doc.description:
            opening = doc.description[:PROSE_CHARS]
        head = TRAIL_SEPARATOR.join([doc.title, *(h for _, h in trail)]).strip()
        text = f"{head}: {opening}" if opening else head
        if not text.strip(" :"):
            continue
        snippet = prose[:SNIPPET_CHARS] + ("…" if len(prose) > SNIPPET_CHARS else "")
        out.append(SectionText(s.heading if s.level else "", s.anchor or "", text, snippet))
    return out


def _matvec(matrix: np.ndarray[Any, Any], vector: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The product matrix @ vector in numpy's own loop, not BLAS.

    Why: a threaded BLAS answers a single matrix-vector product in 13–130 ms on a busy 2-core
    machine (its threads wait for cores), numpy's einsum loop in 0.4 ms for 5,000 × 512
    (measured on this machine): the product is too small to gain from threads.
    """
    out: np.ndarray[Any, Any] = np.einsum("ij,j->i", matrix, vector)
    return out


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def quantize(vectors: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """int8 rows and one float32 scale per row: row ≈ int8 × scale (symmetric, per row)."""
    vectors = np.asarray(vectors, np.float32)
    peak = np.abs(vectors).max(axis=1) if len(vectors) else np.zeros(0, np.float32)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    codes = np.clip(np.rint(vectors / scale[:, None]), -127, 127).astype(np.int8)
    return codes, scale


@dataclass
class PageSimilarity:
    """A query's similarity to the pages it was compared with, and to the corpus at large.

    `best` holds each compared page's best section similarity and that section's position;
    `background` is the query's mean similarity over all sections (what an unrelated section
    scores, the zero point of `evidence`); `prior` the link-prior multipliers by key.
    """

    best: dict[str, tuple[float, int]]
    collections: dict[str, str]
    background: float
    prior: dict[str, float] = field(default_factory=dict)

    def evidence(self, key: str) -> float:
        """A page's similarity as a share of the way from the background to an identical text.

        Lifted by the page's link prior, as the lexical score is (relative to the median page,
        so the scale stays), and at most 1. 0 for a page without vectors.
        """
        found = self.best.get(key)
        span = 1.0 - self.background
        if found is None or span <= 0:
            return 0.0
        share = max(0.0, (found[0] - self.background) / span)
        return min(1.0, share * self.prior.get(key, 1.0))

    def section(self, key: str) -> int:
        """The position of the page's section most similar to the query (-1: not compared)."""
        found = self.best.get(key)
        return found[1] if found else -1

    def top(self, k: int, collections: set[str] | None = None) -> list[str]:
        """Keys of the k compared pages with the most evidence (in `collections`), best first."""
        lifted = [
            ((sim - self.background) * self.prior.get(key, 1.0), key)
            for key, (sim, _) in self.best.items()
            if collections is None or self.collections.get(key, "") in collections
        ]
        lifted.sort(key=lambda pair: (-pair[0], pair[1]))
        return [key for _, key in lifted[: max(0, k)]]


class _View:
    """A reader's copy of the page rows, kept in step with the store by page versions.

    Rows are the store's page rows (never reused): a normalised mean vector (the coarse
    matrix), the norm and section count that give back the page's vector sum, and the page's
    slots. Dropped rows are zeroed and marked dead.
    """

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.version = 0
        self.unit = np.zeros((0, dim), np.float32)
        self.norm = np.zeros(0, np.float64)
        self.alive = np.zeros(0, bool)
        self.keys: list[str] = []
        self.collections: list[str] = []
        self.slots: list[np.ndarray[Any, Any]] = []
        self.row_of: dict[str, int] = {}
        self.total = np.zeros(dim, np.float64)
        self.sections = 0

    def reserve(self, rows: int) -> None:
        """Room for `rows` rows: exactly that many when the view is empty (a first load)."""
        if rows > len(self.unit) and not self.keys:
            self.unit = np.zeros((rows, self.dim), np.float32)
            self.norm = np.zeros(rows, np.float64)
            self.alive = np.zeros(rows, bool)

    def _grow(self, rows: int) -> None:
        have = len(self.keys)
        if rows <= have:
            return
        capacity = len(self.unit)
        if rows > capacity:
            size = max(rows, capacity + capacity // 4, 64)  # a quarter more: room for new pages
            unit = np.zeros((size, self.dim), np.float32)
            unit[:capacity] = self.unit
            norm = np.zeros(size, np.float64)
            norm[:capacity] = self.norm
            alive = np.zeros(size, bool)
            alive[:capacity] = self.alive
            self.unit, self.norm, self.alive = unit, norm, alive
        empty = np.zeros(0, np.int64)
        self.keys.extend([""] * (rows - have))
        self.collections.extend([""] * (rows - have))
        self.slots.extend([empty] * (rows - have))

    def _forget(self, row: int) -> None:
        if row < len(self.keys) and self.alive[row]:
            self.total -= self.unit[row].astype(np.float64) * self.norm[row]
            self.sections -= len(self.slots[row])
            self.row_of.pop(self.keys[row], None)
            self.alive[row] = False
            self.unit[row] = 0.0
            self.norm[row] = 0.0
            self.slots[row] = np.zeros(0, np.int64)

    def apply(
        self,
        rows: Iterable[tuple[int, str, str, bytes, bytes]],
        dropped: Iterable[int],
        version: int,
    ) -> None:
        """Page rows (row, key, collection, slots, vector sum) written since, and rows dropped."""
        for row in dropped:
            self._forget(row)
        for row, key, collection, slots, total in rows:
            self._grow(row + 1)
            self._forget(row)
            old = self.row_of.get(key)
            if old is not None and old != row:
                self._forget(old)
            vector = np.frombuffer(total, np.float32).astype(np.float64)
            norm = float(np.linalg.norm(vector))
            self.unit[row] = (vector / norm) if norm > 0 else 0.0
            self.norm[row] = norm
            self.alive[row] = True
            self.keys[row] = key
            self.collections[row] = collection or ""
            self.slots[row] = np.frombuffer(slots, np.int64)
            self.row_of[key] = row
            self.total += vector
            self.sections += len(self.slots[row])
        self.version = version

    @property
    def pages(self) -> int:
        return len(self.row_of)


class _Vectors:
    """The int8 vectors and their scales, memory-mapped up to the slots a snapshot names."""

    def __init__(self, base: Path, dim: int) -> None:
        self.codes_path = base.with_name(base.name + ".i8")
        self.scale_path = base.with_name(base.name + ".scale")
        self.dim = dim
        self._codes: np.ndarray[Any, Any] | None = None
        self._scale: np.ndarray[Any, Any] | None = None
        self.mapped = 0

    def mapped_to(self, slots: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The (codes, scales) maps covering at least `slots` slots (re-mapped when they grew)."""
        if self._codes is None or self.mapped < slots:
            if slots == 0:
                return np.zeros((0, self.dim), np.int8), np.zeros(0, np.float32)
            self._codes = np.memmap(self.codes_path, np.int8, "r", shape=(slots, self.dim))
            self._scale = np.memmap(self.scale_path, np.float32, "r", shape=(slots,))
            self.mapped = slots
        assert self._scale is not None
        return self._codes, self._scale

    def read(self, slots: np.ndarray[Any, Any], known: int) -> np.ndarray[Any, Any]:
        """The float32 vectors of `slots` (all below `known`, the snapshot's slot count)."""
        codes, scale = self.mapped_to(known)
        out: np.ndarray[Any, Any] = codes[slots].astype(np.float32)
        out *= scale[slots, None]
        return out

    def write(self, first: int, codes: np.ndarray[Any, Any], scale: np.ndarray[Any, Any]) -> None:
        """Write slots from `first` on (the caller holds the store's write transaction)."""
        for path, data, width in (
            (self.codes_path, codes, self.dim),
            (self.scale_path, scale.astype(np.float32), 4),
        ):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                os.pwrite(fd, np.ascontiguousarray(data).tobytes(), first * width)
            finally:
                os.close(fd)

    def clear(self) -> None:
        for path in (self.codes_path, self.scale_path):
            path.unlink(missing_ok=True)
        self._codes = self._scale = None
        self.mapped = 0

    def close(self) -> None:
        self._codes = self._scale = None
        self.mapped = 0


_SCHEMA = """
DROP TABLE IF EXISTS meta;
DROP TABLE IF EXISTS pages;
DROP TABLE IF EXISTS secs;
DROP TABLE IF EXISTS vecs;
DROP TABLE IF EXISTS texts;
DROP TABLE IF EXISTS dropped;
CREATE TABLE meta (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
CREATE TABLE pages (
    key TEXT PRIMARY KEY, row INTEGER UNIQUE NOT NULL, url TEXT, title TEXT, collection TEXT,
    hashes BLOB NOT NULL, slots BLOB NOT NULL, total BLOB NOT NULL, version INTEGER NOT NULL);
CREATE INDEX pages_version ON pages(version);
CREATE TABLE secs (
    page TEXT NOT NULL, ord INTEGER NOT NULL, heading TEXT, anchor TEXT, snippet TEXT,
    PRIMARY KEY (page, ord)) WITHOUT ROWID;
CREATE TABLE texts (hash BLOB PRIMARY KEY, slot INTEGER NOT NULL, refs INTEGER NOT NULL)
    WITHOUT ROWID;
CREATE TABLE dropped (row INTEGER PRIMARY KEY, version INTEGER NOT NULL);
"""


class VectorStore:
    """Section vectors of one index's pages, beside it (`<index>.vectors.*`); thread-safe.

    `read_only` opens a published snapshot (tools/search/snapshot.py): the files are never
    written and `sync` does nothing. `background`: a large sync embeds in a thread of its own
    (a server's warm-up and `make index` set it; tests and scripts get a finished store).
    """

    def __init__(self, path: Path, embedder: Embedder) -> None:
        self.path = path
        self.embedder = embedder
        self.background = False
        # Threads a large batch is embedded in (one per core, at most 4; 1: this thread only).
        self.embed_threads = min(4, default_workers())
        self.coarse_pages: int | None = None  # None: COARSE_SHARE of the pages, within bounds
        self._lock = threading.RLock()  # the reader's view and connection
        self._write_lock = threading.Lock()  # one writer (thread) at a time in this process
        # In a published snapshot's folder (tools/search/snapshot.py) the store reads the
        # current generation's copy, read-only, and moves to the next one when it is published.
        self._follower = follower(path.parent) if is_snapshot(path.parent) else None
        self.read_only = self._follower is not None
        self._generation = ""
        self._db, self._files = self._open()
        if not self.read_only:
            self._init_schema()
        self._view: _View | None = None
        self._data_version: int | None = None
        self._priors: dict[str, float] = {}
        self._jobs: queue.Queue[Iterator[Document] | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._pending = 0  # jobs queued or running
        self._fresh: set[str] = set()  # pages a sync wrote while a job was pending
        self._pending_lock = threading.Condition()
        self.failure = ""

    def _open(self) -> tuple[sqlite3.Connection, _Vectors]:
        """The connection and vector files: the live ones, or the current generation's."""
        if self._follower is not None:
            self._generation = self._follower.current()
            path = self._follower.path(self.path.name)
            db = sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)
            return db, _Vectors(path.with_suffix(""), self.embedder.dim)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=BUSY_TIMEOUT_S)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db, _Vectors(self.path.with_suffix(""), self.embedder.dim)

    def _follow(self) -> None:
        """Open the snapshot's new generation when one was published (the caller holds _lock)."""
        if self._follower is None or self._follower.current() == self._generation:
            return
        old_db, old_files = self._db, self._files
        self._db, self._files = self._open()
        old_db.close()
        old_files.close()
        self._view, self._data_version = None, None
        log.info("section vectors %s: reading generation %s", self.path.name, self._generation)

    @classmethod
    def beside(cls, index_file: Path, embedder: Embedder) -> VectorStore:
        """The store that belongs to an index file (same folder, same name, own suffix)."""
        return cls(index_file.with_name(index_file.stem + ".vectors.sqlite"), embedder)

    def files(self) -> list[Path]:
        """The store's files (the SQLite file, its log and the two vector files), for sizes."""
        path = self._files.codes_path.with_suffix(".sqlite")
        return [
            path,
            path.with_name(path.name + "-wal"),
            self._files.codes_path,
            self._files.scale_path,
        ]

    # -- schema --------------------------------------------------------------------------------

    def _meta(self, key: str, db: sqlite3.Connection | None = None) -> Any:
        row = (db or self._db).execute("SELECT v FROM meta WHERE k=?", (key,)).fetchone()
        return row[0] if row else None

    def _init_schema(self) -> None:
        db = self._db
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION and (
            self._meta("model") == self.embedder.name
        ):
            return
        # Another model's (or an older layout's) vectors are meaningless here: start over, in
        # one transaction, the version checked again inside it (two processes opening at once).
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION and (
                self._meta("model") == self.embedder.name
            ):
                db.rollback()
                return
            for statement in _SCHEMA.strip().split(";"):
                if statement.strip():
                    db.execute(statement)
            db.executemany(
                "INSERT INTO meta(k, v) VALUES (?, ?)",
                [
                    ("model", self.embedder.name),
                    ("dim", self.embedder.dim),
                    ("slots", 0),
                    ("rows", 0),
                    ("version", 0),
                ],
            )
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._files.clear()
        except BaseException:
            db.rollback()
            raise
        db.commit()

    # -- what is stored ------------------------------------------------------------------------

    def keys(self) -> set[str]:
        """Pages that have vectors."""
        with self._lock:
            self._follow()
            return {r[0] for r in self._db.execute("SELECT key FROM pages")}

    def __len__(self) -> int:
        """Sections that have vectors."""
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM secs").fetchone()[0])

    def page_count(self) -> int:
        """Pages that have vectors (a background build's progress)."""
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM pages").fetchone()[0])

    def slot_count(self) -> int:
        """Distinct texts ever stored (live and dead slots: the vector files' rows)."""
        with self._lock:
            return int(self._meta("slots") or 0)

    # -- writing -------------------------------------------------------------------------------

    def sync(self, changed: Iterable[Document], removed: Iterable[str]) -> VectorSyncStats:
        """Rewrite the rows of changed pages, drop removed ones; embed only unseen texts.

        `changed` is read once, page by page (a generator keeps a 50,000-page build's text out
        of memory). With `background` set and more than INLINE_SECTIONS sections to write, the
        pages are handed to the background builder and this returns at once (`queued`).
        """
        stats = VectorSyncStats()
        if self.read_only:
            return stats
        gone = list(dict.fromkeys(removed))
        if gone:
            self._mark_fresh(gone)
            with self._write_lock:
                self._drop_pages(gone)
            stats.removed = len(gone)
        pages = iter(changed)
        if not self.background:
            self._write_all(pages, stats)
            if stats.pages or stats.removed:
                self.checkpoint()
            return stats
        head: list[Document] = []
        sections = 0
        for doc in pages:
            head.append(doc)
            sections += len(doc.sections)
            if sections > INLINE_SECTIONS:
                self._enqueue(chain(head, pages))
                stats.queued = True
                return stats
        self._mark_fresh([doc.key for doc in head])
        self._write_all(iter(head), stats)
        if stats.pages or stats.removed:
            self.checkpoint()
        return stats

    def _mark_fresh(self, keys: list[str]) -> None:
        """Pages written (or dropped) here while a background build runs: it must not redo them.

        The builder may hold a page read before this sync changed it; writing that copy after
        this sync's would put the old sections back.
        """
        with self._pending_lock:
            if self._pending:
                self._fresh.update(keys)

    def _write_all(
        self, pages: Iterator[Document], stats: VectorSyncStats, background: bool = False
    ) -> None:
        """Embed and write pages in batches of about BATCH_TEXTS unseen texts.

        The writer's lock is taken per batch, so a small sync (one changed page) is written
        between two batches of a background build rather than after all of them. In the
        `background` builder, pages a sync wrote meanwhile are skipped (`_mark_fresh`).
        """
        batch: list[tuple[Document, list[SectionText]]] = []
        texts = 0
        started = time.perf_counter()
        logged = 0
        for doc in pages:
            if background and doc.key in self._fresh:
                continue
            sections = section_texts(doc)
            batch.append((doc, sections))
            texts += len(sections)
            if texts >= BATCH_TEXTS:
                self._write_batch(batch, stats, background)
                batch, texts = [], 0
                if self.background and stats.pages - logged >= LOG_EVERY_PAGES:
                    logged = stats.pages
                    log.info(
                        "section vectors %s: %d pages written, %d texts embedded, %d reused"
                        " (%.0fs)",
                        self.path.name,
                        stats.pages,
                        stats.embedded,
                        stats.reused,
                        time.perf_counter() - started,
                    )
        if batch:
            self._write_batch(batch, stats, background)

    def _embed(self, texts: list[str]) -> np.ndarray[Any, Any]:
        """Vectors of a batch's texts, split over `embed_threads` threads when it is large.

        Why threads: the encoder's time is in BLAS calls, which release the interpreter, so two
        threads on two cores embed a batch in about 0.6 of the time (measured on this machine);
        the model's weights are shared, not loaded twice as worker processes would.
        """
        if not texts:
            return np.zeros((0, self.embedder.dim), np.float32)
        threads = min(self.embed_threads, len(texts) // MIN_TEXTS_PER_THREAD)
        if threads <= 1:
            return self.embedder.embed(texts)
        size = -(-len(texts) // threads)
        chunks = [texts[i : i + size] for i in range(0, len(texts), size)]
        with ThreadPoolExecutor(threads, thread_name_prefix="embed") as pool:
            return np.vstack(list(pool.map(self.embedder.embed, chunks)))

    def _known_slots(self, digests: Sequence[bytes]) -> dict[bytes, int]:
        found: dict[bytes, int] = {}
        for i in range(0, len(digests), 500):
            part = list(digests[i : i + 500])
            marks = ",".join("?" * len(part))
            found.update(
                self._db.execute(f"SELECT hash, slot FROM texts WHERE hash IN ({marks})", part)
            )
        return found

    def _write_batch(
        self,
        batch: list[tuple[Document, list[SectionText]]],
        stats: VectorSyncStats,
        background: bool = False,
    ) -> None:
        """Embed a batch's unseen texts (no lock held), then write its pages in one transaction.

        Embedding happens outside the writer's lock, so a small sync waits for no batch's
        encoding. Should another writer have dropped a text this batch counted on meanwhile
        (the last page holding it went), the batch is embedded again (at most `WRITE_TRIES`).
        """
        for _ in range(WRITE_TRIES):
            if background:
                batch = [(doc, secs) for doc, secs in batch if doc.key not in self._fresh]
            digests = {_digest(s.text): s.text for _, sections in batch for s in sections}
            with self._lock:
                known = self._known_slots(list(digests))
            fresh = [(d, t) for d, t in digests.items() if d not in known]
            codes, scale = quantize(self._embed([t for _, t in fresh]))
            with self._write_lock:
                if background:
                    batch = [(doc, secs) for doc, secs in batch if doc.key not in self._fresh]
                if self._write_embedded(batch, fresh, codes, scale, stats):
                    return
        raise RuntimeError(f"{self.path.name}: texts dropped under a batch {WRITE_TRIES} times")

    def _write_embedded(
        self,
        batch: list[tuple[Document, list[SectionText]]],
        fresh: list[tuple[bytes, str]],
        codes: np.ndarray[Any, Any],
        scale: np.ndarray[Any, Any],
        stats: VectorSyncStats,
    ) -> bool:
        """Write a batch whose unseen texts are embedded (the writer's lock held); False: retry."""
        needed = list(dict.fromkeys(_digest(s.text) for _, sections in batch for s in sections))
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                version = int(self._meta("version")) + 1
                # Another process may have stored some of them meanwhile: theirs are kept.
                known = self._known_slots(needed)
                embedded = {d for d, _ in fresh}
                if any(d not in known and d not in embedded for d in needed):
                    db.rollback()
                    return False
                wanted = set(needed)
                new_rows = [i for i, (d, _) in enumerate(fresh) if d not in known and d in wanted]
                first = int(self._meta("slots"))
                for n, i in enumerate(new_rows):
                    known[fresh[i][0]] = first + n
                if new_rows:
                    self._files.write(first, codes[new_rows], scale[new_rows])
                    db.executemany(
                        "INSERT INTO texts(hash, slot, refs) VALUES (?, ?, 0)",
                        [(fresh[i][0], first + n) for n, i in enumerate(new_rows)],
                    )
                    db.execute("UPDATE meta SET v=? WHERE k='slots'", (first + len(new_rows),))
                slots_total = first + len(new_rows)
                for doc, sections in batch:
                    self._write_page(doc, sections, known, version, slots_total)
                    stats.pages += 1
                db.execute("UPDATE meta SET v=? WHERE k='version'", (version,))
            except BaseException:
                db.rollback()
                raise
            db.commit()
        stats.embedded += len(fresh)
        stats.reused += len(needed) - len(fresh)
        return True

    def _write_page(
        self,
        doc: Document,
        sections: list[SectionText],
        slot_of: dict[bytes, int],
        version: int,
        slots_total: int,
    ) -> None:
        """One page's rows, its texts' reference counts moved from its old texts to its new."""
        db = self._db
        digests = [_digest(s.text) for s in sections]
        old = db.execute("SELECT row, hashes FROM pages WHERE key=?", (doc.key,)).fetchone()
        refs: Counter[bytes] = Counter(digests)
        if old is not None:
            row = int(old[0])
            refs.subtract(old[1][i : i + 16] for i in range(0, len(old[1]), 16))
        else:
            row = int(self._meta("rows"))
            db.execute("UPDATE meta SET v=? WHERE k='rows'", (row + 1,))
        db.executemany(
            "UPDATE texts SET refs = refs + ? WHERE hash = ?",
            [(n, d) for d, n in refs.items() if n],
        )
        if any(n < 0 for n in refs.values()):
            db.execute("DELETE FROM texts WHERE refs <= 0")  # their slots are dead
        slots = np.array([slot_of[d] for d in digests], np.int64)
        total = (
            self._files.read(slots, slots_total).sum(axis=0)
            if len(slots)
            else np.zeros(self.embedder.dim, np.float32)
        ).astype(np.float32)
        db.execute(
            "INSERT OR REPLACE INTO pages(key, row, url, title, collection, hashes, slots, total,"
            " version) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                doc.key,
                row,
                doc.url,
                doc.title,
                doc.collection,
                b"".join(digests),
                slots.tobytes(),
                total.tobytes(),
                version,
            ),
        )
        db.execute("DELETE FROM secs WHERE page=?", (doc.key,))
        db.executemany(
            "INSERT INTO secs(page, ord, heading, anchor, snippet) VALUES (?,?,?,?,?)",
            [(doc.key, n, s.heading, s.anchor, s.snippet) for n, s in enumerate(sections)],
        )

    def _drop_pages(self, keys: list[str]) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                version = int(self._meta("version")) + 1
                refs: Counter[bytes] = Counter()
                for key in keys:
                    old = db.execute("SELECT row, hashes FROM pages WHERE key=?", (key,)).fetchone()
                    if old is None:
                        continue
                    refs.subtract(old[1][i : i + 16] for i in range(0, len(old[1]), 16))
                    db.execute(
                        "INSERT OR REPLACE INTO dropped(row, version) VALUES (?, ?)",
                        (old[0], version),
                    )
                    db.execute("DELETE FROM pages WHERE key=?", (key,))
                    db.execute("DELETE FROM secs WHERE page=?", (key,))
                db.executemany(
                    "UPDATE texts SET refs = refs + ? WHERE hash = ?",
                    [(n, d) for d, n in refs.items() if n],
                )
                db.execute("DELETE FROM texts WHERE refs <= 0")
                db.execute("UPDATE meta SET v=? WHERE k='version'", (version,))
            except BaseException:
                db.rollback()
                raise
            db.commit()

    # -- the background builder ----------------------------------------------------------------

    def _enqueue(self, pages: Iterator[Document]) -> None:
        with self._pending_lock:
            self._pending += 1
            if self._worker is None or not self._worker.is_alive():
                # Not a daemon: a process that exits mid-build waits for the batch in hand
                # (an interpreter ending a daemon thread inside the encoder's C++ aborts).
                self._worker = threading.Thread(
                    target=self._work, name=f"vectors-{self.path.stem}", daemon=False
                )
                self._worker.start()
        self._jobs.put(pages)

    def _work(self) -> None:
        while True:
            try:
                pages = self._jobs.get(timeout=1.0)
            except queue.Empty:
                with self._pending_lock:
                    if self._pending == 0:
                        self._worker = None
                        return
                continue
            stats = VectorSyncStats()
            start = time.perf_counter()
            try:
                self._write_all(pages or iter(()), stats, background=True)
                self.checkpoint()
                self.failure = ""
                log.info(
                    "section vectors %s ready: %d pages, %d texts embedded, %d reused in %.1fs",
                    self.path.name,
                    stats.pages,
                    stats.embedded,
                    stats.reused,
                    time.perf_counter() - start,
                )
            except Exception as exc:  # noqa: BLE001 — searches go on lexically; the log says why
                self.failure = str(exc) or exc.__class__.__name__
                log.exception("section vectors %s: background build failed", self.path.name)
            finally:
                with self._pending_lock:
                    self._pending -= 1
                    if not self._pending:
                        self._fresh.clear()
                    self._pending_lock.notify_all()

    def warming(self) -> bool:
        """Whether a background build is still embedding pages (cross-lingual search partial)."""
        with self._pending_lock:
            return self._pending > 0

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the background builds queued so far; False when `timeout` passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._pending_lock:
            while self._pending > 0:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._pending_lock.wait(left if left is not None else 1.0)
        return True

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the file and truncate it (issue 34: disk ≈ 2× data)."""
        if self.read_only:
            return
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # -- reading -------------------------------------------------------------------------------

    def set_priors(self, priors: dict[str, float]) -> None:
        """Each page's link prior, ln(1 + inbound links), as the lexical index computed it.

        Vector evidence is lifted by the same factor as the lexical score, 1 + PRIOR_WEIGHT ×
        prior, over the median page's: the canonical guide that many pages link to is the
        better answer whichever way it was found.
        """
        if not priors:
            with self._lock:
                self._priors = {}
            return
        factor = {key: 1.0 + PRIOR_WEIGHT * value for key, value in priors.items()}
        median = float(np.median(np.fromiter(factor.values(), np.float64)))
        with self._lock:
            self._priors = {key: value / median for key, value in factor.items()}

    def _current(self) -> tuple[_View, int]:
        """The view, brought up to date with what was committed since (the caller holds _lock)."""
        self._follow()
        if self._view is None:
            self._view = _View(self.embedder.dim)
        view = self._view
        data_version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        if data_version == self._data_version and view.version:
            return view, self._slots
        db = self._db
        db.execute("BEGIN")
        try:
            version = int(self._meta("version") or 0)
            slots = int(self._meta("slots") or 0)
            if version != view.version:
                rows = db.execute(
                    "SELECT row, key, collection, slots, total FROM pages WHERE version > ?",
                    (view.version,),
                ).fetchall()
                dropped = [
                    r[0]
                    for r in db.execute(
                        "SELECT row FROM dropped WHERE version > ?", (view.version,)
                    )
                ]
                if rows:
                    view.reserve(max(r[0] for r in rows) + 1)  # a first load: exactly its rows
                view.apply(rows, dropped, version)
        finally:
            db.commit()
        self._data_version = data_version
        self._slots = slots
        return view, slots

    _slots = 0

    def load(self) -> None:
        """Read the page rows and start loading the model, before any query."""
        preload = getattr(self.embedder, "preload", None)
        if preload is not None:
            preload()
        with self._lock:
            self._current()

    def _coarse_count(self, pages: int) -> int:
        if self.coarse_pages is not None:
            return self.coarse_pages
        return int(min(COARSE_MAX, max(COARSE_MIN, COARSE_SHARE * pages)))

    def similarity(self, query: str, keys: Sequence[str] = ()) -> PageSimilarity | None:
        """The query's similarity to its closest pages and to `keys`; None with no vectors.

        The closest pages are the best `coarse_pages` by mean vector, compared then section by
        section; `keys` (the lexical candidates) are compared section by section whatever
        their mean vector says, so their evidence is exact.
        """
        with self._lock:
            view, slots = self._current()
            if not view.pages or not view.sections:
                return None
        vec = self.embedder.embed([query[:QUERY_CHARS]])[0].astype(np.float32)
        with self._lock:
            view, slots = self._current()
            if not view.pages or not view.sections:
                return None
            n = len(view.keys)
            background = float(view.total @ vec) / view.sections
            coarse = _matvec(view.unit[:n], vec)
            coarse[~view.alive[:n]] = -np.inf
            want = min(self._coarse_count(view.pages), view.pages)
            top = np.argpartition(coarse, -want)[-want:] if want < n else np.arange(n)
            rows = {int(r) for r in top if view.alive[r]}
            rows.update(view.row_of[k] for k in keys if k in view.row_of)
            ordered = sorted(rows)
            parts = [view.slots[r] for r in ordered]
            lengths = np.array([len(p) for p in parts], np.int64)
            keep = lengths > 0
            ordered = [r for r, k in zip(ordered, keep, strict=True) if k]
            parts = [p for p, k in zip(parts, keep, strict=True) if k]
            lengths = lengths[keep]
            best: dict[str, tuple[float, int]] = {}
            if parts:
                sims = _matvec(self._files.read(np.concatenate(parts), slots), vec)
                starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
                # Each page's best section and its position, in whole-array calls: the first
                # row of each page's run that reaches the page's maximum.
                tops = np.maximum.reduceat(sims, starts)
                index = np.arange(len(sims))
                hit = np.where(sims >= np.repeat(tops, lengths), index, len(sims))
                positions = np.minimum.reduceat(hit, starts) - starts
                best = {
                    view.keys[row]: (top, position)
                    for row, top, position in zip(
                        ordered, tops.tolist(), positions.tolist(), strict=True
                    )
                }
            collections = {view.keys[r]: view.collections[r] for r in ordered}
            return PageSimilarity(best, collections, background, self._priors)

    def describe(
        self, sim: PageSimilarity, keys: Sequence[str]
    ) -> list[tuple[PageInfo, SectionText]]:
        """Page fields and best section of the given pages (found by `similarity`)."""
        out: list[tuple[PageInfo, SectionText]] = []
        with self._lock:
            for key in keys:
                page = self._db.execute(
                    "SELECT key, url, title, collection FROM pages WHERE key=?", (key,)
                ).fetchone()
                sec = self._db.execute(
                    "SELECT heading, anchor, snippet FROM secs WHERE page=? AND ord=?",
                    (key, sim.section(key)),
                ).fetchone()
                if page is None or sec is None:
                    continue
                out.append(
                    (
                        PageInfo(page[0], page[1] or "", page[2] or "", page[3] or ""),
                        SectionText(sec[0] or "", sec[1] or "", "", sec[2] or ""),
                    )
                )
        return out

    def close(self) -> None:
        """Close the connection and the maps (a snapshot's old generation)."""
        with self._lock:
            self._db.close()
            self._files.close()
            self._view = None
