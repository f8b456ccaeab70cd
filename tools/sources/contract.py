"""The source contract: what the tools, the citation check and the benches use of a docs or KB source.

Whatever the format (a docs folder of any generator, an llms.txt site, a KB folder, a help-center
API), a source answers `search`, `find` / `get` with the records of tools/search/records.py
(`Hit`, `Document`, whose sections are tools/sources/records.py's `Section`). What some sources
can do besides is said by a capability protocol, checked with `isinstance`, never by probing
attribute names: a local search index to build and warm (`IndexedSource`), an upstream that
changes and is refreshed on a schedule (`LiveSource`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from tools.search.records import Document, Hit, SyncStats

if TYPE_CHECKING:  # the engine below the sources; named for type checks only
    from tools.search.index import SearchIndex


class DocsSource(Protocol):
    """What `search_docs` / `get_doc_page` and the citation check use of a docs source."""

    def search(self, query: str, limit: int, collections: list[str] | None = None) -> list[Hit]:
        """Ranked pages for a query, each with its best section's heading and anchor."""
        ...

    def find(self, ref: str) -> Document | None:
        """A page by URL (with or without anchor), key or path."""
        ...

    def get(self, key: str) -> Document | None:
        """A page by its exact key."""
        ...


class KnowledgeBase(Protocol):
    """What the KB tools need from a backend (local folder or help-center API)."""

    def search(self, query: str, limit: int, collections: list[str] | None = None) -> list[Hit]:
        """Ranked articles."""
        ...

    def get(self, key: str) -> Document | None:
        """One article by id."""
        ...

    def list_collections(self) -> list[str]:
        """Known collections."""
        ...


@runtime_checkable
class IndexedSource(Protocol):
    """A source kept in a local search index (a folder, an llms.txt mirror): built, then warmed."""

    def sync(self, progress: Callable[[int, int], None] | None = None) -> SyncStats:
        """Bring the index in line with the source (changed pages only)."""
        ...

    def ensure_synced(self) -> None:
        """Sync once per process."""
        ...

    def load_lexical(self) -> None:
        """Sync and read the lexical statistics every search needs."""
        ...

    def load_vectors(self) -> None:
        """Read the section vectors (only weak lexical rankings use them)."""
        ...


@runtime_checkable
class PublishedSource(IndexedSource, Protocol):
    """An indexed source whose index files a snapshot generation copies (`make index --publish`)."""

    @property
    def index(self) -> SearchIndex:
        """The local index it keeps: its database path and its pages."""
        ...


@runtime_checkable
class LiveSource(Protocol):
    """A source whose upstream changes (an llms.txt site, a help center): refreshed on a schedule."""

    def refresh_due(self, now: float | None = None) -> bool:
        """Whether the next refresh is due."""
        ...

    def refresh(self) -> object:
        """Fetch what changed upstream now (a failed fetch keeps the last copy)."""
        ...


@runtime_checkable
class ListsPages(Protocol):
    """A source that can list its pages as they are cited (the answers report's 'never cited')."""

    def page_urls(self) -> list[str]:
        """The URL (or repo-relative path) every page of the source is cited by."""
        ...


@runtime_checkable
class ReportsStatus(Protocol):
    """A source that says what it could not do at its last refresh (kept its copy, hit a cap)."""

    def status(self) -> tuple[str, list[str]]:
        """The last refresh's problem ("" when none) and the caps it reached."""
        ...
