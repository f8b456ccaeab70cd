"""Golden truth from the real corpora in ../shared: every page's URL as the MANIFEST says, every
expected anchor of the dev questions, and no markup left in titles, headings or snippets.

Skipped, with the reason, when a corpus is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED_CORPUS
from tests.unit.tools.sources.markup import leftovers
from tools.search.snippets import snippet_prose
from tools.sources.corpus import FolderCorpus, UrlRule

SHARED = SHARED_CORPUS.parent


def corpus_dir(name: str) -> Path:
    path = SHARED / name
    if not (path / "docs" / "MANIFEST.jsonl").is_file():
        pytest.skip(f"reference corpus not found at {path}")
    return path


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def pydantic_docs(tmp_path_factory: pytest.TempPathFactory) -> FolderCorpus:
    root = corpus_dir("corpus-pydantic")
    # The one thing the folder cannot say: the site is served under the `latest/` version.
    corpus = FolderCorpus(
        root / "docs",
        "docs",
        tmp_path_factory.mktemp("index"),
        UrlRule("https://docs.pydantic.dev/latest/"),
    )
    corpus.sync(workers=1)
    return corpus


def test_mkdocs_corpus_every_page_url_and_title_as_the_site_serves_it(
    pydantic_docs: FolderCorpus,
) -> None:
    manifest = jsonl(corpus_dir("corpus-pydantic") / "docs" / "MANIFEST.jsonl")
    got = {}
    for row in manifest:
        page = pydantic_docs.get(row["path"].removeprefix("docs/"))
        got[row["path"]] = (page.url, page.title) if page else None
    assert got == {row["path"]: (row["url"], row["title"]) for row in manifest}


def test_mkdocs_corpus_every_expected_anchor_is_a_section_of_its_page(
    pydantic_docs: FolderCorpus,
) -> None:
    questions = [q for q in jsonl(corpus_dir("corpus-pydantic") / "eval" / "dev.jsonl")]
    missing = []
    for q in questions:
        if "expected_anchor" not in q:
            continue
        page = pydantic_docs.find(q["expected_anchor_url"])
        anchors = {a for s in page.sections for a in s.anchors} if page else set()
        cited = f"{page.url}#{q['expected_anchor']}" if page else ""
        if q["expected_anchor"] not in anchors or cited != q["expected_anchor_url"]:
            missing.append(q["expected_anchor_url"])
    assert missing == []


def test_mkdocs_corpus_no_markup_in_titles_headings_or_snippet_prose(
    pydantic_docs: FolderCorpus,
) -> None:
    found = []
    for key in pydantic_docs.index.keys():
        page = pydantic_docs.get(key)
        assert page is not None
        for text in [page.title, *(s.heading for s in page.sections)]:
            found.extend(leftovers(text))
        for s in page.sections:
            found.extend(leftovers(snippet_prose(s.text)))
            found.extend(leftovers(s.text))
    assert found == []


def test_mintlify_corpus_urls_match_and_snippets_are_not_pages(tmp_path: Path) -> None:
    root = SHARED_CORPUS
    if not (root / "docs" / "MANIFEST.jsonl").is_file():
        pytest.skip(f"reference corpus not found at {root}")
    corpus = FolderCorpus(
        root / "docs",
        "docs",
        tmp_path,
        UrlRule("https://docs.langchain.com/oss/python", ("src/oss/python/", "src/oss/")),
    )
    corpus.files()  # listing only: which files are pages, and their URLs
    pages = set(corpus.pages.paths.values())
    wrong = []
    for row in jsonl(root / "docs" / "MANIFEST.jsonl"):
        if row["url"] is None:  # an imported snippet: not a page of the site
            if row["path"] in pages:
                wrong.append(row["path"])
        elif row["path"] not in pages or corpus.site.url_for(row["path"]) != row["url"]:
            wrong.append(row["path"])
    assert wrong == []


@pytest.fixture(scope="module")
def pytest_docs(tmp_path_factory: pytest.TempPathFactory) -> FolderCorpus:
    root = corpus_dir("corpus-pytest")
    corpus = FolderCorpus(root / "docs", "docs", tmp_path_factory.mktemp("index"), UrlRule())
    corpus.sync()
    return corpus


def test_sphinx_corpus_pages_are_the_toctrees_and_urls_the_built_sites(
    pytest_docs: FolderCorpus,
) -> None:
    manifest = jsonl(corpus_dir("corpus-pytest") / "docs" / "MANIFEST.jsonl")
    want = {row["path"]: row["url"] for row in manifest if row["url"] and row["in_toctree"]}
    got = {key: page.url for key in pytest_docs.index.keys() if (page := pytest_docs.get(key))}
    assert got == want
    assert pytest_docs.report().problems == []


def test_sphinx_corpus_every_expected_anchor_is_a_section_of_its_page(
    pytest_docs: FolderCorpus,
) -> None:
    missing = []
    for q in jsonl(corpus_dir("corpus-pytest") / "eval" / "dev.jsonl"):
        expected = q.get("expected_anchor") or []
        for anchor in expected if isinstance(expected, list) else [expected]:
            page = pytest_docs.find(anchor["url"])
            ids = {a for s in page.sections for a in s.anchors} if page else set()
            if not page or anchor["id"] not in ids or f"{page.url}#{anchor['id']}" != anchor["url"]:
                missing.append(anchor["url"])
    assert missing == []


def test_sphinx_corpus_no_markup_in_titles_headings_or_snippet_prose(
    pytest_docs: FolderCorpus,
) -> None:
    found = []
    for key in pytest_docs.index.keys():
        page = pytest_docs.get(key)
        assert page is not None
        found.extend(leftovers(page.title))
        for s in page.sections:
            found.extend(
                leftovers(s.heading) + leftovers(snippet_prose(s.text)) + leftovers(s.text)
            )
    assert found == []


def test_mintlify_corpus_no_markup_in_titles_headings_or_text(tmp_path: Path) -> None:
    root = SHARED_CORPUS
    if not (root / "docs" / "MANIFEST.jsonl").is_file():
        pytest.skip(f"reference corpus not found at {root}")
    corpus = FolderCorpus(root / "docs", "docs", tmp_path, UrlRule("https://docs.langchain.com"))
    corpus.sync()
    found = []
    for key in corpus.index.keys():
        page = corpus.get(key)
        assert page is not None
        found.extend(leftovers(page.title))
        for s in page.sections:
            found.extend(leftovers(s.heading) + leftovers(s.text))
    assert found == []
