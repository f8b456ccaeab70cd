"""MyST Markdown pages of a Sphinx site read as Sphinx builds them (tools/sources/generators/sphinx/myst/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.unit.tools.sources.markup import leftovers
from tools.sources.readers import read_page
from tools.sources.records import Page
from tools.sources.registry import detect_site
from tools.sources.site import Site

FIXTURE = Path(__file__).resolve().parents[5] / "fixtures" / "myst_site"
# MyST's own markers, outside code: directive fences, targets, roles, substitutions, comments.
MYST_LEFTOVER = re.compile(
    r"^\s*(?:`{3,}|~{3,}|:{3,})\{|^\s*\([^()\s]+\)=\s*$|\{[\w:+.-]+\}`|\{\{\s*[\w.-]+\s*\}\}|^\s*%\s"
    r"|^\s*\+\+\+\s*$|^\s*\{#",
    re.M,
)
_CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)

CONF = """extensions = ["myst_parser"]
myst_enable_extensions = ["colon_fence", "substitution", "attrs_block"]
myst_heading_anchors = 2
myst_substitutions = {"project": "Widget"}
"""
GUIDE = """(guide-start)=
# Guide `tool` page

See {ref}`install-label` and {doc}`other`, also {ref}`guide-start` and {py:func}`widget.run`.

% a comment nobody sees

```{note}
Remember to **save**.
```

:::{tip}
:class: dropdown
Use the cache.
:::

(install-label)=
## Install things

```{code-block} python
:caption: install.py
:linenos:

import widget
```

```{eval-rst}
.. warning:: Beware of the :doc:`other` page.
```

{#custom-id}
## Custom

+++

## Install things
Again {{ project }}.
"""
OTHER = """Other
=====

See :ref:`install-label` and :doc:`guide`.
"""
LINKS = """# Links

See [](install-label), [the guide](guide.md), [](guide.md), [its install part](guide.md#install-label),
<project:other.rst>, [elsewhere](https://example.com/x.md){.external} and a [note]{.big}[^n].

[^n]: The footnote's words.
"""
INDEX = """# Welcome to {{ project }}

```{toctree}
:maxdepth: 2

guide
Other page <other>
```
"""


def _leftover(page: Page) -> list[str]:
    found: list[str] = []
    for s in page.sections:
        text = s.heading + "\n" + s.text
        found += leftovers(text)
        found += [m.group(0) for m in MYST_LEFTOVER.finditer(_CODE.sub(" ", text))]
    return found


@pytest.fixture
def site(tmp_path: Path) -> tuple[Site, Path]:
    for name, text in {
        "conf.py": CONF,
        "guide.md": GUIDE,
        "other.rst": OTHER,
        "index.md": INDEX,
        "links.md": LINKS,
    }.items():
        (tmp_path / name).write_text(text)
    return detect_site(tmp_path), tmp_path


def _read(site: tuple[Site, Path], rel: str) -> Page:
    profile, root = site
    return read_page(rel, (root / rel).read_bytes(), profile, root, "python")


def test_sections_carry_docutils_ids_labels_and_heading_anchor_slugs(
    site: tuple[Site, Path],
) -> None:
    page = _read(site, "guide.md")
    heads = [(s.heading, s.anchor, s.ids) for s in page.sections if s.level]
    assert page.title == "Guide `tool` page"
    # a label is the section's first id (myst-parser puts explicit targets first), the
    # docutils id of the title follows; a repeated title gets docutils' `idN` and the
    # `myst_heading_anchors` slug `-1`.
    assert heads == [
        ("Guide `tool` page", "guide-start", ("guide-tool-page",)),
        ("Install things", "install-label", ("install-things",)),
        ("Custom", "custom-id", ("custom",)),
        ("Install things", "id1", ("install-things-1",)),
    ]


def test_admonitions_code_and_eval_rst_read_as_the_rst_reader_reads_them(
    site: tuple[Site, Path],
) -> None:
    page = _read(site, "guide.md")
    first, install = page.sections[0], page.sections[1]
    assert "**Note:** Remember to **save**." in first.text
    assert "**Tip:** Use the cache." in first.text  # colon fence, its option dropped
    assert [(c.language, c.code) for c in install.code_blocks] == [("python", "import widget")]
    assert "**Warning:** Beware of the [Other](other.html) page." in install.text
    assert "comment nobody sees" not in page.body
    assert page.sections[-1].text == "Again Widget."  # substitution from conf.py
    assert _leftover(page) == []


def test_roles_are_links_exactly_as_on_rst_pages_and_labels_reach_both_ways(
    site: tuple[Site, Path],
) -> None:
    guide = _read(site, "guide.md")
    assert guide.sections[0].text.startswith(
        "See [Install things](guide.html#install-label) and [Other](other.html), also "
        "[Guide tool page](guide.html#guide-start) and `widget.run()`."
    )
    other = _read(site, "other.rst")  # an rst page's :ref: to a MyST label, :doc: to a MyST page
    assert other.sections[0].text == (
        "See [Install things](guide.html#install-label) and [Guide tool page](guide.html)."
    )


def test_myst_links_to_labels_and_pages_read_as_ref_and_doc_and_footnotes_keep_their_words(
    site: tuple[Site, Path],
) -> None:
    text = _read(site, "links.md").sections[0].text
    assert text == (
        "See [Install things](guide.html#install-label), [the guide](guide.html), "
        "[Guide tool page](guide.html), [its install part](guide.html#install-label),\n"
        "[Other](other.html), [elsewhere](https://example.com/x.md) and a note[n].\n\n"
        "[n] The footnote's words."
    )


def test_includes_resolve_inside_the_docs_folder_and_literalinclude_keeps_its_language(
    site: tuple[Site, Path],
) -> None:
    _, root = site
    (root / "snippet.py").write_text("def run():\n    return 1\n")
    (root / "part.md").write_text(":::{note}\nIncluded words.\n:::\n")
    (root / "incl.md").write_text(
        "# Incl\n\n```{literalinclude} snippet.py\n:language: python\n```\n\n"
        "```{include} part.md\n```\n\n```{include} ../../etc/passwd\n```\n"
    )
    page = _read(site, "incl.md")
    section = page.sections[0]
    assert [(c.language, c.code) for c in section.code_blocks] == [
        ("python", "def run():\n    return 1")
    ]
    assert "**Note:** Included words." in section.text
    assert "part.md" in page.meta["includes"] and "root:" not in page.body
    assert _leftover(page) == []


def test_a_myst_page_may_include_the_repositorys_readme_and_changelog(tmp_path: Path) -> None:
    # As black's and attrs' docs do (`{include} ../README.md`): the file lies above the docs.
    docs = tmp_path / "repo" / "docs"
    docs.mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    (tmp_path / "repo" / "README.md").write_text("## Overview\n\nWords of the readme.\n")
    (docs / "conf.py").write_text(CONF)
    (docs / "index.md").write_text("# Home\n\n```{include} ../README.md\n```\n")
    page = _read((detect_site(docs), docs), "index.md")
    assert "Words of the readme." in page.body
    assert page.meta["includes"] == [str((tmp_path / "repo" / "README.md").resolve())]
    assert page.meta["reads"] == [str((tmp_path / "repo" / "README.md").resolve())]


def test_toctree_of_a_myst_index_is_the_navigation_and_plain_markdown_elsewhere(
    site: tuple[Site, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    profile, _ = site
    assert profile.nav == ("index.md", "guide.md", "other.rst")
    index = _read(site, "index.md")
    assert index.title == "Welcome to Widget"
    assert [e["target"] for e in index.meta["toctrees"][0]["entries"]] == ["guide", "other"]
    assert "toctree" not in index.body and "maxdepth" not in index.body
    # A Sphinx project without myst-parser / myst-nb: its Markdown stays plain Markdown.
    plain = tmp_path_factory.mktemp("plain")
    (plain / "conf.py").write_text('extensions = ["sphinx.ext.autodoc"]\n')
    (plain / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   page\n")
    (plain / "page.md").write_text("# Page\n\n```{note}\nkept as code\n```\n")
    other = detect_site(plain)
    assert other.reader_for("page.md") == "markdown" and other.reader_for("guide.md") == "markdown"
    page = read_page("page.md", (plain / "page.md").read_bytes(), other, plain, "python")
    assert "```{note}\nkept as code\n```" in page.body  # plain Markdown: a code fence


def test_the_real_myst_project_excerpt() -> None:
    """sphinx-book-theme's docs (tests/fixtures/myst_site): nav from MyST toctrees, clean text."""
    profile = detect_site(FIXTURE)
    assert profile.nav == (
        "index.md",
        "content/index.md",
        "reference/admonitions.rst",
        "content/content-blocks.md",
    )
    pages = {
        rel: read_page(rel, (FIXTURE / rel).read_bytes(), profile, FIXTURE, "python")
        for rel in profile.nav
    }
    for rel, page in pages.items():
        assert _leftover(page) == [], rel
    blocks = pages["content/content-blocks.md"]
    by_anchor = {s.anchor: s for s in blocks.sections}
    assert by_anchor["margin-sidenote"].ids == ("sidenotes-and-marginnotes",)
    assert by_anchor["margin-block"].heading == "Block margin content with the `{margin}` directive"
    assert "**Important:** The `{margin}` directive should not be nested" in (
        by_anchor["margin-block"].text
    )
    # an unknown directive (`{example}`) keeps its title and its text
    quotes = by_anchor["quotations-and-epigraphs"].text
    assert "**Default markdown quotes:**\n\n> Here's my quote, it's pretty neat." in quotes
    assert "**See also:** This is the default theme in [Jupyter Book]" in pages["index.md"].body


@pytest.mark.parametrize(
    ("text", "closed"),
    [
        ("# T\n\n```{note}\nnever closed\n\nstill here", False),
        (
            "# T\n\n"
            + "".join(":" * (303 - k) + "{note}\n" for k in range(300))
            + "deep words\n"
            + "".join(":" * (4 + k) + "\n" for k in range(300)),
            True,
        ),
        ("# T\n\n::::\nplain colon fence\n::::", True),
        ("# T\n\n" + "::::{note}\n" * 300 + "deep words\n", False),
        ("# T\n\n" + "> " * 500 + "quoted words", True),
        ("# T\n\n{ref}`odd <role` and {{ x", True),
        ("# T\n\n{ref}`unclosed role", True),  # literal text in Sphinx too
        ("# T\n\n```{eval-rst}\n.. broken:: \n   :x:\n\n   rst words\n```", True),
        ("(lonely)=\n", True),
    ],
)
def test_hostile_input_never_crashes_and_keeps_its_words(
    site: tuple[Site, Path], text: str, closed: bool
) -> None:
    profile, root = site
    words = set(re.findall(r"[a-z]{4,}", text)) - {"note", "lonely", "eval", "broken"}
    text += "\n\n(after-label)=\n## After\n"  # unterminated blocks run to the end (as in MyST)
    page = read_page("bad.md", text.encode(), profile, root, "python")
    body = page.body
    if "unclosed" not in text:
        assert not MYST_LEFTOVER.search(_CODE.sub(" ", body)), body[-300:]
    assert ("after-label" in page.sections[-1].anchors) is closed
    assert "After" in body
    for word in words:
        assert word in body, (word, body[:300])


def test_a_hash_line_in_eval_rst_stays_a_paragraph(site: tuple[Site, Path]) -> None:
    profile, root = site
    text = (
        "# Page\n\n```{eval-rst}\nExample:\n\n.. code-block:: python\n\n"
        "    # a code comment\n    x = 1\n\n# And how it works on the command line:\n\nMore.\n```\n"
    )
    page = read_page("hash.md", text.encode(), profile, root, "python")
    assert [s.heading for s in page.sections] == ["Page"]
    body = page.sections[0].text
    assert "```python\n# a code comment\nx = 1\n```" in body
    assert "\\# And how it works on the command line:\n\nMore." in body


def test_metadata_directives_show_nothing_and_set_the_module(site: tuple[Site, Path]) -> None:
    profile, root = site
    text = (
        "# Page\n\n```{currentmodule} pkg.tools\n```\n\n```{sectionauthor} Jane <j@x.test>\n```\n\n"
        "```{codeauthor} Jane\n```\n\n```{default-role} code\n```\n\nWords.\n\n"
        "```{eval-rst}\n.. autofunction:: run\n\n   Runs.\n```\n"
    )
    page = read_page("meta.md", text.encode(), profile, root, "python")
    assert page.sections[0].text == "Words."
    assert [s.anchor for s in page.sections] == ["page", "pkg.tools.run"]
    assert "**" not in page.body


MODULE_PAGE = """# API

```{eval-rst}
.. currentmodule:: pkg.other
```

Some text with {py:func}`later`.

```{eval-rst}
.. function:: later()

   Later function.
```

## Objects

```{py:function} later2()
Later two, see {py:func}`later`.
```

::::{py:class} Box
Box text.

:::{py:method} open()
Opens.
:::
::::

```{confval} verbose
:type: bool
Be verbose.
```
"""


def test_currentmodule_of_one_block_names_the_objects_of_the_next(tmp_path: Path) -> None:
    # Sphinx keeps `currentmodule` in env.ref_context for the rest of the page: the ids and
    # nesting below are those of `sphinx-build -b html` (myst-parser 5.2) for this page.
    from dataclasses import replace

    from tools.sources.generators.sphinx.project import SphinxSite

    (tmp_path / "conf.py").write_text(
        'extensions = ["myst_parser"]\nmyst_enable_extensions = ["colon_fence"]\n'
    )
    (tmp_path / "api.md").write_text(MODULE_PAGE)
    (tmp_path / "index.md").write_text("# Home\n\nSee {py:func}`pkg.other.later2`.\n")
    page = SphinxSite(tmp_path).parse("api.md")
    assert [(s.heading, s.level, s.anchor) for s in page.sections] == [
        ("API", 1, "api"),
        ("later()", 2, "pkg.other.later"),  # under the MyST heading, not a page title
        ("Objects", 2, "objects"),
        ("later2()", 3, "pkg.other.later2"),  # a MyST object directive: a described object
        ("Box", 3, "pkg.other.Box"),
        ("open()", 4, "pkg.other.Box.open"),  # in the class's scope
        ("verbose", 3, "confval-verbose"),
    ]
    assert page.sections[3].text == "Later two, see `later()`."
    assert page.sections[-1].text.endswith("Be verbose.")
    # Linked (RstOptions.link_objects), MyST pages' objects are targets of other pages, and a
    # short name reads in the module in force where it is written.
    (tmp_path / "usage.md").write_text(
        "# Usage\n\nSee {py:func}`later2`.\n\n```{eval-rst}\n.. currentmodule:: pkg.other\n```\n\n"
        "Then {py:func}`later2` and {py:meth}`Box.open`.\n"
    )
    site = SphinxSite(tmp_path)
    site.options = replace(site.options, link_objects=True)
    home = site.parse("index.md")
    assert home.sections[0].text == "See [`pkg.other.later2()`](api.html#pkg.other.later2)."
    usage = site.parse("usage.md")
    assert usage.sections[0].text == (
        "See `later2()`.\n\nThen [`later2()`](api.html#pkg.other.later2) and "
        "[`Box.open()`](api.html#pkg.other.Box.open)."
    )


def test_links_whose_text_holds_code_or_a_line_break_resolve_as_other_links(
    site: tuple[Site, Path],
) -> None:
    # As myst-parser 5.2 builds them: the text shown (code kept), the link to the real page/id.
    profile, root = site
    text = (
        "# Wide links\n\nSee [`foo()` function](guide.md#install-label) and [a link\n"
        "spanning two lines](guide.md#install-label), [`code` only](guide.md), [multi\n"
        "line page](other.rst), [the `x` label](install-label), [`ext`\nsite](https://e.test/a), "
        "`[not](a-link.md)` and [`code` file](data/x.csv).\n"
    )
    page = read_page("wide.md", text.encode(), profile, root, "python")
    assert page.sections[0].text == (
        "See [`foo()` function](guide.html#install-label) and "
        "[a link spanning two lines](guide.html#install-label), [`code` only](guide.html), "
        "[multi line page](other.html), [the `x` label](guide.html#install-label), "
        "[`ext` site](https://e.test/a), `[not](a-link.md)` and [`code` file](data/x.csv)."
    )


def test_a_myst_class_with_its_own_module_names_its_members_in_it(tmp_path: Path) -> None:
    # The ids of `sphinx-build -b html` (myst-parser 5.2) for this page: `:module:` holds for
    # the class's content only, and a member repeating its class's name is not nested twice.
    from tools.sources.generators.sphinx.project import SphinxSite

    (tmp_path / "conf.py").write_text(
        'extensions = ["myst_parser"]\nmyst_enable_extensions = ["colon_fence"]\n'
    )
    (tmp_path / "index.md").write_text(
        "# API\n\n```{py:module} pkg.http\n```\n\n::::{py:class} Request\n:module: pkg\n\n"
        "Request text.\n\n:::{py:attribute} Request.url\nThe URL.\n:::\n::::\n\n"
        "```{py:class} Response\nResponse text.\n```\n"
    )
    page = SphinxSite(tmp_path).parse("index.md")
    # (`module-pkg.http` is served too; a `{py:module}` block's target is not kept yet.)
    assert [s.anchors for s in page.sections] == [
        ("api",),
        ("pkg.Request",),
        ("pkg.Request.url",),
        ("pkg.http.Response",),
    ]
