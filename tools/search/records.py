"""What the index takes in and hands out: source files, hits, stored pages, sync reports."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tools.sources.records import Page, Section

# `read(key)` gives a source file's bytes; `parse(key, raw)` its page, URL and collection.
Reader = Callable[[str], bytes]
Parser = Callable[[str, bytes], tuple[Page, str, str]]
# `progress(done, total)` during a sync.
Progress = Callable[[int, int], None]
# Whether the site-wide lookups a page made when it was read (`page.meta["lookups"]`) would now
# find something else: the page is then read again though its file did not change.
LookupsChanged = Callable[[dict[str, str]], bool]


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
    """What one `sync` did.

    `sections_added` and `sections_removed` are the section ids it wrote and dropped (ids are
    never reused): what a store kept beside the lexical index, such as section embeddings,
    needs to follow it incrementally (`SearchIndex.section_texts` reads the added ones).
    """

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    sections_added: list[int] = field(default_factory=list, repr=False)
    sections_removed: list[int] = field(default_factory=list, repr=False)
