"""The knowledge layer on the real reference corpus (../shared/corpus): parsing and ranking floors.

These guard the figures bench/retrieval.py reports: a change that costs the dev set its recall
or MRR fails here, not only in a benchmark someone has to remember to run. They skip, with the
reason, when the corpus is absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import retrieval
from tests.conftest import SHARED_CORPUS
from tools.sources.markdown.frontmatter import FRONTMATTER_RE
from tools.sources.markdown.parse import parse_markdown


def test_every_corpus_page_parses_with_a_title_and_sections(shared_corpus: Path) -> None:
    pages = [
        p
        for sub in ("docs", "kb")
        for p in sorted((shared_corpus / sub).rglob("*"))
        if p.suffix in {".md", ".mdx"}
    ]
    assert len(pages) > 1500
    plain, untitled, empty = [], [], []
    for p in pages:
        text = p.read_text("utf-8", errors="replace")
        page = parse_markdown(p.as_posix(), text)
        if page.meta.get("plain"):
            plain.append(p)
        if not page.title:
            untitled.append(p)
        # A page without sections must be a stub: nothing after its frontmatter.
        if not page.sections and FRONTMATTER_RE.sub("", text).strip():
            empty.append(p)
    assert plain == [], "pages fell back to plain text"
    assert untitled == []
    assert empty == [], "pages with a body lost all of it"


@pytest.fixture(scope="module")
def dev_rankings(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Any], list[list[str]]]:
    corpus = SHARED_CORPUS
    if not (corpus / "eval" / "dev.jsonl").is_file():
        pytest.skip(f"reference corpus eval set not found at {corpus}")
    questions = retrieval.load_questions(corpus / "eval" / "dev.jsonl")
    docs, kb = retrieval.open_sources(corpus, tmp_path_factory.mktemp("index"))
    return questions, [retrieval.merged_search(docs, kb, q["question"]) for q in questions]


def test_dev_set_meets_the_recall_and_mrr_targets(
    dev_rankings: tuple[list[Any], list[list[str]]],
) -> None:
    questions, ranked = dev_rankings
    scores = retrieval.score(ranked, questions)
    assert scores["recall@5"] >= 0.90, scores
    assert scores["mrr"] >= 0.75, scores


def test_dev_set_beats_rank_bm25_over_whole_pages(
    dev_rankings: tuple[list[Any], list[list[str]]],
) -> None:
    questions, ranked = dev_rankings
    ours = retrieval.score(ranked, questions)
    baseline = retrieval.score(retrieval.bm25_baseline(SHARED_CORPUS, questions), questions)
    assert ours["recall@5"] > baseline["recall@5"]
    assert ours["mrr"] > baseline["mrr"]
