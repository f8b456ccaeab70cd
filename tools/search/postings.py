"""The inverted index's row format, shared by the writer and the scorer.

One row per term holds two posting blobs side by side: its section postings (section id, body
tf, heading tf) and its title-field postings (page id), so a search reads one row per query term.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

SEC_DTYPE = np.dtype([("sec", "<u4"), ("body", "<u2"), ("head", "<u2")])
# The title field is a set of words, so a title posting is just the page id (tf is 1).
TITLE_DTYPE = np.dtype([("doc", "<u4")])
# A page's postings as analysis hands them over: term and section by their place in the page.
PAGE_DTYPE = np.dtype([("term", "<u4"), ("sec", "<u4"), ("body", "<u2"), ("head", "<u2")])
# Term frequencies are stored as 16-bit counts (body tf in `tools.search.anchors.BODY_UNITS`
# per word, so a link's text can count less than the section's own words).
MAX_TF = 65535


def marks(values: Sequence[Any]) -> str:
    """SQL placeholders for `values`."""
    return ",".join("?" * len(values))


def merge_postings(
    old: bytes | None, added: bytes, dtype: np.dtype[Any], removed: np.ndarray[Any, Any]
) -> bytes:
    """A term's posting blob after a sync: the old postings minus removed ids, plus new ones.

    The id is each posting's first field (section or page id); `added` is already in `dtype`'s
    layout, with ids above every old one, so the blob stays in id order.
    """
    if not old:
        return added
    kept = np.frombuffer(old, dtype)
    if len(removed):
        kept = kept[~np.isin(kept[dtype.names[0]], removed)]  # type: ignore[index]
    return kept.tobytes() + added


class PostingBuffer:
    """New postings of one sync, gathered as arrays and handed out grouped by term.

    Terms get ids as they are first seen; postings are kept as arrays (12 bytes each), not as
    Python objects, and grouped by one stable sort at the end, so each term's
    postings stay in the order they came (section and page ids rising).
    """

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self.term_id: dict[str, int] = {}
        self._sec_terms: list[np.ndarray[Any, Any]] = []
        self._secs: list[np.ndarray[Any, Any]] = []
        self._title_terms: list[int] = []
        self._titles: list[int] = []

    def _ids(self, terms: list[str]) -> np.ndarray[Any, Any]:
        ids = self.term_id
        # New terms found and numbered with C-level set and dict calls: the order they are
        # numbered in does not matter, rows are written by term and postings by id.
        new = set(terms).difference(ids)
        if new:
            ids.update(zip(new, range(len(ids), len(ids) + len(new)), strict=True))
        return np.fromiter(map(ids.__getitem__, terms), np.uint32, len(terms))

    def add_page(
        self,
        doc_id: int,
        title_terms: list[str],
        vocab: list[str],
        postings: np.ndarray[Any, Any],
        first_sec: int,
    ) -> None:
        """A page's postings: `postings` in PAGE_DTYPE, its sections numbered from `first_sec`."""
        self._title_terms.extend(self._ids(title_terms).tolist())
        self._titles.extend([doc_id] * len(title_terms))
        if not len(postings):
            return
        self._sec_terms.append(self._ids(vocab)[postings["term"]])
        secs = np.empty(len(postings), SEC_DTYPE)
        secs["sec"] = postings["sec"] + first_sec
        secs["body"] = postings["body"]
        secs["head"] = postings["head"]
        self._secs.append(secs)

    def grouped(self) -> Iterator[tuple[str, bytes, bytes]]:
        """(term, new section postings, new title postings) of every term seen, by term; empties it."""
        secs, sec_bounds = _grouped(self._sec_terms, self._secs, SEC_DTYPE, len(self.term_id))
        titles, title_bounds = _grouped(
            [np.array(self._title_terms, np.uint32)],
            [np.array(self._titles, TITLE_DTYPE)],
            TITLE_DTYPE,
            len(self.term_id),
        )
        terms = list(self.term_id)
        self._clear()
        # In term order: rows then go into the table's B-tree in key order (half the writes).
        for i in sorted(range(len(terms)), key=terms.__getitem__):
            yield (
                terms[i],
                secs[sec_bounds[i] : sec_bounds[i + 1]].tobytes(),
                titles[title_bounds[i] : title_bounds[i + 1]].tobytes(),
            )


def _grouped(
    term_chunks: list[np.ndarray[Any, Any]],
    posting_chunks: list[np.ndarray[Any, Any]],
    dtype: np.dtype[Any],
    n_terms: int,
) -> tuple[np.ndarray[Any, Any], list[int]]:
    """Postings sorted by term id (stable), and where each term's run starts (n_terms + 1).

    Empties the chunk lists as it goes: the chunks, their concatenation and the sorted copy
    are never all held at once.
    """
    if not sum(len(c) for c in term_chunks):
        return np.empty(0, dtype), [0] * (n_terms + 1)
    terms = np.concatenate(term_chunks)
    term_chunks.clear()
    bounds = [0, *np.cumsum(np.bincount(terms, minlength=n_terms)).tolist()]
    order = np.argsort(terms, kind="stable")
    del terms
    postings = np.concatenate(posting_chunks)
    posting_chunks.clear()
    return postings[order], bounds


def fetch_postings(db: sqlite3.Connection, terms: list[str]) -> tuple[list[bytes], list[bytes]]:
    """The query terms' section and title posting blobs, in one statement."""
    sec_blobs: list[bytes] = []
    title_blobs: list[bytes] = []
    for sec, title in db.execute(
        f"SELECT sec, title FROM post WHERE term IN ({marks(terms)})", terms
    ):
        if sec:
            sec_blobs.append(sec)
        if title:
            title_blobs.append(title)
    return sec_blobs, title_blobs
