"""Persistent, incremental full-text index of whole pages: SQLite FTS5 with field-weighted BM25.

Why SQLite FTS5: it ships with Python (no extra wheel), persists to one file, opens in
milliseconds, and its `bm25()` takes per-column weights, so title, headings and body count
separately. `bench/search_speed.py` measures it beside rank-bm25.
Identifiers are split before indexing (`StateGraph` -> `state graph stategraph`) and the porter
stemmer folds `streaming` onto `stream`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.mdx import Page, Section
from tools.text import expand_for_index, query_terms, sanitize_external

log = logging.getLogger(__name__)

SCHEMA_VERSION = 8
# Column weights for bm25() over one row per section: page title+description+path, the
# section's heading trail, the section's text. Equal weights measured best on the dev set: the
# title already counts once per section, which lifts pages whose title matches.
WEIGHTS = (1.0, 1.0, 1.0)
# How much a page's inbound links lift its score: score * (1 + PRIOR_WEIGHT * ln(1 + inlinks)).
PRIOR_WEIGHT = 0.1
# A page's score is its best section's plus this share of its next best ones (up to 3): a page
# that answers in several places beats one with a single lucky paragraph.
SECTION_SPREAD = 0.3
# Sections fetched per query before pages are scored; more only adds tail pages.
MAX_SECTION_ROWS = 400
# On large indexes, query terms in more than this share of sections are dropped (they carry
# almost no idf and make every query scan most of the index); the rarest two always stay.
COMMON_TERM_SHARE = 0.1
COMMON_TERM_MIN_ROWS = 2000
# Text indexed per section. A few pages carry megabytes of embedded data (base64 images, notebook
# output); past this the words are noise and they cost build time and memory. Reading is whole.
MAX_INDEXED_CHARS = 100_000


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


class SearchIndex:
    """One SQLite file holding one source's pages; safe to share between threads."""

    def __init__(self, db_path: Path) -> None:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        self.db_path = db_path
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(db_path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._init_schema()
        # Section count and per-term document frequencies, cached until the next change.
        self._total: int | None = None
        self._df: dict[str, int] = {}

    def _init_schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            self._db.executescript(
                """
                DROP TABLE IF EXISTS docs;
                DROP TABLE IF EXISTS fts;
                DROP TABLE IF EXISTS secs;
                -- Small columns first: SQLite reads a row up to the last column asked for, and
                -- ranking reads `prior` for hundreds of candidates per query.
                CREATE TABLE docs (
                    id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, url TEXT, title TEXT,
                    collection TEXT, prior REAL DEFAULT 0, hash TEXT, mtime REAL, size INTEGER,
                    description TEXT, meta TEXT, links TEXT DEFAULT '[]', sections TEXT);
                CREATE TABLE secs (
                    id INTEGER PRIMARY KEY, doc INTEGER NOT NULL, heading TEXT, level INTEGER,
                    anchor TEXT, text TEXT);
                CREATE INDEX secs_doc ON secs(doc);
                CREATE VIRTUAL TABLE fts USING fts5(
                    title, heading, body, doc UNINDEXED, tokenize='porter unicode61');
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
        with self._lock:
            known = {
                row[0]: (row[1], row[2], row[3])
                for row in self._db.execute("SELECT key, mtime, size, hash FROM docs")
            }
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
                    self._write(f, digest, page, url, collection, replace=old is not None)
                    if old:
                        stats.updated += 1
                    else:
                        stats.added += 1
                if n % 200 == 0:
                    self._db.commit()  # bounds memory on a large first build; progress is kept
                if progress and (n % 100 == 0 or n == len(todo)):
                    progress(n, len(todo))
            for key in set(known) - seen:
                self._delete(key)
                stats.removed += 1
            if stats.added or stats.updated or stats.removed:
                self._update_priors()
                self._total, self._df = None, {}
            self._db.commit()
        stats.seconds = time.perf_counter() - start
        return stats

    def _delete(self, key: str) -> None:
        row = self._db.execute("SELECT id FROM docs WHERE key=?", (key,)).fetchone()
        if row:
            self._db.execute(
                "DELETE FROM fts WHERE rowid IN (SELECT id FROM secs WHERE doc=?)", (row[0],)
            )
            self._db.execute("DELETE FROM secs WHERE doc=?", (row[0],))
            self._db.execute("DELETE FROM docs WHERE id=?", (row[0],))

    def _write(
        self, f: SourceFile, digest: str, page: Page, url: str, collection: str, replace: bool
    ) -> None:
        if replace:
            self._delete(f.key)
        sections = [
            {"h": s.heading, "l": s.level, "t": s.text, "a": s.anchor} for s in page.sections
        ]
        meta = {k: v for k, v in page.meta.items() if isinstance(v, str | int | float | bool)}
        cur = self._db.execute(
            "INSERT INTO docs(key,url,title,description,collection,hash,mtime,size,sections,meta,"
            "links) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (f.key, url, page.title, page.description, collection, digest, f.mtime, f.size,
             json.dumps(sections), json.dumps(meta, default=str), json.dumps(_links(page))),
        )
        doc_id = cur.lastrowid
        path_words = f.key.rsplit(".", 1)[0].replace("/", " ").replace("-", " ").replace("_", " ")
        title = expand_for_index(f"{page.title}\n{page.description}\n{path_words}")
        trail: list[tuple[int, str]] = []
        for s in page.sections:
            while trail and trail[-1][0] >= s.level > 0:
                trail.pop()
            if s.level > 0:
                trail.append((s.level, s.heading))
            heading = " / ".join(h for _, h in trail)
            sec = self._db.execute(
                "INSERT INTO secs(doc,heading,level,anchor,text) VALUES (?,?,?,?,?)",
                (doc_id, s.heading, s.level, s.anchor, s.text),
            )
            self._db.execute(
                "INSERT INTO fts(rowid,title,heading,body,doc) VALUES (?,?,?,?,?)",
                (sec.lastrowid, title, expand_for_index(heading),
                 expand_for_index(s.text[:MAX_INDEXED_CHARS]), doc_id),
            )

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
                by_suffix[suffix] = None if suffix in by_suffix and by_suffix[suffix] != doc_id else doc_id
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
        weights: Sequence[float] = WEIGHTS,
        prior_weight: float = PRIOR_WEIGHT,
    ) -> list[Hit]:
        """Rank pages for a free-text query; the best-matching section and a snippet come with each.

        Sections are ranked by field-weighted BM25 in SQLite; a page scores by its best section
        plus a share of its next ones, lifted by its link prior.
        """
        terms = query_terms(query)
        if not terms:
            return []
        limit = max(1, min(int(limit), 100))
        with self._lock:
            try:
                keep = self._informative(terms)
                match = " OR ".join('"' + t.replace('"', "") + '"' for t in keep)
                rows = self._db.execute(
                    "SELECT rowid, doc, -bm25(fts, ?, ?, ?) FROM fts WHERE fts MATCH ?"
                    " ORDER BY rank LIMIT ?",
                    [*weights[:3], match, MAX_SECTION_ROWS],
                ).fetchall()
            except sqlite3.OperationalError as exc:
                log.warning("search failed for %r: %s", query, exc)
                return []
            per_doc: dict[int, list[tuple[float, int]]] = {}
            for sec_id, doc_id, score in rows:
                per_doc.setdefault(doc_id, []).append((score, sec_id))
            docs = self._doc_rows(list(per_doc), collections)
            ranked: list[tuple[float, int, int]] = []
            for doc_id, scores in per_doc.items():
                if doc_id not in docs:
                    continue
                best = scores[0][0] + SECTION_SPREAD * sum(sc for sc, _ in scores[1:4])
                ranked.append((best * (1.0 + prior_weight * docs[doc_id][4]), doc_id, scores[0][1]))
            ranked.sort(key=lambda t: (-t[0], t[1]))
            ranked = ranked[:limit]
            secs = self._section_rows([sec for _, _, sec in ranked])
        hits = []
        for score, doc_id, sec_id in ranked:
            key, url, title, collection, _ = docs[doc_id]
            hit = Hit(key, url, title, collection, float(score))
            heading, level, anchor, text = secs.get(sec_id, ("", 0, "", ""))
            hit.section = heading if level > 0 else ""
            hit.anchor = anchor or ""
            hit.snippet = _snippet(text or "", terms)
            hits.append(hit)
        return hits

    def _informative(self, terms: list[str]) -> list[str]:
        """Drop terms found in most sections of a large index (see COMMON_TERM_SHARE)."""
        if self._total is None:
            self._total = self._db.execute("SELECT count(*) FROM secs").fetchone()[0]
        total = self._total
        if total < COMMON_TERM_MIN_ROWS or len(terms) <= 2:
            return terms
        df = {}
        for t in terms:
            if t not in self._df:
                if len(self._df) > 50_000:
                    self._df.clear()
                self._df[t] = self._db.execute(
                    "SELECT count(*) FROM fts WHERE fts MATCH ?", ('"' + t.replace('"', "") + '"',)
                ).fetchone()[0]
            df[t] = self._df[t]
        keep = [t for t in terms if df[t] <= COMMON_TERM_SHARE * total]
        rarest = sorted(terms, key=lambda t: df[t])[:2]
        return keep if len(keep) >= 2 else [t for t in terms if t in rarest]

    def _doc_rows(
        self, ids: list[int], collections: Sequence[str] | None
    ) -> dict[int, tuple[str, str, str, str, float]]:
        if not ids:
            return {}
        sql = f"SELECT id, key, url, title, collection, prior FROM docs WHERE id IN ({_marks(ids)})"
        params: list[Any] = list(ids)
        if collections:
            sql += f" AND collection IN ({_marks(collections)})"
            params.extend(collections)
        return {r[0]: tuple(r[1:]) for r in self._db.execute(sql, params)}  # type: ignore[misc]

    def _section_rows(self, ids: list[int]) -> dict[int, tuple[str, int, str, str]]:
        if not ids:
            return {}
        sql = f"SELECT id, heading, level, anchor, text FROM secs WHERE id IN ({_marks(ids)})"
        return {r[0]: tuple(r[1:]) for r in self._db.execute(sql, ids)}  # type: ignore[misc]

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


def _snippet(text: str, terms: list[str], width: int = 220) -> str:
    """The window of `text` richest in query terms, as one sanitised line.

    One regex pass finds every term occurrence; the window is anchored at the occurrence with
    the most others within `width` characters (linear, so long sections stay cheap).
    """
    text = text[:20_000]  # a snippet never needs more; keeps huge sections cheap
    prose = "\n".join(line for line in text.splitlines() if not line.startswith(("```", "    ")))
    flat = " ".join(prose.split())
    if len(flat) <= width:
        return sanitize_external(flat, width)
    pattern = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True) if t)
    positions = [m.start() for m in re.finditer(pattern, flat, re.IGNORECASE)] if pattern else []
    best_pos, best_count, j = 0, 0, 0
    for i, pos in enumerate(positions):
        while positions[j] < pos - width // 4:
            j += 1
        count = sum(1 for p in positions[j : i + 20] if p < pos + width)
        if count > best_count:
            best_pos, best_count = max(0, pos - width // 4), count
    best_pos = min(best_pos, max(0, len(flat) - width))
    piece = flat[best_pos : best_pos + width]
    prefix = "…" if best_pos else ""
    return sanitize_external(prefix + piece + "…", width + 2)


def index_path(index_dir: Path, kind: str, identity: str) -> Path:
    """Where the index for one source lives: one file per (kind, source) pair."""
    digest = hashlib.sha1(identity.encode()).hexdigest()[:12]
    return index_dir / f"{kind}-{digest}.sqlite"


def merge_rankings(
    rankings: Sequence[tuple[str, Sequence[Hit]]], limit: int = 10
) -> list[tuple[str, Hit]]:
    """One ranking from several indexes' results (e.g. docs and KB), tagged with their source.

    BM25 scores of different indexes are not on one scale (idf depends on each collection, and a
    small KB inflates its own scores), so the lists are interleaved by rank, in the order given:
    docs #1, KB #1, docs #2, KB #2, … Measured on the dev set this beat merging raw scores and
    merging scores scaled by each list's best.
    """
    merged: list[tuple[str, Hit]] = []
    depth = max((len(hits) for _, hits in rankings), default=0)
    for rank in range(depth):
        for source, hits in rankings:
            if rank < len(hits):
                merged.append((source, hits[rank]))
    return merged[:limit]
