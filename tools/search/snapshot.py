"""One index for every replica: immutable generations of the index files, published by one writer.

Why: the live index (SQLite in WAL mode, tantivy generations, vector files) is safe for one
machine's processes, but SQLite's write-ahead log needs shared memory that network and object
storage do not offer, and every replica building its own index costs each of them the build.
So one writer (`make index` with `--publish DIR`, or a build job) builds the index as usual,
then publishes a copy that no one ever writes again:

    DIR/CURRENT                         the name of the current generation ("g000007")
    DIR/generations/g000007/            one generation: every index file, complete
        MANIFEST.json                   what it holds (sources, pages, files and sizes)
        docs-<id>.sqlite                SQLite copies (VACUUM INTO: compact, no log)
        docs-<id>.tantivy/g00000042/    the lexical generation those rows name
        docs-<id>.vectors.sqlite        the section vectors' rows
        docs-<id>.vectors.i8, .scale    the vectors themselves (only the live slots' prefix)

A generation is written under a temporary name, renamed whole, and only then named by
`CURRENT` (written beside and renamed over it): a reader sees a whole generation or the one
before. Readers (`DOCS_AGENT_INDEX_DIR=DIR` on any number of servers and machines) open the
files read-only and immutable (no lock, no log), look at `CURRENT` on every search (one
`stat`), and open the new generation when it changes: no restart. The newest `KEEP`
generations are kept, so a reader between two looks is never left without its files.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CURRENT = "CURRENT"
GENERATIONS = "generations"
MANIFEST = "MANIFEST.json"
# Generations kept after a publish: the new one, the one readers may still be reading, and one
# more for a reader that looked just before the switch and opens its files just after.
KEEP = 3


def is_snapshot(folder: Path) -> bool:
    """Whether an index folder is a published snapshot (read-only) rather than a live index."""
    return (folder / CURRENT).is_file()


def current_generation(root: Path) -> str:
    """The name of the current generation ("" when none is published)."""
    try:
        return (root / CURRENT).read_text().strip()
    except OSError:
        return ""


def generation_path(root: Path, name: str) -> Path:
    """Where a generation's files are."""
    return root / GENERATIONS / name


class SnapshotFollower:
    """Which generation a reader should read now: `CURRENT`, looked at by one `stat` per call.

    Shared by every store of a process that reads the same snapshot folder (`follower`).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None
        self._name = ""

    def current(self) -> str:
        """The current generation's name; re-read only when `CURRENT` was replaced."""
        try:
            st = os.stat(self.root / CURRENT)
            seen = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            return self._name
        with self._lock:
            if seen != self._seen:
                name = current_generation(self.root)
                if name and generation_path(self.root, name).is_dir():
                    self._name, self._seen = name, seen
            return self._name

    def path(self, file_name: str) -> Path:
        """The current generation's copy of an index file (by its name in the live folder)."""
        return generation_path(self.root, self.current()) / file_name


_followers: dict[Path, SnapshotFollower] = {}
_followers_lock = threading.Lock()


def follower(root: Path) -> SnapshotFollower:
    """The process's follower of a snapshot folder."""
    root = root.resolve()
    with _followers_lock:
        if root not in _followers:
            _followers[root] = SnapshotFollower(root)
        return _followers[root]


def read_only_uri(path: Path) -> str:
    """The SQLite URI of an immutable file: no lock, no log, safe on shared storage."""
    return f"file:{path}?mode=ro&immutable=1"


# -- publishing ----------------------------------------------------------------------------------


@dataclass
class PublishedIndex:
    """One source's index as it goes into a generation: its SQLite file and what is beside it."""

    name: str
    db_path: Path
    lexical_root: Path
    vectors_path: Path | None
    pages: int


def _copy_sqlite(source: Path, target: Path) -> sqlite3.Connection:
    """A compact, self-contained copy of a (WAL) SQLite file, opened read-only for its meta."""
    db = sqlite3.connect(str(source), timeout=600.0)
    try:
        db.execute("VACUUM INTO ?", (str(target),))
    finally:
        db.close()
    db = sqlite3.connect(str(target))
    try:
        db.execute("PRAGMA journal_mode=DELETE")  # a plain file: no log beside it, ever
    finally:
        db.close()
    return sqlite3.connect(read_only_uri(target), uri=True)


def _link_or_copy(source: Path, target: Path, length: int | None = None) -> None:
    """A hard link (same file system, file never rewritten), else a copy of its first `length` bytes."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
        return
    except OSError:
        pass
    with open(source, "rb") as src, open(target, "wb") as dst:
        if length is None:
            shutil.copyfileobj(src, dst, 1 << 20)
        else:
            left = length
            while left > 0:
                chunk = src.read(min(left, 1 << 20))
                if not chunk:
                    break
                dst.write(chunk)
                left -= len(chunk)


def _copy_tree(source: Path, target: Path) -> None:
    for dirpath, _, files in os.walk(source):
        folder = target / Path(dirpath).relative_to(source)
        folder.mkdir(parents=True, exist_ok=True)
        for name in files:
            if name.endswith(".lock"):
                # tantivy's readers take its meta lock file: there already, a reader creates
                # nothing in the generation (its folder may still need to be writable for the
                # lock itself, docs/deploy.md).
                (folder / name).touch()
            else:
                _link_or_copy(Path(dirpath) / name, folder / name)


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def publish(root: Path, indexes: Sequence[PublishedIndex]) -> str:
    """Write a new generation of `indexes` under `root` and make it current; its name.

    The caller holds each index's build lock (no sync changes it meanwhile).
    """
    root.mkdir(parents=True, exist_ok=True)
    (root / GENERATIONS).mkdir(exist_ok=True)
    existing = sorted(p.name for p in (root / GENERATIONS).iterdir() if p.name[1:].isdigit())
    number = int(existing[-1][1:]) + 1 if existing else 1
    name = f"g{number:06d}"
    staging = root / GENERATIONS / f".{name}.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    manifest: dict[str, Any] = {"generation": name, "created": time.time(), "indexes": []}
    for index in indexes:
        entry: dict[str, Any] = {"name": index.name, "pages": index.pages, "files": {}}
        copy = _copy_sqlite(index.db_path, staging / index.db_path.name)
        try:
            row = copy.execute("SELECT value FROM meta WHERE name='lexical_generation'").fetchone()
        finally:
            copy.close()
        lexical = int(row[0]) if row else 0
        if lexical:
            folder = f"g{lexical:08d}"
            target = staging / index.lexical_root.name / folder
            _copy_tree(index.lexical_root / folder, target)
            for meta in target.rglob("meta.json"):
                (meta.parent / ".tantivy-meta.lock").touch()  # what a reader would create
        if index.vectors_path is not None and index.vectors_path.is_file():
            copy = _copy_sqlite(index.vectors_path, staging / index.vectors_path.name)
            try:
                stored = dict(copy.execute("SELECT k, v FROM meta").fetchall())
            finally:
                copy.close()
            slots, dim = int(stored.get("slots") or 0), int(stored.get("dim") or 0)
            base = index.vectors_path.with_suffix("")
            for suffix, width in ((".i8", dim), (".scale", 4)):
                source = base.with_name(base.name + suffix)
                if source.is_file():
                    _link_or_copy(source, staging / source.name, slots * width)
        for item in sorted(staging.iterdir()):
            if item.name.startswith(index.db_path.stem):
                entry["files"][item.name] = _size(item)
        manifest["indexes"].append(entry)
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=1))
    os.replace(staging, root / GENERATIONS / name)
    pointer = root / f".{CURRENT}.tmp"
    with open(pointer, "w") as handle:
        handle.write(name + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(pointer, root / CURRENT)
    prune(root)
    return name


def prune(root: Path, keep: int = KEEP) -> list[str]:
    """Remove all but the newest `keep` generations (and failed staging folders); their names."""
    folder = root / GENERATIONS
    names = sorted(p.name for p in folder.iterdir() if p.name[1:].isdigit())
    gone = [n for n in names[:-keep] if n != current_generation(root)]
    for name in gone:
        shutil.rmtree(folder / name, ignore_errors=True)
    for stale in folder.glob(".*.tmp"):
        shutil.rmtree(stale, ignore_errors=True)
    return gone
