"""The inverted index's row format, shared by the writer and the scorer.

One row per term holds two posting blobs side by side: its section postings (section id, body
tf, heading tf) and its title-field postings (page id), so a search reads one row per query term.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import numpy as np

SEC_DTYPE = np.dtype([("sec", "<u4"), ("body", "<u2"), ("head", "<u2")])
# The title field is a set of words, so a title posting is just the page id (tf is 1).
TITLE_DTYPE = np.dtype([("doc", "<u4")])
# Term frequencies are stored as 16-bit counts.
MAX_TF = 65535


def marks(values: Sequence[Any]) -> str:
    """SQL placeholders for `values`."""
    return ",".join("?" * len(values))


def merge_postings(
    old: bytes | None, added: Any, dtype: np.dtype[Any], removed: np.ndarray[Any, Any]
) -> bytes:
    """A term's posting blob after a sync: the old postings minus removed ids, plus new ones.

    The id is each posting's first field (section or page id). `added` is a list of tuples or
    the blob of new postings, already in `dtype`'s layout.
    """
    parts = []
    if old:
        kept = np.frombuffer(old, dtype)
        if len(removed):
            kept = kept[~np.isin(kept[dtype.names[0]], removed)]  # type: ignore[index]
        parts.append(kept)
    if isinstance(added, bytes | bytearray):
        if added:
            parts.append(np.frombuffer(added, dtype))
    elif added:
        parts.append(np.array(added, dtype))
    return np.concatenate(parts).tobytes() if parts else b""


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
