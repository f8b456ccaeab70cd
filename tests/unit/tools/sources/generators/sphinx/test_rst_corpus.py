"""The Sphinx reader on a real Sphinx project (../shared/corpus-pytest/docs), against its build.

`docs/MANIFEST.jsonl` records what `sphinx-build -b html` made of each file (built or not, URL,
orphan, in a toctree, reachable from the root document) and `eval/dev.jsonl` the section ids and
label ids of the expected answers as the built HTML serves them. Skips when the corpus is absent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.unit.tools.sources.generators.sphinx.test_rst import anchors, leftovers
from tools.sources.generators.sphinx.project import SphinxSite
from tools.sources.records import Page

CORPUS = Path(
    os.environ.get("DOCS_AGENT_SHARED_CORPUS_PYTEST", REPO_ROOT.parent / "shared" / "corpus-pytest")
)


@pytest.fixture(scope="module")
def corpus() -> Path:
    if not (CORPUS / "docs" / "conf.py").is_file():
        pytest.skip(f"the Sphinx reference corpus is not at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="module")
def manifest(corpus: Path) -> dict[str, dict[str, Any]]:
    lines = (corpus / "docs" / "MANIFEST.jsonl").read_text().splitlines()
    return {row["path"]: row for row in map(json.loads, lines)}


@pytest.fixture(scope="module")
def site(corpus: Path) -> SphinxSite:
    return SphinxSite(corpus / "docs")


@pytest.fixture(scope="module")
def parsed(site: SphinxSite) -> dict[str, Page]:
    return {rel: site.parse(rel) for rel in site.source_files()}


def test_the_built_pages_are_the_pages(
    site: SphinxSite, parsed: dict[str, Page], manifest: dict[str, dict[str, Any]]
) -> None:
    built = {path for path, row in manifest.items() if row["built"]}
    assert set(site.pages(parsed)) == built
    assert {rel: site.url_for(rel) for rel in parsed} == {p: manifest[p]["url"] for p in built}
    orphans = {rel for rel, page in parsed.items() if page.meta.get("orphan")}
    assert orphans == {p for p in built if manifest[p]["orphan"]}


def test_every_page_parses_cleanly(parsed: dict[str, Page]) -> None:
    plain = [rel for rel, page in parsed.items() if page.meta.get("plain")]
    assert not plain
    untitled = [rel for rel, page in parsed.items() if not page.sections or not page.title]
    # `contributing.rst` only includes a file outside the docs folder, and the corpus is no checkout (refused): empty.
    assert untitled == ["contributing.rst"]
    assert parsed["contributing.rst"].meta["warnings"]
    dirty = {rel: found[:3] for rel, page in parsed.items() if (found := leftovers(page))}
    # Two texts *about* markup, written as literal text in the source: shown as the site does.
    assert set(dirty) <= {"changelog.rst", "reference/reference.rst"}
    assert all(hit in {"py:mod:`"} or "`" not in hit for hits in dirty.values() for hit in hits)


def test_titles_are_the_built_titles(
    parsed: dict[str, Page], manifest: dict[str, dict[str, Any]]
) -> None:
    # Sphinx's smart quotes curl quotes and turn `--` into dashes in the HTML; the records keep
    # the source's characters (what users type, and option names stay `--name`).
    def plain(title: str) -> str:
        for curly, straight in (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'"), ("–", "--")):
            title = title.replace(curly, straight)
        return title.replace("`", "")

    differ = {
        rel: (page.title, row["title"])
        for rel, page in parsed.items()
        if (row := manifest[rel])["title"] and plain(page.title) != plain(row["title"])
    }
    # Without a title the page is named after its file (Sphinx writes "<no title>");
    # contributing.rst's title is in the file outside the docs folder that it includes.
    assert differ == {
        "contributing.rst": ("contributing", "Contributing"),
        "recwarn.rst": ("recwarn", "<no title>"),
    }


def test_expected_anchors_are_section_ids(corpus: Path, parsed: dict[str, Page]) -> None:
    checked = 0
    for line in (corpus / "eval" / "dev.jsonl").read_text().splitlines():
        for anchor in json.loads(line)["expected_anchors"]:
            page = parsed[anchor["path"].removeprefix("docs/")]
            owner = next((s for s in page.sections if anchor["id"] in anchors(s)), None)
            assert owner is not None, anchor
            assert owner.anchor == anchor["id"], (anchor, anchors(owner))
            for label in anchor["labels"]:
                assert label["id"] in owner.ids, (anchor, anchors(owner))
            checked += 1
    assert checked >= 45


def test_navigation_is_the_toctree(
    site: SphinxSite, parsed: dict[str, Page], manifest: dict[str, dict[str, Any]]
) -> None:
    nav = site.navigation(parsed)
    reachable = {p for p in parsed if site.docname(p) in nav.reachable}
    assert reachable == {p for p, row in manifest.items() if row["in_root_toctree"]}
    listed = {p for p in parsed if site.docname(p) in nav.listed}
    in_toctree = {p for p, row in manifest.items() if row["in_toctree"]}
    assert listed == in_toctree - {"index.rst"}
    assert nav.reachable[0] == "index"
    assert nav.parent_of("how-to/fixtures") == "how-to/index"
    # From the toctree directives alone (before any page is parsed): the same graph.
    assert site.quick_navigation() == nav


def test_object_ids_of_the_reference_page(parsed: dict[str, Page]) -> None:
    ids = {i for s in parsed["reference/reference.rst"].sections for i in anchors(s)}
    for expected in (
        "confval-addopts",
        "envvar-CI",
        "cmdoption-k",
        "std-fixture-capsys",
        "std-hook-pytest_addoption",
        "pytest.approx",
    ):
        assert expected in ids, expected
