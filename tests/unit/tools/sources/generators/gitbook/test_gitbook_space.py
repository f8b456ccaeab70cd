"""A GitBook space as a whole: its configs, SUMMARY.md, blocks, includes, languages, and what is said aloud."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.unit.tools.sources.generators.golden_facts import indexed
from tools.sources.corpus import UrlRule
from tools.sources.generators.gitbook.anchors import settled
from tools.sources.generators.gitbook.summary import Entry, parse_langs, parse_summary
from tools.sources.registry import detect_generator, detect_site


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_summary_pages_groups_and_escapes() -> None:
    text = (
        "# Table of contents\n\n* [Home](README.md)\n\n## Guides\n\n"
        "* [Patching with when\\(\\)](guides/when.md)\n  * [`stubs()` too](guides/stubs.md#part)\n"
        "* [GitHub](https://github.com/x/y)\n\n```\n* [In code](code.md)\n```\n"
    )
    assert parse_summary(text) == [
        Entry("README.md", "Home", ""),
        Entry("guides/when.md", "Patching with when()", "Guides"),
        Entry("guides/stubs.md", "stubs() too", "Guides"),
    ]
    assert parse_langs("# Languages\n\n* [English](en/)\n* [Français](fr/)\n") == [
        ("en", "English"),
        ("fr", "Français"),
    ]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [("Setup in tests", True), ("Step 2", True), ("when()", False), ("1. Install", False)],
)
def test_settled_anchors_are_plain_words(heading: str, expected: bool) -> None:
    assert settled(heading) is expected


SPACE = {
    ".gitbook.yaml": "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\n"
    "redirects:\n  old/page: guide/page.md\n",
    "docs/toc.md": "* [Intro](intro.md)\n* [Guide](guide/README.md)\n  * [Page](guide/page.md)\n",
    "docs/intro.md": "# Intro\n\n## Why\n\nBecause.\n",
    "docs/guide/README.md": '# Guide\n\n{% content-ref url="page.md" %}\n[page.md](page.md)\n'
    '{% endcontent-ref %}\n\n{% content-ref url="../guide/" %}\n[x](../guide/)\n'
    "{% endcontent-ref %}\n",
    "docs/guide/page.md": (
        "# Page\n\n## Use `{% hint %}` blocks\n\n"
        '{% embed url="https://example.org/video" %}\nA caption.\n{% endembed %}\n\n'
        '```liquid\n{% hint style="info" %}\nkept as code\n{% endhint %}\n```\n\n'
        '{% include "../.gitbook/includes/note.md" %}\n'
        '{% include "../../outside.md" %}\n'
        '{% include "../.env" %}\n\n'
        "## Repeat\n\n## Repeat\n"
    ),
    "docs/.gitbook/includes/note.md": "---\ntitle: Note\n---\n\nA reusable note.\n",
    "docs/.env": "SECRET=1\n",
    "outside.md": "Outside the space.\n",
    "docs/unlisted.md": "# Not in the table of contents\n",
}


def test_a_space_as_gitbook_serves_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    repo = _write(tmp_path / "repo", SPACE)
    assert detect_generator(repo / "docs")[0] == "gitbook"  # .gitbook.yaml in the folder above
    site = detect_site(repo)
    assert site.rules.redirects == (("old/page", "guide/page.md"),)  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING):
        pages = indexed(repo, tmp_path / "i", UrlRule("https://x.gitbook.io/space"))
    assert {rel: p.url for rel, p in pages.items()} == {
        "docs/intro.md": "https://x.gitbook.io/space/",
        "docs/guide/README.md": "https://x.gitbook.io/space/guide",
        "docs/guide/page.md": "https://x.gitbook.io/space/guide/page",
    }
    guide = pages["docs/guide/README.md"].doc.sections[0].text
    assert "[Page](https://x.gitbook.io/space/guide/page)" in guide  # the card names the page
    assert "[Guide](https://x.gitbook.io/space/guide)" in guide  # a folder's page: its README
    page = pages["docs/guide/page.md"].doc
    text = "\n".join(s.text for s in page.sections)
    assert page.sections[1].heading == "Use `{% hint %}` blocks"  # code spans keep their tags
    assert "[https://example.org/video](https://example.org/video)\n\nA caption." in text
    assert '{% hint style="info" %}\nkept as code' in text
    assert "A reusable note." in text and "title: Note" not in text
    assert "Outside the space" not in text and "SECRET" not in text
    assert "../../outside.md" in caplog.text and "../.env" in caplog.text
    # Anchors GitBook does not document (a code span, a repeat) are said once, with an example.
    assert [s.anchor for s in page.sections] == ["", "use--hint--blocks", "repeat", "repeat-1"]
    assert caplog.text.count("GitBook does not document the anchors") == 1


def test_a_space_without_config_or_readme(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = _write(
        tmp_path / "book",
        {
            "SUMMARY.md": "* [Home](README.md)\n* [A](a.md)\n",
            "README.md": "# Home\n",
            "a.md": "# A\n",
        },
    )
    assert detect_generator(root)[0] == "gitbook"
    with caplog.at_level(logging.WARNING):
        pages = indexed(root, tmp_path / "i", UrlRule("https://docs.example.org/"))
    assert "no .gitbook.yaml" in caplog.text
    assert {rel: p.url for rel, p in pages.items()} == {
        "README.md": "https://docs.example.org/",
        "a.md": "https://docs.example.org/a",
    }
    caplog.clear()
    other = _write(
        tmp_path / "other",
        {
            ".gitbook.yaml": "structure:\n  readme: gone.md\n",
            "SUMMARY.md": "* [A](a.md)\n",
            "a.md": "# A\n",
        },
    )
    with caplog.at_level(logging.WARNING):
        detect_site(other)
    assert "readme gone.md is not there" in caplog.text


def test_a_gitbook_3_book_in_its_default_language(tmp_path: Path) -> None:
    book = _write(
        tmp_path / "book",
        {
            "book.json": '{"gitbook": "3.2.3", "variables": {"version": "2.1"}}',
            "LANGS.md": "* [English](en/)\n* [Deutsch](de/)\n",
            "en/SUMMARY.md": "* [Intro](README.md)\n* [Setup](setup.md)\n",
            "en/README.md": "# Intro\n\nVersion {{ book.version }}.\n\n## Setup in tests\n",
            "en/setup.md": "# Setup\n",
            "de/SUMMARY.md": "* [Einführung](README.md)\n",
            "de/README.md": "# Einführung\n",
        },
    )
    assert detect_generator(book)[0] == "gitbook"
    pages = indexed(book, tmp_path / "i", UrlRule("https://example.org/book/"))
    assert {rel: p.url for rel, p in pages.items()} == {
        "en/README.md": "https://example.org/book/en/index.html",
        "en/setup.md": "https://example.org/book/en/setup.html",
    }
    intro = pages["en/README.md"].doc
    assert "Version 2.1." in intro.sections[0].text
    assert [s.anchor for s in intro.sections] == ["intro", "setup-in-tests"]  # GitBook 3's ids


def test_a_book_json_of_another_tool_is_no_gitbook(tmp_path: Path) -> None:
    root = _write(tmp_path / "x", {"book.json": '{"name": "x"}', "index.md": "# X\n"})
    assert detect_generator(root)[0] == "markdown"
