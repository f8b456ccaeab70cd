"""Loud when unsure: what a profile cannot know is said, naming the setting or the route that fixes it.

A config of a generator no package reads, a Sphinx site with no base URL anywhere, pages in a
format no reader takes (with counts and the route), and posts that would answer how-to questions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.registry import SiteOptions, detect_site, generator_names
from tools.sources.release_notes import is_release_notes
from tools.sources.unread import KNOWN_GENERATORS, unread_configs


def test_a_config_no_package_reads_is_named_with_its_build(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    (tmp_path / "_config.yml").write_text("title: Site\n")  # Jekyll, above the docs folder
    site = detect_site(tmp_path / "docs")
    assert site.generator == "markdown"
    (note,) = site.notes
    assert "Jekyll" in note and "`bundle exec jekyll build`" in note and "_site/" in note


def test_a_generator_with_a_package_is_never_warned_about(tmp_path: Path) -> None:
    # Every registered generator's row is silent; the check asks the registry, not a list of its own.
    registered = set(generator_names())
    for known in KNOWN_GENERATORS:
        folder = tmp_path / known.name
        folder.mkdir()
        config = folder / known.configs[0].replace("*", "ts")
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text("")
        found = [k.name for k, _ in unread_configs(folder, registered)]
        assert found == ([] if known.name in registered else [known.name]), known.name
    assert {"hugo", "quarto", "antora"} <= registered


def test_a_sphinx_site_with_no_base_url_says_which_settings_give_one(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("project = 'x'\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   faqs\n")
    (tmp_path / "faqs.rst").write_text("FAQ\n===\n\nText.\n")
    site = detect_site(tmp_path)
    assert site.generator == "sphinx"
    (note,) = site.notes
    assert "html_baseurl" in note and "DOCS_AGENT_DOCS_BASE_URL" in note
    assert detect_site(tmp_path, SiteOptions(base_url="https://x.dev/")).notes == ()
    (tmp_path / "conf.py").write_text("project = 'x'\nhtml_baseurl = 'https://x.dev/'\n")
    assert detect_site(tmp_path).notes == ()


def test_notes_are_warnings_not_failures(tmp_path: Path, index_dir: Path) -> None:
    (tmp_path / "conf.py").write_text("project = 'x'\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\nText.\n")
    report = FolderCorpus(tmp_path, "docs", index_dir, UrlRule()).report()
    assert report.problems == [] and len(report.warnings) == 1


def test_unread_formats_are_counted_with_their_route(tmp_path: Path, index_dir: Path) -> None:
    for name in ("a.qmd", "b.qmd", "c.Rmd", "d.textile", "e.adoc"):
        (tmp_path / name).write_text("x\n")
    (problem,) = FolderCorpus(tmp_path, "docs", index_dir, UrlRule()).report().problems
    assert "2 .qmd, 1 .adoc, 1 .rmd, 1 .textile" in problem or (
        "2 .qmd" in problem and "1 .rmd" in problem and "1 .textile" in problem
    )
    assert "2 .qmd files are Quarto pages: run `quarto render`" in problem
    assert "1 .textile files are Textile pages" in problem


def test_a_404_page_is_never_a_page(tmp_path: Path, index_dir: Path) -> None:
    (tmp_path / "404.md").write_text("# Not found\n")
    (tmp_path / "index.md").write_text("# Home\n")
    (tmp_path / "errors").mkdir()
    (tmp_path / "errors" / "404.md").write_text("# HTTP 404 from the API\n")  # a page about 404s
    corpus = FolderCorpus(tmp_path, "docs", index_dir, UrlRule())
    assert sorted(f.key for f in corpus.files()) == ["errors/404.md", "index.md"]
    assert corpus.report().problems == []


@pytest.mark.parametrize(
    ("rel", "title", "meta", "post"),
    [
        ("blog/announcing-vite5.md", "Vite 5 is out!", {}, True),
        ("news/2024-q1.md", "Quarter one", {}, True),
        ("_posts/2023-11-16-hello.md", "Hello", {}, True),
        ("posts/2023-11-16-release/index.html", "Great Tables 0.15 is out", {}, True),
        ("guide/setup.md", "Setup", {"date": "2024-01-01", "authors": ["ada"]}, True),
        ("guide/setup.md", "Setup", {"date": "2024-01-01"}, False),  # a dated docs page
        ("guide/blogging.md", "Writing a blog post", {}, False),
    ],
)
def test_posts_are_treated_like_release_notes(
    rel: str, title: str, meta: dict[str, object], post: bool
) -> None:
    assert is_release_notes(rel, title, meta) is post
