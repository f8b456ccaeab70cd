"""conf.py's `setup(app)` registrations, read without running it: a project's directives are
described objects with the ids Sphinx gives them, and their roles reference them under the
role names Sphinx registers (ids and links checked against a `sphinx-build -b html` of the same
conf.py and pages, Sphinx 9.0)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tools.sources.sphinx_site import SphinxSite, read_conf

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
