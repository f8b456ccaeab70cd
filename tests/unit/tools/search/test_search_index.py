"""SearchIndex / FolderCorpus: ranking signals, identifier splitting, incremental sync, bad queries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.search import Hit, merge_rankings
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.text import expand_for_index, query_terms, split_identifier

PAGES = {
    "guides/streaming.mdx": '---\ntitle: Streaming\ndescription: Stream tokens\n---\n\nIntro.\n\n## Stream LLM tokens\n\nUse `stream_mode="messages"` with subgraphs=True.\n',
    "guides/graph-api.mdx": "---\ntitle: Graph API\n---\n\n## StateGraph\n\nBuild a StateGraph and compile it. See [streaming](/guides/streaming).\n",
    "guides/errors/INVALID_CONCURRENT_GRAPH_UPDATE.mdx": "---\ntitle: INVALID_CONCURRENT_GRAPH_UPDATE\n---\n\nCan receive only one value per step. Use a reducer. [stream](/guides/streaming)\n",
    "integrations/acme.mdx": "---\ntitle: Acme chat\n---\n\nAcme supports streaming. Acme acme acme.\n",
}


def write(root: Path, pages: dict[str, str]) -> None:
    for rel, text in pages.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.fixture
def corpus(tmp_path: Path, index_dir: Path) -> FolderCorpus:
    write(tmp_path / "docs", PAGES)
    return FolderCorpus(
        tmp_path / "docs", "docs", index_dir, UrlRule("https://d.example/", ("guides/",))
    )


def test_split_identifier_and_query_terms() -> None:
    assert split_identifier("StateGraph") == ["state", "graph"]
    assert split_identifier("stream_mode") == ["stream", "mode"]
    assert split_identifier("INVALID_CONCURRENT_GRAPH_UPDATE") == [
        "invalid",
        "concurrent",
        "graph",
        "update",
    ]
    assert split_identifier("HTTPServer") == ["http", "server"]
    assert "state graph stategraph" in expand_for_index("use StateGraph")
    assert query_terms("How do I use the StateGraph?") == ["stategraph", "state", "graph"]


def test_ranking_sections_urls_and_identifiers(corpus: FolderCorpus) -> None:
    hits = corpus.search("stream LLM tokens", 5)
    assert hits[0].key == "guides/streaming.mdx"
    assert hits[0].url == "https://d.example/streaming"
    assert hits[0].section == "Stream LLM tokens" and hits[0].anchor == "stream-llm-tokens"
    assert "stream_mode" in hits[0].snippet
    # identifiers match their split words and the other way round
    assert corpus.search("state graph", 3)[0].key == "guides/graph-api.mdx"
    assert corpus.search("StateGraph", 3)[0].key == "guides/graph-api.mdx"
    # (which of two pages matching "graph" leads is BM25's length normalisation: not asserted)
    assert "INVALID_CONCURRENT_GRAPH_UPDATE" in [
        h.title for h in corpus.search("concurrent graph update", 3)
    ]
    assert (
        corpus.search("invalid concurrent update", 3)[0].title == "INVALID_CONCURRENT_GRAPH_UPDATE"
    )
    assert corpus.search("INVALID_CONCURRENT_GRAPH_UPDATE", 3)[0].title == (
        "INVALID_CONCURRENT_GRAPH_UPDATE"
    )
    assert (
        corpus.find("https://d.example/streaming/#stream-llm-tokens").key == "guides/streaming.mdx"
    )
    assert corpus.find("graph-api").title == "Graph API"


@pytest.mark.parametrize(
    "query", ["", "   ", '"', "AND OR NOT", "*", "NEAR(", "the of and", "a" * 5000, "\x00"]
)
def test_garbage_queries_return_lists_not_errors(corpus: FolderCorpus, query: str) -> None:
    assert isinstance(corpus.search(query, 5), list)


def test_limit_is_capped(corpus: FolderCorpus) -> None:
    assert len(corpus.search("streaming", 10**9)) <= 100
    assert len(corpus.search("streaming", -3)) == 1


def test_incremental_sync(tmp_path: Path, corpus: FolderCorpus) -> None:
    first = corpus.sync()
    assert first.added == 4
    assert corpus.sync().unchanged == 4
    page = tmp_path / "docs" / "integrations" / "acme.mdx"
    page.write_text(page.read_text() + "\nNew words: zyxwvu.\n")
    os.utime(page, (1, 1))
    stats = corpus.sync()
    assert (stats.updated, stats.added, stats.unchanged) == (1, 0, 3)
    assert corpus.search("zyxwvu", 3)[0].key == "integrations/acme.mdx"
    # touched but same content: hash says unchanged, nothing re-indexed
    os.utime(page, (2, 2))
    assert corpus.sync().updated == 0
    page.unlink()
    assert corpus.sync().removed == 1
    assert corpus.search("zyxwvu", 3) == []


@pytest.mark.parametrize(
    ("linking_page", "link"),
    [("p{i}.md", "[a](/a)"), ("sub/p{i}.md", "[alpha](../a.md)")],  # site-relative, relative
)
def test_link_prior_prefers_linked_page(
    tmp_path: Path, index_dir: Path, linking_page: str, link: str
) -> None:
    pages = {"a.md": "# Alpha\n\nwidget setup.\n", "b.md": "# Beta\n\nwidget setup.\n"}
    pages.update({linking_page.format(i=i): f"# P{i}\n\nSee {link}.\n" for i in range(5)})
    write(tmp_path / "site", pages)
    c = FolderCorpus(tmp_path / "site", "docs", index_dir, UrlRule())
    assert [h.key for h in c.search("widget setup", 2)] == ["a.md", "b.md"]
    assert c.index.search("widget setup", 2, prior_weight=0.0)[0].score == pytest.approx(
        c.index.search("widget setup", 2, prior_weight=0.0)[1].score
    )


def test_collections_filter(tmp_path: Path, index_dir: Path) -> None:
    write(
        tmp_path / "kb",
        {"errors/x.md": "# X\n\ntimeout error\n", "faq/y.md": "# Y\n\ntimeout question\n"},
    )
    c = FolderCorpus(
        tmp_path / "kb", "kb", index_dir, UrlRule(), collection_for=lambda r: r.split("/")[0]
    )
    assert {h.collection for h in c.search("timeout", 5)} == {"errors", "faq"}
    assert [h.collection for h in c.search("timeout", 5, ["faq"])] == ["faq"]


def test_calibrated_score_falls_with_query_words_the_page_lacks(corpus: FolderCorpus) -> None:
    full = corpus.search("stream tokens subgraphs", 1)[0]
    partial = corpus.search("stream tokens subgraphs zyxwvut", 1)[0]
    assert full.key == partial.key == "guides/streaming.mdx"
    assert full.calibrated is not None and partial.calibrated is not None
    # A word no page has counts in the query's ceiling: the same page is a weaker answer.
    assert 0 < partial.calibrated < full.calibrated


def test_merge_rankings_by_calibrated_score_keeps_each_lists_order() -> None:
    d = [Hit("d1", "", "", "", 50.0), Hit("d2", "", "", "", 40.0), Hit("d3", "", "", "", 30.0)]
    k = [Hit("k1", "", "", "", 9.0), Hit("k2", "", "", "", 8.0)]
    for h, c in zip(d + k, (0.9, 0.5, 0.4, 0.45, 0.8), strict=True):
        h.calibrated = c
    # k1's weak score lets d2 go first; k2 outscores d2 but stays after k1.
    assert [h.key for _, h in merge_rankings([("docs", d), ("kb", k)], 5)] == [
        "d1",
        "d2",
        "k1",
        "k2",
        "d3",
    ]


def test_merge_rankings_interleaves_by_rank() -> None:
    """Without calibrated scores (an HTTP backend's hits), lists are interleaved by rank."""
    d = [Hit("d1", "", "", "", 50.0), Hit("d2", "", "", "", 40.0)]
    k = [Hit("k1", "", "", "", 900.0)]
    assert [(s, h.key) for s, h in merge_rankings([("docs", d), ("kb", k)], 3)] == [
        ("docs", "d1"),
        ("kb", "k1"),
        ("docs", "d2"),
    ]
    assert merge_rankings([("docs", d), ("kb", k)], 1)[0][1].key == "d1"
    assert merge_rankings([], 5) == []


def test_unparseable_page_is_indexed_as_text(
    tmp_path: Path, index_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path / "bad", {"broken.mdx": "---\ntitle: [unclosed\n---\n\nquokka facts\n"})
    c = FolderCorpus(tmp_path / "bad", "docs", index_dir, UrlRule())
    assert c.search("quokka", 3)[0].key == "broken.mdx"
    assert "frontmatter" in caplog.text


def test_changed_page_drops_its_old_terms_and_keeps_others(
    tmp_path: Path, corpus: FolderCorpus
) -> None:
    corpus.sync()
    before = [(h.key, round(h.score, 6)) for h in corpus.search("graph api compile", 4)]
    page = tmp_path / "docs" / "integrations" / "acme.mdx"
    page.write_text("---\ntitle: Acme chat\n---\n\nNow about qwertyuiop only.\n")
    os.utime(page, (5, 5))
    assert corpus.sync().updated == 1
    assert corpus.search("supports", 3) == []  # the old text's terms are gone
    assert corpus.search("qwertyuiop", 3)[0].key == "integrations/acme.mdx"
    # A reopened index (fresh process) sees the same terms as the live one.
    reopened = FolderCorpus(corpus.root, "docs", corpus.index.db_path.parent, corpus.url_rule)
    assert [h.key for h in reopened.search("qwertyuiop", 3)] == ["integrations/acme.mdx"]
    after = [(h.key, round(h.score, 6)) for h in corpus.search("graph api compile", 4)]
    assert [k for k, _ in after] == [k for k, _ in before]


def test_query_pairs_match_the_pairs_stored_at_index_time() -> None:
    """The phrase boost compares query pairs with stored ones: both must encode pairs alike."""
    from tools.search.phrases import pair_codes, query_pairs, term_hashes

    for seq in ([], ["stream"], ["stream", "token", "stream", "token"], ["a", "b", "c", "a", "b"]):
        assert query_pairs(seq).tolist() == pair_codes(term_hashes(seq)).tolist()


def test_sync_names_the_sections_it_added_and_removed(tmp_path: Path, corpus: FolderCorpus) -> None:
    """What a store kept beside the index (section vectors) needs to follow it incrementally."""
    first = corpus.sync()
    assert first.sections_removed == []
    texts = corpus.index.section_texts(first.sections_added)
    assert [t[0] for t in texts] == sorted(first.sections_added)
    acme = [t for t in texts if t[1] == "integrations/acme.mdx"]
    assert len(acme) == 1 and "Acme supports streaming" in acme[0][3]
    page = tmp_path / "docs" / "integrations" / "acme.mdx"
    page.write_text("---\ntitle: Acme chat\n---\n\nNow about qwertyuiop.\n")
    os.utime(page, (7, 7))
    changed = corpus.sync()
    assert changed.sections_removed == [acme[0][0]]
    (new,) = corpus.index.section_texts(changed.sections_added)
    assert new[1] == "integrations/acme.mdx" and "qwertyuiop" in new[3]
    assert new[0] not in first.sections_added  # ids are never reused
    assert corpus.sync().sections_added == []


def test_an_index_of_an_older_schema_is_rebuilt_on_open(
    tmp_path: Path, index_dir: Path, corpus: FolderCorpus
) -> None:
    """A new release that changes what the index keeps (SCHEMA_VERSION) rebuilds an old index."""
    import sqlite3

    from tools.search.storage import SCHEMA_VERSION

    corpus.sync()
    assert corpus.search("stream LLM tokens", 1)[0].key == "guides/streaming.mdx"
    (db,) = index_dir.glob("docs-*.sqlite")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE secs SET prose = 'stale prose'")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION - 1}")
    reopened = FolderCorpus(
        tmp_path / "docs", "docs", index_dir, UrlRule("https://d.example/", ("guides/",))
    )
    reopened.sync()
    hit = reopened.search("stream LLM tokens", 1)[0]
    assert hit.key == "guides/streaming.mdx" and "stale" not in hit.snippet
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
