"""The reStructuredText reader: the records it must produce for Sphinx markup.

Golden records on small pages: section ids as the built site serves them (docutils `make_id`,
`idN` when taken, labels, Sphinx's `SortIds`), code blocks with their language, roles shown as
their text, Sphinx directives as text or navigation, object descriptions with their ids, and
includes confined to the docs folder.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tools.sources.generators.sphinx.directives.content import eval_only
from tools.sources.generators.sphinx.ids import sphinx_make_id
from tools.sources.generators.sphinx.options import REFUSED_INCLUDE, RstOptions
from tools.sources.generators.sphinx.project import SphinxSite
from tools.sources.generators.sphinx.rst import parse_rst
from tools.sources.records import Page, Section

FIXTURE = Path(__file__).resolve().parents[5] / "fixtures" / "sphinx_site"
SPHINX = RstOptions(
    default_role="literal",
    crossref_types=frozenset({"fixture", "hook"}),
    object_types=frozenset({"globalvar"}),
)
# What must never reach a title, a text or a snippet (code blocks and code spans excepted).
LEFTOVER = re.compile(r"^\s*\.\. |:ref:|(?<![\w`]):[\w:+.-]+:`|(?<!:)::[ \t]*$|\{ #", re.MULTILINE)


def prose(text: str) -> str:
    """The text without fenced blocks and code spans (code may show markup as code)."""
    text = re.sub(r"^(`{3,}).*?^\1", "", text, flags=re.DOTALL | re.MULTILINE)
    return re.sub(r"``.+?``|`[^`\n]+`", "", text)


def leftovers(page: Page) -> list[str]:
    """Leftover markup in a page's headings and texts."""
    return [
        m.group(0)
        for s in page.sections
        for part in (s.heading, prose(s.text))
        for m in LEFTOVER.finditer(part)
    ]


def anchors(section: Section) -> tuple[str, ...]:
    """Every id that opens the section: its anchor, then the other ids it serves."""
    return tuple(dict.fromkeys(i for i in (section.anchor, *section.ids) if i))


def section(page: Page, heading: str) -> Section:
    return next(s for s in page.sections if s.heading == heading)


def test_section_ids_follow_docutils_and_sphinx() -> None:
    page = parse_rst(
        "ids.rst",
        """
.. _`tmp_path factory`:
.. _top:

1. Yield fixtures (recommended)
===============================

.. _skipif:

Skipping
--------

``skipif``
~~~~~~~~~~

.. _`import-modes`:

Import modes
------------

Skipping
--------

.. _`@pytest.fixture`:
.. _`pytest.fixture`:

Fixtures reference
------------------
""",
        SPHINX,
    )
    # The primary id (anchor) comes first; the order of the labels after it is docutils'.
    ids = [(s.heading, s.anchor, (s.anchor, *sorted(s.ids))) for s in page.sections]
    assert ids == [
        (
            "1. Yield fixtures (recommended)",
            "yield-fixtures-recommended",
            ("yield-fixtures-recommended", "tmp-path-factory", "top"),
        ),
        ("Skipping", "skipping", ("skipping", "skipif")),
        # The label above the parent took `skipif`: the subsection is `idN`.
        ("`skipif`", "id1", ("id1",)),
        # A label with the section's own id: Sphinx serves the label, `idN` moves last.
        ("Import modes", "import-modes", ("import-modes", "id2")),
        ("Skipping", "id3", ("id3",)),
        # Two labels with one make_id: the second is `idN`.
        (
            "Fixtures reference",
            "fixtures-reference",
            ("fixtures-reference", "id4", "pytest-fixture"),
        ),
    ]
    assert page.title == "1. Yield fixtures (recommended)"


def test_code_blocks_keep_their_language() -> None:
    page = parse_rst(
        "code.rst",
        """
Code
====

.. code-block:: toml

    [tool.pytest]
    addopts = ["-ra"]

.. sourcecode:: pytest

    $ pytest -q

Plain literal::

    x = 1

Shell output::

    $ pip install -U pytest
    Successfully installed pytest

.. highlight:: python

After highlight::

    y = 2

>>> 1 + 1
2
""",
        SPHINX,
    )
    text = page.sections[0].text
    assert '```toml\n[tool.pytest]\naddopts = ["-ra"]\n```' in text
    assert "```pytest\n$ pytest -q\n```" in text
    # Sphinx's `default` highlighting: Python when it reads as Python, else plain text.
    assert "Plain literal:\n\n```python\nx = 1\n```" in text
    assert "Shell output:\n\n```\n$ pip install -U pytest" in text
    assert "After highlight:\n\n```python\ny = 2\n```" in text
    assert "```pycon\n>>> 1 + 1\n2\n```" in text
    assert not leftovers(page)


def test_roles_show_their_text() -> None:
    page = parse_rst(
        "roles.rst",
        """
Roles
=====

See :ref:`the tutorial <tmp_path factory example>` and :ref:`assert-details`;
:func:`pytest.raises`, :func:`~pytest.approx`, :meth:`Config.getoption`,
:class:`title <pytest.Mark>`, :py:class:`pathlib.Path`, :confval:`addopts`,
:option:`--basetemp`, :envvar:`CI`, :fixture:`capsys`, :hook:`pytest_addoption`,
:issue:`123`, :pr:`45`, :user:`someone`, :pypi:`pytest-xdist`, :pep:`8`,
:doc:`how-to/fixtures`, :abbr:`LIFO (last-in, first-out)`, :unknown:`kept text`,
`single backquotes`, ``double``.
""",
        SPHINX,
    )
    assert page.sections[0].text == (
        "See the tutorial and assert details; `pytest.raises()`, `approx()`, "
        "`Config.getoption()`, `title`, `pathlib.Path`, `addopts`, `--basetemp`, `CI`, "
        "`capsys`, `pytest_addoption`, #123, #45, @someone, pytest-xdist, PEP 8, fixtures, "
        "LIFO (last-in, first-out), kept text, `single backquotes`, `double`."
    )


def test_a_ref_to_a_label_on_the_page_shows_the_section_title() -> None:
    page = parse_rst(
        "r.rst",
        ".. _top-label:\n\nTop\n===\n\nSee :ref:`sub-label`, :ref:`other-page-label`, "
        ":ref:`top-label`.\n\n.. _`sub-label`:\n\nThe ``sub`` part\n----------------\n\nx\n",
        SPHINX,
    )
    assert page.sections[0].text == "See The `sub` part, other page label, Top."


def test_default_role_is_the_projects() -> None:
    text = "T\n=\n\nA `name` here.\n"
    assert "A `name` here." in parse_rst("a.rst", text, SPHINX).sections[0].text
    # Without a default role, docutils renders title references (emphasis), not code.
    assert "A *name* here." in parse_rst("a.rst", text, RstOptions()).sections[0].text
    # `.. default-role::` on one page does not leak into the next.
    parse_rst("b.rst", ".. default-role:: math\n\nT\n=\n\n`x`\n", SPHINX)
    assert "A `name` here." in parse_rst("a.rst", text, SPHINX).sections[0].text


def test_admonitions_and_versions_are_labelled_text() -> None:
    page = parse_rst(
        "notes.rst",
        """
Notes
=====

.. note::

   Use ``tmp_path``.

.. warning:: Careful.

.. seealso:: :ref:`fixtures`

.. versionadded:: 8.1
   The ``strict`` flag.

.. versionchanged:: 9.0

   Now the default.

.. deprecated:: 7.0

.. versionremoved:: 8.0
   Gone.

.. admonition:: Custom title

   Body.
""",
        SPHINX,
    )
    text = page.sections[0].text
    for expected in (
        "**Note:** Use `tmp_path`.",
        "**Warning:** Careful.",
        "**See also:** fixtures",
        "**Added in version 8.1:** The `strict` flag.",
        "**Changed in version 9.0:** Now the default.",
        "**Deprecated since version 7.0.**",  # no text: the label alone, as Sphinx shows it
        "**Removed in version 8.0:** Gone.",
        "**Custom title:** Body.",
    ):
        assert expected in text, expected
    assert not leftovers(page)


def test_toctree_only_and_tabs() -> None:
    page = parse_rst(
        "index.rst",
        """
Index
=====

.. toctree::
   :maxdepth: 2
   :caption: Guides

   getting-started
   How-to <how-to/index>

.. only:: html

   On the web.

.. only:: latex

   In the PDF.

.. tab:: Linux

   ``apt install``

.. tab:: Windows

   ``choco install``
""",
        SPHINX,
    )
    text = page.sections[0].text
    assert "getting-started" not in text and "Guides" not in text
    assert page.meta["toctrees"] == [
        {
            "entries": [
                {"title": "", "target": "getting-started"},
                {"title": "How-to", "target": "how-to/index"},
            ],
            "glob": False,
            "hidden": False,
            "caption": "Guides",
        }
    ]
    assert "On the web." in text and "In the PDF." not in text
    assert "**Linux:** `apt install`" in text and "**Windows:** `choco install`" in text


def test_only_may_hold_sections_with_their_own_title_styles() -> None:
    page = parse_rst(
        "changes.rst",
        """
Changelog
=========

.. only:: not is_release

   To be included in v\\ |release|
   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

   Draft.

pytest 9.1 (2026-06-19)
=======================

Bug fixes
---------

- Fixed.
""",
        SPHINX,
    )
    assert [(s.heading, s.level, s.anchor) for s in page.sections] == [
        ("Changelog", 1, "changelog"),
        ("To be included in v", 2, "to-be-included-in-vrelease"),
        ("pytest 9.1 (2026-06-19)", 1, "pytest-9-1-2026-06-19"),
        ("Bug fixes", 2, "bug-fixes"),
    ]
    assert page.sections[1].text == "Draft."


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("html", True),
        ("latex", False),
        ("not latex", True),
        ("html and not latex", True),
        ("latex or (html and not epub)", True),
        ("not (html or latex)", False),
    ],
)
def test_only_expressions(expression: str, expected: bool) -> None:
    assert eval_only(expression, frozenset({"html", "format_html", "builder_html"})) is expected


def test_object_descriptions_are_sections_with_the_sites_ids() -> None:
    page = SphinxSite(FIXTURE).parse("reference.rst")
    found = {s.heading: anchors(s) for s in page.sections}
    # autodoc objects have no text in the source: their ids (and the targets above them) open
    # the section they sit in, no section of their own.
    assert found["capsys"] == (
        "capsys",
        "std-fixture-capsys",
        "pytest.capture.capsys",  # Sphinx's make_id drops a leading `_`, as pytest's site shows
        "pytest_addoption",
        "std-hook-pytest_addoption",
    )
    assert found["addopts"] == ("confval-addopts",)
    assert found["CI"] == ("envvar-CI",)
    assert found["-x, --exitfirst"] == ("cmdoption-x", "cmdoption-exitfirst")
    assert found["collect_ignore"] == ("globalvar-collect_ignore", "pytest.Mark")
    assert found["pytest.approx(expected, rel=None, abs=None)"] == ("pytest.approx",)
    assert "pytest.Mark" not in found and "pytest_addoption" not in found
    ci = section(page, "CI")
    assert ci.level == 3
    assert ci.text.startswith("When set to a non-empty value, pytest acknowledges")
    assert "- **Type**: `list[str]`" in section(page, "addopts").text
    assert "| two | second \\| row |" in page.sections[-1].text
    assert not leftovers(page)


def test_python_objects_get_their_dotted_names() -> None:
    text = (
        "T\n=\n\n.. currentmodule:: pytest\n\n.. autoclass:: Mark\n\n   Text.\n\n"
        ".. automethod:: Config.getoption\n\n   Text.\n\n"
        ".. autofunction:: _pytest.capture.capsys\n\n   Text.\n\n"
        ".. class:: Foo\n\n   .. method:: bar()\n\n      Text.\n\n"
        ".. option:: -k EXPR\n\n   Text.\n\n.. program:: pytest-xdist\n\n"
        ".. option:: -n NUM, --numprocesses=NUM\n\n   Text.\n"
    )
    page = parse_rst("api.rst", text, SPHINX)
    assert [anchors(s) for s in page.sections[1:]] == [
        ("pytest.Mark",),
        ("pytest.Config.getoption",),
        ("pytest.capture.capsys",),
        ("pytest.Foo",),
        ("pytest.Foo.bar",),
        ("cmdoption-k",),
        ("cmdoption-pytest-xdist-n", "cmdoption-pytest-xdist-numprocesses"),
    ]


# A reference page written as scrapy's is (docs/topics/request-response.rst): an autodoc class
# named from another module than the page's, members that repeat their class's name.
API_PAGE = """API
===

.. module:: scrapy.http

.. autoclass:: scrapy.Request

    .. attribute:: Request.url

        The URL.

    .. autoattribute:: callback

    .. method:: Request.copy()

        A copy.

.. class:: TextResponse(url)

    .. attribute:: TextResponse.text

        The body as text.

.. method:: Inner.close()

    .. method:: flush()

        Flushes.

.. currentmodule:: None

.. method:: __init__(self, file)

    A plugin's constructor.
"""


def test_python_objects_are_named_as_sphinx_names_them() -> None:
    from tools.sources.generators.sphinx.xref_scan import scan_page

    page = parse_rst("api.rst", API_PAGE, SPHINX)
    ids = [anchors(s) for s in page.sections[1:]]
    # The ids scrapy's built page serves: autodoc's `:module:` (`scrapy`, from the dotted name)
    # holds inside the class, a member repeating its class is not nested twice, the page's
    # module comes back after the class, a method named `Inner.close` puts `Inner` in force for
    # its content, and `make_id` drops a leading `_`.
    assert ids == [
        ("scrapy.Request", "module-scrapy.http"),
        ("scrapy.Request.url", "scrapy.Request.callback"),
        ("scrapy.Request.copy",),
        ("scrapy.http.TextResponse",),
        ("scrapy.http.TextResponse.text",),
        ("scrapy.http.Inner.close",),
        ("scrapy.http.Inner.flush",),
        ("init__",),
    ]
    assert page.sections[1].heading == "scrapy.Request"
    # The cross-reference index names the same objects with the same ids.
    objects = scan_page("api", API_PAGE, SPHINX).objects
    assert {k[1]: v for k, v in objects.items() if k[0] == "py"} == {
        "scrapy.Request": "scrapy.Request",
        "scrapy.Request.url": "scrapy.Request.url",
        "scrapy.Request.callback": "scrapy.Request.callback",
        "scrapy.Request.copy": "scrapy.Request.copy",
        "scrapy.http.TextResponse": "scrapy.http.TextResponse",
        "scrapy.http.TextResponse.text": "scrapy.http.TextResponse.text",
        "scrapy.http.Inner.close": "scrapy.http.Inner.close",
        "scrapy.http.Inner.flush": "scrapy.http.Inner.flush",
        "__init__": "init__",
    }


def test_numbered_ids_after_an_autodoc_directive_are_not_cited() -> None:
    # scrapy's items page: `Item`'s docstring (imported by autodoc, never read here) defines a
    # target the page defines too, which takes `id3`; the second "Working with Item objects"
    # is `id4` on the built page, and the `id4` docutils alone gives "Copying items" is on it.
    head = "Items\n=====\n\nA\n-\n\nText.\n\nA\n-\n\nText.\n\n"
    tail = "B\n-\n\nText.\n\nB\n-\n\nText.\n"
    auto = ".. autoclass:: pkg.Item\n\n"
    page = parse_rst("items.rst", head + auto + tail, SPHINX)
    assert [s.anchors for s in page.sections] == [
        ("items",),
        ("a",),
        ("id1", "pkg.Item"),  # before the docstring: known (autodoc's object opens it too)
        ("b",),
        (),  # `id2` by docutils' count, whatever the docstring took: cited as the page
    ]
    # Without autodoc nothing is imported: every number is known.
    plain = parse_rst("items.rst", head + tail, SPHINX)
    assert [s.anchors for s in plain.sections][-1] == ("id2",)


def test_an_object_described_twice_gets_sphinxs_serial_id() -> None:
    text = "T\n=\n\n.. function:: f()\n\n   One.\n\n.. function:: f()\n\n   Two.\n"
    page = parse_rst("api.rst", text, SPHINX)
    assert [anchors(s) for s in page.sections[1:]] == [("f",), ("id0",)]


def test_sphinx_ids_keep_case_dots_and_underscores() -> None:
    assert sphinx_make_id("envvar-CI") == "envvar-CI"
    assert sphinx_make_id("std:hook-pytest_addoption") == "std-hook-pytest_addoption"
    assert sphinx_make_id("cmdoption--k") == "cmdoption-k"
    assert sphinx_make_id("pytest.approx") == "pytest.approx"


def _fixture_in(tmp_path: Path, checkout: bool) -> Path:
    """The fixture site as `repo/docs`, `repo` a git checkout or a plain folder."""
    docs = tmp_path / "repo" / "docs"
    shutil.copytree(FIXTURE, docs)
    (tmp_path / "repo" / "outside.rst").write_text("Beside the docs, in the repository.\n")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'never read'\n")
    if checkout:
        (tmp_path / "repo" / ".git").mkdir()
    return docs


def test_includes_are_resolved_inside_the_docs_folder_without_a_checkout(tmp_path: Path) -> None:
    page = SphinxSite(_fixture_in(tmp_path, checkout=False)).parse("how-to/skipping.rst")
    text = "\n".join(s.text for s in page.sections)
    assert "Text from an included fragment, with a `literal`." in text
    assert (
        '```python\ndef pytest_addoption(parser):\n    parser.addoption("--cmdopt"' in text
    )  # literalinclude :pyobject:, language from the file
    assert "Beside the docs" not in text
    assert "[project]" not in text  # ../../../../pyproject.toml escapes the docs folder
    assert page.meta["includes"] == ["_include/snippet.rst"]
    assert len(page.meta["warnings"]) == 2
    assert all("outside the repository" in w for w in page.meta["warnings"])


def test_includes_may_come_from_the_repository_holding_the_docs_never_beyond(
    tmp_path: Path,
) -> None:
    # As a project's index includes `../README.rst`: the built site shows that file's text.
    docs = _fixture_in(tmp_path, checkout=True)
    (docs.parent / ".env").write_text("API_KEY=never read\n")
    (docs.parent / ".git" / "config").write_text("[remote] never read\n")
    page_file = docs / "how-to" / "skipping.rst"
    page_file.write_text(
        page_file.read_text() + "\n.. literalinclude:: ../../.env\n\n.. include:: /../.git/config\n"
    )
    page = SphinxSite(docs).parse("how-to/skipping.rst")
    text = "\n".join(s.text for s in page.sections)
    assert "Beside the docs, in the repository." in text
    assert "never read" not in text  # above the checkout, or a dot file inside it
    assert [w for w in page.meta["warnings"]] == [
        f"literalinclude ../../../../pyproject.toml: {REFUSED_INCLUDE}",
        f"literalinclude ../../.env: {REFUSED_INCLUDE}",
        f"include /../.git/config: {REFUSED_INCLUDE}",
    ]


def test_literalinclude_clips_like_sphinx(tmp_path: Path) -> None:
    (tmp_path / "conf.ini").write_text("# head\n[pytest]\naddopts = -ra\n# tail\n")
    text = (
        "T\n=\n\n.. literalinclude:: conf.ini\n   :caption: pytest.ini\n"
        "   :start-after: # head\n   :end-before: # tail\n\n"
        ".. literalinclude:: conf.ini\n   :lines: 2-3\n   :language: cfg\n"
    )
    page = parse_rst("p.rst", text, RstOptions(root=tmp_path), source_path=tmp_path / "p.rst")
    assert page.sections[0].text == (
        "**pytest.ini**\n\n```ini\n[pytest]\naddopts = -ra\n```\n\n"
        "```cfg\n[pytest]\naddopts = -ra\n```"
    )


def test_a_symlink_out_of_the_docs_folder_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "link.txt").symlink_to(secret)
    text = "T\n=\n\n.. include:: link.txt\n\n.. literalinclude:: link.txt\n"
    page = parse_rst("page.rst", text, RstOptions(root=docs), source_path=docs / "page.rst")
    assert "TOP SECRET" not in page.body
    assert len(page.meta["warnings"]) == 2
    # Without a docs folder every include is refused.
    page = parse_rst("page.rst", text, RstOptions())
    assert "TOP SECRET" not in page.body


def test_unknown_directives_and_roles_keep_their_text_without_errors() -> None:
    page = parse_rst(
        "x.rst",
        """
Title
=====

.. dropdown:: Click me
   :open:

   Hidden :kbd:`Ctrl` text with :weird-role:`shown`.

.. some-generator::

.. c:function:: int f(void)

   A C function.
""",
        SPHINX,
    )
    text = page.body
    assert "**Click me:** Hidden `Ctrl` text with shown." in text
    assert "A C function." in text
    assert "System Message" not in text and "ERROR" not in text
    assert not leftovers(page)


def test_an_unknown_domain_directive_is_content_not_an_object() -> None:
    page = parse_rst(
        "x.rst",
        """
Title
=====

.. ext:example::

    @click.command()
    def hello():
        click.echo("Hi")

.. ext:run:: invoke(hello, args=["--count", "2"])

.. ext:note:: Beware

   Plain words here.

.. js:function:: greet(name)

   Says hello.
""",
        SPHINX,
    )
    # Only the Sphinx domain's object is a section; the extension's directives are its text.
    assert [s.heading for s in page.sections] == ["Title", "greet(name)"]
    assert page.sections[0].anchor == "title" and not page.sections[0].ids
    text = page.sections[0].text
    assert '```python\n@click.command()\ndef hello():\n    click.echo("Hi")\n```' in text
    assert '```python\ninvoke(hello, args=["--count", "2"])\n```' in text
    assert "**Beware:** Plain words here." in text
    assert not leftovers(page)


def test_an_unknown_directive_shows_its_options_with_values() -> None:
    text = """Title
=====

.. conf::
    :keys: requires
    :default: <empty list>
    :hidden:

    Dependencies that must be *satisfied*.
"""
    page = parse_rst("x.rst", text, SPHINX)
    assert page.sections[0].text == (
        "keys: requires\ndefault: <empty list>\n\nDependencies that must be *satisfied*."
    )


def test_automodule_serves_the_module_id_and_sets_the_current_module() -> None:
    from tools.sources.generators.sphinx.xref_scan import scan_page

    text = """Register
========

.. automodule:: pkg.register
    :members:

    Extra words.

.. autodata:: REGISTER
    :no-value:

    The registry.
"""
    page = parse_rst("x.rst", text, SPHINX)
    assert [(s.heading, s.anchor, s.ids, s.text) for s in page.sections] == [
        ("Register", "register", ("module-pkg.register",), "Extra words."),
        ("pkg.register.REGISTER", "pkg.register.REGISTER", (), "The registry."),
    ]
    assert scan_page("x", text, SPHINX).objects == {
        ("module", "pkg.register"): "module-pkg.register",
        ("py", "pkg.register.REGISTER"): "pkg.register.REGISTER",
    }


def test_orphan_field_and_meta_description_are_metadata() -> None:
    page = parse_rst(
        "o.rst",
        ":orphan:\n:tocdepth: 2\n\n.. meta::\n   :description: About it.\n\nTitle\n=====\n\nBody.\n",
        SPHINX,
    )
    assert page.meta["orphan"] is True
    assert page.meta["tocdepth"] == "2"
    assert page.description == "About it."
    assert page.body == "# Title\n\nBody."


def test_lists_definitions_options_and_substitutions() -> None:
    page = parse_rst(
        "l.rst",
        """
Lists
=====

- one
- two with ``code``

  .. code-block:: ini

      [pytest]

#. first
#. second

term
    Its definition.

-k EXPR   Only run matching tests.

Version |release| is out.
""",
        RstOptions(default_role="literal", substitutions={"release": "9.2"}),
    )
    text = page.sections[0].text
    assert "- one\n\n- two with `code`\n\n  ```ini\n  [pytest]\n  ```" in text
    assert "1. first\n2. second" in text
    assert "- **term**: Its definition." in text
    assert "- **`-k EXPR`**: Only run matching tests." in text
    assert "Version 9.2 is out." in text


def test_a_heading_keeps_one_space_where_an_empty_substitution_stood() -> None:
    # scrapy's index: conf.py computes `version` (read as its `except` branch's ""), so the
    # title would read "Scrapy  documentation"; the built page shows its words one space apart.
    text = "=============================\nScrapy |version| documentation\n=============================\n\nText.\n"
    page = parse_rst("index.rst", text, RstOptions(substitutions={"version": ""}))
    assert page.title == page.sections[0].heading == "Scrapy documentation"
    assert page.sections[0].anchor == "scrapy-version-documentation"


def test_malformed_input_never_raises() -> None:
    for text in (
        "",
        "\x00\x01 binary \udcff",
        "=====\nTitle\n==\n",
        ".. code-block::\n",
        "+---+\n| a |\n+--+\n",
        ":ref:`unclosed",
        ".. literalinclude::\n",
        ".. toctree::\n   :glob:\n\n   *\n",
        "* " * 2000,
    ):
        page = parse_rst("bad.rst", text, SPHINX)
        assert isinstance(page, Page)


def test_a_parser_failure_keeps_the_page_as_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from docutils.parsers.rst import Parser

    def broken(self: Parser, inputstring: str, document: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Parser, "parse", broken)
    page = parse_rst("how-to/x.rst", "Title\n=====\n\nBody text.\n", SPHINX)
    assert page.meta["plain"] is True
    assert "Body text." in page.sections[0].text
    assert page.title == "x"


def test_the_cycle_collector_is_left_as_it_was() -> None:
    import gc

    parse_rst("a.rst", "T\n=\n\ntext\n", SPHINX)
    assert gc.isenabled()
    gc.disable()
    try:
        parse_rst("a.rst", "T\n=\n\ntext\n", SPHINX)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_prose_spacing_is_normalised_but_code_keeps_its_own() -> None:
    page = parse_rst("s.rst", "T\n=\n\nOne.  Two\nthree ``a  b``.\n\n::\n\n    x  =  1\n", SPHINX)
    assert page.sections[0].text == "One. Two three `a  b`.\n\n```python\nx  =  1\n```"
