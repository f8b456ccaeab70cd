"""conf.py's `setup(app)` registrations, read without running it: a project's directives are
described objects with the ids Sphinx gives them, and their roles reference them under the
role names Sphinx registers (ids and links checked against a `sphinx-build -b html` of the same
conf.py and pages, Sphinx 9.0)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tools.sources.generators.sphinx.config import read_conf
from tools.sources.generators.sphinx.project import SphinxSite

CONF = """
from sphinx.domains.python import PyClasslike, PyFunction
from sphinx.domains import python

class PyDecoratorFunction(PyFunction):
    pass

class Grandchild(PyDecoratorFunction):
    pass

class MyClass(PyClasslike):
    pass

def setup(app):
    app.add_directive_to_domain("py", "decorator2", PyDecoratorFunction)
    app.add_directive_to_domain("py", "coroutinefunction", Grandchild)
    app.add_directive_to_domain("py", "myclass", MyClass)
    app.add_directive_to_domain("py", "abstractmethod", python.PyMethod)
    app.add_directive_to_domain("py", "ownthing", SomeExtensionDirective)
    app.add_object_type("event", "ev", objname="event")
    app.add_object_type(directivename="setting", rolename="setting")
    app.add_crossref_type("fixture", "fix")
    app.add_crossref_type(directivename="tag", rolename="tagref")
"""
API = """
API
===

.. py:module:: pkg.mod

.. py:decorator2:: deco(x)

   A decorator.

.. coroutinefunction:: coro()

.. py:myclass:: Thing

   .. py:abstractmethod:: run()

      Run.

.. py:ownthing:: own

.. event:: my-event

.. setting:: opt_a

.. fixture:: capsys

.. tag:: slow
"""
INDEX = """
Home
====

.. toctree::

   api

Events :ev:`my-event`, :setting:`opt_a`, :fix:`capsys`, :tagref:`slow`, :py:func:`pkg.mod.deco`,
:meth:`pkg.mod.Thing.run`. Not roles: :fixture:`capsys`, :event:`my-event`.
"""


def _site(root: Path, link_objects: bool = True) -> SphinxSite:
    (root / "conf.py").write_text(CONF)
    (root / "index.rst").write_text(INDEX)
    (root / "api.rst").write_text(API)
    site = SphinxSite(root)
    site.options = replace(site.options, link_objects=link_objects)
    return site


def test_setup_registrations_are_read_statically(tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text(CONF)
    config = read_conf(tmp_path / "conf.py")
    assert config.object_types == {"event", "setting"}
    assert config.crossref_types == {"fixture", "tag"}
    assert config.type_roles == {
        "ev": "event",
        "setting": "setting",
        "fix": "fixture",
        "tagref": "tag",
    }
    assert config.domain_directives["py:decorator2"] == "decorator"
    assert config.domain_directives["coroutinefunction"] == "decorator"  # through two bases
    assert config.domain_directives["py:myclass"] == "class"
    assert config.domain_directives["py:abstractmethod"] == "method"
    assert config.domain_directives["py:ownthing"] == "function"  # a class of its own


def test_a_projects_python_directives_get_python_ids(tmp_path: Path) -> None:
    page = _site(tmp_path).parse("api.rst")
    anchors = [(s.heading, s.anchor) for s in page.sections]
    assert anchors == [
        ("API", "api"),
        ("deco(x)", "pkg.mod.deco"),  # not `decorator2-deco-x`
        ("coro()", "pkg.mod.coro"),
        ("Thing", "pkg.mod.Thing"),
        ("run()", "pkg.mod.Thing.run"),  # a class directive's scope, as Sphinx nests it
        ("own", "pkg.mod.own"),
        ("my-event", "event-my-event"),
        ("opt_a", "setting-opt_a"),
    ]
    assert "std-fixture-capsys" in page.sections[-1].ids
    assert "std-tag-slow" in page.sections[-1].ids


def test_roles_use_the_role_names_sphinx_registers(tmp_path: Path) -> None:
    text = _site(tmp_path).parse("index.rst").sections[0].text
    # The links Sphinx writes for the same page (its HTML: href and code text).
    for link in (
        "[`my-event`](api.html#event-my-event)",
        "[`opt_a`](api.html#setting-opt_a)",
        "[`capsys`](api.html#std-fixture-capsys)",
        "[`slow`](api.html#std-tag-slow)",
        "[`pkg.mod.deco()`](api.html#pkg.mod.deco)",
        "[`pkg.mod.Thing.run()`](api.html#pkg.mod.Thing.run)",
    ):
        assert link in text
    # A type's directive name is no role when conf.py names another (Sphinx: unknown role).
    assert "Not roles: capsys, my-event." in text
    # Object roles stay code unless the reader links them (RstOptions.link_objects).
    plain = _site(tmp_path, link_objects=False).parse("index.rst").sections[0].text
    assert "Events `my-event`, `opt_a`, `capsys`, `slow`," in plain


# conf.py as scrapy's and trio's are written: the extensions live in docs folders conf.py puts
# on `sys.path`, and register their types in their own `setup(app)`.
EXT_CONF = """
import os, sys
from pathlib import Path
sys.path.append(str(Path(__file__).parent / "_ext"))
sys.path.insert(0, os.path.abspath("."))
sys.path.insert(0, os.path.abspath(".."))
extensions = ["docstools", "local_customization", "outside", "sphinx.ext.autodoc"]
"""
DOCSTOOLS = """
def setup(app):
    for name in ("setting", "signal"):
        app.add_crossref_type(directivename=name, rolename=name)
"""
CUSTOM = """
from sphinx.domains.python import PyClasslike

class Interface(PyClasslike):
    def handle_signature(self, sig, signode):
        return sig, ""

def setup(app):
    app.add_directive_to_domain("py", "interface", Interface)
"""
EXT_PAGE = """
Settings
========

.. setting:: DOWNLOAD_DELAY

DOWNLOAD_DELAY
--------------

Wait between requests; see :setting:`DOWNLOAD_DELAY` and :signal:`closed`.

.. interface:: The file interface

   What a file does.

   .. attribute:: wrapped

      The file inside.

.. signal:: closed

Closed
------

Sent on close.
"""


def test_local_extensions_register_their_types(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "_ext").mkdir(parents=True)
    (docs / "conf.py").write_text(EXT_CONF)
    (docs / "_ext" / "docstools.py").write_text(DOCSTOOLS)
    (docs / "local_customization.py").write_text(CUSTOM)
    # Above conf.py's folder: on sys.path, but not the docs' own (an installed package alike).
    (tmp_path / "outside.py").write_text(DOCSTOOLS.replace('"setting", "signal"', '"outer"'))
    (docs / "index.rst").write_text(".. toctree::\n\n   settings\n")
    (docs / "settings.rst").write_text(EXT_PAGE)
    config = read_conf(docs / "conf.py")
    assert config.crossref_types == {"setting", "signal"}
    # A class directive that names things its own way: what it nests is named inside that name.
    assert config.domain_directives["py:interface"] == "describe-class"
    site = SphinxSite(docs)
    site.options = replace(site.options, link_objects=True)
    page = site.parse("settings.rst")
    # The ids and links of a `sphinx-build -b html` of the same folder (Sphinx 9.0); the
    # interface has an id there (`The-file-interface`) that its own handle_signature decides.
    assert [(s.heading, s.anchors) for s in page.sections] == [
        ("Settings", ("settings",)),
        ("DOWNLOAD_DELAY", ("download-delay", "std-setting-DOWNLOAD_DELAY")),
        ("The file interface", ()),
        ("wrapped", ()),  # `The-file-interface.wrapped` there: no id we could know
        ("Closed", ("closed", "std-signal-closed")),
    ]
    text = page.sections[1].text
    assert "[`DOWNLOAD_DELAY`](settings.html#std-setting-DOWNLOAD_DELAY)" in text
    assert "[`closed`](settings.html#std-signal-closed)" in text
    assert not [k for k in site.xrefs.objects if k[0] == "py"]
