"""Word pairs: each section's adjacent term pairs stored at index time, matched against the query's.

Questions are often error messages or phrases ("do not have a corresponding ToolMessage"); BM25
sees bags of words, while a pair of words in the same order is strong evidence of the page that
explains it. A pair is coded as two 32-bit term hashes in one 64-bit number; a section keeps
its distinct codes sorted, so checking every candidate is one `searchsorted` over them all.
"""

from __future__ import annotations

import bisect
import itertools
import zlib
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

# Weight of the share of query word pairs found in order in a page's best section, and how
# many of the top pages are re-ranked by it.
PHRASE_WEIGHT = 0.5
RERANK_DEPTH = 12


@lru_cache(maxsize=300_000)
def _term_hash(term: str) -> int:
    return zlib.crc32(term.encode())


def clear_hash_cache() -> None:
    """Forget cached term hashes (see `tools.text.clear_token_caches`)."""
    _term_hash.cache_clear()


def term_hashes(terms: Sequence[str]) -> np.ndarray[Any, Any]:
    """32-bit hashes of terms, in order: the compact form of a section's term sequence."""
    return np.fromiter(map(_term_hash, terms), np.uint32, len(terms))


def pair_codes(hashes: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Distinct codes of adjacent term pairs (first hash in the high 32 bits), sorted."""
    if len(hashes) < 2:
        return np.empty(0, np.uint64)
    h = hashes.astype(np.uint64)
    return np.unique((h[:-1] << np.uint64(32)) | h[1:])


def query_pairs(sequence: list[str]) -> np.ndarray[Any, Any]:
    """`pair_codes` of a query's terms, in plain Python: a query has a handful of them."""
    hashes = [_term_hash(t) for t in sequence]
    codes = {(a << 32) | b for a, b in zip(hashes, hashes[1:], strict=False)}
    return np.array(sorted(codes), np.uint64)


def phrase_boost(query_codes: np.ndarray[Any, Any], blobs: list[bytes | None]) -> list[float]:
    """Score factor per candidate from the query's word pairs found in its best section.

    The factor is 1 + PHRASE_WEIGHT × the share of the query's adjacent word pairs that the
    section holds next to each other, in the same order. `blobs` are the candidates' stored
    pair codes (None for a page matched by its title only).
    """
    n = len(blobs)
    if PHRASE_WEIGHT <= 0 or not len(query_codes) or not n:
        return [1.0] * n
    ends = list(itertools.accumulate(len(b or b"") // 8 for b in blobs))
    codes = np.frombuffer(b"".join(b or b"" for b in blobs), np.uint64)
    slot = np.searchsorted(query_codes, codes)
    np.minimum(slot, len(query_codes) - 1, out=slot)
    # Matches are few: finding their owners in Python beats whole-array numpy calls.
    matched = np.flatnonzero(query_codes[slot] == codes).tolist()
    found = Counter(bisect.bisect_right(ends, i) for i in matched)
    share = PHRASE_WEIGHT / len(query_codes)
    return [1.0 + share * found[i] for i in range(n)]
