"""Every Sphinx directive by name, and their registration in docutils for one project's parse."""

from __future__ import annotations

import re

from docutils.parsers.rst import Directive, directives

from tools.sources.generators.sphinx.directives.base import CodeBlock, Highlight
from tools.sources.generators.sphinx.directives.content import (
    CsvTable,
    DefaultRole,
    Glossary,
    MetaDirective,
    Nothing,
    Only,
    Passthrough,
    Raw,
    Tab,
    UnknownDirective,
    VersionChange,
    labelled_directive,
)
from tools.sources.generators.sphinx.directives.includes import ConfinedInclude, LiteralInclude
from tools.sources.generators.sphinx.directives.objects import (
    AutoModule,
    AutoSummary,
    CrossrefTarget,
    CurrentModule,
    DescribeObject,
    GenericObject,
    ModuleDirective,
    ObjectDirective,
    OptionObject,
    OwnNamedClass,
    Program,
    PyObject,
    StdObject,
    code_like,
)
from tools.sources.generators.sphinx.directives.toctree import TocTree
from tools.sources.generators.sphinx.ids import PyName, py_name
from tools.sources.generators.sphinx.options import RstOptions
from tools.sources.generators.sphinx.roles import DOMAINS

_PY_OBJECTS = (
    "function class method attribute data exception decorator decoratormethod "
    "classmethod staticmethod property type"
).split()
_AUTODOC = (
    "autofunction autoclass automethod autoattribute autoexception autodata "
    "autoproperty autodecorator automodule"
).split()

SPHINX_DIRECTIVES: dict[str, type[Directive]] = {
    "code-block": CodeBlock,
    "sourcecode": CodeBlock,
    "code": CodeBlock,
    "highlight": Highlight,
    "literalinclude": LiteralInclude,
    "include": ConfinedInclude,
    "toctree": TocTree,
    "only": Only,
    "ifconfig": Passthrough,
    "hlist": Passthrough,
    "centered": Passthrough,
    "index": Nothing,
    "tabularcolumns": Nothing,
    "towncrier-draft-entries": Nothing,
    "testsetup": Nothing,
    "testcleanup": Nothing,
    # Shown by Sphinx only with `show_authors = True` (default False).
    "sectionauthor": Nothing,
    "moduleauthor": Nothing,
    "codeauthor": Nothing,
    "seealso": labelled_directive("See also"),
    "todo": labelled_directive("Todo"),
    "tab": Tab,
    "tab-item": Tab,
    "group-tab": Tab,
    "code-tab": Tab,
    "versionadded": VersionChange,
    "versionchanged": VersionChange,
    "deprecated": VersionChange,
    "versionremoved": VersionChange,
    "meta": MetaDirective,
    "default-role": DefaultRole,
    "csv-table": CsvTable,
    "raw": Raw,
    "glossary": Glossary,
    "confval": StdObject,
    "envvar": StdObject,
    "option": OptionObject,
    "program": Program,
    "describe": DescribeObject,
    "describe-class": OwnNamedClass,
    "object": DescribeObject,
    "module": ModuleDirective,
    "currentmodule": CurrentModule,
    "autosummary": AutoSummary,
    "doctest": code_like("pycon"),
    "testcode": code_like("python"),
    "testoutput": code_like("text"),
    "mermaid": code_like("mermaid"),
    "graphviz": code_like("dot"),
    "digraph": code_like("dot"),
    "graph": code_like("dot"),
    "math": code_like("latex"),
    "productionlist": code_like("text"),
    "prompt": code_like("console"),
    "ipython": code_like("ipython"),
    "jupyter-execute": code_like("python"),
    "plantuml": code_like("plantuml"),
    "uml": code_like("plantuml"),
}
for _name in _PY_OBJECTS:
    SPHINX_DIRECTIVES[_name] = PyObject
    SPHINX_DIRECTIVES[f"py:{_name}"] = PyObject
for _name in _AUTODOC:
    SPHINX_DIRECTIVES[_name] = PyObject
SPHINX_DIRECTIVES["automodule"] = AutoModule
SPHINX_DIRECTIVES.update(
    {
        "py:module": ModuleDirective,
        "py:currentmodule": CurrentModule,
        "std:option": OptionObject,
        "std:envvar": StdObject,
        "std:confval": StdObject,
        "std:program": Program,
    }
)

# Directives that only set something for the page (module, program, role) or are metadata:
# no text of their own (the MyST reader shows them as nothing too).
METADATA_DIRECTIVES = frozenset(
    name
    for name, handler in SPHINX_DIRECTIVES.items()
    if handler in (Nothing, CurrentModule, ModuleDirective, Program, DefaultRole, MetaDirective)
)

_DIRECTIVE_NAME = re.compile(r"^[ \t]*\.\.[ \t]+([A-Za-z0-9][\w:+.-]*)[ \t]*::", re.MULTILINE)
_docutils_known: set[str] = set()
# What this module put in docutils' (process-wide) directive registry, by name.
_registered: dict[str, type[Directive]] = {}


def _known_to_docutils() -> set[str]:
    if not _docutils_known:
        from docutils.parsers.rst.languages import en

        _docutils_known.update(directives._directive_registry)  # noqa: SLF001
        _docutils_known.update(en.directives)
    return _docutils_known


def register_directives(text: str, options: RstOptions) -> None:
    """Make every directive the page names known to docutils before it is parsed.

    Sphinx's own get their handler; a project's custom object types theirs; any other unknown
    name `UnknownDirective` (its content shown, never a section), so no page yields a
    docutils error for a directive it could not know. docutils keeps one registry per process,
    so a name is re-registered only when the project's conf.py gives it another meaning.
    """
    names = {n.lower() for n in _DIRECTIVE_NAME.findall(text)}
    key = (
        options.crossref_types,
        options.object_types,
        frozenset(options.domain_directives.items()),
    )
    if _registered_for.get("types") != key:
        _registered_for["types"] = key
        names |= set(SPHINX_DIRECTIVES) | set(_registered)
        names |= options.crossref_types | options.object_types | set(options.domain_directives)
    else:
        names -= _registered.keys()
    for name in names:
        handler = _handler_for(name, options)
        if handler is None:
            if name in _registered:  # docutils' own again (another project's type before)
                directives._directives.pop(name, None)  # noqa: SLF001 - no public unregister
                del _registered[name]
            continue
        if _registered.get(name) is not handler:
            directives.register_directive(name, handler)
            _registered[name] = handler


# The object types the registry was last filled for (a project's conf.py decides them).
_registered_for: dict[str, tuple[frozenset[str], frozenset[str], frozenset[tuple[str, str]]]] = {}


# One handler class per built-in kind (docutils' registry keeps a name's handler by identity).
_LIKE: dict[str, type[PyObject]] = {}


def _like(handler: type[PyObject], kind: str) -> type[PyObject]:
    """A Python-domain handler for a project's directive that behaves as the built-in `kind`."""
    if kind not in _LIKE:
        _LIKE[kind] = type(f"{handler.__name__}_like_{kind}", (handler,), {"like": kind})
    return _LIKE[kind]


def _handler_for(name: str, options: RstOptions) -> type[Directive] | None:
    base = name.split(":", 1)[1] if ":" in name else name
    like = options.domain_directives.get(name)
    if like is not None and like in SPHINX_DIRECTIVES:
        handler = SPHINX_DIRECTIVES[like]
        return _like(handler, like) if issubclass(handler, PyObject) else handler
    if name in options.crossref_types or base in options.crossref_types:
        return CrossrefTarget
    if name in options.object_types or base in options.object_types:
        return StdObject
    if name in SPHINX_DIRECTIVES:
        return SPHINX_DIRECTIVES[name]
    if name in _known_to_docutils():
        return None
    if ":" in name and name.split(":", 1)[0] in DOMAINS:
        return GenericObject
    return UnknownDirective


def describes_object(name: str, options: RstOptions) -> bool:
    """Whether a directive describes an object (a section with its ids: `py:function`, `confval`)."""
    handler = _handler_for(name.lower(), options)
    return handler is not None and issubclass(handler, ObjectDirective)


def object_scope(
    name: str,
    signature: str,
    options: RstOptions,
    module: str,
    current_class: str,
    module_option: str = "",
) -> PyName | None:
    """The scope a Python object directive puts in force for its content (None: not one)."""
    name = name.lower()
    handler = _handler_for(name, options)
    if handler is None or not issubclass(handler, PyObject):
        return None
    like = options.domain_directives.get(name, name)
    return py_name(like, signature.strip().split("\n", 1)[0], module, current_class, module_option)
