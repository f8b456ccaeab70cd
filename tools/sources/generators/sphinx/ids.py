"""The ids a built Sphinx page serves: `make_id`, described objects' ids, Python names and their scopes."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container
from dataclasses import dataclass
from typing import Protocol

from docutils import nodes

_SPHINX_NON_ID = re.compile(r"[^a-zA-Z0-9._]+")
_SPHINX_ID_ENDS = re.compile(r"^[-0-9._]+|-+$")


def sphinx_make_id(text: str) -> str:
    """Sphinx's `_make_id`: like docutils' but keeps case, `.` and `_` (`envvar-CI`)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _SPHINX_ID_ENDS.sub("", _SPHINX_NON_ID.sub("-", " ".join(ascii_text.split())))


def object_id(taken: Container[str], prefix: str, name: str) -> str:
    """Sphinx's `make_id(env, document, prefix, name)`: `prefix-name`, unique among `taken`."""
    node_id = sphinx_make_id(f"{prefix}-{name}") if prefix else sphinx_make_id(name)
    if not node_id or node_id == prefix:
        node_id = ""
    serial = 0
    while not node_id or node_id in taken:
        node_id = f"{prefix}-{serial}" if prefix else f"id{serial}"
        serial += 1
    return node_id


def document_object_id(document: nodes.document, prefix: str, name: str) -> str:
    """`object_id` among the ids the document has handed out."""
    return object_id(document.ids, prefix, name)


def std_object_name(directive: str, signature: str) -> str:
    """The name a `confval` / `envvar` / object type is known by (`envvar` keeps its spaces)."""
    return signature if directive.split(":")[-1] == "envvar" else " ".join(signature.split())


def option_prefix(program: str) -> str:
    """The id prefix of a program's options: `cmdoption` or `cmdoption-PROGRAM`."""
    return sphinx_make_id(f"cmdoption-{program}" if program else "cmdoption")


def option_names(signature: str) -> list[str]:
    """The option names of an `option` signature (`-k EXPR, --keyword EXPR` → `-k`, `--keyword`)."""
    names = []
    for part in signature.split(","):
        m = OPTION_NAME_RE.match(part.strip())
        if m:
            names.append(m.group("name"))
    return names


# autodoc's kinds (`autoclass` → `class`) and the Python directives that nest (`allow_nesting`).
_AUTODOC_KIND = {
    "autofunction": "function",
    "autoclass": "class",
    "autoexception": "exception",
    "autodata": "data",
    "autodecorator": "decorator",
    "automethod": "method",
    "autoattribute": "attribute",
    "autoproperty": "property",
}
_CLASS_LEVEL = frozenset({"method", "attribute", "property"})
_NESTING = frozenset({"class", "exception"})
# autodoc's `py_ext_sig_re` (a `mod::` module, the dotted path, the name) for an auto directive.
_AUTODOC_NAME = re.compile(r"^\s*(?:(?P<module>[\w.]+)::)?(?P<path>(?:\w+\.)*)(?P<base>\w+)")


@dataclass(frozen=True)
class PyName:
    """A Python object as Sphinx's domain names it, and the scope its content is read in.

    `module` is the module it is documented in (the directive's `:module:`, or the one in
    force), `fullname` its name inside the module (`Request.copy`); `inner_class` is Sphinx's
    `py:class` while its content is parsed, `inner_module` its `py:module` when the directive
    sets one (`:module:`, always for autodoc's output; None: the page's goes on).
    """

    module: str
    fullname: str
    inner_class: str
    inner_module: str | None

    @property
    def dotted(self) -> str:
        """The name the domain notes and its id is made from (`scrapy.Request.copy`)."""
        return f"{self.module}.{self.fullname}" if self.module else self.fullname


def py_name(
    directive: str, signature: str, module: str, current_class: str, module_option: str = ""
) -> PyName | None:
    """How Sphinx names a Python object description (None: it names nothing we can know).

    An auto directive is first resolved as autodoc does (`_resolve_name`: a dotted module-level
    name is absolute, `automethod Cls.m` takes its module from the page) into the `py:`
    directive it writes, with its `:module:`; then `PyObject.handle_signature` puts the name in
    the current class unless the signature repeats that class (`.. attribute:: Request.url`
    inside `Request` is `Request.url`, not `Request.Request.url`).
    """
    if UNKNOWN_CLASS in current_class:
        return None
    kind = directive.split(":")[-1]
    auto = _AUTODOC_KIND.get(kind)
    if auto is not None:
        m = _AUTODOC_NAME.match(signature)
        if m is None:
            return None
        parts = [p for p in m.group("path").split(".") if p]
        if m.group("module"):
            module_option = m.group("module")
        elif auto in _CLASS_LEVEL:
            mod_cls = ".".join(parts) or current_class
            if not mod_cls:
                return None  # autodoc cannot tell the class: it documents nothing
            owner, _, cls = mod_cls.rpartition(".")
            module_option, parts = owner or module, [cls]
        elif parts:
            module_option, parts = ".".join(parts), []
        else:
            module_option = module
        name, kind = ".".join([*parts, m.group("base")]), auto
    else:
        pm = PY_NAME_RE.match(signature)
        name = pm.group("name") if pm else signature.split("(")[0].strip()
    if not name:
        return None
    owner, _, base = name.rpartition(".")
    prefix = f"{owner}." if owner else ""
    if current_class:
        if prefix and (prefix == current_class or prefix.startswith(current_class + ".")):
            fullname = prefix + base
            prefix = prefix[len(current_class) :].lstrip(".")
        else:
            fullname = f"{current_class}.{prefix}{base}"
    else:
        fullname = prefix + base
    obj_module = module_option or module
    if kind in _NESTING:
        inner_class = fullname
    else:
        inner_class = prefix.strip(".") or current_class
    return PyName(obj_module, fullname, inner_class, module_option or None)


class _Scope(Protocol):
    module: str
    classes: list[str]


def enter_scope(name: PyName | None, scope: _Scope) -> tuple[str | None, list[str]]:
    """Put an object's content scope in force (`before_content`); returns what `leave_scope` restores."""
    outer = (scope.module if name and name.inner_module is not None else None, list(scope.classes))
    if name is not None:
        if name.inner_module is not None:
            scope.module = name.inner_module
        if name.inner_class:
            scope.classes.append(name.inner_class)
    return outer


def leave_scope(outer: tuple[str | None, list[str]] | None, scope: _Scope) -> None:
    """Sphinx's `after_content`: the class, and a module the object set, as they were before it."""
    if outer is None:
        return
    module, classes = outer
    if module is not None:
        scope.module = module
    scope.classes[:] = classes


def register_ids(document: nodes.document, node: nodes.Element) -> None:
    """Put the node's ids in the document's table (docutils does so for the nodes it makes)."""
    for node_id in node["ids"]:
        document.ids.setdefault(node_id, node)


PY_NAME_RE = re.compile(r"^\s*(?:[\w.]+\s+)*?(?:@)?(?P<name>[\w.]+)\s*(?:\(|\[|$|:|\s)")
OPTION_NAME_RE = re.compile(r"^(?P<name>[-+/]*[^\s=\[<,]+)")
# The class in force inside a project's class directive that names its objects itself (its
# own `handle_signature`): what it nests has a name, and an id, that cannot be known.
UNKNOWN_CLASS = "\x00"
