"""Cross-lingual retrieval: recall/MRR per question language, lexical only beside fused, and speed.

    python bench/retrieval_languages.py --corpus ../shared/corpus \
        --questions ../shared/corpus/eval/dev_multilingual.jsonl [--json] [--show]

One process, one private copy of the corpus, both rankings side by side in the same run:
- `lexical`: the docs + KB search without vectors (what `DOCS_AGENT_EMBEDDINGS=off` serves);
- `fused`: the same indexes with section vectors fused in (tools/search/fusion.py).
Per language: recall@1/5/10 and MRR of the merged docs+KB ranking (bench/retrieval.py's
measures), search p50/p95 of docs + KB search per question, and how many questions went past
the gate (were embedded and blended). Build: cold lexical index alone, cold index with vectors (model load apart), and one changed
page (index + its vectors). Peak RSS of the process at the end.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.retrieval import BASE_URL, STRIP, load_questions, merged_search, score  # noqa: E402
from tools.kb import FolderKnowledgeBase  # noqa: E402
from tools.search.embeddings import default_embedder  # noqa: E402
from tools.search.fusion import lexical_weight  # noqa: E402
from tools.search.phrases import RERANK_DEPTH  # noqa: E402
from tools.sources.corpus import FolderCorpus, UrlRule  # noqa: E402

REPEATS = 3


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2), "p95_ms": round(p95 * 1000, 2)}


def _timed(docs: FolderCorpus, kb: FolderKnowledgeBase, question: str) -> float:
    t = time.perf_counter()
    docs.search(question, 10)
    kb.search(question, 10)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="per-question top 5 to stderr")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    questions = load_questions(args.questions)
    embedder = default_embedder()
    with tempfile.TemporaryDirectory(prefix="bench-xling-") as tmp:
        copy = Path(tmp) / "corpus"
        shutil.copytree(args.corpus / "docs", copy / "docs")
        shutil.copytree(args.corpus / "kb", copy / "kb")
        index_dir = Path(tmp) / "index"
        rule = UrlRule(BASE_URL, STRIP)

        t = time.perf_counter()
        docs_lex = FolderCorpus(copy / "docs", "docs", index_dir / "lexical", rule)
        kb_lex = FolderKnowledgeBase(copy / "kb", index_dir / "lexical")
        docs_lex.sync()
        kb_lex.sync()
        cold_lexical = time.perf_counter() - t

        embedder.embed(["load"])  # model load timed apart from the corpus
        t = time.perf_counter()
        docs = FolderCorpus(copy / "docs", "docs", index_dir / "fused", rule, embedder=embedder)
        kb = FolderKnowledgeBase(copy / "kb", index_dir / "fused", embedder=embedder)
        docs.sync()
        kb.sync()
        cold_fused = time.perf_counter() - t
        sections = len(docs.vectors or []) + len(kb.vectors or [])

        page = copy / "docs" / "src" / "oss" / "langgraph" / "streaming.mdx"
        if not page.exists():
            page = next((copy / "docs").rglob("*.mdx"))
        page.write_text(page.read_text() + "\n\n## Zyxwv\n\nA freshly added section.\n")
        t = time.perf_counter()
        changed = docs.sync()
        one_page = time.perf_counter() - t
        docs_lex.sync()
        assert changed.updated == 1, changed

        by_lang: dict[str, list[int]] = defaultdict(list)
        for n, q in enumerate(questions):
            by_lang[q.get("lang", "en")].append(n)
        lexical = [merged_search(docs_lex, kb_lex, q["question"]) for q in questions]
        fused = [merged_search(docs, kb, q["question"]) for q in questions]
        blended = [
            min(
                lexical_weight(docs.index.search(q["question"], RERANK_DEPTH)) or 1.0,
                lexical_weight(kb.index.search(q["question"], RERANK_DEPTH, snippets=False)) or 1.0,
            )
            < 1.0
            for q in questions
        ]
        times_fused: dict[str, list[float]] = defaultdict(list)
        times_lexical: dict[str, list[float]] = defaultdict(list)
        for _ in range(REPEATS):
            for q in questions:
                lang = q.get("lang", "en")
                times_lexical[lang].append(_timed(docs_lex, kb_lex, q["question"]))
                times_fused[lang].append(_timed(docs, kb, q["question"]))
        confident_en = [
            s
            for n in by_lang.get("en", [])
            if not blended[n]
            for s in [_timed(docs, kb, questions[n]["question"]) for _ in range(REPEATS)]
        ]
        result: dict[str, Any] = {
            "n": len(questions),
            "sections_embedded": sections,
            "cold_build_lexical_s": round(cold_lexical, 2),
            "cold_build_with_vectors_s": round(cold_fused, 2),
            "one_changed_page_s": round(one_page, 3),
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
        all_fused = [s for v in times_fused.values() for s in v]
        result["search_fused_all"] = _ms(all_fused)
        result["search_english_confident"] = _ms(confident_en) if confident_en else None
        result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        if args.show:
            for q, got in zip(questions, fused, strict=True):
                mark = [("*" if p in q["expected_paths"] else " ") + p for p in got[:5]]
                print(q["id"], q.get("lang"), q["question"][:70], file=sys.stderr)
                print("   " + "\n   ".join(mark), file=sys.stderr)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
