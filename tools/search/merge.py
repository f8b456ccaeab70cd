"""One ranking from several indexes' results (docs and KB), by their calibrated scores."""

from __future__ import annotations

from collections.abc import Sequence

from tools.search.records import Hit


def merge_rankings(
    rankings: Sequence[tuple[str, Sequence[Hit]]], limit: int = 10
) -> list[tuple[str, Hit]]:
    """One ranking from several indexes' results (e.g. docs and KB), tagged with their source.

    Raw BM25 scores of different indexes are not on one scale: idf depends on each collection,
    and a docs page gains from its many sections and inbound links where a support article has
    one of each. So the merge compares each hit's `calibrated` score (its score over the most the
    query could score in its index, times that index's typical page gain): at each step the list
    whose next hit has the higher calibrated score goes next (ties: the list given first). Each
    list keeps its own order, and a source whose matches are weak for this query gives its slots
    to the other. Measured on the dev set this beat interleaving by rank, merging raw scores and
    merging scores scaled by each list's best. Hits without a calibrated score (an HTTP backend's)
    are interleaved by rank instead, in the order given: docs #1, KB #1, docs #2, …

    A page already listed under the same URL (a KB article that republishes a docs page) is
    listed once, leaving its slot to the next result.
    """
    queues = [(source, list(hits)) for source, hits in rankings]
    by_score = all(h.calibrated is not None for _, hits in queues for h in hits)
    merged: list[tuple[str, Hit]] = []
    seen: set[str] = set()
    turn = 0
    while len(merged) < limit and any(hits for _, hits in queues):
        if by_score:
            # The best head; a list's later hit never jumps its own earlier one.
            source, hits = max((q for q in queues if q[1]), key=lambda q: q[1][0].calibrated or 0.0)
        else:
            source, hits = queues[turn % len(queues)]
            turn += 1
            if not hits:
                continue
        hit = hits.pop(0)
        url = hit.url.split("#", 1)[0].rstrip("/")
        if url and url in seen:
            continue
        seen.add(url)
        merged.append((source, hit))
    return merged
