"""Antora read from its built site, held against the golden @antora/cli 3.1.15 built (jbang's layout).

The golden's UI is a minimal one (the default UI bundle is downloaded from the network), so its
pages carry no `<meta name="generator">`: the site is recognised by the redirect pages Antora
itself writes. A page of the default UI (which names Antora and its component and version) is
added where a test needs one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.unit.tools.sources.generators.built_goldens import (
    GOLDENS,
    check_against_golden,
    check_blocks,
    golden,
    read_folder,
    section_text,
    visible,
)
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.generators.antora.profile import version_order_key
from tools.sources.registry import detect_site

JBANG = GOLDENS / "antora" / "jbang"
SITE_URL = "https://www.jbang.dev/documentation"


def test_jbang_built_site_pages_urls_and_anchors(index_dir: Path) -> None:
    expected = golden("antora", "jbang")
    read = read_folder(JBANG / "built", index_dir, SITE_URL)
    assert read.generator == "antora"
    check_against_golden(read, expected)
    check_blocks(read, expected)  # admonitions and a titled listing read "Title: text"
    # The start-page redirect, a page alias (`install.html`) and the 404 page are no pages.
    assert not {"index.html", "guide/latest/install.html", "404.html"} & set(read.pages)


def test_attributes_and_includes_are_read_resolved(index_dir: Path) -> None:
    expected = golden("antora", "jbang")
    read = read_folder(JBANG / "built", index_dir, SITE_URL)
    by_source = {p["source"]: p["built"] for p in expected["pages"]}
    for probe in expected["rendered"]:  # `{jbang-version}` → 0.121.0
        page, _ = read.pages[by_source[probe["page"]]]
        assert probe["text"] in visible(section_text(page, probe["section"]))
    for snippet in expected["snippets"]:  # include::partial$… / example$…[tags=main]
        page, _ = read.pages[by_source[snippet["page"]]]
        text = visible(section_text(page, snippet["section"], onward=True))
        assert visible(snippet["text"]) in text
        assert not any(visible(line) in text for line in snippet["lines_absent"] if "tag::" in line)


def test_the_navigation_tree_orders_the_pages(index_dir: Path) -> None:
    site = detect_site(JBANG / "built")
    assert site.nav == (
        "guide/latest/index.html",
        "guide/latest/installation.html",
        "guide/latest/usage.html",
        "guide/latest/cli/jbang-run.html",
    )


def _default_ui_page(component: str, version: str, title: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{title} :: JBang</title>"
        '<meta name="generator" content="Antora 3.1.15"></head><body class="article">'
        f'<div class="body"><div class="nav-container" data-component="{component}" '
        f'data-version="{version}"><nav class="nav-menu"><a href="index.html">Intro</a></nav></div>'
        '<main class="article"><div class="toolbar"><nav class="breadcrumbs"></nav></div>'
        f'<div class="content"><article class="doc"><h1 class="page">{title}</h1>'
        '<div class="paragraph"><p>Some text.</p></div></article></div></main></div></body></html>'
    )


def test_only_the_newest_version_of_each_component(tmp_path: Path, index_dir: Path) -> None:
    for version in ("0.9", "1.10", "1.2", "1.10-rc1"):
        folder = tmp_path / "guide" / version
        folder.mkdir(parents=True)
        (folder / "index.html").write_text(_default_ui_page("guide", version, f"Intro {version}"))
    (tmp_path / "index.html").write_text(_default_ui_page("guide", "1.10", "Intro"))
    site = detect_site(tmp_path, None)
    corpus = FolderCorpus(tmp_path, "docs", index_dir, UrlRule(SITE_URL), site=site)
    pages = {corpus.pages.paths[f.key] for f in corpus.files()}
    assert site.generator == "antora"  # `<meta name="generator" content="Antora …">`
    assert pages == {"guide/1.10/index.html", "index.html"}
    # Antora's order: a name that is no number before numbers, numbers newest first, a
    # prerelease after its release.
    ordered = sorted(["0.9", "1.10", "1.2", "main", "1.10-rc1", "v2.0"], key=version_order_key)
    assert ordered == ["main", "v2.0", "1.10", "1.10-rc1", "1.2", "0.9"]


def test_older_copies_known_by_their_canonical_link(tmp_path: Path, index_dir: Path) -> None:
    shutil.copytree(JBANG / "built", tmp_path / "site")
    old = tmp_path / "site" / "guide" / "0.9"
    old.mkdir()
    text = (JBANG / "built" / "guide" / "latest" / "usage.html").read_text()
    canonical = f'<link rel="canonical" href="{SITE_URL}/guide/latest/usage.html">'
    (old / "usage.html").write_text(text.replace("<title>", canonical + "<title>", 1))
    read = read_folder(tmp_path / "site", index_dir, SITE_URL)
    assert "guide/0.9/usage.html" not in read.pages and "guide/latest/usage.html" in read.pages


def test_the_sources_say_build_them_first(tmp_path: Path, index_dir: Path) -> None:
    source = tmp_path / "jbang"
    shutil.copytree(JBANG / "source", source)
    for root in (source, source / "docs"):
        (problem,) = FolderCorpus(root, "docs", index_dir, UrlRule()).report().problems
        assert "(site: antora" in problem and ".adoc" in problem, problem
        assert "npx antora antora-playbook.yml" in problem, problem
    (problem,) = FolderCorpus(source, "docs", index_dir, UrlRule()).report().problems
    assert str(source / "build" / "site") in problem  # the playbook's output.dir
