"""Section vectors and their fusion with the lexical ranking (a deterministic fake embedder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.fake_embedder import FakeEmbedder
from tools.docs import create_docs_tools
from tools.kb import FolderKnowledgeBase, create_kb_tools
from tools.presentation.corpus_language import description_note, in_corpus_language, weak_match_note
from tools.search import Hit
from tools.search.function_words import content_query
from tools.search.fusion import GATE, fuse, lexical_weight, unread_words
from tools.search.lexical import K1
from tools.search.vectors import VectorStore, section_texts
from tools.sources.corpus import FolderCorpus, UrlRule

PAGES = {
    "streaming.mdx": "---\ntitle: Streaming\ndescription: Stream output as it is produced\n---\n\n"
    "Intro to streaming.\n\n## Stream LLM tokens\n\nStream tokens from subgraph nodes with "
    "subgraphs=True.\n\n## Stream custom data\n\nWrite custom data with the stream writer.\n",
    "graph-api.mdx": "---\ntitle: Graph API\n---\n\n## StateGraph\n\nBuild a StateGraph and "
    "compile it.\n\n## Recursion limit\n\nLimit the number of steps of a run.\n",
    "persistence.mdx": "---\ntitle: Persistence\n---\n\n## Checkpointers\n\nSave the state of "
    "each step in a checkpointer.\n",
    "install.mdx": "---\ntitle: Install\n---\n\n## Install the package\n\nRun pip install.\n",
}


def write(root: Path, pages: dict[str, str]) -> None:
    for rel, text in pages.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.fixture
def embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def corpora(tmp_path: Path, index_dir: Path, embedder: FakeEmbedder) -> tuple[FolderCorpus, ...]:
    """The same pages with vectors (`fused`) and without (`lexical`), in separate indexes."""
    write(tmp_path / "docs", PAGES)
    rule = UrlRule("https://d.example")
    fused = FolderCorpus(tmp_path / "docs", "docs", index_dir / "f", rule, embedder=embedder)
    lexical = FolderCorpus(tmp_path / "docs", "docs", index_dir / "l", rule)
    return fused, lexical


def test_gate_is_half_the_query_once_in_a_section() -> None:
    # One occurrence of a term earns idf × (k1+1) × 1/(k1+1) of its ceiling idf × (k1+1).
    assert GATE == pytest.approx(0.5 / (K1 + 1))
    hits = [
        Hit("a", "", "", "", 1.0, calibrated=GATE / 2),
        Hit("b", "", "", "", 0.5, calibrated=0.01),
    ]
    assert lexical_weight(hits) == pytest.approx(0.5)
    assert lexical_weight([Hit("a", "", "", "", 1.0, calibrated=GATE * 3)]) == 1.0
    assert lexical_weight([Hit("a", "", "", "", 1.0)]) is None  # an HTTP backend's hits
    assert lexical_weight([]) == 0.0


def test_confident_lexical_ranking_is_untouched_and_not_embedded(
    corpora: tuple[FolderCorpus, ...], embedder: FakeEmbedder
) -> None:
    fused, lexical = corpora
    fused.sync()  # embeds the sections; searches below embed nothing
    for query in ["stream tokens from subgraph nodes", "StateGraph compile", "pip install"]:
        before = embedder.embedded
        got = fused.search(query, 3)
        want = lexical.search(query, 3)
        assert got and [(h.key, h.score, h.calibrated, h.section) for h in got] == [
            (h.key, h.score, h.calibrated, h.section) for h in want
        ]
        assert max(h.calibrated or 0 for h in got) >= GATE
        assert embedder.embedded == before  # the query was never embedded


def test_weak_lexical_ranking_is_blended_with_vectors(
    corpora: tuple[FolderCorpus, ...], embedder: FakeEmbedder
) -> None:
    fused, lexical = corpora
    query = "Jak przesyłać strumieniowo tokeny z podgrafów?"
    assert lexical.search(query, 3) == []  # no Polish word is in the pages
    got = fused.search(query, 3)
    assert got[0].key == "streaming.mdx"
    assert got[0].section == "Stream LLM tokens" and got[0].anchor == "stream-llm-tokens"
    assert got[0].url == "https://d.example/streaming" and got[0].title == "Streaming"
    assert "subgraph" in got[0].snippet
    # Vector evidence alone is worth at most a borderline lexical match.
    assert all(0 < (h.calibrated or 0) <= GATE for h in got)
    assert [h.score for h in got] == sorted((h.score for h in got), reverse=True)
    assert embedder.calls[-1] == [query]
    fused.search("ограничить " * 5_000, 3)  # a pasted wall of text: only its start is embedded
    assert len(embedder.calls[-1][0]) == 1_000
    assert fused.search("", 3) == [] and fused.search("   ", 3) == []


def test_partial_lexical_match_keeps_its_weight_in_the_blend(
    corpora: tuple[FolderCorpus, ...],
) -> None:
    fused, lexical = corpora
    # "checkpointer" matches one page lexically; the Russian words only by meaning.
    query = "checkpointer ограничить шагов"
    weak = lexical.search(query, 5)
    weight = lexical_weight(weak)
    assert weak and weight is not None and 0 < weight < 1
    got = fused.search(query, 5)
    keys = [h.key for h in got]
    assert "persistence.mdx" in keys and "graph-api.mdx" in keys
    lex_top = weak[0]
    blended = next(h for h in got if h.key == lex_top.key)
    assert blended.calibrated is not None and blended.calibrated >= weight * (
        lex_top.calibrated or 0
    )


def test_fuse_leaves_hits_without_calibration_or_vectors(tmp_path: Path) -> None:
    hits = [Hit("a", "u", "t", "", 2.0), Hit("b", "u", "t", "", 1.0)]
    store = VectorStore(tmp_path / "v.sqlite", FakeEmbedder())
    assert fuse(hits, "anything", store, 1) == hits[:1]
    weak = [Hit("a", "u", "t", "", 2.0, calibrated=0.01)]
    assert fuse(weak, "anything", None, 5) == weak
    assert fuse(weak, "anything", store, 5) == weak  # an empty store


def test_vectors_are_updated_incrementally(
    tmp_path: Path, corpora: tuple[FolderCorpus, ...], embedder: FakeEmbedder
) -> None:
    fused, _ = corpora
    fused.sync()
    assert fused.vectors is not None
    total = len(fused.vectors)
    assert embedder.embedded == total > 0
    assert fused.sync().sections_added == [] and embedder.embedded == total  # nothing changed

    page = tmp_path / "docs" / "streaming.mdx"
    page.write_text(page.read_text().replace("Write custom data", "Emit custom data"))
    stats = fused.sync()
    assert (stats.updated, stats.added, stats.removed) == (1, 0, 0)
    assert embedder.calls[-1] == [
        "Streaming › Stream custom data: Emit custom data with the stream writer."
    ]
    assert len(fused.vectors) == total

    (tmp_path / "docs" / "install.mdx").unlink()
    write(tmp_path / "docs", {"new.mdx": "# New\n\n## Install the package\n\nRun pip install.\n"})
    before = embedder.embedded
    stats = fused.sync()
    assert (stats.updated, stats.added, stats.removed) == (0, 1, 1)
    assert "install.mdx" not in fused.vectors.keys() and "new.mdx" in fused.vectors.keys()
    assert embedder.embedded - before == 2  # the new title changes both texts' heading trail
    hits = fused.search("strumieniowo tokeny", 5)
    assert hits[0].key == "streaming.mdx"


def test_vectors_reopen_without_reembedding_and_reset_for_another_model(
    tmp_path: Path, index_dir: Path
) -> None:
    write(tmp_path / "docs", PAGES)
    first = FakeEmbedder()
    FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=first).sync()
    again = FakeEmbedder()
    FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=again).sync()
    assert first.embedded > 0 and again.embedded == 0

    other = FakeEmbedder()
    other.name = "another-model"
    FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=other).sync()
    assert other.embedded == first.embedded  # another model's vectors are not reused


def test_section_texts_carry_title_and_heading_trail(corpora: tuple[FolderCorpus, ...]) -> None:
    fused, _ = corpora
    doc = fused.get("streaming.mdx")
    assert doc is not None
    texts = [s.text for s in section_texts(doc)]
    assert texts[0] == "Streaming: Stream output as it is produced"
    assert texts[1].startswith("Streaming › Stream LLM tokens: Stream tokens from subgraph")


def test_kb_vector_hits_respect_collections(tmp_path: Path, index_dir: Path) -> None:
    root = tmp_path / "kb"
    write(
        root,
        {
            "errors/limit.mdx": "---\ntitle: Recursion limit reached\n---\n\nLimit the steps.\n",
            "faq/tokens.mdx": "---\ntitle: Stream tokens\n---\n\nStream tokens from a subgraph.\n",
        },
    )
    kb = FolderKnowledgeBase(root, index_dir, embedder=FakeEmbedder())
    assert [h.key for h in kb.search("ограничить шагов", 5)][0] == "errors/limit"
    assert "errors/limit" not in [h.key for h in kb.search("ограничить шагов", 5, ["faq"])]
    assert [h.key for h in kb.search("токенов", 5, ["faq"])] == ["faq/tokens"]
    assert kb.search("токенов", 5, ["nowhere"]) == []


def test_tools_tell_the_corpus_language_and_flag_weak_foreign_queries(
    corpora: tuple[FolderCorpus, ...], tmp_path: Path, index_dir: Path
) -> None:
    fused, _ = corpora
    search, _ = create_docs_tools(fused, "English")
    assert "written in English" in search.description and "identifiers" in search.description
    out = search.invoke({"query": "Jak przesyłać strumieniowo tokeny?", "feedback_to_user": ""})
    assert "Streaming" in out and "search again with the English terms" in out
    out = search.invoke({"query": "How do I stream tokens?", "feedback_to_user": ""})
    assert "Note:" not in out
    german = create_docs_tools(fused, "German")[0]
    assert "written in German" in german.description

    write(tmp_path / "kb", {"faq/a.mdx": "---\ntitle: Stream tokens\n---\n\nStream tokens.\n"})
    kb_search, _ = create_kb_tools(FolderKnowledgeBase(tmp_path / "kb", index_dir / "kb"))
    assert "written in English" in kb_search.description
    out = kb_search.invoke({"query": "Как ограничить число шагов?", "feedback_to_user": ""})
    assert "No support articles found" in out and "English terms" in out


def test_in_corpus_language_and_weak_match_note() -> None:
    assert in_corpus_language("How do I stream tokens?", "English") is True
    assert in_corpus_language("Как ограничить число шагов?", "English") is False
    assert in_corpus_language("Jak przesyłać tokeny?", "English") is False
    assert in_corpus_language("Tokens Subgraphen streamen", "English") is None
    assert in_corpus_language("How do I stream tokens?", "German") is None
    strong = [Hit("a", "", "", "", 1.0, calibrated=GATE * 2)]
    weak = [Hit("a", "", "", "", 1.0, calibrated=GATE / 2)]
    assert weak_match_note(strong, "Как стримить?", "English") == ""
    assert "English terms" in weak_match_note(weak, "Как стримить?", "English")
    assert weak_match_note(weak, "How do I stream?", "English") == ""
    assert weak_match_note([Hit("a", "", "", "", 1.0)], "Как?", "English") == ""
    assert "German" in description_note("German")


def test_function_words_of_other_languages_leave_a_weak_query() -> None:
    assert content_query("¿Cómo puedo ver el estado del subgrafo?") == "ver estado subgrafo?"
    assert content_query("Wie kann ich die Anzahl der Schritte begrenzen?") == (
        "Anzahl Schritte begrenzen?"
    )
    assert content_query("Jak zmienić limit w agencie LangGraph?") == (
        "zmienić limit agencie LangGraph?"
    )
    assert content_query("de_duplicate LaTeX la") == "de_duplicate LaTeX"


def test_weak_query_is_searched_without_foreign_function_words(
    tmp_path: Path, index_dir: Path
) -> None:
    pages = {
        **PAGES,
        # A page quoting Spanish text: it matches a Spanish question's function words only.
        "translate.mdx": "---\ntitle: Translate documents\n---\n\n## Example\n\n"
        "El documento de la empresa y el informe del mes, de la casa.\n",
    }
    write(tmp_path / "docs", pages)
    fused = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule(), embedder=FakeEmbedder())
    fused.sync()
    query = "¿Cómo limitar el número de pasos de la recursion?"
    assert fused.index.search(query, 3)[0].key == "translate.mdx"  # the words alone
    assert fused.search(query, 3)[0].key == "graph-api.mdx"
    # A confident English query is searched as it is, function words and all.
    assert fused.search("stream custom data", 1)[0].key == "streaming.mdx"


def test_load_reads_statistics_and_vectors_before_the_first_query(
    corpora: tuple[FolderCorpus, ...],
) -> None:
    """What a server's warm-up calls: the first question then reads no statistics or vectors."""
    fused, _ = corpora
    assert fused.vectors is not None
    fused.load_lexical()
    fused.load_vectors()
    assert fused.index._stats is not None
    view = fused.vectors._view
    assert view is not None and view.pages == len(PAGES)
    version = view.version
    fused.search("Jak przesyłać strumieniowo tokeny z podgrafów?", 3)
    assert fused.vectors._view is view and view.version == version  # loaded once, reused


def test_vectors_read_the_words_the_lexical_side_could_not() -> None:
    held = {"llm", "openai", "api", "toolcalls", "tool", "call", "estado"}

    def known(terms: list[str]) -> set[str]:
        return held.intersection(terms)

    assert unread_words("Strumieniowanie tokenów LLM z podgrafu", known) == (
        "Strumieniowanie tokenów z podgrafu"
    )
    assert unread_words("Błąd limitu w OpenAI API, `tool_calls`!", known) == "Błąd limitu w"
    # A plain word stays even when the index holds it (a page may quote Spanish), and so does
    # an identifier or acronym the index does not hold: the lexical side did not read it.
    assert unread_words("el estado de FooBarBaz y XYZ", known) == "el estado de FooBarBaz y XYZ"
    assert unread_words("LLM API", known) == ""
    assert unread_words("", known) == ""


def test_identifiers_the_index_matched_do_not_steer_the_vectors(
    tmp_path: Path, index_dir: Path, embedder: FakeEmbedder
) -> None:
    pages = dict(PAGES)
    pages["streaming.mdx"] = pages["streaming.mdx"].replace("Stream LLM tokens", "Stream tokens")
    pages["llm.mdx"] = (
        "---\ntitle: LLM integrations\n---\n\n## LLM providers\n\nEach LLM provider, LLM by LLM.\n"
    )
    write(tmp_path / "docs", pages)
    fused = FolderCorpus(
        tmp_path / "docs", "docs", index_dir, UrlRule("https://d.example"), embedder=embedder
    )
    fused.sync()
    query = "Jak przesyłać strumieniowo tokeny LLM z podgrafów?"
    lexical = {h.key: h.calibrated or 0.0 for h in fused.index.search(query, 12)}
    weight = min(1.0, max(lexical.values()) / GATE)
    assert list(lexical) == ["llm.mdx"] and 0 < weight < 1  # only "LLM" matched
    got = {h.key: h.calibrated for h in fused.search(query, 3)}
    assert embedder.calls[-1] == ["Jak przesyłać strumieniowo tokeny z podgrafów?"]
    # "LLM" counts once, on the lexical side: read by the vectors too, it lifts the LLM page
    # a second time, and the page the Polish words mean less.
    hits = fused.index.search(content_query(query), 12)  # as `ranked` searches a weak query
    assert fused.vectors is not None
    twice = {h.key: h.calibrated for h in fuse(hits, query, fused.vectors, 3)}
    assert got["llm.mdx"] < twice["llm.mdx"]
    assert got["streaming.mdx"] > twice["streaming.mdx"]


def test_known_terms_of_a_pasted_wall_of_identifiers(
    corpora: tuple[FolderCorpus, ...],
) -> None:
    fused, _ = corpora
    fused.sync()
    many = [f"term{i}" for i in range(2_000)] + ["stategraph"]
    assert fused.index.known_terms(many) == {"stategraph"}
    assert fused.index.known_terms([]) == set()
    wall = " ".join(f"Class{i}Name" for i in range(3_000))  # far past what the encoder reads
    assert fused.search("Jak " + wall, 3) is not None
