"""The ranking policy over the lexical engine's scores: pages by their sections, calibration.

The engine (tantivy, tools/search/lexical.py) scores sections (heading trail and body) and page
title fields by BM25; what no library has is here:
- A page scores by its best section plus a share of its next best ones, plus its title field
  and its anchor field (the words other pages link to it with), lifted by its link prior.
- Each score has a calibrated twin: the score over the most the query could score in this index
  and the index's typical page gain, so two indexes' results (docs and KB) share one scale.

Everything here is numpy over arrays loaded once per index state (`CorpusStats`).
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

import numpy as np

from tools.search.anchors import ANCHOR_WEIGHT
from tools.search.lexical import K1

# How much a page's inbound links lift its score: score * (1 + PRIOR_WEIGHT * ln(1 + inlinks)).
PRIOR_WEIGHT = 0.1
# A page's score is its best section's plus this share of its next best ones (up to 3): a page
# that answers in several places beats one with a single lucky paragraph.
SECTION_SPREAD = 0.3
# Sections that take part in page ranking (the best ones by score); the rest are a long tail of
# single weak matches that cannot lift a page into the results.
MAX_RANKED_SECTIONS = 1_000
# Pages whose title fields take part (the engine's best ones): more than any ranking reads.
MAX_RANKED_TITLES = 200


class CorpusStats:
    """Per-section and per-page arrays the scorer needs, loaded once after each change."""

    def __init__(self, db: sqlite3.Connection) -> None:
        secs = db.execute("SELECT id, doc, blen, hlen FROM secs").fetchall()
        docs = db.execute(
            "SELECT id, prior, collection, key, url, title, anchors FROM docs"
        ).fetchall()
        size = max((r[0] for r in secs), default=0) + 1
        dsize = max((r[0] for r in docs), default=0) + 1
        self.sec_doc = np.zeros(size, np.int64)
        self.blen = np.zeros(size, np.float32)
        self.hlen = np.zeros(size, np.float32)
        if secs:
            arr = np.array(secs, dtype=np.float64)
            ids = arr[:, 0].astype(np.int64)
            self.sec_doc[ids] = arr[:, 1].astype(np.int64)
            self.blen[ids] = arr[:, 2]
            self.hlen[ids] = arr[:, 3]
        self.n_secs = max(len(secs), 1)
        self.n_docs = max(len(docs), 1)
        self.n_pages = dsize  # the page arrays' length (ids run from 1)
        self.prior = np.zeros(dsize, np.float32)
        self.collection: dict[int, str] = {}
        # What a hit shows of its page, kept here so a search reads only its sections' rows.
        self.page: dict[int, tuple[str, str, str, str]] = {}
        # The anchor field (tools/search/anchors.py) as term -> ids of the pages linked with it.
        # Small (a few terms per link), so it is built here rather than stored in the engine.
        anchored: dict[str, list[int]] = {}
        for doc_id, prior, collection, key, url, title, anchors in docs:
            for term in json.loads(anchors or "{}"):
                anchored.setdefault(term, []).append(doc_id)
            self.prior[doc_id] = prior
            self.collection[doc_id] = collection or ""
            self.page[doc_id] = (key, url or "", title or "", collection or "")
        self.anchors = {term: np.array(pages, np.intp) for term, pages in anchored.items()}
        self._prior_factors: dict[float, np.ndarray[Any, Any]] = {}
        self._page_gains: dict[float, float] = {}

    def prior_factor(self, weight: float) -> np.ndarray[Any, Any]:
        """Each page's link-prior multiplier, 1 + weight × ln(1 + inlinks), computed once."""
        factor = self._prior_factors.get(weight)
        if factor is None:
            factor = self._prior_factors[weight] = 1.0 + weight * self.prior.astype(np.float64)
        return factor

    def page_gain(self, prior_weight: float) -> float:
        """The median page's score multiplier from its extra sections and its link prior.

        A docs page has many sections and inbound links, a support article one of each, so the
        same match scores about twice as high in the docs. Dividing by this (with the query's
        ceiling, `query_ceiling`) puts different indexes' scores on one scale.
        """
        gain = self._page_gains.get(prior_weight)
        if gain is None:
            doc_ids = np.fromiter(self.collection, np.int64, len(self.collection))
            counted = np.flatnonzero((self.blen + self.hlen) > 0)
            n_secs = np.bincount(self.sec_doc[counted], minlength=self.n_pages)[doc_ids]
            spread = 1.0 + SECTION_SPREAD * np.clip(n_secs - 1, 0, 3)
            gains = spread * (1.0 + prior_weight * self.prior[doc_ids])
            gain = self._page_gains[prior_weight] = float(np.median(gains)) if len(gains) else 1.0
        return gain

    def query_ceiling(self, n_terms: int, sec_weights: list[float]) -> float:
        """The most one section could score for the query here: the sum of idf × (k1 + 1).

        `sec_weights` are the matched terms' idf × (k1 + 1) (`LexicalReader.section_term_weights`). A query term the index lacks counts
        at its (high) idf: an index that cannot match a query's rarest words has a ceiling it
        cannot reach, so its calibrated scores are low.
        """
        missing = n_terms - len(sec_weights)
        return sum(sec_weights) + missing * (K1 + 1.0) * math.log(1.0 + (self.n_secs + 0.5) / 0.5)

    def calibration(self, n_terms: int, sec_weights: list[float], prior_weight: float) -> float:
        """What a page score is divided by to become calibrated (0 when nothing can match)."""
        return self.query_ceiling(n_terms, sec_weights) * self.page_gain(prior_weight)


def bm25_anchors(terms: list[str], stats: CorpusStats) -> np.ndarray[Any, Any]:
    """Per-page BM25 of the anchor field: the words other pages link to the page with.

    Ours, not the engine's: a page's anchor field changes whenever another page's links do, so
    it is rebuilt from the stored links at each sync (`IndexStore._update_priors`); in the
    engine it would mean re-adding every page a changed page links to.

    A link's words count `ANCHOR_WEIGHT` for the section holding them and the same for the
    page they point to. The field is a set, like the title field: a page linked a hundred
    times as "streaming" is no more about streaming than one linked so once (how often it is
    linked at all is the link prior's to say).
    """
    score = np.zeros(stats.n_pages, np.float64)
    saturated = (K1 + 1.0) * ANCHOR_WEIGHT / (K1 + ANCHOR_WEIGHT)
    for term in terms:
        pages = stats.anchors.get(term)
        if pages is not None:
            idf = math.log(1.0 + (stats.n_docs - len(pages) + 0.5) / (len(pages) + 0.5))
            score[pages] += idf * saturated
    return score


def rank_pages(
    sec_score: np.ndarray[Any, Any],
    title_score: np.ndarray[Any, Any],
    stats: CorpusStats,
    prior_weight: float,
    need: int = 200,
) -> list[tuple[float, int, int]]:
    """(score, doc id, best section id) of the `need` best pages with a match, best first.

    Written as few whole-array numpy calls: per-call overhead, not arithmetic, is the cost here.
    """
    sec_ids = np.flatnonzero(sec_score > 0)  # 5x faster than on the floats themselves
    page = title_score
    best_sec = np.full(len(page), -1, np.int64)
    if len(sec_ids):
        scores = sec_score[sec_ids]
        if len(sec_ids) > MAX_RANKED_SECTIONS:  # only the best sections can decide the top pages
            keep = np.argpartition(scores, -MAX_RANKED_SECTIONS)[-MAX_RANKED_SECTIONS:]
            sec_ids, scores = sec_ids[keep], scores[keep]
        docs = stats.sec_doc[sec_ids]
        # By page, then best section first, in one float sort (scores scaled into [0, 0.5] and
        # subtracted from the page id): half of what `np.lexsort` costs here.
        order = np.argsort(docs - scores * (0.5 / (float(scores.max()) or 1.0)))
        docs, scores, sec_ids = docs[order], scores[order], sec_ids[order]
        first = np.empty(len(docs), bool)  # a page's best section
        first[0] = True
        np.not_equal(docs[1:], docs[:-1], out=first[1:])
        top4 = np.ones(len(docs), bool)  # among its page's four best sections
        np.not_equal(docs[4:], docs[:-4], out=top4[4:])
        weight = top4 * SECTION_SPREAD
        weight[first] = 1.0
        page = page + np.bincount(docs, weights=scores * weight, minlength=len(page))
        best_sec[docs[first]] = sec_ids[first]
    if prior_weight:
        page = page * stats.prior_factor(prior_weight)
    if len(page) > need:  # partial selection first: a full sort of every page is wasted
        candidates = np.argpartition(page, -need)[-need:]
    else:
        candidates = np.arange(len(page))
    # The few candidates are filtered and ordered in Python: cheaper than more numpy calls.
    ranked = [
        row
        for row in zip(
            page[candidates].tolist(),
            candidates.tolist(),
            best_sec[candidates].tolist(),
            strict=True,
        )
        if row[0] > 0
    ]
    ranked.sort(key=lambda row: (-row[0], row[1]))
    return ranked
