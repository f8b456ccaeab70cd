"""Cross-lingual retrieval: recall/MRR per question language, lexical only beside fused, and speed.

    python -m bench.retrieval_languages --corpus pytest [--questions FILE] [--json] [--show]

`--corpus` is a name in bench/corpora.toml or a folder (bench/corpora.py). One process, both
rankings side by side in the same run, over the same cached index (bench/retrieval.py `CACHE`):
- `lexical`: the docs + KB search without vectors (what `DOCS_AGENT_EMBEDDINGS=off` serves);
- `fused`: the same indexes with section vectors fused in (tools/search/fusion.py).
Per language: recall@1/5/10 and MRR of the merged docs+KB ranking (bench/retrieval.py's
measures), search p50/p95 of docs + KB search per question, and how many questions went past
the gate (were embedded and blended). Peak RSS of the process at the end. Build costs (cold,
one changed page) are bench/index_build.py's.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.corpora import Corpus, load_questions, resolve
from bench.harness import p50_p95
from bench.retrieval import indexed_pages, merged_search, open_sources, score
from tools.search.fusion import lexical_weight
from tools.search.phrases import RERANK_DEPTH

REPEATS = 3


def _ms(samples: list[float]) -> dict[str, float]:
    return p50_p95(samples, 1000, 2)


def _timed(docs: Any, kb: Any, question: str) -> float:
    t = time.perf_counter()
    for source in (docs, kb):
        if source is not None:
            source.search(question, 10)
    return time.perf_counter() - t


def _blended(docs: Any, kb: Any, question: str) -> bool:
    """Whether the question went past the fusion gate in either source (was embedded)."""
    weights = [
        lexical_weight(docs.index.search(question, RERANK_DEPTH)) if docs is not None else None,
        lexical_weight(kb.index.search(question, RERANK_DEPTH, snippets=False))
        if kb is not None
        else None,
    ]
    return min(w if w is not None else 1.0 for w in weights) < 1.0


def languages_report(
    corpus: Corpus, questions: list[dict[str, Any]], show: bool = False
) -> dict[str, Any]:
    """The figures of the module docstring for one corpus."""
    docs_lex, kb_lex = open_sources(corpus, vectors=False)
    docs, kb = open_sources(corpus, vectors=True)
    by_lang: dict[str, list[int]] = defaultdict(list)
    for n, q in enumerate(questions):
        by_lang[q.get("lang", "en")].append(n)
    lexical = [merged_search(docs_lex, kb_lex, q["question"]) for q in questions]
    fused = [merged_search(docs, kb, q["question"]) for q in questions]
    blended = [_blended(docs, kb, q["question"]) for q in questions]
    times_fused: dict[str, list[float]] = defaultdict(list)
    times_lexical: dict[str, list[float]] = defaultdict(list)
    for _ in range(REPEATS):
        for q in questions:
            lang = q.get("lang", "en")
            times_lexical[lang].append(_timed(docs_lex, kb_lex, q["question"]))
            times_fused[lang].append(_timed(docs, kb, q["question"]))
    vectors = [s.vectors for s in (docs, kb) if s is not None and s.vectors is not None]
    result: dict[str, Any] = {
        "corpus": corpus.name,
        "n": len(questions),
        "indexed_pages": {"docs": indexed_pages(docs), "kb": indexed_pages(kb)},
        "vectors": bool(vectors),
        "sections_embedded": sum(len(v) for v in vectors),
        "languages": {},
    }
    for lang, idx in by_lang.items():
        qs = [questions[i] for i in idx]
        result["languages"][lang] = {
            "n": len(idx),
            "blended": sum(blended[i] for i in idx),
            "lexical": score([lexical[i] for i in idx], qs),
            "fused": score([fused[i] for i in idx], qs),
            "search_lexical": _ms(times_lexical[lang]),
            "search_fused": _ms(times_fused[lang]),
        }
    result["search_fused_all"] = _ms([s for v in times_fused.values() for s in v])
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    result["fused_ranked"] = fused
    if show:
        for q, got in zip(questions, fused, strict=True):
            mark = [("*" if p in q["expected_paths"] else " ") + p for p in got[:5]]
            print(q["id"], q.get("lang"), q["question"][:70], file=sys.stderr)
            print("   " + "\n   ".join(mark), file=sys.stderr)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", required=True, help="a name in bench/corpora.toml or a folder")
    parser.add_argument("--questions", type=Path, help="default: the corpus's multilingual set")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="per-question top 5 to stderr")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    corpus = resolve(args.corpus)
    qfile = args.questions or corpus.multilingual
    if qfile is None:
        raise SystemExit(f"{corpus.folder} has no eval/dev_multilingual.jsonl: pass --questions")
    result = languages_report(corpus, load_questions(qfile), args.show)
    result.pop("fused_ranked")
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
