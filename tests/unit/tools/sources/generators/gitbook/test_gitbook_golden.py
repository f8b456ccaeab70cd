"""The GitBook golden (tests/fixtures/generators/gitbook/brain-monkey): the space as GitBook serves it.

The fixture is the repository (`.gitbook.yaml` with `root: ./docs/`), indexed with the space's
address as the base URL, as docs/sources.md tells a GitBook team to. Every fact of
expected.json must hold: the readme at the space's root, the SUMMARY's pages and nothing else,
addresses without `.md`, titles, the anchors GitBook's documentation settles (the H1 is the
title, with none), the blocks read as shown and the reusable block shown where it is included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.unit.tools.sources.generators.golden_facts import (
    IndexedPage,
    golden,
    indexed,
    seen,
    shown_in,
    source,
)
from tools.sources.corpus import UrlRule

GOLDEN = golden("gitbook", "brain-monkey")
SOURCE = source("gitbook", "brain-monkey")
BASE = GOLDEN["site"]["base"]  # the space's address (the golden's URLs are paths under it)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, IndexedPage]:
    return indexed(SOURCE, tmp_path_factory.mktemp("index"), UrlRule(BASE))


def _page(pages: dict[str, IndexedPage], src: str) -> IndexedPage:
    assert src in pages, f"{src} is a page of the space but was not indexed"
    return pages[src]


def test_the_pages_are_the_readme_and_the_summarys(pages: dict[str, IndexedPage]) -> None:
    assert sorted(pages) == sorted(p["source"] for p in GOLDEN["pages"])
    for entry in GOLDEN["not_pages"]:
        assert entry["source"] not in pages, entry["reason"]


@pytest.mark.parametrize("expected", GOLDEN["pages"], ids=lambda p: p["source"])
def test_url_title_and_anchors(pages: dict[str, IndexedPage], expected: dict[str, Any]) -> None:
    page = _page(pages, expected["source"])
    assert page.url == expected["url"]
    assert page.doc.title == expected["title"]
    assert next(s for s in page.doc.sections if s.level == 1).heading == expected["h1"]
    assert page.anchors == [h["id"] for h in expected["headings"]]  # the H1 has none
    assert [seen(s.heading) for s in page.doc.sections if s.level > 1] == [
        seen(h["text"]) for h in expected["headings"]
    ]


def test_redirects_are_no_pages(pages: dict[str, IndexedPage]) -> None:
    urls = {p.url for p in pages.values()}
    for generated in GOLDEN["generated"]:
        assert generated["url"] not in urls, generated["reason"]


@pytest.mark.parametrize("block", GOLDEN["blocks"], ids=lambda b: b["kind"])
def test_blocks_read_as_shown(pages: dict[str, IndexedPage], block: dict[str, Any]) -> None:
    section = _page(pages, block["page"]).section(block["section"])
    labels = block.get("labels", [])
    for piece in block["text"].split(" | "):
        label, _, body = piece.partition(": ")
        shown_in(section, body if label in labels else piece)
    for label in labels + ([block["title"]] if block.get("title") else []):
        assert f"**{label}**" in section.text, label  # a tab's or a code block's title
    if "href" in block:
        assert f"]({block['href']})" in section.text
    assert "{%" not in section.text


@pytest.mark.parametrize("snippet", GOLDEN["snippets"], ids=lambda s: s["file"])
def test_reusable_blocks_show_where_included(
    pages: dict[str, IndexedPage], snippet: dict[str, Any]
) -> None:
    section = _page(pages, snippet["page"]).section(snippet["section"])
    shown = shown_in(section, snippet["text"])
    for line in snippet["lines_absent"]:
        assert seen(line) not in shown, line


def test_the_root_folder_is_read_the_same(tmp_path: Path) -> None:
    """Pointed at `docs/` (the `root`, .gitbook.yaml in the folder above): the same addresses."""
    repo = indexed(SOURCE, tmp_path / "repo", UrlRule(BASE))
    docs = indexed(SOURCE / "docs", tmp_path / "docs", UrlRule(BASE))
    assert {"docs/" + rel: p.url for rel, p in docs.items()} == {
        rel: p.url for rel, p in repo.items()
    }
