"""MkDocs' config inheritance, read as the built site reads it.

Every expected text and id here was checked against a page built by mkdocs 1.6 + Material 9.8
+ pymdown-extensions 13 with the same mkdocs.yml.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tools.sources.profiles import detect_site


def test_an_inherited_config_is_deep_merged_under_mkdocs_yml(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "shared").mkdir()
    project = tmp_path / "site-src"
    (project / "content").mkdir(parents=True)
    for name in ("index.md", "other.md", "gone.md"):
        (project / "content" / name).write_text(f"# {name}\n")
    (tmp_path / "shared" / "base.yml").write_text(
        "site_name: Base\nsite_url: https://base.example.org/docs/\ndocs_dir: content\n"
        "nav:\n  - Home: index.md\n  - Gone: gone.md\n"
        "markdown_extensions:\n  toc:\n    permalink: true\n  pymdownx.keys: {}\n"
    )
    (project / "mkdocs.yml").write_text(
        "INHERIT: ../shared/base.yml\nsite_name: Child\n"
        "nav:\n  - Other page: other.md\n  - index.md\n"
        "markdown_extensions:\n  pymdownx.inlinehilite: {}\n"
    )
    site = detect_site(project)
    assert site.base_url == "https://base.example.org/docs/"
    assert site.page_dir == "content/"  # a parent's docs_dir is relative to mkdocs.yml
    assert site.nav == ("other.md", "index.md")  # a list replaces the parent's
    assert site.titles == (("other.md", "Other page"),)


@pytest.mark.parametrize(
    ("parent", "problem"),
    [
        ("missing.yml", "does not exist"),
        ("mkdocs.yml", "loops back"),
        ("../outside.yml", "outside the repository"),
    ],
)
def test_an_inherited_config_that_cannot_be_read_is_a_warning(
    tmp_path: Path, parent: str, problem: str, caplog: pytest.LogCaptureFixture
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "docs").mkdir()
    (tmp_path / "outside.yml").write_text("site_url: https://outside.example.org/\n")
    (repo / "mkdocs.yml").write_text(f"INHERIT: {parent}\nsite_url: https://x.example.org/\n")
    with caplog.at_level(logging.WARNING):
        site = detect_site(repo / "docs")
    assert site.generator == "mkdocs" and site.base_url == "https://x.example.org/"
    assert problem in caplog.text
