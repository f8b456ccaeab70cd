"""The mdBook golden (tests/fixtures/generators/mdbook/mdbook-guide): the book as mdBook serves it.

The fixture is the book folder (book.toml beside `src/`), indexed with no base URL: `site-url`
is its base. Every fact of expected.json must hold: the SUMMARY's chapters and nothing else,
`.html` URLs with README as index.html, titles, every heading's and term's id in mdBook's
count, the admonition, and what each include directive shows (and leaves out or hides).
"""

from __future__ import annotations

import tomllib
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

GOLDEN = golden("mdbook", "mdbook-guide")
SOURCE = source("mdbook", "mdbook-guide")
BOOK_TITLE = tomllib.loads((SOURCE / "book.toml").read_text())["book"]["title"]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, IndexedPage]:
    return indexed(SOURCE, tmp_path_factory.mktemp("index"))


def _page(pages: dict[str, IndexedPage], src: str) -> IndexedPage:
    assert src in pages, f"{src} is a page of the book but was not indexed"
    return pages[src]


def test_the_pages_are_the_summarys_chapters(pages: dict[str, IndexedPage]) -> None:
    assert sorted(pages) == sorted(p["source"] for p in GOLDEN["pages"])
    for entry in GOLDEN["not_pages"]:
        if entry["source"]:
            assert entry["source"] not in pages, entry["reason"]


@pytest.mark.parametrize("expected", GOLDEN["pages"], ids=lambda p: p["source"])
def test_url_title_and_anchors(pages: dict[str, IndexedPage], expected: dict[str, Any]) -> None:
    page = _page(pages, expected["source"])
    assert page.url == expected["url"]
    # The served <title> is "{chapter} - {book title}", or what {{#title}} sets alone.
    assert expected["title"] in (page.doc.title, f"{page.doc.title} - {BOOK_TITLE}")
    h1 = next(s for s in page.doc.sections if s.level == 1)
    assert h1.heading == expected["h1"]
    # Every id the page serves, headings and definition terms, in mdBook's count: no more.
    assert page.anchors == [h["id"] for h in expected["headings"] if h["id"]]
    headings = [h for h in expected["headings"] if h.get("tag") != "dt"]
    assert [seen(s.heading) for s in page.doc.sections if s.level] == [
        seen(h["text"]) for h in headings
    ]


def test_no_generated_page_is_indexed(pages: dict[str, IndexedPage]) -> None:
    urls = {p.url for p in pages.values()}
    for generated in GOLDEN["generated"]:
        assert not any(url.endswith("/" + generated["html"]) for url in urls), generated


@pytest.mark.parametrize("block", GOLDEN["blocks"], ids=lambda b: b["kind"])
def test_blocks_read_as_shown(pages: dict[str, IndexedPage], block: dict[str, Any]) -> None:
    section = _page(pages, block["page"]).section(block["section"])
    shown_in(section, block["text"])
    if block.get("title"):
        assert block["title"] in section.text
    assert "[!" not in section.text  # the admonition's marker is no text of the page


@pytest.mark.parametrize("snippet", GOLDEN["snippets"], ids=lambda s: s["directive"])
def test_includes_show_what_the_book_shows(
    pages: dict[str, IndexedPage], snippet: dict[str, Any]
) -> None:
    section = _page(pages, snippet["page"]).section(snippet["section"])
    shown = shown_in(section, snippet["text"])
    for line in snippet["lines_absent"] + snippet.get("lines_hidden", []):
        assert seen(line) not in shown, (snippet["directive"], line)
    assert snippet["directive"] not in section.text


def test_site_url_is_the_base_and_a_base_url_wins(tmp_path: Path) -> None:
    from tools.sources.corpus import UrlRule

    pages = indexed(SOURCE, tmp_path, UrlRule("https://rust-lang.github.io/mdBook/"))
    assert pages["src/README.md"].url == "https://rust-lang.github.io/mdBook/index.html"
    assert (
        pages["src/format/README.md"].url == "https://rust-lang.github.io/mdBook/format/index.html"
    )


def test_the_src_folder_is_read_the_same(tmp_path: Path) -> None:
    """Pointed at `src/` (book.toml in the folder above), the same pages at the same URLs."""
    book = indexed(SOURCE, tmp_path / "book")
    src = indexed(SOURCE / "src", tmp_path / "src")
    assert {"src/" + rel: p.url for rel, p in src.items()} == {
        rel: p.url for rel, p in book.items()
    }
