"""Persistent, incremental lexical index of whole pages, ranked by section-level BM25F.

Design, and why:
- Pages are stored whole (the tools read whole pages), but ranked by their sections: a page that
  answers in one section should not lose to a long page that mentions every word once.
- Field-weighted BM25 (BM25F): a section's heading trail and body, and its page's title,
  description and path, count separately. Identifiers are split (`StateGraph` -> `state graph
  stategraph`) and a light stemmer folds `streaming` onto `stream` (tools/text.index_terms).
- Storage is one SQLite file (standard library, opens in milliseconds): pages, sections and an
  inverted index of one row per term (its section postings and title postings). A search reads
  only the query terms' rows, in one statement, and scores them in a handful of whole-array
  numpy calls; snippet text and each section's word pairs are prepared at index time. That is
  several times faster than FTS5's `bm25()` over section rows, and finds the right page far more
  often than FTS5 or tantivy over whole pages (bench/engines.py, bench/search_speed.py).
- Scores carry a calibrated twin (score over the query's ceiling in this index and the index's
  typical page gain) so that results of two indexes, docs and KB, can be merged on one scale.
- Incremental: a changed file (by content hash) rewrites only its own postings; deleted files
  drop theirs.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import json
import logging
import math
import re
import sqlite3
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tools.mdx import Page, Section
from tools.text import index_terms, sanitize_external

log = logging.getLogger(__name__)

SCHEMA_VERSION = 28
# BM25F: field weights inside a section (heading trail, body), and the page-title field's weight.
W_HEADING = 1.0
W_BODY = 1.0
W_TITLE = 1.0
K1 = 1.2
B_BODY = 0.75
B_HEADING = 0.5
B_TITLE = 0.5
# How much a page's inbound links lift its score: score * (1 + PRIOR_WEIGHT * ln(1 + inlinks)).
PRIOR_WEIGHT = 0.1
# A page's score is its best section's plus this share of its next best ones (up to 3): a page
# that answers in several places beats one with a single lucky paragraph.
SECTION_SPREAD = 0.3
# Phrase re-ranking of the top pages: weight of the share of query word pairs found in order in
# the best section, how many pages are re-ranked, and how many of each section's terms are kept
# (in order, as hashes) for it.
PHRASE_WEIGHT = 0.5
RERANK_DEPTH = 12
RERANK_TERMS = 400
# Sections that take part in page ranking (the best ones by score); the rest are a long tail of
# single weak matches that cannot lift a page into the results.
MAX_RANKED_SECTIONS = 1_000
# Searches read the file through a memory map (a quarter faster than read calls); syncs and the
# one full scan that loads the scorer's arrays do not, so they do not map, and count as
# resident, the whole file.
MMAP_BYTES = 256 << 20
# Characters of a section scanned for its snippet prose, and of prose kept to cut snippets from.
SNIPPET_SCAN_CHARS = 2_000
SNIPPET_PROSE_CHARS = 1_200
# Text indexed per section. A few pages carry megabytes of embedded data (base64 images, notebook
# output); past this the words are noise and they cost build time and memory. Reading is whole.
MAX_INDEXED_CHARS = 100_000

_SEC_DTYPE = np.dtype([("sec", "<u4"), ("body", "<u2"), ("head", "<u2")])
# The title field is a set of words, so a title posting is just the page id (tf is 1).
_TITLE_DTYPE = np.dtype([("doc", "<u4")])


@dataclass(frozen=True)
class SourceFile:
    """A file as the index sees it before reading it: enough to tell whether it changed."""

    key: str
    mtime: float
    size: int


@dataclass
class Hit:
    """One search result with the section that matched best."""

    key: str
    url: str
    title: str
    collection: str
    score: float
    section: str = ""
    anchor: str = ""
    snippet: str = ""
    # `score` on a scale comparable across indexes (see `merge_rankings`); None when unknown.
    calibrated: float | None = None


@dataclass
class Document:
    """A stored page with its sections, as returned by `SearchIndex.get`."""

    key: str
    url: str
    title: str
    description: str
    collection: str
    sections: list[Section]
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class SyncStats:
    """What one `sync` did."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    # Keys of the pages added or updated, and of those removed (for stores kept beside the index).
    changed: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)


@dataclass
class _Pending:
    """Posting changes gathered during one sync, written once per touched term at the end."""

    removed_secs: set[int] = field(default_factory=set)
    removed_docs: set[int] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)
    secs: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)
    titles: dict[str, list[tuple[int]]] = field(default_factory=dict)


class _Stats:
    """Per-section and per-page arrays the scorer needs, loaded once after each change."""

    def __init__(self, db: sqlite3.Connection) -> None:
        secs = db.execute("SELECT id, doc, blen, hlen FROM secs").fetchall()
        docs = db.execute(
            "SELECT id, tlen, prior, collection, key, url, title FROM docs"
        ).fetchall()
        size = max((r[0] for r in secs), default=0) + 1
        dsize = max((r[0] for r in docs), default=0) + 1
        self.sec_doc = np.zeros(size, np.int64)
        self.blen = np.zeros(size, np.float32)
        self.hlen = np.zeros(size, np.float32)
        if secs:
            arr = np.array(secs, dtype=np.float64)
            ids = arr[:, 0].astype(np.int64)
            self.sec_doc[ids] = arr[:, 1].astype(np.int64)
            self.blen[ids] = arr[:, 2]
            self.hlen[ids] = arr[:, 3]
        self.n_secs = max(len(secs), 1)
        self.n_docs = max(len(docs), 1)
        self.avg_blen = float(self.blen.sum() / self.n_secs) or 1.0
        self.avg_hlen = float(self.hlen.sum() / self.n_secs) or 1.0
        self.tlen = np.zeros(dsize, np.float32)
        self.prior = np.zeros(dsize, np.float32)
        self.collection: dict[int, str] = {}
        # What a hit shows of its page, kept here so a search reads only its sections' rows.
        self.page: dict[int, tuple[str, str, str, str]] = {}
        for doc_id, tlen, prior, collection, key, url, title in docs:
            self.tlen[doc_id] = tlen
            self.prior[doc_id] = prior
            self.collection[doc_id] = collection or ""
            self.page[doc_id] = (key, url or "", title or "", collection or "")
        self.avg_tlen = float(self.tlen.sum() / self.n_docs) or 1.0
        # BM25 length normalisers, inverted once here so a query only multiplies.
        self.inv_body = (W_BODY / (1.0 - B_BODY + B_BODY * self.blen / self.avg_blen)).astype(
            np.float32
        )
        self.inv_head = (
            W_HEADING / (1.0 - B_HEADING + B_HEADING * self.hlen / self.avg_hlen)
        ).astype(np.float32)
        # The title field's whole BM25 term weight but idf, per page (its tf is always 1).
        title_tf = 1.0 / (1.0 - B_TITLE + B_TITLE * self.tlen / self.avg_tlen)
        self.title_weight = (W_TITLE * title_tf / (K1 + title_tf)).astype(np.float32)
        self._prior_factors: dict[float, np.ndarray[Any, Any]] = {}
        self._page_gains: dict[float, float] = {}

    def prior_factor(self, weight: float) -> np.ndarray[Any, Any]:
        """Each page's link-prior multiplier, 1 + weight × ln(1 + inlinks), computed once."""
        factor = self._prior_factors.get(weight)
        if factor is None:
            factor = self._prior_factors[weight] = 1.0 + weight * self.prior.astype(np.float64)
        return factor

    def page_gain(self, prior_weight: float) -> float:
        """The median page's score multiplier from its extra sections and its link prior.

        A docs page has many sections and inbound links, a support article one of each, so the
        same match scores about twice as high in the docs. Dividing by this (with the query's
        ceiling, `query_ceiling`) puts different indexes' scores on one scale.
        """
        gain = self._page_gains.get(prior_weight)
        if gain is None:
            doc_ids = np.fromiter(self.collection, np.int64, len(self.collection))
            counted = np.flatnonzero((self.blen + self.hlen) > 0)
            n_secs = np.bincount(self.sec_doc[counted], minlength=len(self.tlen))[doc_ids]
            spread = 1.0 + SECTION_SPREAD * np.clip(n_secs - 1, 0, 3)
            gains = spread * (1.0 + prior_weight * self.prior[doc_ids])
            gain = self._page_gains[prior_weight] = float(np.median(gains)) if len(gains) else 1.0
        return gain

    def query_ceiling(self, n_terms: int, sec_weights: list[float]) -> float:
        """The most one section could score for the query here: the sum of idf × (k1 + 1).

        `sec_weights` are the matched terms' idf × (k1 + 1). A query term the index lacks counts
        at its (high) idf: an index that cannot match a query's rarest words has a ceiling it
        cannot reach, so its calibrated scores are low.
        """
        missing = n_terms - len(sec_weights)
        return sum(sec_weights) + missing * (K1 + 1.0) * math.log(1.0 + (self.n_secs + 0.5) / 0.5)


class SearchIndex:
    """One SQLite file holding one source's pages; safe to share between threads."""

    def __init__(self, db_path: Path) -> None:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        self.db_path = db_path
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(db_path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        self._init_schema()
        self._stats: _Stats | None = None

    def _init_schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            self._db.executescript(
                """
                DROP TABLE IF EXISTS docs;
                DROP TABLE IF EXISTS fts;
                DROP TABLE IF EXISTS secs;
                DROP TABLE IF EXISTS post;
                DROP TABLE IF EXISTS tpost;
                CREATE TABLE docs (
                    id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, url TEXT, title TEXT,
                    collection TEXT, prior REAL DEFAULT 0, tlen INTEGER DEFAULT 0, hash TEXT,
                    mtime REAL, size INTEGER, description TEXT, meta TEXT, links TEXT DEFAULT '[]',
                    terms TEXT DEFAULT '', sections TEXT);
                CREATE TABLE secs (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, doc INTEGER NOT NULL, level INTEGER,
                    blen INTEGER, hlen INTEGER, anchor TEXT, heading TEXT, pairs BLOB, prose TEXT,
                    text TEXT);
                -- Text last: SQLite reads a row up to the last column asked for, and ranking
                -- reads lengths and word pairs without wanting the (long) text.
                CREATE INDEX secs_doc ON secs(doc);
                -- A term's section postings and title-field postings side by side: one row
                -- read per query term.
                CREATE TABLE post (term TEXT PRIMARY KEY, sec BLOB, title BLOB) WITHOUT ROWID;
                """
            )
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM docs").fetchone()[0])

    # -- writing -------------------------------------------------------------------------------

    def sync(
        self,
        files: Iterable[SourceFile],
        read: Callable[[str], bytes],
        parse: Callable[[str, bytes], tuple[Page, str, str]],
        progress: Callable[[int, int], None] | None = None,
    ) -> SyncStats:
        """Bring the index in line with `files`: re-read changed ones (by content hash), drop gone ones.

        `parse(key, raw)` returns the page, its URL and its collection.
        """
        start = time.perf_counter()
        stats = SyncStats()
        files = list(files)
        with self._lock, _unmapped(self._db):
            known = {
                row[0]: (row[1], row[2], row[3])
                for row in self._db.execute("SELECT key, mtime, size, hash FROM docs")
            }
            fresh = not known
            pending = _Pending()
            seen: set[str] = set()
            todo: list[SourceFile] = []
            for f in files:
                seen.add(f.key)
                old = known.get(f.key)
                if old and old[0] == f.mtime and old[1] == f.size:
                    stats.unchanged += 1
                else:
                    todo.append(f)
            for n, f in enumerate(todo, 1):
                raw = read(f.key)
                digest = hashlib.sha256(raw).hexdigest()
                old = known.get(f.key)
                if old and old[2] == digest:
                    self._db.execute(
                        "UPDATE docs SET mtime=?, size=? WHERE key=?", (f.mtime, f.size, f.key)
                    )
                    stats.unchanged += 1
                else:
                    page, url, collection = parse(f.key, raw)
                    if old:
                        self._delete(f.key, pending)
                    self._write(f, digest, page, url, collection, pending)
                    stats.changed.append(f.key)
                    if old:
                        stats.updated += 1
                    else:
                        stats.added += 1
                if progress and (n % 100 == 0 or n == len(todo)):
                    progress(n, len(todo))
            for key in set(known) - seen:
                self._delete(key, pending)
                stats.gone.append(key)
                stats.removed += 1
            if stats.added or stats.updated or stats.removed:
                self._write_postings(pending, fresh)
                self._update_priors()
                self._stats = None
            self._db.commit()
        stats.seconds = time.perf_counter() - start
        return stats

    def _delete(self, key: str, pending: _Pending) -> None:
        row = self._db.execute("SELECT id, terms FROM docs WHERE key=?", (key,)).fetchone()
        if not row:
            return
        doc_id, terms = row
        pending.removed_docs.add(doc_id)
        pending.removed_secs.update(
            r[0] for r in self._db.execute("SELECT id FROM secs WHERE doc=?", (doc_id,))
        )
        pending.touched.update(terms.split())
        self._db.execute("DELETE FROM secs WHERE doc=?", (doc_id,))
        self._db.execute("DELETE FROM docs WHERE id=?", (doc_id,))

    def _write(
        self, f: SourceFile, digest: str, page: Page, url: str, collection: str, pending: _Pending
    ) -> None:
        sections = [
            {"h": s.heading, "l": s.level, "t": s.text, "a": s.anchor} for s in page.sections
        ]
        meta = {k: v for k, v in page.meta.items() if isinstance(v, str | int | float | bool)}
        path_words = f.key.rsplit(".", 1)[0].replace("/", " ").replace("-", " ")
        # The title field is a set: title, description and path repeat each other, and a word
        # named twice there is no more "about" the page than one named once.
        title_terms = Counter(set(index_terms(f"{page.title}\n{page.description}\n{path_words}")))
        cur = self._db.execute(
            "INSERT INTO docs(key,url,title,description,collection,hash,mtime,size,sections,meta,"
            "links,tlen) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                f.key,
                url,
                page.title,
                page.description,
                collection,
                digest,
                f.mtime,
                f.size,
                json.dumps(sections),
                json.dumps(meta, default=str),
                json.dumps(_links(page)),
                sum(title_terms.values()),
            ),
        )
        doc_id = int(cur.lastrowid or 0)
        all_terms: set[str] = set(title_terms)
        for term in title_terms:
            pending.titles.setdefault(term, []).append((doc_id,))
        trail: list[tuple[int, str]] = []
        for s in page.sections:
            while trail and trail[-1][0] >= s.level > 0:
                trail.pop()
            if s.level > 0:
                trail.append((s.level, s.heading))
            head = Counter(index_terms(" / ".join(h for _, h in trail)))
            body_terms = index_terms(s.text[:MAX_INDEXED_CHARS])
            body = Counter(body_terms)
            sequence = index_terms(s.heading)[:50] + body_terms[:RERANK_TERMS]
            sec = self._db.execute(
                "INSERT INTO secs(doc,heading,level,anchor,text,blen,hlen,pairs,prose)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    doc_id,
                    s.heading,
                    s.level,
                    s.anchor,
                    s.text,
                    sum(body.values()),
                    sum(head.values()),
                    _pair_codes(term_hashes(sequence)).tobytes(),
                    snippet_prose(s.text),
                ),
            )
            sec_id = int(sec.lastrowid or 0)
            for term in head.keys() | body.keys():
                pending.secs.setdefault(term, []).append(
                    (sec_id, min(body.get(term, 0), 65535), min(head.get(term, 0), 65535))
                )
            all_terms.update(head)
            all_terms.update(body)
        self._db.execute(
            "UPDATE docs SET terms=? WHERE id=?", (" ".join(sorted(all_terms)), doc_id)
        )

    def _write_postings(self, pending: _Pending, fresh: bool) -> None:
        """Apply the gathered changes: one read-modify-write per touched term."""
        removed_secs = np.fromiter(pending.removed_secs, np.uint32, len(pending.removed_secs))
        removed_docs = np.fromiter(pending.removed_docs, np.uint32, len(pending.removed_docs))
        rows: list[tuple[str, bytes, bytes]] = []
        deletes: list[tuple[str]] = []
        for term in pending.touched | pending.secs.keys() | pending.titles.keys():
            old = None
            if not fresh:
                old = self._db.execute(
                    "SELECT sec, title FROM post WHERE term=?", (term,)
                ).fetchone()
            sec = _merge_postings(
                old[0] if old else None, pending.secs.get(term), _SEC_DTYPE, removed_secs
            )
            title = _merge_postings(
                old[1] if old else None, pending.titles.get(term), _TITLE_DTYPE, removed_docs
            )
            if sec or title:
                rows.append((term, sec, title))
            else:
                deletes.append((term,))
        self._db.executemany("INSERT OR REPLACE INTO post(term, sec, title) VALUES (?,?,?)", rows)
        self._db.executemany("DELETE FROM post WHERE term=?", deletes)

    def _update_priors(self) -> None:
        """Recompute each page's prior from how many other pages link to it.

        Why: a page the docs themselves point to often (the streaming guide, the graph API
        reference) is the canonical answer more often than a leaf page that merely mentions the
        same words, such as one of hundreds of integration pages. Reads only the stored link
        lists, so one changed page costs milliseconds, not a re-parse of the corpus.
        """
        rows = self._db.execute("SELECT id, key, links FROM docs").fetchall()
        by_suffix: dict[str, int | None] = {}
        for doc_id, key, _ in rows:
            parts = key.rsplit(".", 1)[0].split("/")
            if parts[-1] == "index":
                parts = parts[:-1]
            for i in range(len(parts)):
                suffix = "/".join(parts[i:])
                by_suffix[suffix] = (
                    None if suffix in by_suffix and by_suffix[suffix] != doc_id else doc_id
                )
        inbound: dict[int, int] = {}
        for doc_id, _, links in rows:
            targets = set()
            for link in json.loads(links or "[]"):
                parts = [p for p in link.split("/") if p]
                for i in range(len(parts)):
                    target = by_suffix.get("/".join(parts[i:]))
                    if target is not None:
                        targets.add(target)
                        break
            for target in targets - {doc_id}:
                inbound[target] = inbound.get(target, 0) + 1
        self._db.executemany(
            "UPDATE docs SET prior=? WHERE id=?",
            [(math.log1p(inbound.get(doc_id, 0)), doc_id) for doc_id, _, _ in rows],
        )

    # -- reading -------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        limit: int = 10,
        collections: Sequence[str] | None = None,
        prior_weight: float | None = None,
        snippets: bool = True,
    ) -> list[Hit]:
        """Rank pages for a free-text query; the best-matching section and a snippet come with each.

        `snippets=False` skips the snippets for callers that list titles only (the KB search).

        Sections score by BM25F over their heading trail and body; a page scores by its best
        section plus a share of its next ones, plus its title field, lifted by its link prior.
        The best pages are then re-ranked by the query's word pairs (`_phrase_boost`).
        """
        sequence = index_terms(query[:2000])
        terms = list(dict.fromkeys(sequence))
        if not terms:
            return []
        limit = max(1, min(int(limit), 100))
        with self._lock:
            stats = self._stats
            if stats is None:
                with _unmapped(self._db):  # it scans every section row: no need to map them all
                    stats = self._stats = _Stats(self._db)
            sec_blobs, title_blobs = _fetch_postings(self._db, terms)
            sec_weights = _term_weights(sec_blobs, _SEC_DTYPE.itemsize, stats.n_secs)
            sec_score = _bm25f_sections(sec_blobs, sec_weights, stats)
            title_score = _bm25_titles(title_blobs, stats)
            weight = PRIOR_WEIGHT if prior_weight is None else prior_weight
            # Without a collection filter only the re-ranked head and the page asked for matter.
            need = 200 if collections else max(limit, RERANK_DEPTH)
            ranked = _rank_pages(sec_score, title_score, stats, weight, need)
            if collections:
                wanted = set(collections)
                ranked = [r for r in ranked if stats.collection.get(r[1], "") in wanted]
            ranked = ranked[: max(limit, RERANK_DEPTH)]
            rows = self._hit_rows(ranked, stats, snippets)
            scale = stats.query_ceiling(len(terms), sec_weights) * stats.page_gain(weight)
        boost = _phrase_boost(_query_pairs(sequence), [row[-1] for row in rows])
        order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][0] * boost[i], ranked[i][1]))
        hits = []
        for i in order[:limit]:
            key, url, title, collection, heading, level, anchor, prose, _ = rows[i]
            if key is None:
                continue
            hits.append(
                Hit(
                    key,
                    url,
                    title,
                    collection,
                    ranked[i][0] * boost[i],
                    section=heading if level else "",
                    anchor=anchor or "",
                    snippet=_snippet(prose or "", terms) if snippets else "",
                    calibrated=ranked[i][0] * boost[i] / scale if scale > 0 else None,
                )
            )
        return hits

    def _hit_rows(
        self, ranked: list[tuple[float, int, int]], stats: _Stats, with_prose: bool
    ) -> list[tuple[Any, ...]]:
        """Page and best-section fields of each ranked hit, in order; one query for the sections.

        The last field is the section's word-pair codes for `_phrase_boost`.
        """
        ids = [sec for _, _, sec in ranked if sec >= 0]
        prose = "prose" if with_prose else "''"
        secs = {
            r[0]: r[1:]
            for r in self._db.execute(
                f"SELECT id, heading, level, anchor, {prose}, pairs FROM secs"
                f" WHERE id IN ({_marks(ids)})",
                ids,
            )
        }
        no_section = ("", 0, "", "", None)
        return [
            stats.page.get(doc, (None, "", "", "")) + secs.get(sec, no_section)
            for _, doc, sec in ranked
        ]

    def get(self, key: str) -> Document | None:
        """A stored page by key (its path or article id)."""
        with self._lock:
            row = self._db.execute(
                "SELECT key,url,title,description,collection,sections,meta FROM docs WHERE key=?",
                (key,),
            ).fetchone()
        if not row:
            return None
        return _document(row)

    def find(self, ref: str) -> Document | None:
        """A page by key, URL (with or without anchor/trailing slash) or path without extension."""
        ref = ref.strip().split("#", 1)[0].rstrip("/")
        if not ref:
            return None
        doc = self.get(ref)
        if doc:
            return doc
        with self._lock:
            row = self._db.execute(
                "SELECT key,url,title,description,collection,sections,meta FROM docs"
                " WHERE url=? OR url=? OR key LIKE ? OR key LIKE ? ORDER BY length(key) LIMIT 1",
                (ref, ref + "/", ref + ".%", "%/" + ref.lstrip("/") + ".%"),
            ).fetchone()
        return _document(row) if row else None

    def priors(self) -> dict[str, float]:
        """Each page's link prior, ln(1 + inbound links), by key (see `_update_priors`)."""
        with self._lock:
            return dict(self._db.execute("SELECT key, prior FROM docs").fetchall())

    def keys(self) -> list[str]:
        """Every stored key."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT key FROM docs ORDER BY key")]

    def collections(self) -> list[str]:
        """Distinct collections."""
        with self._lock:
            return [
                r[0]
                for r in self._db.execute("SELECT DISTINCT collection FROM docs ORDER BY 1")
                if r[0]
            ]


@contextmanager
def _unmapped(db: sqlite3.Connection) -> Iterator[None]:
    """Turn the connection's memory map off for the duration (see MMAP_BYTES)."""
    db.execute("PRAGMA mmap_size=0")
    try:
        yield
    finally:
        db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")


def _merge_postings(
    old: bytes | None, added: list[Any] | None, dtype: np.dtype[Any], removed: np.ndarray[Any, Any]
) -> bytes:
    """A term's posting blob after a sync: the old postings minus removed ids, plus new ones.

    The id is each posting's first field (section or page id).
    """
    parts = []
    if old:
        kept = np.frombuffer(old, dtype)
        if len(removed):
            kept = kept[~np.isin(kept[dtype.names[0]], removed)]  # type: ignore[index]
        parts.append(kept)
    if added:
        parts.append(np.array(added, dtype))
    return np.concatenate(parts).tobytes() if parts else b""


def _fetch_postings(db: sqlite3.Connection, terms: list[str]) -> tuple[list[bytes], list[bytes]]:
    """The query terms' section and title posting blobs, in one statement."""
    sec_blobs: list[bytes] = []
    title_blobs: list[bytes] = []
    for sec, title in db.execute(
        f"SELECT sec, title FROM post WHERE term IN ({_marks(terms)})", terms
    ):
        if sec:
            sec_blobs.append(sec)
        if title:
            title_blobs.append(title)
    return sec_blobs, title_blobs


def _term_weights(blobs: list[bytes], itemsize: int, n: int) -> list[float]:
    """Each matched term's idf × (k1 + 1), from its posting list's length.

    Plain Python: for a query's handful of terms this is faster than any numpy call.
    """
    weights = []
    for blob in blobs:
        df = len(blob) // itemsize
        weights.append((K1 + 1.0) * math.log(1.0 + (n - df + 0.5) / (df + 0.5)))
    return weights


def _bm25f_sections(
    blobs: list[bytes], term_weights: list[float], stats: _Stats
) -> np.ndarray[Any, Any]:
    """Per-section BM25F over the heading trail and body fields, for all query terms at once.

    The blobs are read as plain uint32 pairs (section id; body tf in the low and heading tf in
    the high half) and joined before numpy sees them: a handful of array calls per query, not a
    handful per term, because per-call overhead is what a short query pays for.
    """
    if not blobs:
        return np.zeros(len(stats.blen), np.float64)
    raw = b"".join(blobs)
    ids = np.frombuffer(raw, np.uint32)[::2].astype(np.intp)  # cast once, used three times
    # Each field as its own contiguous float32 array: measured 3x faster than working on the
    # interleaved columns, which makes numpy buffer and cast element by element.
    words = np.frombuffer(raw, np.uint16)
    body = words[2::4].astype(np.float32)
    head = words[3::4].astype(np.float32)
    tf = body * stats.inv_body[ids] + head * stats.inv_head[ids]
    idf = np.repeat(
        np.array(term_weights, np.float32), [len(b) // _SEC_DTYPE.itemsize for b in blobs]
    )
    return np.bincount(ids, weights=idf * tf / (K1 + tf), minlength=len(stats.blen))


def _bm25_titles(blobs: list[bytes], stats: _Stats) -> np.ndarray[Any, Any]:
    """Per-page BM25 of the title field (title, description, path words), all terms at once."""
    if not blobs:
        return np.zeros(len(stats.tlen), np.float64)
    ids = np.frombuffer(b"".join(blobs), np.uint32).astype(np.intp)
    idf = np.repeat(
        np.array(_term_weights(blobs, _TITLE_DTYPE.itemsize, stats.n_docs), np.float32),
        [len(b) // _TITLE_DTYPE.itemsize for b in blobs],
    )
    return np.bincount(ids, weights=idf * stats.title_weight[ids], minlength=len(stats.tlen))


def _rank_pages(
    sec_score: np.ndarray[Any, Any],
    title_score: np.ndarray[Any, Any],
    stats: _Stats,
    prior_weight: float,
    need: int = 200,
) -> list[tuple[float, int, int]]:
    """(score, doc id, best section id) of the `need` best pages with a match, best first.

    Written as few whole-array numpy calls: per-call overhead, not arithmetic, is the cost here.
    """
    sec_ids = np.flatnonzero(sec_score > 0)  # 5x faster than on the floats themselves
    page = title_score
    best_sec = np.full(len(page), -1, np.int64)
    if len(sec_ids):
        scores = sec_score[sec_ids]
        if len(sec_ids) > MAX_RANKED_SECTIONS:  # only the best sections can decide the top pages
            keep = np.argpartition(scores, -MAX_RANKED_SECTIONS)[-MAX_RANKED_SECTIONS:]
            sec_ids, scores = sec_ids[keep], scores[keep]
        docs = stats.sec_doc[sec_ids]
        # By page, then best section first, in one float sort (scores scaled into [0, 0.5] and
        # subtracted from the page id): half of what `np.lexsort` costs here.
        order = np.argsort(docs - scores * (0.5 / (float(scores.max()) or 1.0)))
        docs, scores, sec_ids = docs[order], scores[order], sec_ids[order]
        first = np.empty(len(docs), bool)  # a page's best section
        first[0] = True
        np.not_equal(docs[1:], docs[:-1], out=first[1:])
        top4 = np.ones(len(docs), bool)  # among its page's four best sections
        np.not_equal(docs[4:], docs[:-4], out=top4[4:])
        weight = top4 * SECTION_SPREAD
        weight[first] = 1.0
        page = page + np.bincount(docs, weights=scores * weight, minlength=len(page))
        best_sec[docs[first]] = sec_ids[first]
    if prior_weight:
        page = page * stats.prior_factor(prior_weight)
    if len(page) > need:  # partial selection first: a full sort of every page is wasted
        candidates = np.argpartition(page, -need)[-need:]
    else:
        candidates = np.arange(len(page))
    # The few candidates are filtered and ordered in Python: cheaper than more numpy calls.
    ranked = [
        row
        for row in zip(
            page[candidates].tolist(),
            candidates.tolist(),
            best_sec[candidates].tolist(),
            strict=True,
        )
        if row[0] > 0
    ]
    ranked.sort(key=lambda row: (-row[0], row[1]))
    return ranked


def _phrase_boost(query_pairs: np.ndarray[Any, Any], blobs: list[bytes | None]) -> list[float]:
    """Score factor per candidate from the query's word pairs found in its best section.

    The factor is 1 + PHRASE_WEIGHT × the share of the query's adjacent word pairs that the
    section holds next to each other, in the same order.

    Why: questions are often error messages or phrases ("do not have a corresponding
    ToolMessage"); BM25 sees bags of words, a pair in the same order is strong evidence of the page
    that explains it. Each section's distinct adjacent-pair codes (two 32-bit term hashes) are
    stored sorted at index time, so checking every candidate is one `searchsorted` over them all.
    """
    n = len(blobs)
    if PHRASE_WEIGHT <= 0 or not len(query_pairs) or not n:
        return [1.0] * n
    ends = list(itertools.accumulate(len(b or b"") // 8 for b in blobs))
    codes = np.frombuffer(b"".join(b or b"" for b in blobs), np.uint64)
    slot = np.searchsorted(query_pairs, codes)
    np.minimum(slot, len(query_pairs) - 1, out=slot)
    # Matches are few: finding their owners in Python beats whole-array numpy calls.
    matched = np.flatnonzero(query_pairs[slot] == codes).tolist()
    found = Counter(bisect.bisect_right(ends, i) for i in matched)
    share = PHRASE_WEIGHT / len(query_pairs)
    return [1.0 + share * found[i] for i in range(n)]


@lru_cache(maxsize=300_000)
def _term_hash(term: str) -> int:
    return zlib.crc32(term.encode())


def term_hashes(terms: Sequence[str]) -> np.ndarray[Any, Any]:
    """32-bit hashes of terms, in order: the compact form of a section's term sequence."""
    return np.fromiter((_term_hash(t) for t in terms), np.uint32, len(terms))


def _pair_codes(hashes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Distinct codes of adjacent term pairs (first hash in the high 32 bits)."""
    if len(hashes) < 2:
        return np.empty(0, np.uint64)
    h = hashes.astype(np.uint64)
    return np.unique((h[:-1] << np.uint64(32)) | h[1:])


def _query_pairs(sequence: list[str]) -> np.ndarray[Any, Any]:
    """`_pair_codes` of a query's terms, in plain Python: a query has a handful of them."""
    hashes = [_term_hash(t) for t in sequence]
    codes = {(a << 32) | b for a, b in zip(hashes, hashes[1:], strict=False)}
    return np.array(sorted(codes), np.uint64)


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


_LINK_RE = re.compile(r"\]\((/[^)\s#?]*)|href=[\"'](/[^\"'#?]*)")


def _links(page: Page) -> list[str]:
    """Site-relative link targets of a page (`/oss/langgraph/streaming`), each once."""
    found: dict[str, None] = {}
    for s in page.sections:
        for a, b in _LINK_RE.findall(s.text):
            found[(a or b).rstrip("/")] = None
    return [link for link in found if link]


def _document(row: Sequence[Any]) -> Document:
    key, url, title, description, collection, sections, meta = row
    secs = [Section(s["h"], s["l"], s["t"], s["a"]) for s in json.loads(sections)]
    return Document(key, url, title, description or "", collection or "", secs, json.loads(meta))


def snippet_prose(text: str) -> str:
    """The part of a section that snippets are cut from: its first prose, flat and sanitised.

    Computed once at index time (code lines dropped, whitespace folded, headings and bold
    removed) so a search only picks a window. Only the first few thousand characters count: a
    snippet is a pointer to the section, not a summary.
    """
    kept: list[str] = []
    in_fence = False
    for line in text[:SNIPPET_SCAN_CHARS].splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and not line.startswith(("    ", "\t")):
            kept.append(line)
    return sanitize_external(" ".join(kept), SNIPPET_PROSE_CHARS)


def _snippet(prose: str, terms: list[str], width: int = 220) -> str:
    """The window of a section's snippet prose that first holds the most distinct query terms.

    Only each term's first occurrence is looked for (one `str.find` per term): a snippet points
    at the section, and this is a fraction of what scanning for every occurrence costs.
    """
    if len(prose) <= width:
        return prose
    lower = prose.lower()
    positions = sorted(pos for pos in map(lower.find, terms) if pos >= 0)
    best_pos, best_count = 0, 0
    for i, pos in enumerate(positions):
        count = bisect.bisect_left(positions, pos + width, i) - i
        if count > best_count:
            best_pos, best_count = max(0, pos - width // 4), count
    best_pos = min(best_pos, max(0, len(prose) - width))
    piece = prose[best_pos : best_pos + width].strip()
    return ("…" if best_pos else "") + piece + "…"


def index_path(index_dir: Path, kind: str, identity: str) -> Path:
    """Where the index for one source lives: one file per (kind, source) pair."""
    digest = hashlib.sha1(identity.encode()).hexdigest()[:12]
    return index_dir / f"{kind}-{digest}.sqlite"


def merge_rankings(
    rankings: Sequence[tuple[str, Sequence[Hit]]], limit: int = 10
) -> list[tuple[str, Hit]]:
    """One ranking from several indexes' results (e.g. docs and KB), tagged with their source.

    Raw BM25 scores of different indexes are not on one scale: idf depends on each collection,
    and a docs page gains from its many sections and inbound links where a support article has
    one of each. So the merge compares each hit's `calibrated` score (its score over the most the
    query could score in its index, times that index's typical page gain): at each step the list
    whose next hit has the higher calibrated score goes next (ties: the list given first). Each
    list keeps its own order, and a source whose matches are weak for this query gives its slots
    to the other. Measured on the dev set this beat interleaving by rank, merging raw scores and
    merging scores scaled by each list's best. Hits without a calibrated score (an HTTP backend's)
    are interleaved by rank instead, in the order given: docs #1, KB #1, docs #2, …

    A page already listed under the same URL (a KB article that republishes a docs page) is
    listed once, leaving its slot to the next result.
    """
    queues = [(source, list(hits)) for source, hits in rankings]
    by_score = all(h.calibrated is not None for _, hits in queues for h in hits)
    merged: list[tuple[str, Hit]] = []
    seen: set[str] = set()
    turn = 0
    while len(merged) < limit and any(hits for _, hits in queues):
        if by_score:
            # The best head; a list's later hit never jumps its own earlier one.
            source, hits = max((q for q in queues if q[1]), key=lambda q: q[1][0].calibrated or 0.0)
        else:
            source, hits = queues[turn % len(queues)]
            turn += 1
            if not hits:
                continue
        hit = hits.pop(0)
        url = hit.url.split("#", 1)[0].rstrip("/")
        if url and url in seen:
            continue
        seen.add(url)
        merged.append((source, hit))
    return merged
