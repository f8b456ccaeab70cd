"""The readers and rules behind the source contract, one behaviour at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.sources.generators.mkdocs.reader import parse_mkdocs
from tools.sources.generators.mkdocs.snippets import SnippetFiles, resolve_snippets
from tools.sources.markdown.parse import parse_markdown
from tools.sources.release_notes import about_release, is_release_notes
from tools.sources.slugs import Anchors, docutils_id, github, jupyter, python_markdown


@pytest.mark.parametrize(
    ("rule", "heading", "slug"),
    [
        (python_markdown, "Changes to `pydantic.BaseModel`", "changes-to-pydanticbasemodel"),
        (python_markdown, "`int_from_float`", "int_from_float"),
        (python_markdown, "Café — naïve   ids", "cafe-naive-ids"),
        (github, "Open a  session", "open-a--session"),
        (github, "What's new?", "whats-new"),
        # github-slugger keeps marks: a variation selector, Devanagari vowel signs.
        (github, "🗑️ animated", "\ufe0f-animated"),
        (github, "हिन्दी भाषा", "हिन्दी-भाषा"),
        (github, "x² ½ Ⓐ", "x--ⓐ"),
        (docutils_id, "1. yield fixtures (recommended)", "yield-fixtures-recommended"),
        (docutils_id, "The ``tmp_path_factory`` fixture", "the-tmp-path-factory-fixture"),
        (jupyter, "What's new in 2.0?", "What's-new-in-2.0?"),
    ],
)
def test_slug_rules_match_the_generators(rule, heading: str, slug: str) -> None:
    assert rule(heading) == slug


def test_repeated_headings_get_the_generators_suffix_and_explicit_ids_stay() -> None:
    pm = Anchors("python-markdown")
    assert [pm.heading("Validation"), pm.heading("Validation"), pm.take("x")] == [
        "validation",
        "validation_1",
        "x",
    ]
    gh = Anchors("github")
    assert [gh.heading("Install"), gh.heading("Install")] == ["install", "install-1"]


def test_records_give_heading_paths_and_code_blocks_with_their_language() -> None:
    page = parse_markdown(
        "p.md",
        '# Guide\n\n## Setup {#setup}\n\n```bash title="x"\npip install x\n```\n\n'
        "### Check it\n\n~~~\nplain\n~~~\n",
    )
    assert page.heading_paths() == [("Guide",), ("Guide", "Setup"), ("Guide", "Setup", "Check it")]
    setup, check = page.sections[1], page.sections[2]
    assert setup.anchor == "setup" and setup.anchors == ("setup",)
    assert [(b.language, b.code) for b in setup.code_blocks] == [("bash", "pip install x")]
    assert [(b.language, b.code) for b in check.code_blocks] == [("", "plain")]


def test_reference_links_read_as_text_unless_defined() -> None:
    page = parse_markdown(
        "p.md",
        "Use [`BaseModel`][pydantic.BaseModel], [Field][] and [docs][d].\n\n"
        "[d]: https://example.org/docs\n\n```python\nx = a[b][c]\n```\n",
    )
    text = page.sections[0].text
    assert "Use `BaseModel`, Field and [docs](https://example.org/docs)." in text
    assert "[d]:" not in text and "x = a[b][c]" in text  # code is left alone


def test_snippets_take_line_ranges_sections_and_never_leave_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "snips").mkdir(parents=True)
    (project / "snips" / "a.py").write_text("one\ntwo\nthree\nfour\n")
    (project / "snips" / "b.md").write_text(
        "skip\n# --8<-- [start:part]\nkept\n# --8<-- [end:part]\nskip too\n"
    )
    (tmp_path / "secret.txt").write_text("do not read")
    (project / ".env").write_text("API_KEY=do not read either")
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text("[remote] do not read either")
    files = SnippetFiles((str(project / "snips"),), str(project))
    text = (
        '--8<-- "a.py:2:3"\n'
        '    --8<-- "b.md:part"\n'
        '--8<-- "../../secret.txt"\n'
        '--8<-- "../.env"\n'
        '--8<-- "../.git/config"\n'
        "--8<--\na.py:4\n--8<--\n"
        ';--8<-- "a.py"\n'
    )
    out = resolve_snippets(text, files)
    assert out.rstrip("\n").split("\n") == ["two", "three", "    kept", "four", '--8<-- "a.py"']
    assert "do not read" not in out  # outside the project, or a dot file inside it
    # A snippet folder the site names may itself be a dot folder (pymdown's `.snippets`).
    (project / ".snippets").mkdir()
    (project / ".snippets" / "links.md").write_text("[home]: https://example.org")
    dotted = SnippetFiles((str(project / ".snippets"),), str(project))
    assert resolve_snippets('--8<-- "links.md"\n', dotted).strip() == "[home]: https://example.org"


def test_nested_blocks_are_flattened_and_titled(tmp_path: Path) -> None:
    text = (
        '* An item\n\n    === "Tab one"\n\n        !!! warning\n            Careful.\n\n'
        '        ```py {title="x.py"}\n        x = 1  # (2)\n        ```\n'
    )
    page = parse_mkdocs("p.md", text, snippets=None)
    body = page.sections[0].text
    assert "**Tab one**" in body and "**Warning**" in body and "\nCareful." in body
    assert "```py\nx = 1\n```" in body


@pytest.mark.parametrize(
    ("rel", "title", "release"),
    [
        ("changelog.md", "Changelog", True),
        ("docs/release-notes.md", "Release Notes", True),
        ("announce/release-8.0.0.rst", "pytest-8.0.0", True),
        ("history.rst", "History", True),
        ("whats_new.md", "What's new in 3.0", True),
        ("guide/migration.md", "Migration Guide", False),
        ("how-to/fixtures.rst", "How to use fixtures", False),
        ("concepts/versions.md", "Versioned APIs", False),
        ("blog/announcing-vite5.md", "Vite 5.0 is out!", True),
        ("blog.md", "Blog", True),
        ("src/content/docs/blog/launch.mdx", "Introducing Starlight", True),
        ("guide/blogging.md", "Writing a blog with the theme", False),
    ],
)
def test_release_notes_pages_are_known_by_title_or_file_name(
    rel: str, title: str, release: bool
) -> None:
    assert is_release_notes(rel, title) is release


@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("What changed in v2?", True),
        ("Is this fixed since 8.1?", True),
        ("changelog for the last release", True),
        ("Что нового в последней версии?", True),
        ("How do I use fixtures?", False),
        ("ImportError in python 3.11 site-packages", False),
    ],
)
def test_questions_about_a_release_are_told_apart(question: str, about: bool) -> None:
    assert about_release(question) is about


def test_an_mkdocs_page_with_no_title_is_named_after_its_file_as_mkdocs_does() -> None:
    from tools.sources.generators.mkdocs.rules import MkDocsRules
    from tools.sources.readers import read_page
    from tools.sources.site import Site

    site = Site(rules=MkDocsRules(), slug="python-markdown")
    root = Path("/nonexistent")
    assert read_page("guides/getting_started.md", b"Text.", site, root, "python").title == (
        "Getting started"
    )
    assert read_page("guides/index.md", b"Text.", site, root, "python").title == "Guides"
    assert read_page("a.md", b"# Own title\n\nText.", site, root, "python").title == "Own title"


def test_plain_markdown_reads_mkdocs_admonitions_but_leaves_the_rest() -> None:
    from tools.sources.readers import read_page
    from tools.sources.site import Site

    raw = b"Intro.\n\n!!! note\n    Text search needs an index.\n\nSetext\n======\n\n{count}\n"
    page = read_page("p.mdx", raw, Site(), Path("/nonexistent"), "python")
    text = "\n".join(s.text for s in page.sections)
    assert "**Note**" in text and "Text search needs an index." in text and "!!!" not in text
    assert "{count}" in text  # an MDX expression is no attribute list


def test_a_reader_that_raises_costs_its_page_its_markup_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.unit.tools.sources.folder_corpus import doc, synced
    from tools.sources import readers

    markdown = readers.READERS["markdown"]

    def fragile(rel: str, text: str, *args: Any) -> Any:
        if rel == "bad.md":
            raise ValueError("a case nobody foresaw")
        return markdown(rel, text, *args)

    monkeypatch.setitem(readers.READERS, "markdown", fragile)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "good.md").write_text("# Good\n\nFine words.\n")
    (tmp_path / "docs" / "bad.md").write_text(
        "# Bad\n\nStill searchable words.<!-- a hidden note -->\n"
    )
    corpus = synced(tmp_path / "docs", tmp_path / "index")
    assert doc(corpus, "good.md").title == "Good"
    bad = doc(corpus, "bad.md")
    assert "Still searchable words." in bad.sections[0].text
    assert "hidden note" not in bad.sections[0].text
    assert corpus.search("still searchable", 1)[0].key == "bad.md"
