"""Our lexical engine beside tantivy over the SAME sections and terms, on every described corpus.

    python bench/engines_lexical.py [--corpora langchain,pydantic,pytest] [--json]

The question this answers (issue 23, item 5): could a well-kept engine replace our own postings
and BM25 code (tools/search/postings.py, the BM25 half of scoring.py), keeping only the ranking
policy no library has (pages ranked by their sections, the title and anchor fields, the link
prior, word-pair re-ranking)? So both sides read one index's docs pages (the cached index of
bench/retrieval.py, no vectors) and differ only in who scores sections and titles:

- `ours`: `SearchIndex.search`, as served;
- `tantivy+policy`: tantivy scores each section (its heading-trail and body fields, BM25 per
  field, summed) and each page's title field; those scores go through our unchanged policy
  (`rank_pages`, `bm25_anchors`, the link prior, `phrase_boost`). This is the replacement;
- `tantivy`: tantivy alone, each page by its best section (what the library gives by itself).

Same analyzer: tantivy indexes our stored terms (`tools.text.index_terms` output, read back from
our postings, with their term frequencies) through its whitespace tokenizer, so no word is cut or
stemmed differently. Differences that remain are the engines': tantivy keeps whole-word tf (an
anchor word, half a word in ours, counts as one), one `b` for every field (ours: 0.5 for
headings and titles), a field's own document frequency for idf (ours: the section's), and
lossy one-byte field lengths.

Measured per corpus on its eval questions that expect a docs page: R@1/R@5/MRR of docs pages,
the paired bootstrap of the difference to ours over questions (the noise: 95 % interval of the
mean difference, 2,000 resamples of whole questions, a question's translations together with
`--multilingual`, fixed seed), and query latency (median and p95 of whole
searches, and of the scoring step alone: our postings + BM25 against tantivy's two searches).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpora import Corpus, load, load_questions  # noqa: E402
from bench.retrieval import open_sources, reciprocal_ranks, score  # noqa: E402
from tools.search.anchors import BODY_UNITS  # noqa: E402
from tools.search.index import SearchIndex  # noqa: E402
from tools.search.phrases import RERANK_DEPTH, phrase_boost, query_pairs  # noqa: E402
from tools.search.postings import SEC_DTYPE, TITLE_DTYPE  # noqa: E402
from tools.search.scoring import (  # noqa: E402
    MAX_RANKED_SECTIONS,
    PRIOR_WEIGHT,
    bm25_anchors,
    bm25_titles,
    bm25f_sections,
    rank_pages,
    section_term_weights,
)
from tools.text import index_terms  # noqa: E402

REPEATS = 3
RESAMPLES = 2000
# Scores per field array: what the policy gets from an engine for one query.
Scorer = Callable[[list[str]], tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]


class TantivySections:
    """A tantivy index of one of our indexes' sections and page titles, term for term."""

    def __init__(self, index: SearchIndex, where: Path) -> None:
        import tantivy

        self._tantivy = tantivy
        db = index._store.db  # a bench reads our rows directly: nothing here is served
        stats = index._current_stats()
        self.n_secs_array = len(stats.blen)
        self.n_docs_array = len(stats.tlen)
        sec_terms: dict[int, list[str]] = {}
        head_terms: dict[int, list[str]] = {}
        title_terms: dict[int, list[str]] = {}
        for term, sec_blob, title_blob in db.execute("SELECT term, sec, title FROM post"):
            if sec_blob:
                rows = np.frombuffer(sec_blob, SEC_DTYPE)
                # Whole words: BODY_UNITS per own word, an anchor word is one unit (rounded up).
                words = -(-rows["body"].astype(np.int64) // BODY_UNITS)
                for sec, body, head in zip(
                    rows["sec"].tolist(), words.tolist(), rows["head"].tolist(), strict=True
                ):
                    if body:
                        sec_terms.setdefault(sec, []).extend([term] * body)
                    if head:
                        head_terms.setdefault(sec, []).extend([term] * head)
            if title_blob:
                for doc in np.frombuffer(title_blob, TITLE_DTYPE)["doc"].tolist():
                    title_terms.setdefault(doc, []).append(term)
        self.sec_ids = np.array(sorted(sec_terms.keys() | head_terms.keys()), np.intp)
        self.doc_ids = np.array(sorted(title_terms), np.intp)
        self.sections = self._build(
            where / "sections",
            ("body", "head"),
            [
                {"body": " ".join(sec_terms.get(s, [])), "head": " ".join(head_terms.get(s, []))}
                for s in self.sec_ids.tolist()
            ],
        )
        self.titles = self._build(
            where / "titles",
            ("title",),
            [{"title": " ".join(title_terms[d])} for d in self.doc_ids.tolist()],
        )

    def _build(self, path: Path, fields: Sequence[str], docs: list[dict[str, str]]) -> Any:
        tantivy = self._tantivy
        builder = tantivy.SchemaBuilder()
        for name in fields:
            builder.add_text_field(name, tokenizer_name="ws", index_option="freq")
        schema = builder.build()
        path.mkdir(parents=True)
        index = tantivy.Index(schema, path=str(path))
        index.register_tokenizer(
            "ws", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build()
        )
        # One thread and one commit: one segment, so a hit's doc number is its place in `docs`.
        writer = index.writer(heap_size=512_000_000, num_threads=1)
        for doc in docs:
            writer.add_document(tantivy.Document(**{k: [v] for k, v in doc.items()}))
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        searcher = index.searcher()
        assert searcher.num_segments == 1, searcher.num_segments
        return (index, schema, searcher, tuple(fields))

    def _search(self, which: Any, terms: list[str], limit: int) -> list[tuple[float, int]]:
        tantivy = self._tantivy
        _, schema, searcher, fields = which
        query = tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Should, tantivy.Query.term_query(schema, f, t))
                for t in terms
                for f in fields
            ]
        )
        return [(s, a.doc) for s, a in searcher.search(query, limit).hits]

    def scores(self, terms: list[str]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Section and title scores as arrays by our ids: what the policy reads from an engine."""
        sec = np.zeros(self.n_secs_array, np.float64)
        hits = self._search(self.sections, terms, MAX_RANKED_SECTIONS)
        if hits:
            s, d = zip(*hits, strict=True)
            sec[self.sec_ids[list(d)]] = s
        title = np.zeros(self.n_docs_array, np.float64)
        hits = self._search(self.titles, terms, 200)
        if hits:
            s, d = zip(*hits, strict=True)
            title[self.doc_ids[list(d)]] = s
        return sec, title

    def best_section_pages(self, index: SearchIndex, terms: list[str], limit: int) -> list[str]:
        """Page keys by their best section's tantivy score alone (no policy)."""
        stats = index._current_stats()
        out: list[str] = []
        for _, d in self._search(self.sections, terms, MAX_RANKED_SECTIONS):
            key = stats.page[int(stats.sec_doc[self.sec_ids[d]])][0]
            if key not in out:
                out.append(key)
                if len(out) == limit:
                    break
        return out


def our_scores(index: SearchIndex) -> Scorer:
    """Our postings and BM25F, as `SearchIndex.search` computes them."""

    def scores(terms: list[str]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        stats = index._current_stats()
        sec_blobs, title_blobs = index._store.postings(terms)
        weights = section_term_weights(sec_blobs, stats)
        return bm25f_sections(sec_blobs, weights, stats), bm25_titles(title_blobs, stats)

    return scores


def policy_search(index: SearchIndex, scorer: Scorer, query: str, limit: int = 10) -> list[str]:
    """`SearchIndex.search`'s ranking (keys only) with the section and title scores from `scorer`.

    A copy of its steps: the bench checks it gives our engine's ranking exactly, so the two
    sides differ in the engine alone.
    """
    sequence = index_terms(query[:2000])
    terms = list(dict.fromkeys(sequence))
    if not terms:
        return []
    stats = index._current_stats()
    sec_score, title_score = scorer(terms)
    title_score = title_score + bm25_anchors(terms, stats)
    ranked = rank_pages(sec_score, title_score, stats, PRIOR_WEIGHT, max(limit, RERANK_DEPTH))
    ranked = ranked[: max(limit, RERANK_DEPTH)]
    sections = index._store.best_sections([s for _, _, s in ranked if s >= 0], False)
    pairs = [sections.get(s, (None,))[-1] for _, _, s in ranked]
    boost = phrase_boost(query_pairs(sequence), pairs)
    order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][0] * boost[i], ranked[i][1]))
    return [stats.page[ranked[i][1]][0] for i in order[:limit] if ranked[i][1] in stats.page]


def paired_bootstrap(
    ours: list[float], theirs: list[float], groups: list[str] | None = None, seed: int = 23
) -> dict[str, Any]:
    """Mean of theirs − ours per question, and the 95 % interval of that mean over resamples.

    `groups` names each row's question when one question comes in several rows (its
    translations): whole questions are resampled then, since its rows are not independent.
    """
    diffs = [b - a for a, b in zip(ours, theirs, strict=True)]
    keys = groups or [str(i) for i in range(len(diffs))]
    clusters: dict[str, list[float]] = {}
    for key, d in zip(keys, diffs, strict=True):
        clusters.setdefault(key, []).append(d)
    units = list(clusters.values())
    rng = random.Random(seed)
    means = []
    for _ in range(RESAMPLES):
        drawn = rng.choices(units, k=len(units))
        means.append(sum(sum(u) for u in drawn) / sum(len(u) for u in drawn))
    means.sort()
    return {
        "mean_diff": round(sum(diffs) / len(diffs), 4),
        "ci95": [round(means[int(0.025 * RESAMPLES)], 4), round(means[int(0.975 * RESAMPLES)], 4)],
        "questions_differing": sum(d != 0 for d in diffs),
    }


def _latency(fn: Callable[[str], object], questions: list[str]) -> dict[str, float]:
    samples = []
    for _ in range(REPEATS):
        for q in questions:
            t = time.perf_counter()
            fn(q)
            samples.append(time.perf_counter() - t)
    samples.sort()
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return {"p50_ms": round(statistics.median(samples) * 1000, 3), "p95_ms": round(p95 * 1000, 3)}


def compare(corpus: Corpus, tmp: Path, multilingual: bool = False) -> dict[str, Any]:
    """The module docstring's figures for one corpus (its dev set, or all its languages)."""
    docs, _ = open_sources(corpus)
    qfile = corpus.multilingual if multilingual else corpus.questions
    result: dict[str, Any] = {"corpus": corpus.name, "questions": str(qfile)}
    if docs is None or not len(docs.index) or qfile is None:
        result["skipped"] = "no docs page indexed" if docs is not None else "no docs folder"
        return result
    index: SearchIndex = docs.index
    index.load()
    questions = [
        q for q in load_questions(qfile) if any(p.startswith("docs/") for p in q["expected_paths"])
    ]
    texts = [q["question"] for q in questions]
    # A translated question's rows resample together (ids `q001-pl`, `q001-de`, ...).
    groups = [str(q.get("id", i)).split("-")[0] for i, q in enumerate(questions)]

    def paths(keys: list[str]) -> list[str]:
        return [f"docs/{docs.rel_path(k) or k}" for k in keys]

    t = time.perf_counter()
    tv = TantivySections(index, tmp / corpus.name)
    build_s = time.perf_counter() - t
    mine = our_scores(index)
    served = [paths([h.key for h in index.search(q, 10, snippets=False)]) for q in texts]
    replica = [paths(policy_search(index, mine, q)) for q in texts]
    assert replica == served, (
        "the bench's copy of the ranking steps drifted from SearchIndex.search"
    )
    with_policy = [paths(policy_search(index, tv.scores, q)) for q in texts]
    alone = [paths(tv.best_section_pages(index, index_terms(q), 10)) for q in texts]
    rr_ours = reciprocal_ranks(served, questions)
    at5 = [
        [
            float(bool(set(q["expected_paths"]) & set(got[:5])))
            for got, q in zip(r, questions, strict=True)
        ]
        for r in (served, with_policy, alone)
    ]

    def terms_of(q: str) -> list[str]:
        return list(dict.fromkeys(index_terms(q)))

    result.update(
        {
            "n": len(questions),
            "sections": len(tv.sec_ids),
            "tantivy_build_s": round(build_s, 2),
            "ours": score(served, questions),
            "tantivy+policy": score(with_policy, questions),
            "tantivy": score(alone, questions),
            "diff_tantivy+policy": {
                "recall@5": paired_bootstrap(at5[0], at5[1], groups),
                "mrr": paired_bootstrap(rr_ours, reciprocal_ranks(with_policy, questions), groups),
            },
            "diff_tantivy": {
                "recall@5": paired_bootstrap(at5[0], at5[2], groups),
                "mrr": paired_bootstrap(rr_ours, reciprocal_ranks(alone, questions), groups),
            },
            "latency": {
                "ours_search": _latency(lambda q: index.search(q, 10, snippets=False), texts),
                "tantivy+policy_search": _latency(
                    lambda q: policy_search(index, tv.scores, q), texts
                ),
                "ours_scoring": _latency(lambda q: mine(terms_of(q)), texts),
                "tantivy_scoring": _latency(lambda q: tv.scores(terms_of(q)), texts),
            },
        }
    )
    lat = result["latency"]
    result["latency"]["ratio_scoring_tantivy_over_ours"] = round(
        lat["tantivy_scoring"]["p50_ms"] / lat["ours_scoring"]["p50_ms"], 2
    )
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="", help="names in bench/corpora.toml (default: all)")
    parser.add_argument(
        "--multilingual", action="store_true", help="every language's questions, not the dev set"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-tantivy-") as tmp:
        results = [
            compare(c, Path(tmp) / str(i), args.multilingual)
            for i, c in enumerate(load(args.corpora))
        ]
    print(json.dumps(results) if args.json else json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
