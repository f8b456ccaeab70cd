"""Which text of a section carries the cross-lingual gain: R@5 per language per embedded text.

    python -m bench.vector_texts [--corpora langchain,pydantic,pytest] [--prose 0,75,150]

Issue 34 asked to measure this before cutting what is embedded. Each variant embeds, per
section, the page title and heading trail followed by the first N characters of its prose
(`tools.search.vectors.PROSE_CHARS`, the only thing changed between variants), builds fresh
indexes of each corpus in a scratch folder, and reports per corpus and question language the
fused (served) R@5, beside the lexical-only R@5 of the same run, the mean tokens of an embedded
text and the embedding ms per section (the encoder's cost is linear in tokens).
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

import bench.retrieval as retrieval
from bench.corpora import load, load_questions
from bench.retrieval_languages import languages_report
from tools.search import vectors
from tools.search.embeddings import default_embedder, reference_tokenizer


def _texts(source: Any) -> list[str]:
    """Every embedded text of a source, as the current PROSE_CHARS makes them."""
    out: list[str] = []
    for key in source.index.keys():
        doc = source.index.get(key)
        if doc is not None:
            out.extend(t.text for t in vectors.section_texts(doc))
    return out


def measure(prose: int, names: str, scratch: Path) -> dict[str, Any]:
    """R@5 per language (fused and lexical), tokens and embed ms per section for one variant."""
    vectors.PROSE_CHARS = prose
    retrieval.CACHE = scratch / f"prose{prose}"
    tokenizer = reference_tokenizer()
    out: dict[str, Any] = {"prose_chars": prose, "corpora": {}}
    for corpus in load(names):
        if corpus.multilingual is None:
            continue
        report = languages_report(corpus, load_questions(corpus.multilingual))
        docs, _ = retrieval.open_sources(corpus, vectors=True)
        texts = _texts(docs)[:2000]
        tokens = [len(tokenizer.encode(t)) + 2 for t in texts]
        start = time.perf_counter()
        default_embedder().embed(texts)
        ms = (time.perf_counter() - start) * 1000 / max(1, len(texts))
        out["corpora"][corpus.name] = {
            "fused_r5": {k: v["fused"]["recall@5"] for k, v in report["languages"].items()},
            "lexical_r5": {k: v["lexical"]["recall@5"] for k, v in report["languages"].items()},
            "n": {k: v["n"] for k, v in report["languages"].items()},
            "mean_tokens": round(sum(tokens) / max(1, len(tokens)), 1),
            "embed_ms_per_section": round(ms, 2),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="")
    parser.add_argument("--prose", default="0,75,150")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(int(p), args.corpora, Path(tmp)) for p in args.prose.split(",")]
    print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
