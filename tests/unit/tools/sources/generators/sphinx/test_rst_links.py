"""Sphinx cross-references as links: `:ref:`, `:doc:` and object roles lead to the page and id the
built site serves, relative to the linking page as the HTML builder writes them; what cannot be
resolved stays text; no label, file name or role text can make a link off the site; and the
links feed the link prior and the anchor field as Markdown links do."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tools.search.analysis import links
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.generators.sphinx.project import SphinxSite, read_sphinx_page
from tools.sources.records import Page

CONF = """
html_baseurl = "https://docs.example.org/en/stable/"
default_role = "literal"

def setup(app):
    app.add_crossref_type("fixture", "fixture")
    app.add_object_type("globalvar", "globalvar")
"""
PAGES = {
    "index.rst": """
Example
=======

.. toctree::

   how-to/fixtures
   how-to/skipping
   reference/reference
""",
    "how-to/fixtures.rst": """
.. _`fixtures-howto`:

How to use fixtures
===================

.. _`teardown`:

Safe teardowns
--------------

Text.

.. _plain-label:

A paragraph a label sits on.
""",
    "how-to/skipping.rst": """
Skipping
========

.. _`Skipping tests`:

Skip a test
-----------

See :ref:`fixtures-howto`, :ref:`the teardown part <teardown>`, :ref:`skipping tests`,
:doc:`fixtures`, :doc:`/reference/reference`, :doc:`the reference <../reference/reference>`,
:func:`pytest.skip`, :func:`~pytest.approx`, :class:`pytest.Mark`, :confval:`addopts`,
:envvar:`CI`, :fixture:`capsys`, :globalvar:`collect_ignore`, :option:`-x`,
:option:`pytest --exitfirst`, :mod:`pytest`, :meth:`pytest.Mark.combined`.
""",
    "reference/reference.rst": """
.. _`api-reference`:

API Reference
=============

.. module:: pytest

.. fixture:: capsys

capsys
------

Captures.

.. confval:: addopts

   Adds options.

.. envvar:: CI

   Set on CI.

.. program:: pytest

.. option:: -x, --exitfirst

   Stop at the first failure.

.. globalvar:: collect_ignore

   Paths to ignore.

.. function:: skip(reason)

   Skips, see :func:`approx` and :meth:`Mark.combined`.

.. function:: approx(expected)

   Compares.

.. class:: Mark

   A mark.

   .. method:: combined(other)

      Combines, like :meth:`combined` and :class:`Mark`.
""",
}
LINK_RE = re.compile(r"\[([^\[\]\n]+)\]\(([^)\s]+)\)")


def make_site(
    root: Path, pages: dict[str, str] | None = None, link_objects: bool = True
) -> SphinxSite:
    """A Sphinx folder with these pages; object roles linked too unless `link_objects` is off."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(CONF)
    for rel, text in (pages or PAGES).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    site = SphinxSite(root)
    site.options = replace(site.options, link_objects=link_objects)
    return site


def page_links(page: Page) -> list[tuple[str, str]]:
    return [pair for s in page.sections for pair in LINK_RE.findall(s.text)]


def test_cross_references_link_to_the_sites_pages_and_ids(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    page = site.parse("how-to/skipping.rst")
    assert page_links(page) == [
        ("How to use fixtures", "fixtures.html#fixtures-howto"),  # a bare :ref: shows the title
        ("the teardown part", "fixtures.html#teardown"),
        ("Skip a test", "skipping.html#skipping-tests"),  # on this page, labels ignore case
        ("How to use fixtures", "fixtures.html"),  # :doc: relative to the page
        ("API Reference", "../reference/reference.html"),  # :doc: from the source root
        ("the reference", "../reference/reference.html"),
        ("`pytest.skip()`", "../reference/reference.html#pytest.skip"),
        ("`approx()`", "../reference/reference.html#pytest.approx"),
        ("`pytest.Mark`", "../reference/reference.html#pytest.Mark"),
        ("`addopts`", "../reference/reference.html#confval-addopts"),
        ("`CI`", "../reference/reference.html#envvar-CI"),
        ("`capsys`", "../reference/reference.html#std-fixture-capsys"),
        ("`collect_ignore`", "../reference/reference.html#globalvar-collect_ignore"),
        ("`pytest --exitfirst`", "../reference/reference.html#cmdoption-pytest-exitfirst"),
        ("`pytest`", "../reference/reference.html#module-pytest"),
        ("`pytest.Mark.combined()`", "../reference/reference.html#pytest.Mark.combined"),
    ]
    # `-x` is an option of the program `pytest`, and no page sets that program here.
    assert "`-x`," in page.sections[-1].text


def test_short_names_resolve_in_the_module_and_class_they_are_written_in(tmp_path: Path) -> None:
    page = make_site(tmp_path).parse("reference/reference.rst")
    assert ("`approx()`", "reference.html#pytest.approx") in page_links(page)
    assert ("`Mark.combined()`", "reference.html#pytest.Mark.combined") in page_links(page)
    assert ("`combined()`", "reference.html#pytest.Mark.combined") in page_links(page)
    assert ("`Mark`", "reference.html#pytest.Mark") in page_links(page)


def test_names_in_an_autodoc_class_resolve_in_its_own_module(tmp_path: Path) -> None:
    # autodoc writes `autoclass:: pkg.Request` as `py:class:: Request` with `:module: pkg`:
    # inside it the current module is `pkg`, and a member repeating its class is not nested.
    pages = {
        "index.rst": "Example\n=======\n\n.. toctree::\n\n   api\n",
        "api.rst": """
API
===

.. module:: pkg.http

.. autoclass:: pkg.Request

    .. attribute:: Request.url

        Read by :meth:`copy` and :attr:`Request.url`.

    .. method:: Request.copy()

        See :class:`Response`.

.. class:: Response

    Has :attr:`Response.url`, unlike :attr:`url`.

    .. attribute:: Response.url

        The URL.
""",
    }
    page = make_site(tmp_path, pages).parse("api.rst")
    assert page_links(page) == [
        ("`copy()`", "api.html#pkg.Request.copy"),
        ("`Request.url`", "api.html#pkg.Request.url"),
        ("`Response.url`", "api.html#pkg.http.Response.url"),
        ("`url`", "api.html#pkg.http.Response.url"),
    ]
    # Inside `pkg.Request` a short `Response` is looked for in `pkg`, as Sphinx looks: not found.
    copy = next(s for s in page.sections if s.heading == "Request.copy()")
    assert copy.text == "See `Response`."


def test_what_cannot_be_resolved_stays_text(tmp_path: Path) -> None:
    pages = dict(PAGES)
    pages["how-to/other.rst"] = """
Other
=====

:ref:`no-such-label`, :ref:`plain-label`, :ref:`twice`, :doc:`python:library/pdb`,
:doc:`missing`, :func:`os.getcwd`, :func:`!pytest.skip`, :ref:`!teardown`, :class:`Mark`,
:ref:`python:tut-modules`.
"""
    for name in ("once", "again"):  # a label on two pages: Sphinx warns, and keeps one of them
        pages[f"how-to/{name}.rst"] = f"{name}\n=====\n\n.. _`twice`:\n\nTwice\n-----\n\nText.\n"
    page = make_site(tmp_path, pages).parse("how-to/other.rst")
    assert page_links(page) == []
    # A bare :ref: to a label on no section, or to one on two pages (ambiguous), shows its words.
    assert page.sections[-1].text == (
        "no such label, plain label, twice, python pdb, missing, `os.getcwd()`, "
        "`pytest.skip()`, teardown, `Mark`, python tut modules."
    )


def test_a_label_on_the_page_links_to_the_id_docutils_gave_it(tmp_path: Path) -> None:
    # The title "Setup" takes the id `setup` first; the label below must then be served as `id1`.
    text = (
        "Page\n====\n\nSetup\n-----\n\n.. _setup:\n\nMore setup\n----------\n\nSee :ref:`setup`.\n"
    )
    page = make_site(tmp_path, {"index.rst": text, "b.rst": "B\n=\n\n:ref:`setup`\n"}).parse(
        "index.rst"
    )
    assert page_links(page) == [("More setup", "index.html#id1")]
    # Another page cannot know that id without a parse: it links the page, not a wrong anchor.
    assert page_links(SphinxSite(tmp_path).parse("b.rst")) == [("More setup", "index.html")]


def test_without_the_sites_targets_references_stay_text(tmp_path: Path) -> None:
    make_site(tmp_path)
    text = (tmp_path / "how-to/skipping.rst").read_text()
    page = read_sphinx_page("how-to/skipping.rst", text, tmp_path)
    assert page_links(page) == []
    assert "See How to use fixtures" not in page.sections[-1].text  # label words, as before
    linked = read_sphinx_page("how-to/skipping.rst", text, tmp_path, SphinxSite(tmp_path).xrefs)
    assert page_links(linked) == page_links(SphinxSite(tmp_path).parse("how-to/skipping.rst"))


def test_headings_show_the_words_of_a_reference_not_a_link(tmp_path: Path) -> None:
    pages = {
        "index.rst": "Index\n=====\n\nUsing :confval:`addopts`\n-------------------------\n\nx\n"
    }
    pages["ref.rst"] = "Ref\n===\n\n.. confval:: addopts\n\n   Adds.\n"
    page = make_site(tmp_path, pages).parse("index.rst")
    assert [s.heading for s in page.sections] == ["Index", "Using `addopts`"]


SAFE_URL = re.compile(r"^(?:\.\./)*[A-Za-z0-9._~%/-]*\.html(?:#[A-Za-z0-9._~%-]+)?$")


def test_hostile_labels_targets_and_names_never_make_a_link_off_the_site(tmp_path: Path) -> None:
    pages = {
        "index.rst": """
Index
=====

.. _`javascript:alert(1)`:

Scripted
--------

.. _`x](javascript:alert(1)) [y`:

Bracketed
---------

.. confval:: a b](javascript:alert(1))

   Odd.
""",
        "we ird(1).rst": ".. _odd-file:\n\nOdd file\n========\n\nx\n",
        "hostile.rst": """
Hostile
=======

:ref:`javascript:alert(1)`, :ref:`click](javascript:alert(1)) <odd-file>`,
:ref:`x](javascript:alert(1)) [y`, :doc:`javascript:alert(1)`, :doc:`//evil.example/x`,
:doc:`../../../etc/passwd`, :doc:`/we ird(1)`, :confval:`a b](javascript:alert(1))`,
:doc:`https://evil.example/x`, :ref:`<javascript:alert(1)>`, :func:`javascript:alert`.
""",
    }
    page = make_site(tmp_path, pages).parse("hostile.rst")
    found = page_links(page)
    assert found  # the odd labels and file names that exist are linked, safely encoded
    for _text, url in found:
        assert SAFE_URL.match(url), url
        assert ":" not in url and "//" not in url and "(" not in url
    assert ("Scripted", "index.html#javascript-alert-1") in found
    assert ("Odd file", "we%20ird%281%29.html") in found
    # Link text that would break out of a link is left as words, its brackets escaped.
    body = page.sections[-1].text
    assert not re.search(r"(?<!\\)\]\((?:javascript|//|https?:)", body), body
    assert "click\\](javascript:alert(1))" in body


def test_links_feed_the_link_prior_and_the_anchor_field(tmp_path: Path, index_dir: Path) -> None:
    site = make_site(tmp_path / "docs", link_objects=False)  # as the docs folder is read
    page = site.parse("how-to/skipping.rst")
    assert links(page, "how-to/skipping.rst") == {
        "how-to/fixtures": "How to use fixtures\nthe teardown part",
        "how-to/skipping": "Skip a test",
        "reference/reference": "API Reference\nthe reference",
    }
    # Object roles are API names, as MkDocs autorefs are: code, not links, unless asked for.
    assert "`pytest.skip()`, `approx()`, `pytest.Mark`, `addopts`," in page.sections[-1].text
    corpus = FolderCorpus(tmp_path / "docs", "docs", index_dir, UrlRule())
    corpus.sync()
    priors = corpus.index.priors()
    assert priors["how-to/fixtures.rst"] > 0 and priors["reference/reference.rst"] > 0
    assert priors["how-to/skipping.rst"] == 0  # its links to itself do not count
    # "teardown part" is said only in the link to the fixtures page: its anchor field.
    hits = corpus.index.search("teardown part", 3, prior_weight=0.0)
    assert hits and hits[0].key == "how-to/fixtures.rst"
    # The linking page's snippet shows the link as the site serves it, no role markup.
    hit = next(
        h for h in corpus.index.search("see skip a test", 5) if h.key.endswith("skipping.rst")
    )
    assert "[How to use fixtures](fixtures.html#fixtures-howto)" in hit.snippet
    assert ":ref:" not in hit.snippet and ":doc:" not in hit.snippet


def test_a_doc_reference_to_a_markdown_page_of_the_site_links_it(tmp_path: Path) -> None:
    pages = {"index.rst": "Index\n=====\n\nSee :doc:`notes` and :doc:`the notes <notes>`.\n"}
    pages["notes.md"] = "# Notes\n"
    make_site(tmp_path, pages)
    (tmp_path / "conf.py").write_text(CONF + "\nsource_suffix = ['.rst', '.md']\n")
    site = SphinxSite(tmp_path)
    assert page_links(site.parse("index.rst")) == [
        ("notes", "notes.html"),
        ("the notes", "notes.html"),
    ]
