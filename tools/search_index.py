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

SCHEMA_VERSION = 3
# Column weights for bm25(): title, headings, description+path, body.
WEIGHTS = (8.0, 3.0, 4.0, 1.0)


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

    def _init_schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            self._db.executescript(
                """
                DROP TABLE IF EXISTS docs;
                DROP TABLE IF EXISTS fts;
                CREATE TABLE docs (
                    id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, url TEXT, title TEXT,
                    description TEXT, collection TEXT, hash TEXT, mtime REAL, size INTEGER,
                    sections TEXT, meta TEXT);
                CREATE VIRTUAL TABLE fts USING fts5(
                    title, headings, extra, body, tokenize='porter unicode61');
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
                if progress and (n % 100 == 0 or n == len(todo)):
                    progress(n, len(todo))
            for key in set(known) - seen:
                self._delete(key)
                stats.removed += 1
            self._db.commit()
        stats.seconds = time.perf_counter() - start
        return stats

    def _delete(self, key: str) -> None:
        row = self._db.execute("SELECT id FROM docs WHERE key=?", (key,)).fetchone()
        if row:
            self._db.execute("DELETE FROM fts WHERE rowid=?", (row[0],))
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
            "INSERT INTO docs(key,url,title,description,collection,hash,mtime,size,sections,meta)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            (f.key, url, page.title, page.description, collection, digest, f.mtime, f.size,
             json.dumps(sections), json.dumps(meta, default=str)),
        )
        headings = " \n".join(s.heading for s in page.sections if s.level > 0)
        path_words = f.key.rsplit(".", 1)[0].replace("/", " ").replace("-", " ")
        body = "\n".join(s.text for s in page.sections)
        self._db.execute(
            "INSERT INTO fts(rowid,title,headings,extra,body) VALUES (?,?,?,?,?)",
            (cur.lastrowid, expand_for_index(page.title), expand_for_index(headings),
             expand_for_index(f"{page.description}\n{path_words}"), expand_for_index(body)),
        )

    # -- reading -------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        limit: int = 10,
        collections: Sequence[str] | None = None,
        weights: Sequence[float] = WEIGHTS,
    ) -> list[Hit]:
        """Rank pages for a free-text query; the best-matching section and a snippet come with each."""
        terms = query_terms(query)
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', "") + '"' for t in terms)
        sql = (
            "SELECT d.key, d.url, d.title, d.collection, bm25(fts, ?, ?, ?, ?) AS score, d.sections"
            " FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ?"
        )
        params: list[Any] = [*weights, match]
        if collections:
            sql += " AND d.collection IN (%s)" % ",".join("?" * len(collections))
            params.extend(collections)
        sql += " ORDER BY score LIMIT ?"
        params.append(max(1, limit))
        with self._lock:
            try:
                rows = self._db.execute(sql, params).fetchall()
            except sqlite3.OperationalError as exc:
                log.warning("search failed for %r: %s", query, exc)
                return []
        hits = []
        for key, url, title, collection, score, sections in rows:
            hit = Hit(key, url, title, collection, -float(score))
            _best_section(hit, json.loads(sections), terms)
            hits.append(hit)
        return hits

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


def _document(row: Sequence[Any]) -> Document:
    key, url, title, description, collection, sections, meta = row
    secs = [Section(s["h"], s["l"], s["t"], s["a"]) for s in json.loads(sections)]
    return Document(key, url, title, description or "", collection or "", secs, json.loads(meta))


def _best_section(hit: Hit, sections: list[dict[str, Any]], terms: list[str]) -> None:
    """Pick the section with most query terms (heading hits count double) and a snippet from it."""
    best, best_score = None, 0.0
    for s in sections:
        heading = s["h"].lower()
        text = s["t"].lower()
        score = sum(2.0 * (t in heading) + min(text.count(t), 5) * 0.5 for t in terms)
        if score > best_score:
            best, best_score = s, score
    if best is None:
        best = sections[0] if sections else None
    if best is None:
        return
    hit.section = best["h"] if best["l"] > 0 else ""
    hit.anchor = best["a"]
    hit.snippet = _snippet(best["t"], terms)


def _snippet(text: str, terms: list[str], width: int = 220) -> str:
    """The window of `text` richest in query terms, as one sanitised line."""
    prose = "\n".join(line for line in text.splitlines() if not line.startswith(("```", "    ")))
    flat = " ".join(prose.split())
    if len(flat) <= width:
        return sanitize_external(flat, width)
    lower = flat.lower()
    best_pos, best_score = 0, -1
    for pos in range(0, max(1, len(flat) - width), 40):
        window = lower[pos : pos + width]
        score = sum(window.count(t) for t in terms)
        if score > best_score:
            best_pos, best_score = pos, score
    piece = flat[best_pos : best_pos + width]
    prefix = "…" if best_pos else ""
    return sanitize_external(prefix + piece + "…", width + 2)


def index_path(index_dir: Path, kind: str, identity: str) -> Path:
    """Where the index for one source lives: one file per (kind, source) pair."""
    digest = hashlib.sha1(identity.encode()).hexdigest()[:12]
    return index_dir / f"{kind}-{digest}.sqlite"
