"""What a reader may read besides its page, and the record of what it read.

Include directives, snippets and imports name other files; `may_include` confines them to the
repository holding the project, and `note_read` records each one, so the index reads a page
again when a file it shows changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path


def repository_root(folder: Path) -> Path:
    """The checkout holding a project (the nearest folder above it with `.git`), else the project.

    Include directives and extensions name files beside the docs (`../README.rst`,
    `../../src/example.py`): they may be read from anywhere in the repository, never from
    outside it. Without a checkout, only the project's own folder.
    """
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder


def may_include(path: Path, root: Path, configured: tuple[Path, ...] = ()) -> bool:
    """Whether an include, snippet or import may read `path` (already resolved) under `root`.

    Inside `root`, and neither a dot file nor in a dot folder below it: a checkout holds files
    its site never publishes (`.env` with keys, `.git/config`, `.venv/`), and a page that names
    one must not put it into the index. A folder the site's configuration names for its
    snippets (`configured`, resolved) may itself be a dot folder (`docs/.snippets`): only what
    lies below it is checked then.
    """
    if not path.is_relative_to(root):
        return False
    bases = [d for d in configured if path.is_relative_to(d) and d.is_relative_to(root)]
    base = max(bases, key=lambda d: len(d.parts), default=root)
    return not any(part.startswith(".") for part in path.relative_to(base).parts)


# The files read for the page being read now, besides its own (`recording_reads`).
_READS: ContextVar[list[str] | None] = ContextVar("page_reads", default=None)


@contextmanager
def recording_reads() -> Iterator[list[str]]:
    """Collect the other files a page's reader reads (includes, snippets, imports) while it runs.

    Why: a page shows those files' text, so the index must read the page again when one of
    them changes, not only when the page's own file does (`IndexStore.sync` compares them).
    Each reader reports a file it read with `note_read`; the reader functions keep their
    signatures, and worker processes record their own pages the same way.
    """
    reads: list[str] = []
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


def note_read(path: Path) -> None:
    """Record that the page being read shows this file's text (a no-op outside `recording_reads`)."""
    reads = _READS.get()
    if reads is not None:
        reads.append(str(path))
