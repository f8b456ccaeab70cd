"""Links in the index: anchor text counts less than a section's own words, URLs are no words,
the words go (as an anchor field) to the page linked, and relative links (the usual form in a
Markdown folder) count like site links."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tools.search.analysis import analyse_page, links
from tools.search.anchors import BODY_UNITS, split_links
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.markdown.parse import parse_markdown


def write(root: Path, pages: dict[str, str]) -> None:
    for rel, text in pages.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def body_tf(text: str) -> dict[str, int]:
    """Body tf of each term of a one-section page as the engine weighs it, in `BODY_UNITS` per
    own word: own words (field `text`) count `BODY_UNITS`, anchor words (field `anchor`,
    boosted by `ANCHOR_WEIGHT`) one."""
    page = parse_markdown("p.md", f"# P\n\n{text}\n")
    section = analyse_page("p.md", 0.0, 0, "d", page, "", "").sections[-1]
    tf = Counter({t: n * BODY_UNITS for t, n in Counter(section.body_terms.split()).items()})
    tf.update(section.anchor_terms.split())
    return dict(tf)


def test_split_links_separates_own_words_anchor_words_and_reading_order() -> None:
    own, anchors, reading, named = split_links(
        "Requests are checked (see [Authentication](auth.md)) first. ![A diagram](img/flow.png)"
    )
    assert named == [("Authentication", "auth.md")]  # the image is no link to a page
    assert "Authentication" not in own and "auth.md" not in own and "img" not in own
    assert "A diagram" in own  # an image's alt text describes this page
    assert anchors == "Authentication"
    assert reading == "Requests are checked (see Authentication) first. A diagram"


def test_links_inside_code_fences_are_code() -> None:
    text = "Call it:\n\n```python\nhandlers[0](event)\n```\n\nthen [read on](next.md)."
    own, anchors, reading, _ = split_links(text)
    assert "handlers[0](event)" in own and "handlers[0](event)" in reading
    assert anchors == "read on"


def test_text_without_links_is_unchanged() -> None:
    assert split_links("plain words only") == ("plain words only", "", "plain words only", [])


def test_anchor_words_count_less_than_own_words_and_urls_not_at_all() -> None:
    tf = body_tf("Tokens are checked. See [tokens](guides/secret-handling.md).")
    # one own mention (BODY_UNITS) plus one anchor mention (one unit)
    assert tf["token"] == BODY_UNITS + 1
    assert "secret" not in tf and "handling" not in tf and "md" not in tf
    assert body_tf("[Tokens](t.md) here.")["token"] < body_tf("Tokens here.")["token"]


def test_overview_page_of_links_does_not_outrank_the_page_it_points_to(
    tmp_path: Path, index_dir: Path
) -> None:
    write(
        tmp_path / "docs",
        {
            "index.md": "# Overview\n\nThe guides: [Authentication](auth.md), "
            "[Streaming](streaming.md), [Deploying](deploy.md).\n",
            "auth.md": "# Access control\n\nSet bearer tokens to turn authentication on.\n",
            "streaming.md": "# Streaming\n\nEvents.\n",
            "deploy.md": "# Deploying\n\nServers.\n",
        },
    )
    c = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule())
    c.sync()
    # Without the link prior, so only the words decide.
    assert c.index.search("authentication", 2, prior_weight=0.0)[0].key == "auth.md"


def test_relative_links_resolve_against_the_page_and_drop_the_suffix() -> None:
    page = parse_markdown(
        "guides/a.md",
        "See [b](../b.mdx#part), [c](c.md), [site](/oss/q/), [web](https://x.example/y), "
        "[mail](mailto:a@b.c), [here](#top) and <a href='d/e.md'>e</a>.",
    )
    assert links(page, "guides/a.md") == {
        "b": "b",
        "guides/c": "c",
        "/oss/q": "site",
        "guides/d/e": "e",  # an HTML link reads as the link the site shows, words and all
    }


def test_links_to_pages_of_other_formats_and_built_pages_name_the_page() -> None:
    """A Sphinx source links `x.rst`, a built site `x.html`: each names page `x`, as `x.md` does."""
    page = parse_markdown(
        "how-to/a.md",
        "See [fixtures](fixtures.rst), [the guide](../explanation/goodpractices.html#layout)"
        " and [a download](files/data.zip).",
    )
    assert links(page, "how-to/a.md") == {
        "how-to/fixtures": "fixtures",
        "explanation/goodpractices": "the guide",
        "how-to/files/data.zip": "a download",
    }


def test_a_link_to_a_folders_index_page_names_the_folder(tmp_path: Path, index_dir: Path) -> None:
    """`how-to/index.rst` is keyed by its folder (as every page key drops `index`): a link to it,
    written with or without the file name, lifts that page and no other `index` page."""
    page = parse_markdown("a.md", "[guides](how-to/index.html), [home](index.md), [g](how-to/)")
    # The site's root page has no path words to match: a link to it names no page.
    assert links(page, "a.md") == {"how-to": "guides\ng"}
    pages = {
        "index.md": "# Home\n\nWelcome.\n",
        "how-to/index.md": "# How-to guides\n\nGuides.\n",
        "a.md": "# A\n\nSee [the guides](how-to/index.md).\n",
        "b.md": "# B\n\nSee [the guides](how-to/index.md).\n",
    }
    write(tmp_path / "docs", pages)
    c = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule())
    c.sync()
    priors = c.index.priors()
    assert priors["how-to/index.md"] > 0 and priors["index.md"] == 0


def test_linked_page_is_found_by_the_words_others_link_to_it_with(
    tmp_path: Path, index_dir: Path
) -> None:
    pages = {
        "signin.md": "# Sign-in\n\nSet bearer tokens in the environment.\n",
        "other.md": "# Other\n\nSet bearer tokens in a file.\n",
        "a.md": "# A\n\nRequests are checked first (see [authentication](signin.md)).\n",
    }
    write(tmp_path / "docs", pages)
    c = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule())
    c.sync()
    hits = c.index.search("bearer tokens authentication", 3, prior_weight=0.0)
    assert hits[0].key == "signin.md"  # its own words tie with other.md: the anchor decides


def test_anchor_field_is_a_set_per_page(tmp_path: Path, index_dir: Path) -> None:
    # b.md is linked as "widget" from five pages, c.md from one: both have the word once.
    pages = {
        "b.md": "# B\n\nText.\n",
        "c.md": "# C\n\nText.\n",
        "d.md": "# D\n\nSee [widget](c.md).\n",
    }
    pages.update({f"p{i}.md": f"# P{i}\n\nSee [widget](b.md).\n" for i in range(5)})
    write(tmp_path / "docs", pages)
    c = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule())
    c.sync()
    scores = {h.key: h.score for h in c.index.search("widget", 10, prior_weight=0.0)}
    assert scores["b.md"] == scores["c.md"] > 0


def test_a_link_list_items_description_counts_as_anchor_words() -> None:
    text = (
        "Intro on [inline](/x) links.\n\n"
        "- [Frontend](/a)—Build UIs with subgraph events\n"
        "- **[B](/b)**: more words [C](/c) tail\n"
        "1. [E](/e) numbered entry\n"
        "- an item that says it [here](/d) itself\n"
        "Own line.\n"
    )
    own, anchors, _, named = split_links(text)
    for described in ("Build UIs with subgraph events", "more words", "tail", "numbered entry"):
        assert described in anchors and described not in own
    # A link inside a sentence, or an item that does not open with a link: own words stay own.
    for kept in ("Intro on", "links.", "an item that says it", "itself", "Own line."):
        assert kept in own and kept not in anchors
    assert [url for _, url in named] == ["/x", "/a", "/b", "/c", "/e", "/d"]


def test_link_list_description_words_weigh_half_but_count_fully_in_length() -> None:
    listed = body_tf("- [Guide](g.md): subgraph events explained\n")
    said = body_tf("Subgraph events explained in this guide.\n")
    assert listed["subgraph"] == 1 and said["subgraph"] == BODY_UNITS
    page = parse_markdown("p.md", "# P\n\n- [Guide](g.md): subgraph events explained\n")
    section = analyse_page("p.md", 0.0, 0, "d", page, "", "").sections[-1]
    # Four words (guide, subgraph, event, explain): verbosity counts every word said.
    assert section.blen == 4 * BODY_UNITS


def test_a_link_list_scores_below_a_section_that_says_the_same_itself(
    tmp_path: Path, index_dir: Path
) -> None:
    write(
        tmp_path / "docs",
        {
            "listed.md": "# A\n\n- [Graph streaming](b.md)—stream tokens from subgraphs\n",
            "said.md": "# C\n\nStream tokens from subgraphs, see [graph streaming](b.md)\n",
            "b.md": "# B\n\nOther words.\n",
        },
    )
    c = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule())
    c.sync()
    hits = {h.key: h.score for h in c.index.search("stream tokens subgraphs", 5, prior_weight=0.0)}
    assert hits["said.md"] > hits["listed.md"] > 0
