"""Pages read, hashed, parsed and analysed in worker processes during a large sync.

Why: parsing MDX and tokenising sections is most of a build's time, and pure Python, so one
process uses one core. A pool of processes analyses chunks of pages while the syncing process
writes the results; a bounded number of chunks is in flight, so memory holds a few dozen pages'
text, not the corpus, and results come back in the order given, so a build is the same as a
serial one (same ids, same postings).

A worker is a fresh interpreter that imports the parsers and numpy before its first page:
0.3 s of CPU with compiled bytecode, 0.6 s without (measured), what 30-120 pages cost to
analyse (5-10 ms each). So a sync starts one worker per `PAGES_PER_WORKER` pages to analyse (at
most one per core), which keeps the start-up near a tenth of the work it takes over; below two
workers' worth, the syncing process does the work itself (a pool of one would only add the
start-up).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Generator, Iterator
from typing import IO, Any

from tools.search.analysis import PageRecord, analyse_page
from tools.search.phrases import clear_hash_cache
from tools.search.records import Parser, Reader, SourceFile
from tools.text import clear_token_caches, token_cache_size

log = logging.getLogger(__name__)

# Below this many pages to read, the syncing process does the work itself, whatever the
# number of workers asked for.
MIN_PAGES = 200
# Pages to analyse per worker started by default: a worker's start-up (0.3-0.6 s of CPU,
# 30-120 pages' analysis) stays near a tenth of its share of the work.
PAGES_PER_WORKER = 600
# Pages per task, and tasks in flight per worker (the bound on pages held at once).
CHUNK = 16
IN_FLIGHT_PER_WORKER = 2
MAX_WORKERS = 8
# A worker clears its tokeniser caches past this many tokens: they grow with the vocabulary
# (about 50 MB per worker at 100,000 tokens) and a build's memory counts every worker; the
# common tokens are cached again within a chunk (measured: 10% more worker CPU, 20 MB less).
WORKER_CACHED_TOKENS = 20_000

# (file, digest it had when last indexed or None): the unit of work.
Task = tuple[SourceFile, str | None]


def default_workers() -> int:
    """One worker per core this process may use (at most MAX_WORKERS)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def workers_for(pages: int) -> int:
    """Workers worth starting for `pages` to analyse: one per `PAGES_PER_WORKER`, one per core.

    1 means the syncing process does the work itself.
    """
    return max(1, min(default_workers(), pages // PAGES_PER_WORKER))


def analyse_file(task: Task, read: Reader, parse: Parser) -> PageRecord | None:
    """A file's record, or None when its content hash is the one already indexed."""
    f, old_digest = task
    raw = read(f.key)
    digest = hashlib.sha256(raw).hexdigest()
    if digest == old_digest:
        return None
    page, url, collection = parse(f.key, raw)
    return analyse_page(f.key, f.mtime, f.size, digest, page, url, collection)


def analysed(
    tasks: list[Task], read: Reader, parse: Parser, workers: int | None = None
) -> Generator[PageRecord | None, None, None]:
    """`analyse_file` of each task, in order; in a process pool when it pays and can be done.

    `workers`: processes to use (default: `workers_for` the number of tasks). The pool needs
    `read` and `parse` to be picklable (functions or methods of picklable objects, no
    lambdas); otherwise, or for fewer than `MIN_PAGES` pages, the work is done here.
    """
    workers = workers_for(len(tasks)) if workers is None else workers
    if workers > 1 and len(tasks) >= MIN_PAGES and _picklable(read, parse):
        yield from _in_pool(tasks, read, parse, workers)
    else:
        for task in tasks:
            yield analyse_file(task, read, parse)


def _picklable(*objects: Any) -> bool:
    try:
        pickle.dumps(objects)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def _in_pool(
    tasks: list[Task], read: Reader, parse: Parser, workers: int
) -> Iterator[PageRecord | None]:
    """Chunks dealt round-robin to worker processes and read back in the same order."""
    chunks = [tasks[i : i + CHUNK] for i in range(0, len(tasks), CHUNK)]
    pool: list[_Worker] = []
    done = 0  # chunks whose records were handed out
    try:
        setup = pickle.dumps((read, parse, logging.getLogger().getEffectiveLevel()))
        pool = [_Worker() for _ in range(min(workers, len(chunks)))]
        for worker in pool:  # after every start: a worker reads its setup once it has started
            worker.setup(setup)
        sent = 0
        while done < len(chunks):
            while sent < len(chunks) and sent - done < len(pool) * IN_FLIGHT_PER_WORKER:
                pool[sent % len(pool)].send(chunks[sent])
                sent += 1
            records = pool[done % len(pool)].receive()
            done += 1
            yield from records
    except _WorkerFailed as exc:
        log.warning("index worker failed (%s); analysing the remaining pages here", exc)
        for chunk in chunks[done:]:
            for task in chunk:
                yield analyse_file(task, read, parse)
    finally:
        for worker in pool:
            worker.close()


class _WorkerFailed(Exception):
    """A worker process died or could not be started."""


class _Worker:
    """One worker process, spoken to through its stdin and stdout in length-prefixed pickles.

    A plain subprocess rather than `multiprocessing`: it re-imports nothing of the caller's
    main module (a script without an `if __name__ == "__main__"` guard still works) and forks
    nothing of a threaded server.
    """

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from tools.search.workers import serve; serve()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        except OSError as exc:
            raise _WorkerFailed(f"cannot start {sys.executable}: {exc}") from exc
        # Results are read as soon as they are written, by a thread: a worker blocked on a full
        # pipe while its turn has not come would stall the pipeline. At most the chunks in
        # flight wait here.
        self._results: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._reader = threading.Thread(target=self._read_results, daemon=True)
        self._reader.start()

    def _read_results(self) -> None:
        assert self.proc.stdout is not None
        try:
            while True:
                self._results.put(_read_frame(self.proc.stdout))
        except (EOFError, OSError, ValueError):
            self._results.put(None)

    def setup(self, setup: bytes) -> None:
        """Send the pickled (read, parse, log level) the worker's chunks are analysed with."""
        self._write(setup)

    def _write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(len(data).to_bytes(8, "little") + data)
            self.proc.stdin.flush()
        except OSError as exc:
            raise _WorkerFailed(f"worker {self.proc.pid} gone: {exc}") from exc

    def send(self, chunk: list[Task]) -> None:
        self._write(pickle.dumps(chunk))

    def receive(self) -> list[PageRecord | None]:
        """The next chunk's records; the worker's log records are handled here."""
        frame = self._results.get()
        if frame is None:
            raise _WorkerFailed(f"worker {self.proc.pid} exited ({self.proc.wait()})")
        status, payload, logs = pickle.loads(frame)
        for record in logs:  # the worker's warnings, through this process's handlers
            logger = logging.getLogger(record.name)
            if logger.isEnabledFor(record.levelno):
                logger.handle(record)
        if status == "error":
            raise payload  # the page's own error, as a serial sync would raise it
        return list(payload)

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        if self.proc.stdout:
            self.proc.stdout.close()


def _read_frame(stream: IO[bytes]) -> bytes:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    size = int.from_bytes(head, "little")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return data


class _Collect(logging.Handler):
    """Keeps a worker's log records to send them back with its results."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        record.msg, record.args, record.exc_info = record.getMessage(), None, None
        self.records.append(record)


def serve() -> None:
    """A worker's main loop: read (read, parse, log level), then analyse chunks until EOF."""
    stdin = sys.stdin.buffer
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints go to stderr, not into the result stream
    read, parse, level = pickle.loads(_read_frame(stdin))
    collect = _Collect()
    root = logging.getLogger()
    root.handlers[:] = [collect]
    root.setLevel(level)
    while True:
        try:
            chunk = pickle.loads(_read_frame(stdin))
        except EOFError:
            return
        try:
            result: tuple[str, Any, Any] = ("ok", [analyse_file(t, read, parse) for t in chunk], [])
        except Exception as exc:  # noqa: BLE001 - sent back and raised by the syncing process
            result = ("error", exc, [])
        logs, collect.records = collect.records, []
        if token_cache_size() > WORKER_CACHED_TOKENS:
            clear_token_caches()
            clear_hash_cache()
        try:
            data = pickle.dumps((result[0], result[1], logs))
        except (pickle.PicklingError, AttributeError, TypeError):
            data = pickle.dumps(("error", RuntimeError(repr(result[1])), logs))
        try:
            out.write(len(data).to_bytes(8, "little") + data)
            out.flush()
        except BrokenPipeError:
            return  # the syncing process is gone (its server stopped mid-build): nothing to tell
