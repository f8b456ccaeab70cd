"""Build the docs and KB search indexes before the first question: from the CLI, or at server start.

    python -m tools.build_index             # `make index`: a progress bar per source, then a summary
    python -m tools.build_index --publish DIR   # the same, then a snapshot every replica reads
    python -m tools.build_index --refresh   # `make refresh`: re-check the live sources now

Every command reads the same settings: the environment and `.env` (settings/dotenv.py), as the
server does, so `make index` builds the index of the sources the server is configured with.

The indexes live on disk (`DOCS_AGENT_INDEX_DIR`) and are brought up to date incrementally, so a
prebuilt one is only checked (file sizes and times) when a server opens it. Lexical first: every
source's lexical index is built before any section vectors are embedded (their own progress bar
follows), and a server answers from the lexical index while its vectors fill in behind.
`--publish DIR` writes the built index as a new generation of a snapshot folder that any number
of servers open read-only with `DOCS_AGENT_INDEX_DIR=DIR` (tools/search/snapshot.py). When a server process
loads the graphs, `warm_up()` starts the same build in a background thread, so the build runs
while the server starts rather than inside a user's first run; a question that arrives before it
finishes waits for that build (it never starts a second one). `DOCS_AGENT_WARM_UP=false` turns
the background build off; the lazy build on first use stays as the fallback either way. After
the warm-up, a server refreshes its live sources (an llms.txt site, a help center) on a schedule
(`DOCS_AGENT_REFRESH_S`, sooner when one failed): a site edit is seen within one period, and a
site that was down at start is retried.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from settings.dotenv import SERVER_MODULES
from settings.sources import SourceSettings
from tools import Sources, load_sources
from tools.codebase.symbols import symbol_index
from tools.search import SyncStats
from tools.sources.contract import (
    IndexedSource,
    KnowledgeBase,
    LiveSource,
    PublishedSource,
    ReportsStatus,
)

log = logging.getLogger(__name__)

_started = threading.Event()
# How often the schedule looks at its sources (each says whether it is due: `refresh_due`).
REFRESH_TICK_S = 1.0


def indexed_sources(sources: Sources) -> list[tuple[str, IndexedSource]]:
    """The sources that keep a local search index, by name (a help-center API keeps none)."""
    out: list[tuple[str, IndexedSource]] = []
    for name, backend in (("docs", sources.docs), ("kb", sources.kb)):
        if isinstance(backend, IndexedSource):
            out.append((name, backend))
    return out


def published_sources(sources: Sources) -> list[tuple[str, PublishedSource]]:
    """The indexed sources whose index files are on this machine (sizes, vectors, snapshots)."""
    return [(n, b) for n, b in indexed_sources(sources) if isinstance(b, PublishedSource)]


def warm_up(sources: Sources | None = None) -> threading.Thread | None:
    """Start the index build in a daemon thread, once per server process; None when not started.

    Only inside a server (langgraph-api or Aegra has loaded the graphs): tests and scripts that
    import the graphs keep the lazy build and start no threads.
    """
    if not (sources.settings if sources is not None else SourceSettings.from_env()).warm_up:
        return None  # DOCS_AGENT_WARM_UP=false (settings/sources.py)
    if not any(name in sys.modules for name in SERVER_MODULES) or _started.is_set():
        return None
    _started.set()
    thread = threading.Thread(
        target=_warm, args=(sources,), name="docs-agent-index-warm-up", daemon=True
    )
    thread.start()
    return thread


def _warm(sources: Sources | None) -> None:
    """Load what questions need, most needed first, so a question arriving meanwhile waits less.

    The lexical indexes, which every search reads; the code definitions, which the offline
    model's code step reads; then the section vectors, which only a weak lexical ranking (a
    question in another language) reads. The embedding model loads on a thread of its own from
    the first index check on (`FolderCorpus.ensure_synced`), as a cold build needs it.
    """
    start = time.perf_counter()
    try:
        sources = sources or load_sources()
        indexed = indexed_sources(sources)
        for _, backend in indexed:
            vectors = getattr(backend, "vectors", None)
            if vectors is not None:
                vectors.background = True  # lexical first: vectors fill in behind
        for name, backend in indexed:
            backend.load_lexical()
            log.info("%s index ready", name)
        if sources.code_roots:
            symbol_index(sources.code_roots)  # 0.2 s on this repository and langgraph
            log.info("code symbols ready")
        for _, backend in indexed:
            backend.load_vectors()
    except Exception:  # noqa: BLE001 — the lazy build on first use retries and reports to the user
        log.exception("index warm-up failed; the first search will build the index")
        return
    log.info("search indexes ready in %.1fs (background warm-up)", time.perf_counter() - start)
    refresh_forever(sources)


def live_sources(sources: Sources) -> list[tuple[str, LiveSource]]:
    """The sources that change upstream and refresh on a schedule (llms.txt site, help center)."""
    out: list[tuple[str, LiveSource]] = []
    for name, backend in (("docs", sources.docs), ("kb", sources.kb)):
        if isinstance(backend, LiveSource):
            out.append((name, backend))
    return out


def refresh_due_sources(sources: Sources, now: float | None = None) -> list[str]:
    """Refresh every live source whose time has come; the names of those refreshed.

    A failure is logged and tried again at the source's next due time: the schedule never
    stops, and a search meanwhile reads the index as it was.
    """
    done: list[str] = []
    for name, backend in live_sources(sources):
        if not backend.refresh_due(now):
            continue
        try:
            backend.refresh()
        except Exception:  # noqa: BLE001 — the next tick retries; searches keep the last index
            log.exception("scheduled refresh of %s failed", name)
        done.append(name)
    return done


def refresh_forever(sources: Sources, stop: threading.Event | None = None) -> None:
    """The server's schedule: look every REFRESH_TICK_S, refresh the sources that are due."""
    if not live_sources(sources) or sources.settings.live.refresh_s <= 0:
        return
    stop = stop or threading.Event()
    while not stop.wait(REFRESH_TICK_S):
        refresh_due_sources(sources)


class ProgressBar:
    """A one-line bar on a terminal; on anything else a line at every tenth, so logs stay short."""

    def __init__(self, label: str, out: TextIO | None = None, width: int = 30) -> None:
        self.label, self.out, self.width = label, out or sys.stderr, width
        self.tty = self.out.isatty()
        self.start = time.perf_counter()
        self._last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        """Progress callback of `sync`: `done` of `total` changed pages indexed."""
        if total <= 0:
            return
        frac = done / total
        elapsed = time.perf_counter() - self.start
        text = f"{self.label:<5} [{'#' * round(frac * self.width):<{self.width}}] {done}/{total} pages {elapsed:5.1f}s"
        if self.tty:
            self.out.write("\r" + text + ("\n" if done >= total else ""))
            self.out.flush()
        elif (tenth := int(frac * 10)) != self._last_tenth:
            self._last_tenth = tenth
            print(text, file=self.out)


def build(
    sources: Sources, progress: Callable[[str], Callable[[int, int], None]] | None = None
) -> dict[str, Any]:
    """Bring every local index up to date now; the sync statistics by source name.

    Every lexical index first, then the section vectors of each (`wait_for_vectors`).
    """
    indexed = indexed_sources(sources)
    for _, backend in indexed:
        vectors = getattr(backend, "vectors", None)
        if vectors is not None:
            vectors.background = True
    stats = {name: backend.sync(progress(name) if progress else None) for name, backend in indexed}
    wait_for_vectors(sources, progress)
    return stats


def wait_for_vectors(
    sources: Sources, progress: Callable[[str], Callable[[int, int], None]] | None = None
) -> None:
    """Wait for every source's background vector build, showing pages with vectors / pages."""
    for name, backend in published_sources(sources):
        vectors = getattr(backend, "vectors", None)
        if vectors is None:
            continue
        bar = progress(f"{name}+v") if progress else None
        total = len(backend.index)
        while not vectors.wait(timeout=1.0):
            if bar is not None:
                bar(min(vectors.page_count(), total), total)
        if bar is not None and total:
            bar(total, total)
        if vectors.failure:
            raise RuntimeError(f"{name} section vectors: {vectors.failure}")


def index_files(backend: Any) -> list[Path]:
    """The files and folders an indexed source keeps on disk (lexical index, vectors)."""
    files: list[Path] = list(backend.index.files())
    vectors = getattr(backend, "vectors", None)
    if vectors is not None:
        files += vectors.files()
    return files


def disk_bytes(paths: list[Path]) -> int:
    """Bytes on disk of files and folders (hard links inside a folder counted once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in paths:
        for item in [path] if path.is_file() else (path.rglob("*") if path.is_dir() else []):
            try:
                st = item.stat()
            except OSError:
                continue
            if item.is_file() and (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total


def size_report(sources: Sources) -> list[str]:
    """One line per indexed source: pages, bytes on disk in all and per page."""
    lines = []
    for name, backend in published_sources(sources):
        pages = len(backend.index)
        lexical = disk_bytes(list(backend.index.files()))
        vectors = getattr(backend, "vectors", None)
        vector_bytes = disk_bytes(vectors.files()) if vectors is not None else 0
        total = lexical + vector_bytes
        per_page = total / pages / 1024 if pages else 0.0
        lines.append(
            f"{name}: {pages} pages, {total / 1e6:.1f} MB on disk ({per_page:.1f} KB/page:"
            f" lexical {lexical / 1e6:.1f} MB, vectors {vector_bytes / 1e6:.1f} MB)"
        )
    return lines


def publish_snapshot(sources: Sources, root: Path) -> str:
    """Publish the built indexes as a new generation of the snapshot folder `root`; its name."""
    from tools.search.snapshot import PublishedIndex, publish
    from tools.search.storage import build_lock, lexical_root

    entries = []
    for name, backend in published_sources(sources):
        vectors = getattr(backend, "vectors", None)
        entries.append(
            PublishedIndex(
                name,
                backend.index.db_path,
                lexical_root(backend.index.db_path),
                vectors.path if vectors is not None else None,
                len(backend.index),
            )
        )
    with ExitStack() as stack:
        for entry in entries:
            stack.enter_context(build_lock(entry.db_path))
        return publish(root, entries)


def main(argv: list[str] | None = None) -> int:
    """CLI of `make index`: build with progress bars, print what changed and where it lives."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="re-check the live sources (llms.txt site, help center) now, conditional requests",
    )
    parser.add_argument(
        "--publish",
        type=Path,
        metavar="DIR",
        help="then write the index as a new generation of the snapshot folder DIR, which "
        "servers open read-only with DOCS_AGENT_INDEX_DIR=DIR (docs/deploy.md)",
    )
    args = parser.parse_args(argv)
    settings = SourceSettings.from_env()
    if args.publish is not None and args.publish.resolve() == settings.index_dir.resolve():
        print("--publish needs a folder other than DOCS_AGENT_INDEX_DIR.", file=sys.stderr)
        return 1
    sources = load_sources(settings)
    if args.refresh:
        code = refresh_now(sources)
        if code == 0 and args.publish is not None:
            wait_for_vectors(sources)
            print(f"published generation {publish_snapshot(sources, args.publish)}")
        return code
    if not indexed_sources(sources):
        print("No docs or KB folder is configured or present: nothing to index.", file=sys.stderr)
        return 1
    start = time.perf_counter()
    stats = build(sources, None if args.quiet else ProgressBar)
    for name, s in stats.items():
        print(
            f"{name}: {s.added} added, {s.updated} updated, {s.removed} removed, "
            f"{s.unchanged} unchanged ({s.seconds:.1f}s)"
        )
    report_live(sources)
    for warning in source_warnings(sources):
        print(f"WARNING: {warning}", file=sys.stderr)
    problems = source_problems(sources)
    for problem in problems:
        print(f"WARNING: {problem}", file=sys.stderr)
    if problems:
        print(
            "index built with the problems above: fix the source settings (docs/sources.md)",
            file=sys.stderr,
        )
        return 2
    for line in size_report(sources):
        print(line)
    print(f"index ready in {time.perf_counter() - start:.1f}s at {settings.index_dir}")
    if args.publish is not None:
        name = publish_snapshot(sources, args.publish)
        print(f"published generation {name} in {args.publish}")
    return 0


def report_live(sources: Sources) -> None:
    """Say what a live source could not do (kept its cached copy, reached a cap), on stderr."""
    for name, backend in live_sources(sources):
        problem, caps = backend.status() if isinstance(backend, ReportsStatus) else ("", [])
        for line in ([f"kept the cached copy: {problem}"] if problem else []) + caps:
            print(f"{name}: warning: {line}", file=sys.stderr)


def refresh_now(sources: Sources) -> int:
    """`--refresh`: refresh every live source now; a running server sees the new index at once."""
    live = live_sources(sources)
    if not live:
        print("No live source (llms.txt site or help center) is configured.", file=sys.stderr)
        return 1
    for name, backend in live:
        stats = backend.refresh()
        if isinstance(stats, SyncStats):
            print(
                f"{name}: {stats.added} added, {stats.updated} updated, {stats.removed} removed, "
                f"{stats.unchanged} unchanged"
            )
        else:
            print(f"{name}: refreshed")
    report_live(sources)
    return 0


def source_problems(sources: Sources) -> list[str]:
    """What the indexed sources say is wrong with them: 0 pages, files no reader takes.

    A source that yields nothing answers every question with "nothing found"; saying so here,
    with the folder and the formats found, is what lets its owner fix the setting.
    """
    out: list[str] = []
    settings = sources.settings
    for name, folder in (("docs", settings.docs_dir), ("kb", settings.kb_dir)):
        if (
            folder is not None
            and not folder.is_dir()
            and not (name == "docs" and settings.llms_txt_url)
        ):
            out.append(f"{name}: the configured folder {folder} does not exist")
    kb_dir = settings.kb_dir
    if kb_dir is not None and kb_dir.is_dir() and sources.kb is None and not settings.kb_url:
        # A KB folder with no article offers no KB tools at all: configured, it is an error.
        out.append(f"kb: {kb_dir.resolve()} yields 0 pages: no Markdown article (`*.md`) in it")
    for name, backend in indexed_sources(sources):
        report = getattr(backend, "report", None)
        if callable(report):
            out.extend(f"{name}: {problem}" for problem in report().problems)
    if settings.kb_url and sources.kb is not None and not isinstance(sources.kb, IndexedSource):
        out.extend(f"kb: {problem}" for problem in _api_problems(sources.kb))
    return out


def _api_problems(kb: KnowledgeBase) -> list[str]:
    """A help center that cannot be read, or lists nothing, yields no article: said as an error.

    `make index` keeps no index of it, so it is asked here once (its section list, the first
    thing every search reads).
    """
    try:
        collections = kb.list_collections()
    except Exception as exc:  # noqa: BLE001 — any failure is the source's, said in words
        return [f"the help center could not be read: {exc}"]
    return [] if collections else ["the help center lists no sections: no article to search"]


def source_warnings(sources: Sources) -> list[str]:
    """What the indexed sources were unsure of (no base URL, a config no generator here reads)."""
    out: list[str] = []
    for name, backend in indexed_sources(sources):
        report = getattr(backend, "report", None)
        if callable(report):
            out.extend(f"{name}: {warning}" for warning in report().warnings)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
