"""Quarto read from its rendered site (`_site/`), held against the rules-derived great-tables golden.

`_site/` here is written in Quarto 1.4's page shape (README.md beside this file): Quarto cannot
run on this machine. Pages, URLs and anchors must be the golden's; cells keep their output,
callouts and tabsets read as text; the project itself is told to render first.
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
)
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.registry import detect_site

SITE = Path(__file__).resolve().parent / "_site"
PROJECT = GOLDENS / "quarto" / "great-tables" / "source"


def test_great_tables_pages_urls_and_anchors(index_dir: Path) -> None:
    expected = golden("quarto", "great-tables")
    read = read_folder(SITE, index_dir)
    assert read.generator == "quarto"  # `<meta name="generator" content="quarto-…">`
    check_against_golden(read, expected)
    check_blocks(read, expected)
    # search.json, site_libs/, the alias redirect, 404 and a page that is only a listing: no pages.
    assert "get-started/overview.html" not in read.pages and "posts/index.html" not in read.pages


def test_base_url_from_the_sitemap(index_dir: Path) -> None:
    site = detect_site(SITE)
    assert site.base_url == "https://posit-dev.github.io/great-tables/"
    assert site.url_for("get-started/index.html") == (
        "https://posit-dev.github.io/great-tables/get-started/"
    )
    assert site.notes == ()


def test_cells_keep_their_output_and_tabs_their_labels(index_dir: Path) -> None:
    page, _ = read_folder(SITE, index_dir).pages["get-started/index.html"]
    basic = section_text(page, "a-basic-table")
    assert (
        '```python\nrows = [("Bonaire", 1, 2), ("Curaçao", 3, 4)]\nprint(len(rows), "rows")\n```'
        in basic
    )
    assert "```\n2 rows\n```" in basic  # the output as the reader sees it
    assert "**Note:** Tables are built" in basic
    install = section_text(page, "install")
    assert install.startswith("**pip:**\n\n```bash\npip install great_tables\n```")
    assert "**conda:**" in install and "- pip" not in install  # the tab list is no list
    assert page.title == "Intro"


def test_site_url_from_the_project_above(tmp_path: Path) -> None:
    project = tmp_path / "docs"
    shutil.copytree(PROJECT, project)
    shutil.copytree(SITE, project / "_site")
    (project / "_site" / "sitemap.xml").unlink()
    site = detect_site(project / "_site")
    assert site.generator == "quarto"
    assert site.base_url == "https://posit-dev.github.io/great-tables/"  # website: site-url


def test_the_project_says_render_it_first(tmp_path: Path, index_dir: Path) -> None:
    project = tmp_path / "docs"
    shutil.copytree(PROJECT, project)
    (problem,) = FolderCorpus(project, "docs", index_dir, UrlRule()).report().problems
    assert "yields 0 pages (site: quarto" in problem
    assert "3 .qmd" in problem  # the pages, counted (`_`-prefixed parts are not)
    assert "`quarto render`" in problem and str(project / "_site") in problem
