"""Section vectors beside a lexical index: stored per section, updated with the pages.

What is embedded: one short text per section, "page title › heading trail: first ~150
characters of its prose" (a page's intro gets its description). Sections, not pages: a
question asks about one thing, and a whole page's vector averages all its topics away
(measured in issue 13: section texts found the right page far more often than whole pages).
A heading trail names the topic in few words, which is what a sentence encoder reads best.

Storage: one SQLite file next to the index file, holding each page's section rows (keyed by
page key and position, with the hash of the embedded text) and one float16 vector per distinct
text hash. A sync re-embeds only texts whose hash it has not stored: an edited page whose
headings stayed costs the sections that changed, a moved section costs nothing. Searches use an
in-memory float32 matrix, rebuilt after a change, with the rows of each page side by side so a
page's best section is one `np.maximum.reduceat`.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tools.search import Document, snippet_prose
from tools.search.embeddings import Embedder
from tools.search.scoring import PRIOR_WEIGHT
from tools.search.storage import BUSY_TIMEOUT_S

SCHEMA_VERSION = 1
# Characters of a section's prose embedded after its heading trail: the opening sentence or
# two, which says what the section is about; more dilutes the topic with examples.
PROSE_CHARS = 150
# Characters of a section's prose kept as the snippet of a hit found by its vector alone.
SNIPPET_CHARS = 220
TRAIL_SEPARATOR = " › "
# Characters of a query that are embedded: the encoder reads sentences and short paragraphs,
# and a pasted log of megabytes must not cost seconds (the lexical search reads 2,000).
QUERY_CHARS = 1_000


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
    """What one vector sync did: pages rewritten or dropped, and texts actually embedded."""

    pages: int = 0
    removed: int = 0
    embedded: int = 0
    reused: int = 0


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


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


@dataclass
class PageSimilarity:
    """A query's cosine similarity to every page (its best section) and to the corpus at large.

    `background` is the query's mean similarity over all sections: what an unrelated section
    scores, the zero point of `evidence`.
    """

    keys: list[str]
    collections: list[str]
    best: np.ndarray[Any, Any]
    background: float
    sims: np.ndarray[Any, Any]
    starts: np.ndarray[Any, Any]
    # Each page's link-prior multiplier over the corpus median (1.0 without priors).
    prior: np.ndarray[Any, Any]

    def best_row(self, i: int) -> int:
        """The row (section) of page i that is most similar to the query."""
        end = int(self.starts[i + 1]) if i + 1 < len(self.starts) else len(self.sims)
        start = int(self.starts[i])
        return start + int(np.argmax(self.sims[start:end]))

    def evidence(self, i: int) -> float:
        """Page i's similarity as a share of the way from the background to an identical text.

        Lifted by the page's link prior, as the lexical score is (relative to the median page,
        so the scale stays), and at most 1.
        """
        span = 1.0 - self.background
        if span <= 0:
            return 0.0
        share = max(0.0, (float(self.best[i]) - self.background) / span)
        return min(1.0, share * float(self.prior[i]))

    def top(self, k: int, collections: set[str] | None = None) -> list[int]:
        """Indexes of the k pages with the most evidence (in `collections` if given), best first."""
        lifted = (self.best - self.background) * self.prior
        if collections is not None:
            allowed = np.array([c in collections for c in self.collections], bool)
            lifted = np.where(allowed, lifted, -np.inf)
            k = min(k, int(allowed.sum()))
        if k <= 0:
            return []
        if len(lifted) > k:
            idx = np.argpartition(lifted, -k)[-k:]
        else:
            idx = np.arange(len(lifted))
        return sorted(idx.tolist(), key=lambda i: -float(lifted[i]))


class _Matrix:
    """The search-time view: all section vectors, grouped by page."""

    def __init__(self, db: sqlite3.Connection, dim: int) -> None:
        rows = db.execute(
            "SELECT s.page, s.ord, v.vec FROM secs s JOIN vecs v ON v.hash = s.hash"
            " ORDER BY s.page, s.ord"
        ).fetchall()
        self.keys: list[str] = []
        starts: list[int] = []
        self.ords = np.array([r[1] for r in rows], np.int64)
        for n, (page, _, _) in enumerate(rows):
            if not self.keys or self.keys[-1] != page:
                self.keys.append(page)
                starts.append(n)
        self.starts = np.array(starts, np.int64)
        collection = dict(db.execute("SELECT key, collection FROM pages").fetchall())
        self.collections = [collection.get(k) or "" for k in self.keys]
        # Link-prior multipliers, set by `VectorStore.set_priors`.
        self.prior = np.ones(len(self.keys), np.float64)
        blob = b"".join(r[2] for r in rows)
        self.vectors = np.frombuffer(blob, np.float16).reshape(len(rows), dim).astype(np.float32)


class VectorStore:
    """Section vectors of one index's pages, in `<index>.vectors.sqlite`; thread-safe."""

    def __init__(self, path: Path, embedder: Embedder) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.embedder = embedder
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=BUSY_TIMEOUT_S)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._init_schema()
        self._matrix: _Matrix | None = None
        self._version: int | None = None
        self._priors: dict[str, float] = {}

    @classmethod
    def beside(cls, index_file: Path, embedder: Embedder) -> VectorStore:
        """The store that belongs to an index file (same folder, same name, own suffix)."""
        return cls(index_file.with_name(index_file.stem + ".vectors.sqlite"), embedder)

    def _init_schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        model = None
        if version == SCHEMA_VERSION:
            row = self._db.execute("SELECT v FROM meta WHERE k='model'").fetchone()
            model = row[0] if row else None
        if version == SCHEMA_VERSION and model == self.embedder.name:
            return
        # Another model's vectors are meaningless to this one: start over.
        self._db.executescript(
            """
            DROP TABLE IF EXISTS meta;
            DROP TABLE IF EXISTS pages;
            DROP TABLE IF EXISTS secs;
            DROP TABLE IF EXISTS vecs;
            CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT);
            CREATE TABLE pages (key TEXT PRIMARY KEY, url TEXT, title TEXT, collection TEXT);
            CREATE TABLE secs (
                page TEXT NOT NULL, ord INTEGER NOT NULL, hash BLOB NOT NULL, heading TEXT,
                anchor TEXT, snippet TEXT, PRIMARY KEY (page, ord)) WITHOUT ROWID;
            CREATE INDEX secs_hash ON secs(hash);
            CREATE TABLE vecs (hash BLOB PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID;
            """
        )
        self._db.execute("INSERT INTO meta(k, v) VALUES ('model', ?)", (self.embedder.name,))
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._db.commit()

    def keys(self) -> set[str]:
        """Pages that have vectors."""
        with self._lock:
            return {r[0] for r in self._db.execute("SELECT key FROM pages")}

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM secs").fetchone()[0])

    def sync(self, changed: Iterable[Document], removed: Iterable[str]) -> VectorSyncStats:
        """Rewrite the rows of changed pages, drop removed ones; embed only unseen texts."""
        stats = VectorSyncStats()
        with self._lock:
            gone = list(dict.fromkeys(removed))
            for key in gone:
                self._drop(key)
            stats.removed = len(gone)
            rows: list[tuple[str, int, bytes, str, str, str]] = []
            todo: dict[bytes, str] = {}
            for doc in changed:
                self._drop(doc.key)
                self._db.execute(
                    "INSERT INTO pages(key, url, title, collection) VALUES (?,?,?,?)",
                    (doc.key, doc.url, doc.title, doc.collection),
                )
                stats.pages += 1
                for n, sec in enumerate(section_texts(doc)):
                    digest = _digest(sec.text)
                    rows.append((doc.key, n, digest, sec.heading, sec.anchor, sec.snippet))
                    todo.setdefault(digest, sec.text)
            known = self._known(list(todo))
            fresh = [(d, t) for d, t in todo.items() if d not in known]
            stats.reused = len(todo) - len(fresh)
            if fresh:
                vectors = self.embedder.embed([t for _, t in fresh]).astype(np.float16)
                self._db.executemany(
                    "INSERT OR REPLACE INTO vecs(hash, vec) VALUES (?,?)",
                    [(d, v.tobytes()) for (d, _), v in zip(fresh, vectors, strict=True)],
                )
                stats.embedded = len(fresh)
            self._db.executemany(
                "INSERT INTO secs(page, ord, hash, heading, anchor, snippet) VALUES (?,?,?,?,?,?)",
                rows,
            )
            if gone or stats.pages:
                # Vectors no section uses any more (edited or deleted text).
                self._db.execute(
                    "DELETE FROM vecs WHERE hash NOT IN (SELECT DISTINCT hash FROM secs)"
                )
                self._matrix = None
            self._db.commit()
        return stats

    def _drop(self, key: str) -> None:
        self._db.execute("DELETE FROM secs WHERE page=?", (key,))
        self._db.execute("DELETE FROM pages WHERE key=?", (key,))

    def _known(self, digests: list[bytes]) -> set[bytes]:
        known: set[bytes] = set()
        for i in range(0, len(digests), 500):
            part = digests[i : i + 500]
            marks = ",".join("?" * len(part))
            known.update(
                r[0]
                for r in self._db.execute(f"SELECT hash FROM vecs WHERE hash IN ({marks})", part)
            )
        return known

    def set_priors(self, priors: dict[str, float]) -> None:
        """Each page's link prior, ln(1 + inbound links), as the lexical index computed it.

        Vector evidence is lifted by the same factor as the lexical score, 1 + PRIOR_WEIGHT ×
        prior, over the median page's: the canonical guide that many pages link to is the
        better answer whichever way it was found.
        """
        with self._lock:
            self._priors = dict(priors)
            self._matrix = None

    def _loaded(self) -> _Matrix:
        with self._lock:
            # Another process (`make index` beside a server) committed new vectors: reload.
            version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
            if version != self._version:
                self._matrix, self._version = None, version
            if self._matrix is None:
                matrix = _Matrix(self._db, self.embedder.dim)
                if self._priors and matrix.keys:
                    factor = 1.0 + PRIOR_WEIGHT * np.array(
                        [self._priors.get(k, 0.0) for k in matrix.keys], np.float64
                    )
                    matrix.prior = factor / float(np.median(factor))
                self._matrix = matrix
            return self._matrix

    def load(self) -> None:
        """Read the section vectors into memory and start loading the model, before any query."""
        preload = getattr(self.embedder, "preload", None)
        if preload is not None:
            preload()
        self._loaded()

    def similarity(self, query: str) -> PageSimilarity | None:
        """The query's similarity to each page; None when the store is empty."""
        matrix = self._loaded()
        if not matrix.keys:
            return None
        vec = self.embedder.embed([query[:QUERY_CHARS]])[0].astype(np.float32)
        sims = matrix.vectors @ vec
        best = np.maximum.reduceat(sims, matrix.starts)
        return PageSimilarity(
            matrix.keys,
            matrix.collections,
            best,
            float(sims.mean()),
            sims,
            matrix.starts,
            matrix.prior,
        )

    def describe(
        self, sim: PageSimilarity, pages: Sequence[int]
    ) -> list[tuple[PageInfo, SectionText]]:
        """Page fields and best section of the given pages (indexes into `sim.keys`)."""
        matrix = self._loaded()
        out: list[tuple[PageInfo, SectionText]] = []
        with self._lock:
            for i in pages:
                key = sim.keys[i]
                ordinal = int(matrix.ords[sim.best_row(i)])
                page = self._db.execute(
                    "SELECT key, url, title, collection FROM pages WHERE key=?", (key,)
                ).fetchone()
                sec = self._db.execute(
                    "SELECT heading, anchor, snippet FROM secs WHERE page=? AND ord=?",
                    (key, ordinal),
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
