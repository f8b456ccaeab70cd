"""Hugo read from its built site (`public/`), held against goldens Hugo 0.111.3 built.

The folder is pointed at as docs/sources.md tells a user (the built folder, and its base URL);
pages, URLs and anchors must be the site's, and no shortcode may be left in the text.
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
from tools.sources.registry import detect_site

KIND = GOLDENS / "hugo" / "kind"
BOOK = GOLDENS / "hugo" / "hugo-book"


def test_kind_built_site_pages_urls_and_anchors(index_dir: Path) -> None:
    expected = golden("hugo", "kind")
    read = read_folder(KIND / "built", index_dir, expected["site"]["baseURL"])
    assert read.generator == "hugo"  # from `<meta name="generator" content="Hugo …">`
    check_against_golden(read, expected)
    check_blocks(read, expected)
    # 404.html and the section list Hugo made from no content file are no pages.
    assert "404.html" not in read.pages and "docs/index.html" not in read.pages


def test_kind_shortcodes_read_as_the_site_shows_them(index_dir: Path) -> None:
    expected = golden("hugo", "kind")
    read = read_folder(KIND / "built", index_dir, expected["site"]["baseURL"])
    by_source = {p["source"]: p["built"] for p in expected["pages"]}
    for snippet in expected["snippets"]:  # {{< codeFromFile >}} / {{< readFile >}}: the file's text
        page, _ = read.pages[by_source[snippet["page"]]]
        assert visible(snippet["text"]) in visible(section_text(page, snippet["section"]))
    for probe in expected["rendered"]:  # a shortcode inside a link: its text, no `{{<`
        page, _ = read.pages[by_source[probe["page"]]]
        assert probe["text"] in visible(section_text(page, probe["section"]))
    quick = read.pages["docs/user/quick-start/index.html"][0]
    # Comment lines inside code shortcodes stay code, never headings (the source read made them sections).
    assert [s.heading for s in quick.sections].count("For AMD64 / x86_64") == 0


def test_hugo_book_ugly_urls_languages_and_aliases(index_dir: Path) -> None:
    expected = golden("hugo", "hugo-book")
    read = read_folder(BOOK / "built", index_dir, expected["site"]["baseURL"])
    check_against_golden(read, expected)  # the default language only: `fr/` is a copy
    check_blocks(read, expected)
    # `en/index.html` is Hugo's redirect to the default language's home, no page.
    assert "en/index.html" not in read.pages
    assert read.pages["docs.html"][0].title == "Docs"  # from `<title>`, the site's name dropped


def test_another_language_is_read_when_its_folder_is_pointed_at(index_dir: Path) -> None:
    expected = golden("hugo", "hugo-book")
    read = read_folder(BOOK / "built" / "fr", index_dir, expected["site"]["baseURL"] + "fr/")
    assert read.generator == "hugo"
    assert set(read.pages) == {
        "index.html",
        "docs/presentation.html",
    }  # fr/docs.html: an empty list
    page, url = read.pages["docs/presentation.html"]
    assert url == "https://example.org/book/fr/docs/presentation.html"
    assert {"presentation-generale", "a-propos-du-theme"} <= {s.anchor for s in page.sections}


def test_base_url_from_the_config_above_public(tmp_path: Path, index_dir: Path) -> None:
    project = tmp_path / "site"
    shutil.copytree(KIND / "source", project)
    shutil.copytree(KIND / "built", project / "public")
    site = detect_site(project / "public")
    assert site.generator == "hugo" and site.base_url == "https://kind.sigs.k8s.io/"
    assert site.url_for("docs/user/quick-start/index.html") == (
        "https://kind.sigs.k8s.io/docs/user/quick-start/"
    )
    assert site.notes == ()


def test_base_url_from_the_sitemap_when_no_config(tmp_path: Path) -> None:
    shutil.copytree(KIND / "built", tmp_path / "public")
    (tmp_path / "public" / "sitemap.xml").write_text(
        '<?xml version="1.0"?><urlset><url><loc>https://kind.sigs.k8s.io/docs/user/quick-start/</loc></url>'
        "<url><loc>https://kind.sigs.k8s.io/</loc></url></urlset>"
    )
    site = detect_site(tmp_path / "public")
    assert site.base_url == "https://kind.sigs.k8s.io/"


def test_no_base_url_anywhere_is_said(tmp_path: Path) -> None:
    shutil.copytree(KIND / "built", tmp_path / "public")
    site = detect_site(tmp_path / "public")
    assert site.base_url == ""
    assert any("baseURL" in note and "DOCS_AGENT_DOCS_BASE_URL" in note for note in site.notes)


def test_taxonomies_pagers_and_lists_are_no_pages(tmp_path: Path, index_dir: Path) -> None:
    public = tmp_path / "public"
    shutil.copytree(KIND / "built", public)
    shell = (KIND / "built" / "docs" / "index.html").read_text()
    for rel in ("tags/index.html", "tags/setup/index.html", "categories/index.html"):
        (public / rel).parent.mkdir(parents=True, exist_ok=True)
        (public / rel).write_text(shell)
    (public / "docs" / "page" / "2").mkdir(parents=True)
    (public / "docs" / "page" / "2" / "index.html").write_text(shell)
    (public / "docs" / "page" / "1").mkdir(parents=True)
    (public / "docs" / "page" / "1" / "index.html").write_text(
        '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/docs/"></head></html>'
    )
    corpus = FolderCorpus(public, "docs", index_dir, UrlRule("https://kind.sigs.k8s.io/"))
    pages = {corpus.pages.paths[f.key] for f in corpus.files()}
    assert pages == {p["built"] for p in golden("hugo", "kind")["pages"]}
    assert corpus.report().problems == []


def test_the_source_says_build_it_first(tmp_path: Path, index_dir: Path) -> None:
    project = tmp_path / "site"
    shutil.copytree(KIND / "source", project)
    for root in (project, project / "content"):
        corpus = FolderCorpus(root, "docs", index_dir, UrlRule())
        (problem,) = corpus.report().problems
        assert "yields 0 pages (site: hugo" in problem and ".md" in problem
        assert "run `hugo`" in problem and str(project / "public") in problem
