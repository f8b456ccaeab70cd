"""The index on disk: one SQLite file of pages and sections, the lexical engine's files beside it.

Storage is one SQLite file (standard library, opens in milliseconds) of pages and sections, and
the tantivy indexes that score them (tools/search/lexical.py) in `<index>.tantivy/`, one
directory per generation; the SQLite file names the generation its rows belong to. Sync is
incremental: a changed file (by content hash) replaces only its own rows and its own tantivy
documents (deleted by page key, added again); deleted files drop theirs.
"""

from __future__ import annotations

import fcntl
import json
import math
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.search.analysis import LOOKUPS, PageRecord, file_state, match_target, page_suffixes
from tools.search.lexical import LexicalWriter, has_generation
from tools.search.records import (
    Document,
    LookupsChanged,
    Parser,
    Progress,
    Reader,
    SourceFile,
    SyncStats,
)
from tools.search.workers import Task, analysed
from tools.sources.records import Section
from tools.text import index_terms

# 43: pages read anew (MkDocs inlinehilite, keys, emoji, abbr, INHERIT, snippet auto_append and
# hidden text of included files; Docusaurus versions, spreads, mdx-code-block, heading comments;
# Sphinx conf.py setup() registrations, MyST object directives and currentmodule, Python object
# ids as Sphinx makes them; MkDocs indented code; code spans in headings; built sites' `_modules`). 42: pages read anew (readers fixed on unseen MkDocs, Sphinx and Docusaurus sites), and each
# Sphinx page's target lookups kept (`lookups`: read again when a target changes). 41: the files each page shows besides its own (`reads`: a page is read again when one
# changes). 40: pages read anew (Sphinx includes from the repository holding the docs, notebooks).
# 39: pages read anew (Sphinx cross-references as links, MyST pages, inline HTML as text,
# MkDocs include extensions, links to a folder's index page). 38: sections scored by tantivy
# (tools/search/lexical.py): no postings table, a generation row. 37: pages read by their
# site's profile (MkDocs, Sphinx, Docusaurus, built HTML: the site's URLs and anchors, extra
# section ids, clean text). 36: the hardening branch's hidden-text change.
SCHEMA_VERSION = 43
# Searches read the file through a memory map (a quarter faster than read calls); syncs and the
# one full scan that loads the scorer's arrays do not, so they do not map, and count as
# resident, the whole file.
MMAP_BYTES = 256 << 20


# Pages whose rows are written in one statement during a sync.
WRITE_BATCH = 64


def _reads_changed(reads_json: str | None, lookups_changed: LookupsChanged | None = None) -> bool:
    """Whether anything a page showed besides its own file changed since it was read.

    That is a file it read (changed, appeared or gone), or, when the source can tell
    (`lookups_changed`), a site-wide lookup it made (a Sphinx reference's target).
    """
    if not reads_json or reads_json == "{}":
        return False
    try:
        reads = json.loads(reads_json)
    except ValueError:
        return True
    lookups = reads.pop(LOOKUPS, None)
    if lookups and lookups_changed is not None and lookups_changed(lookups):
        return True
    return any(file_state(path) != list(state) for path, state in reads.items())


def marks(values: Sequence[Any]) -> str:
    """SQL placeholders for `values`."""
    return ",".join("?" * len(values))


@dataclass
class _Pending:
    """Changes gathered during one sync; the lexical engine's next generation, once one is due."""

    removed_secs: set[int] = field(default_factory=set)
    # Each replaced or dropped page's (links, prior, anchors), and each written page's links:
    # when no page came or went and no links changed, the priors need no recount.
    old_links: dict[str, tuple[str, float, str]] = field(default_factory=dict)
    new_links: dict[str, str] = field(default_factory=dict)
    lexical: LexicalWriter | None = None
    added_secs: list[int] = field(default_factory=list)
    doc_rows: list[tuple[Any, ...]] = field(default_factory=list)
    sec_rows: list[tuple[Any, ...]] = field(default_factory=list)


# A writer waits this long for another process's build (`make index` beside a server) to commit.
BUSY_TIMEOUT_S = 600.0
_process_locks: dict[str, threading.Lock] = {}
_process_locks_guard = threading.Lock()


@contextmanager
def build_lock(path: Path) -> Iterator[None]:
    """Hold the one writer's lock of an index, across threads and processes (`<path>.lock`).

    Why: a server's scheduled refresh and `make index` (or a second thread) may build the same
    source at once; they would fetch twice and their writes would wait on each other. The
    second builder waits here instead and then finds little left to do.
    """
    with _process_locks_guard:
        local = _process_locks.setdefault(str(path), threading.Lock())
    with local:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(f"{path}.lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


# The tables, dropped and created in one transaction when the schema version changes.
# Text last: SQLite reads a row up to the last column asked for, and ranking
# reads lengths and word pairs without wanting the (long) text. A page is read
# whole from its sections' rows; its text is stored once.
# `meta` holds the lexical engine's generation (`lexical_generation`, 0: none yet).
_SCHEMA = """
DROP TABLE IF EXISTS docs;
DROP TABLE IF EXISTS fts;
DROP TABLE IF EXISTS secs;
DROP TABLE IF EXISTS post;
DROP TABLE IF EXISTS tpost;
DROP TABLE IF EXISTS meta;
CREATE TABLE docs (
    id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, url TEXT, title TEXT,
    collection TEXT, prior REAL DEFAULT 0, hash TEXT,
    mtime REAL, size INTEGER, description TEXT, meta TEXT, links TEXT DEFAULT '{}',
    anchors TEXT DEFAULT '{}', reads TEXT DEFAULT '{}');
CREATE TABLE secs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, doc INTEGER NOT NULL, level INTEGER,
    blen INTEGER, hlen INTEGER, anchor TEXT, heading TEXT, pairs BLOB, prose TEXT,
    text TEXT);
CREATE INDEX secs_doc ON secs(doc);
CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID;
INSERT INTO meta VALUES ('lexical_generation', 0);
"""


def lexical_root(db_path: Path) -> Path:
    """The directory of an index's tantivy generations, beside its SQLite file."""
    return db_path.with_suffix(".tantivy")


class IndexStore:
    """One SQLite connection and everything that reads or writes its tables.

    Not thread-safe by itself: `SearchIndex` serialises calls. A sync runs on a connection of
    its own (`SearchIndex.sync`) in one transaction, so readers keep their snapshot until it
    commits, then see the whole new index at once: SQLite's own atomic swap (WAL mode).
    """

    def __init__(self, db_path: Path, read_only: bool = False) -> None:
        self.db_path = db_path
        self.lexical_root = lexical_root(db_path)
        self.read_only = read_only
        if read_only:
            # A published generation (tools/search/snapshot.py): never written, so opened
            # without locks or a log, which shared and network storage do not offer.
            self.db = sqlite3.connect(
                f"file:{db_path}?mode=ro&immutable=1", uri=True, check_same_thread=False
            )
        else:
            db_path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(db_path), check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        self._lexical: LexicalWriter | None = None
        self._inherit = True
        if not read_only:
            self._init_schema()

    def close(self) -> None:
        """Close the connection (a writer's, after its sync)."""
        self.db.close()

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the file and truncate it, after a sync.

        Why: SQLite leaves the log at its largest size, and a build's log is as large as the
        index it wrote (issue 34: disk ≈ 2× the data). A reader still in an older snapshot
        only makes it wait for that reader (or leave the log for the next checkpoint).
        """
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    @contextmanager
    def snapshot(self) -> Iterator[int]:
        """One read transaction: every read inside sees the same committed index.

        Yields the file's data version, which changes whenever another connection (another
        process's `make index`, this process's writer) has committed since: the cue to reload
        what was computed from the old contents.
        """
        if self.db.in_transaction:  # nested in an outer snapshot: that one holds
            yield int(self.db.execute("PRAGMA data_version").fetchone()[0])
            return
        self.db.execute("BEGIN")
        try:
            self.db.execute("SELECT 1 FROM docs LIMIT 1").fetchall()  # the snapshot starts here
            yield int(self.db.execute("PRAGMA data_version").fetchone()[0])
        finally:
            self.db.commit()

    def _init_schema(self) -> None:
        if self.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        # One transaction, the version checked again inside it: a reader never sees the tables
        # dropped and not yet created, and two processes opening a new file create them once.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if self.db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            self.db.rollback()
            raise
        self.db.commit()

    @contextmanager
    def unmapped(self) -> Iterator[None]:
        """Turn the connection's memory map off for the duration (see MMAP_BYTES)."""
        self.db.execute("PRAGMA mmap_size=0")
        try:
            yield
        finally:
            self.db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")

    # -- sync ----------------------------------------------------------------------------------

    def sync(
        self,
        files: Iterable[SourceFile],
        read: Reader,
        parse: Parser,
        progress: Progress | None = None,
        workers: int | None = None,
        lookups_changed: LookupsChanged | None = None,
    ) -> SyncStats:
        """Bring the tables in line with `files`: re-read changed ones (by content hash), drop gone ones.

        An unchanged file is read again when something it shows changed (`_reads_changed`).

        Changed files are analysed in `workers` processes when there are many (see
        `tools.search.workers`); their rows are written in batches as they come, and their terms
        go to the lexical engine's next generation (tools/search/lexical.py) before SQLite commits.
        """
        start = time.perf_counter()
        stats = SyncStats()
        with self.unmapped():
            try:
                # The write transaction starts before the stored pages are read: what is
                # compared with the files is what this sync then changes.
                self.db.execute("BEGIN IMMEDIATE")
                pending = self._sync(files, read, parse, progress, workers, stats, lookups_changed)
            except BaseException:
                self.db.rollback()  # a failed sync leaves the index as it was
                if self._lexical is not None:
                    self._lexical.discard()
                raise
            finally:
                self._lexical = None
        # The section changes, for stores kept beside this index (section vectors).
        stats.sections_removed = sorted(pending.removed_secs)
        stats.sections_added = pending.added_secs
        stats.seconds = time.perf_counter() - start
        return stats

    def _sync(
        self,
        files: Iterable[SourceFile],
        read: Reader,
        parse: Parser,
        progress: Progress | None,
        workers: int | None,
        stats: SyncStats,
        lookups_changed: LookupsChanged | None = None,
    ) -> _Pending:
        """The body of `sync`, inside its transaction."""
        known = {
            row[0]: (row[1], row[2], row[3], row[4])
            for row in self.db.execute("SELECT key, mtime, size, hash, reads FROM docs")
        }
        pending = _Pending()
        self._lexical = None
        self._inherit = has_generation(self.lexical_root, self.generation())
        if not self._inherit:
            # The engine's files are gone (deleted by hand) or of other fields: every page is
            # indexed again, into a generation that starts empty.
            for key in known:
                self._delete(key, pending)
            known = {}
        seen: set[str] = set()
        tasks: list[Task] = []
        for f in files:
            seen.add(f.key)
            old = known.get(f.key)
            if old and old[0] == f.mtime and old[1] == f.size:
                if _reads_changed(old[3], lookups_changed):
                    # The page is the same but a file it shows changed: read it again (an
                    # empty digest matches no content, so the page is replaced, not skipped).
                    tasks.append((f, ""))
                else:
                    stats.unchanged += 1
            else:
                tasks.append((f, old[2] if old else None))
        next_doc, next_sec = self._next_ids()
        # Closed on the way out, error or not: that stops any worker processes.
        with closing(analysed(tasks, read, parse, workers)) as records:
            for n, ((f, old_digest), record) in enumerate(zip(tasks, records, strict=True), 1):
                if record is None:
                    self.db.execute(
                        "UPDATE docs SET mtime=?, size=? WHERE key=?", (f.mtime, f.size, f.key)
                    )
                    stats.unchanged += 1
                else:
                    if old_digest is not None:
                        self._delete(f.key, pending)
                        stats.updated += 1
                    else:
                        stats.added += 1
                    self._add(record, next_doc, next_sec, pending)
                    next_doc += 1
                    next_sec += len(record.sections)
                    if len(pending.doc_rows) >= WRITE_BATCH:
                        self._write_rows(pending)
                if progress and (n % 100 == 0 or n == len(tasks)):
                    progress(n, len(tasks))
        self._write_rows(pending)
        for key in set(known) - seen:
            self._delete(key, pending)
            stats.removed += 1
        lexical = self._lexical
        if lexical is not None:
            lexical.commit()
            self.db.execute(
                "UPDATE meta SET value=? WHERE name='lexical_generation'", (lexical.generation,)
            )
            if (
                stats.added
                or stats.removed
                or any(
                    pending.old_links.get(key, ("",))[0] != links
                    for key, links in pending.new_links.items()
                )
            ):
                self._update_priors()
            else:
                self._keep_priors(pending)
        self.db.commit()
        if lexical is not None:
            lexical.prune()  # after the commit: a reader may still open the one before
        return pending

    def _lexical_writer(self) -> LexicalWriter:
        """The next generation's writer, opened at the sync's first change."""
        if self._lexical is None:
            self._lexical = LexicalWriter(self.lexical_root, self.generation(), self._inherit)
        return self._lexical

    def _next_ids(self) -> tuple[int, int]:
        """The next page id (as SQLite would choose it) and the next section id (never reused)."""
        doc = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM docs").fetchone()[0]
        seq = self.db.execute("SELECT seq FROM sqlite_sequence WHERE name='secs'").fetchone()
        top = self.db.execute("SELECT coalesce(max(id), 0) FROM secs").fetchone()[0]
        return int(doc), max(int(seq[0]) if seq else 0, int(top)) + 1

    def _delete(self, key: str, pending: _Pending) -> None:
        row = self.db.execute(
            "SELECT id, links, prior, anchors FROM docs WHERE key=?", (key,)
        ).fetchone()
        if not row:
            return
        doc_id = row[0]
        pending.old_links[key] = (row[1] or "{}", row[2] or 0.0, row[3] or "{}")
        pending.removed_secs.update(
            r[0] for r in self.db.execute("SELECT id FROM secs WHERE doc=?", (doc_id,))
        )
        self._lexical_writer().delete(key)
        self.db.execute("DELETE FROM secs WHERE doc=?", (doc_id,))
        self.db.execute("DELETE FROM docs WHERE id=?", (doc_id,))

    def _add(self, record: PageRecord, doc_id: int, first_sec: int, pending: _Pending) -> None:
        """Queue a page's rows and add its documents to the lexical engine, under the ids given."""
        pending.new_links[record.key] = record.links_json or "{}"
        pending.doc_rows.append(
            (
                doc_id,
                record.key,
                record.url,
                record.title,
                record.description,
                record.collection,
                record.digest,
                record.mtime,
                record.size,
                record.meta_json,
                record.links_json,
                record.reads_json,
            )
        )
        for i, s in enumerate(record.sections):
            sec_id = first_sec + i
            pending.added_secs.append(sec_id)
            pending.sec_rows.append(
                (
                    sec_id,
                    doc_id,
                    s.heading,
                    s.level,
                    s.anchor,
                    s.text,
                    s.blen,
                    s.hlen,
                    s.pairs,
                    s.prose,
                )
            )
        self._lexical_writer().add(
            record.key,
            doc_id,
            " ".join(record.title_terms),
            [
                (first_sec + i, s.body_terms, s.anchor_terms, s.head_terms)
                for i, s in enumerate(record.sections)
            ],
        )

    def _write_rows(self, pending: _Pending) -> None:
        """Write the queued page and section rows."""
        self.db.executemany(
            "INSERT INTO docs(id,key,url,title,description,collection,hash,mtime,size,meta,links,"
            "reads) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            pending.doc_rows,
        )
        self.db.executemany(
            "INSERT INTO secs(id,doc,heading,level,anchor,text,blen,hlen,pairs,prose)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            pending.sec_rows,
        )
        pending.doc_rows.clear()
        pending.sec_rows.clear()

    def _keep_priors(self, pending: _Pending) -> None:
        """Give rewritten pages back their prior and anchor field: no link in the corpus changed.

        Why: recounting every page's inbound links reads every page's link list (a quarter of
        a second at 5,000 pages, growing with the corpus), and an edit that leaves the links as
        they were (most edits) changes no page's count. Links are matched by path suffix, so
        with no page added or removed every link still resolves to the same page.
        """
        self.db.executemany(
            "UPDATE docs SET prior=?, anchors=? WHERE key=?",
            [
                (prior, anchors, key)
                for key, (_, prior, anchors) in pending.old_links.items()
                if key in pending.new_links
            ],
        )

    def _update_priors(self) -> None:
        """Recompute each page's prior from how many other pages link to it, and its anchor field.

        Why: a page the docs themselves point to often (the streaming guide, the graph API
        reference) is the canonical answer more often than a leaf page that merely mentions the
        same words, such as one of hundreds of integration pages. The words other pages link
        to it with are its anchor field (tools/search/anchors.py): each term counted once per
        linking page. Reads only the stored link lists, so one changed page costs
        milliseconds, not a re-parse of the corpus.
        """
        rows = self.db.execute("SELECT id, key, links FROM docs").fetchall()
        by_suffix = page_suffixes((doc_id, key) for doc_id, key, _ in rows)
        inbound: dict[int, int] = {}
        anchors: dict[int, Counter[str]] = {}
        for doc_id, _, links in rows:
            targets: dict[int, set[str]] = {}
            for link, words in json.loads(links or "{}").items():
                target = match_target(link, by_suffix)
                if target is not None:
                    targets.setdefault(target, set()).update(index_terms(words))
            targets.pop(doc_id, None)
            for target, terms in targets.items():
                inbound[target] = inbound.get(target, 0) + 1
                anchors.setdefault(target, Counter()).update(terms)
        self.db.executemany(
            "UPDATE docs SET prior=?, anchors=? WHERE id=?",
            [
                (math.log1p(inbound.get(doc_id, 0)), json.dumps(anchors.get(doc_id, {})), doc_id)
                for doc_id, _, _ in rows
            ],
        )

    # -- reads ---------------------------------------------------------------------------------

    def count(self) -> int:
        """How many pages are stored."""
        return int(self.db.execute("SELECT count(*) FROM docs").fetchone()[0])

    def generation(self) -> int:
        """The lexical engine's generation these rows belong to (0: nothing indexed yet)."""
        row = self.db.execute("SELECT value FROM meta WHERE name='lexical_generation'").fetchone()
        return int(row[0]) if row else 0

    def best_sections(self, ids: list[int], with_prose: bool) -> dict[int, tuple[Any, ...]]:
        """(heading, level, anchor, prose, pair codes) of sections by id, in one query."""
        prose = "prose" if with_prose else "''"
        return {
            r[0]: r[1:]
            for r in self.db.execute(
                f"SELECT id, heading, level, anchor, {prose}, pairs FROM secs"
                f" WHERE id IN ({marks(ids)})",
                ids,
            )
        }

    def section_texts(self, ids: Sequence[int]) -> list[tuple[int, str, str, str]]:
        """(section id, page key, heading, text) of the sections with these ids, by id."""
        out: list[tuple[int, str, str, str]] = []
        ids = list(ids)
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            out.extend(
                self.db.execute(
                    "SELECT secs.id, docs.key, secs.heading, secs.text FROM secs"
                    f" JOIN docs ON docs.id = secs.doc WHERE secs.id IN ({marks(chunk)})"
                    " ORDER BY secs.id",
                    chunk,
                )
            )
        return out

    def get(self, key: str) -> Document | None:
        """A stored page by key."""
        row = self.db.execute(
            "SELECT id,key,url,title,description,collection,meta FROM docs WHERE key=?", (key,)
        ).fetchone()
        return self._document(row) if row else None

    def find(self, ref: str) -> Document | None:
        """A page by URL (with or without trailing slash) or path without extension."""
        row = self.db.execute(
            "SELECT id,key,url,title,description,collection,meta FROM docs"
            " WHERE url=? OR url=? OR key LIKE ? OR key LIKE ? ORDER BY length(key) LIMIT 1",
            (ref, ref + "/", ref + ".%", "%/" + ref.lstrip("/") + ".%"),
        ).fetchone()
        return self._document(row) if row else None

    def _document(self, row: Sequence[Any]) -> Document:
        doc_id, key, url, title, description, collection, meta = row
        sections = [
            Section(*r)
            for r in self.db.execute(
                "SELECT heading, level, text, anchor FROM secs WHERE doc=? ORDER BY id", (doc_id,)
            )
        ]
        return Document(
            key, url, title, description or "", collection or "", sections, json.loads(meta)
        )

    def address(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        """A page's URL and every id its sections serve (anchors, then their extra ids)."""
        row = self.db.execute("SELECT id, url, meta FROM docs WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        doc_id, url, meta = row
        anchors = [
            r[0]
            for r in self.db.execute("SELECT anchor FROM secs WHERE doc=? ORDER BY id", (doc_id,))
        ]
        try:
            extra = json.loads(json.loads(meta or "{}").get("section_ids") or "{}")
        except (ValueError, TypeError, AttributeError):
            extra = {}
        if isinstance(extra, dict):
            anchors += [str(i) for ids in extra.values() if isinstance(ids, list) for i in ids]
        return url, tuple(dict.fromkeys(a for a in anchors if a))

    def keys(self) -> list[str]:
        """Every stored key, sorted."""
        return [r[0] for r in self.db.execute("SELECT key FROM docs ORDER BY key")]

    def priors(self) -> dict[str, float]:
        """Each page's link prior, ln(1 + inbound links), by key."""
        return dict(self.db.execute("SELECT key, prior FROM docs").fetchall())

    def collections(self) -> list[str]:
        """Distinct non-empty collections, sorted."""
        return [
            r[0] for r in self.db.execute("SELECT DISTINCT collection FROM docs ORDER BY 1") if r[0]
        ]
