"""Search engines side by side on one corpus: ours, SQLite FTS5 and tantivy, same pages, same questions.

    python -m bench.engines --corpus ../shared/corpus --questions ../shared/corpus/eval/dev.jsonl

The issue asked to measure FTS5 and tantivy and choose. All three index the same parsed pages
(tools/sources/markdown/parse.py) with title, headings and body as separate fields, and answer the raw question.
Printed per engine: build seconds, search p50/p95 (docs and KB searched separately, as the agent
does, limit 10), and recall@5 / MRR of the docs+KB ranking interleaved by rank for all three,
so the engines compare on ranking alone (bench/retrieval.py merges ours by calibrated score). FTS5 and tantivy rank whole pages with field weights (title 8, headings 3, body 1);
ours is the shipped index (section-level BM25 by tantivy, our ranking policy: title and anchor fields,
link prior, phrase re-ranking, snippets).
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import retrieval
from tools.sources.markdown.parse import parse_markdown
from tools.text import expand_for_index, query_terms

SUFFIXES = (".md", ".mdx", ".markdown")


def load_pages(root: Path) -> list[tuple[str, str, str, str]]:
    """(relative path, title, headings, body) of every page under root."""
    out = []
    for p in sorted(root.rglob("*")):
        if p.suffix in SUFFIXES:
            page = parse_markdown(p.name, p.read_text("utf-8", errors="replace"))
            headings = "\n".join(s.heading for s in page.sections if s.level > 0)
            body = "\n".join(s.text for s in page.sections)[:100_000]
            out.append((p.relative_to(root).as_posix(), page.title, headings, body))
    return out


def fts5_engine(pages: list[tuple[str, str, str, str]]) -> Callable[[str, int], list[str]]:
    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE VIRTUAL TABLE f USING fts5(path UNINDEXED, title, headings, body, tokenize='porter unicode61')"
    )
    db.executemany(
        "INSERT INTO f VALUES (?,?,?,?)",
        [
            (p, expand_for_index(t), expand_for_index(h), expand_for_index(b))
            for p, t, h, b in pages
        ],
    )

    def search(q: str, limit: int) -> list[str]:
        terms = query_terms(q)
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', "") + '"' for t in terms)
        rows = db.execute(
            "SELECT path FROM f WHERE f MATCH ? ORDER BY bm25(f, 0, 8.0, 3.0, 1.0) LIMIT ?",
            (match, limit),
        ).fetchall()
        return [r[0] for r in rows]

    return search


def tantivy_engine(
    pages: list[tuple[str, str, str, str]], tmp: Path
) -> Callable[[str, int], list[str]]:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("path", stored=True, tokenizer_name="raw")
    for name in ("title", "headings", "body"):
        builder.add_text_field(name, stored=False, tokenizer_name="en_stem")
    schema = builder.build()
    index = tantivy.Index(schema, path=str(tmp))
    writer = index.writer()
    for p, t, h, b in pages:
        writer.add_document(
            tantivy.Document(
                path=p,
                title=expand_for_index(t),
                headings=expand_for_index(h),
                body=expand_for_index(b),
            )
        )
    writer.commit()
    index.reload()
    searcher = index.searcher()

    def search(q: str, limit: int) -> list[str]:
        terms = [re.sub(r"[^\w]", "", t) for t in query_terms(q)]
        terms = [t for t in terms if t]
        if not terms:
            return []
        query = index.parse_query(
            " OR ".join(terms),
            ["title", "headings", "body"],
            field_boosts={"title": 8.0, "headings": 3.0, "body": 1.0},
        )
        return [searcher.doc(addr)["path"][0] for _, addr in searcher.search(query, limit).hits]

    return search


def ours_engine(
    corpus: Path, tmp: Path
) -> tuple[Callable[[str, int], list[str]], Callable[[str, int], list[str]]]:
    docs, kb = retrieval.open_sources(corpus, tmp)
    return (
        lambda q, n: [docs.rel_path(h.key) or h.key for h in docs.search(q, n)],
        lambda q, n: [kb.rel_path(h.key) or h.key for h in kb.search(q, n)],
    )


def measure(
    name: str,
    build_s: float,
    docs: Callable[[str, int], list[str]],
    kb: Callable[[str, int], list[str]],
    questions: list[dict[str, Any]],
) -> dict[str, Any]:
    samples, ranked = [], []
    for _ in range(3):
        for q in questions:
            t = time.perf_counter()
            d, k = docs(q["question"], 10), kb(q["question"], 10)
            samples.append((time.perf_counter() - t) * 1000)
    for q in questions:
        d, k = docs(q["question"], 10), kb(q["question"], 10)
        merged = [
            x
            for pair in zip([f"docs/{p}" for p in d], [f"kb/{p}" for p in k], strict=False)
            for x in pair
        ]
        ranked.append(merged)
    samples.sort()
    quality = retrieval.score(ranked, questions)
    return {
        "engine": name,
        "build_s": round(build_s, 2),
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(len(samples) * 0.95)], 3),
        "recall@5": quality["recall@5"],
        "mrr": quality["mrr"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--questions", type=Path, required=True)
    args = parser.parse_args()
    questions = retrieval.load_questions(args.questions)
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp_name:
        tmp = Path(tmp_name)
        t = time.perf_counter()
        docs_pages, kb_pages = load_pages(args.corpus / "docs"), load_pages(args.corpus / "kb")
        parse_s = time.perf_counter() - t
        t = time.perf_counter()
        f_docs, f_kb = fts5_engine(docs_pages), fts5_engine(kb_pages)
        results.append(
            measure(
                "sqlite-fts5 (pages)", parse_s + time.perf_counter() - t, f_docs, f_kb, questions
            )
        )
        (tmp / "td").mkdir()
        (tmp / "tk").mkdir()
        t = time.perf_counter()
        t_docs, t_kb = tantivy_engine(docs_pages, tmp / "td"), tantivy_engine(kb_pages, tmp / "tk")
        results.append(
            measure("tantivy (pages)", parse_s + time.perf_counter() - t, t_docs, t_kb, questions)
        )
        t = time.perf_counter()
        o_docs, o_kb = ours_engine(args.corpus, tmp / "ours")
        results.append(
            measure(
                "ours (sections, tantivy + policy)",
                time.perf_counter() - t,
                o_docs,
                o_kb,
                questions,
            )
        )
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
