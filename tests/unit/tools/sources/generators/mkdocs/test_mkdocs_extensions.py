"""MkDocs' optional Markdown extensions and config inheritance, read as the built site shows them.

Every expected text and id here was checked against a page built by mkdocs 1.6 + Material 9.8
+ pymdown-extensions 13 with the same mkdocs.yml.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tools.sources.generators.mkdocs.reader import parse_mkdocs
from tools.sources.generators.mkdocs.rules import MkDocsRules
from tools.sources.generators.mkdocs.syntax import MarkdownSyntax
from tools.sources.hidden.strip import strip_hidden
from tools.sources.readers import reader_named
from tools.sources.registry import detect_site


def _sections(text: str, syntax: MarkdownSyntax | None = None) -> list[tuple[str, str, str]]:
    page = parse_mkdocs("p.md", strip_hidden(text), syntax=syntax or MarkdownSyntax())
    return [(s.heading, s.anchor, s.text) for s in page.sections]


def _read(root: Path, rel: str) -> list[tuple[str, str, str]]:
    site = detect_site(root)
    name = site.reader_for(rel)
    reader = reader_named(name) if name is not None else None
    assert reader is not None
    text = strip_hidden((root / rel).read_text())
    page = reader(rel, text, site, root.resolve(), "python")
    return [(s.heading, s.anchor, s.text) for s in page.sections]


def test_inlinehilite_markers_go_from_inline_code_only_when_the_extension_is_on() -> None:
    text = (
        "# Page\n\nInline `#!python print(1)` and `:::python x = 2` and `#! nolang` and "
        "`#!python` and ` #!python y` and `plain`.\n\n## Code `#!python x()` in heading\n"
    )
    on = _sections(text, MarkdownSyntax(inlinehilite=True))
    assert on[0][2] == (
        "Inline `print(1)` and `x = 2` and `nolang` and `#!python` and ` #!python y` and `plain`."
    )
    assert on[1][:2] == ("Code `x()` in heading", "code-x-in-heading")
    off = _sections(text)
    assert "`#!python print(1)`" in off[0][2] and off[1][1] == "code-python-x-in-heading"


def test_keys_read_as_their_labels_when_every_key_is_known() -> None:
    text = (
        "# Page\n\nPress ++ctrl+alt+delete++, ++cmd+shift+p++, ++\"My Key\"++, ++ctrl+'x'++, "
        "++pg-dn++, ++Ctrl+C++, ++ctrl+nokey++ and `++ctrl+c++`.\n\n## Keys ++ctrl+c++ here\n"
    )
    on = _sections(text, MarkdownSyntax(keys=True))
    assert on[0][2] == (
        "Press Ctrl+Alt+Del, Cmd+Shift+P, My Key, Ctrl+x, Page Down, ++Ctrl+C++, "
        "++ctrl+nokey++ and `++ctrl+c++`."
    )
    assert on[1][:2] == ("Keys Ctrl+C here", "keys-ctrlc-here")
    own = MarkdownSyntax(
        keys=True, key_separator="", key_camel_case=True, key_map=(("nokey", "No Key"),)
    )
    assert "++" not in _sections(text, own)[0][2].replace("`++ctrl+c++`", "")
    assert "CtrlC, CtrlNo Key" in _sections(text, own)[0][2]
    assert "++ctrl+alt+delete++" in _sections(text)[0][2]


def test_emoji_and_icon_shortcodes_leave_titles_text_and_ids_as_the_site_builds_them() -> None:
    text = (
        "# Page\n\n## Check :material-check: done\n\n## :smile: Smile heading\n\n"
        "## Info :octicons-info-16: end :fontawesome-brands-github:\n\n"
        "## Emoji :thumbsup: and :+1: and :heart:\n\n"
        "Text :smile: and `:smile:`, at 10:30:00, `a:b:c` and std::vector::push.\n"
    )
    sections = _sections(text, MarkdownSyntax(emoji=True))
    assert [(h, a) for h, a, _ in sections[1:]] == [
        ("Check done", "check-done"),
        ("Smile heading", "smile-heading"),
        ("Info end", "info-end"),
        ("Emoji and and", "emoji-and-and"),
    ]
    assert sections[-1][2] == ("Text  and `:smile:`, at 10:30:00, `a:b:c` and std::vector::push.")
    # Without pymdownx.emoji an emoji name is text on the page; Material's icons still go.
    off = _sections(text)
    assert off[2][:2] == (":smile: Smile heading", "smile-smile-heading")
    assert off[1][1] == "check-done"


def test_abbreviations_and_auto_appended_snippets_end_every_page(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "includes").mkdir()
    (tmp_path / "more").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: T\nmarkdown_extensions:\n  - abbr\n  - pymdownx.snippets:\n"
        "      base_path: [includes, more]\n"
        "      auto_append: [abbreviations.md, footer.md]\n"
    )
    (tmp_path / "includes" / "abbreviations.md").write_text(
        "*[HTML]: Hyper Text Markup Language\n*[W3C]:\n  World Wide Web Consortium\n"
    )
    (tmp_path / "more" / "footer.md").write_text("Questions? Ask the team.\n")
    (tmp_path / "docs" / "index.md").write_text("# Page\n\nHTML by the W3C.\n\n## Last\n\nEnd.\n")
    sections = _read(tmp_path, "docs/index.md")
    assert sections[0][2] == "HTML by the W3C."
    assert sections[-1][2] == "End.\n\nQuestions? Ask the team."
    # Without abbr, a definition is a paragraph of the page, as the built page shows it.
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: T\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
        "      base_path: [includes]\n      auto_append: [abbreviations.md]\n"
    )
    assert "*[HTML]: Hyper Text Markup Language" in _read(tmp_path, "docs/index.md")[-1][2]


@pytest.mark.parametrize("name", ["abbr", "markdown.extensions.abbr", "extra", "pymdownx.extra"])
def test_abbr_comes_with_either_spelling_and_with_extra(tmp_path: Path, name: str) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(f"site_name: T\nmarkdown_extensions:\n  - {name}\n")
    rules = detect_site(tmp_path / "docs").rules
    assert isinstance(rules, MkDocsRules) and rules.syntax == MarkdownSyntax(abbr=True)


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
    assert isinstance(site.rules, MkDocsRules)
    assert site.rules.syntax == MarkdownSyntax(keys=True, inlinehilite=True)  # mappings merge


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
