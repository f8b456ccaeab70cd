"""Sphinx's roles for a plain docutils parse: cross-references, code roles, external links."""

from __future__ import annotations

import re
import types
from collections.abc import Callable

from docutils import nodes, utils
from docutils.parsers.rst import roles, states

from tools.sources.generators.sphinx.nodes import xref
from tools.sources.generators.sphinx.options import RstOptions, state_of

_EXPLICIT_TITLE = re.compile(r"^(.+?)\s*(?<!\x00)<(.*?)>$", re.DOTALL)
_CODE_ROLES = frozenset(
    "func meth class attr mod data exc obj const type option envvar confval program token "
    "command file samp kbd makevar mailheader regexp code macro member var struct union enum "
    "enumerator expr texpr concept function any".split()
)
_CALLABLE_ROLES = frozenset({"func", "meth"})
# Roles whose targets are Python objects (`mod` is a module: `module-NAME`), and every code
# role that names a described object (tools/sources/generators/sphinx/targets.py resolves them).
PY_ROLES = frozenset("func meth class attr data exc obj const type".split())
_OBJECT_ROLES = PY_ROLES | {"mod", "option", "envvar", "confval"}
DOMAINS = frozenset({"py", "std", "c", "cpp", "js", "rst", "math"})


def split_title(text: str) -> tuple[str, str, bool]:
    """`title <target>` → (title, target, True); `target` → (target, target, False)."""
    m = _EXPLICIT_TITLE.match(text) if text.endswith(">") else None
    if m:
        return utils.unescape(m.group(1)), utils.unescape(m.group(2)), True
    plain = utils.unescape(text)
    return plain, plain, False


def _literal(rawtext: str, text: str) -> nodes.literal:
    return nodes.literal(rawtext, text)


RoleResult = tuple[list[nodes.Node], list[nodes.system_message]]


def code_xref_role(
    name: str, rawtext: str, text: str, parentheses: bool = True, linkable: bool = False
) -> RoleResult:
    """`:func:`~pkg.mod.f`` → `f()`; `:class:`title <X>`` → `title`: shown as inline code.

    `parentheses`: conf.py's `add_function_parentheses` (Sphinx's default adds them);
    `linkable`: the role names a described object (an `xref`, a link once resolved).
    """
    title, target, explicit = split_title(text)
    if not explicit:
        title = title.lstrip("!")
        if title.startswith("~"):
            title = title[1:].rsplit(".", 1)[-1]
        title = title.lstrip(".")
        if parentheses and name in _CALLABLE_ROLES and not title.endswith(")"):
            title += "()"
    if name in {"file", "samp"}:
        title = title.replace("{", "").replace("}", "")
    literal = _literal(rawtext, title)
    if not linkable or target.startswith("!"):  # `!` asks for no link, as in Sphinx
        return [literal], []
    return [_xref(rawtext, name, target.lstrip("~"), explicit, literal)], []


def _xref(rawtext: str, name: str, target: str, explicit: bool, *children: nodes.Node) -> xref:
    node = xref(rawtext, "", *children)
    node["reftype"] = name
    node["reftarget"] = target.strip()
    node["explicit"] = explicit
    return node


def _humanize(label: str) -> str:
    """A label or document name as words (`pip:index` of another project → `pip index`)."""
    return " ".join(label.replace("-", " ").replace("_", " ").replace(":", " ").split())


def text_xref_role(name: str, rawtext: str, text: str) -> RoleResult:
    """`:ref:`title <label>`` → title; a bare label or document → its words.

    `:ref:` and `:doc:` are `xref`s (links once resolved, a `!` prefix asks for none). A bare
    `:ref:` keeps the label's id (`reflabel`): when the label is on this page, the renderer
    shows the section's title there, as Sphinx does.
    """
    title, target, explicit = split_title(text)
    linked = name in {"ref", "doc"} and not target.startswith("!")
    node = (
        _xref(rawtext, name, target.lstrip("!~"), explicit) if linked else nodes.inline(rawtext, "")
    )
    if not explicit:
        title = title.lstrip("!~")
        if name == "doc":
            project, _, doc = title.rpartition(":")  # an intersphinx target: `pip:index`
            title = _humanize(f"{project} {doc.rstrip('/').rsplit('/', 1)[-1]}")
        elif name in {"ref", "numref", "keyword"}:
            node["reflabel"] = nodes.make_id(nodes.fully_normalize_name(target.lstrip("!~")))
            title = _humanize(title)
    node += nodes.Text(title)
    return [node], []


_ISSUE_ROLES = {"issue": "#", "pr": "#", "user": "@", "commit": ""}


def external_role(name: str, rawtext: str, text: str) -> RoleResult:
    """sphinx_issues-style roles: `#123`, `@user`, a package name, `PEP 8`."""
    title, target, explicit = split_title(text)
    if explicit:
        return [nodes.inline(rawtext, title)], []
    shown = title.lstrip("~!")
    if name in _ISSUE_ROLES:
        shown = ", ".join(_ISSUE_ROLES[name] + part.strip() for part in shown.split(","))
        if name == "commit":
            shown = shown[:7]
    elif name == "pep":
        shown = f"PEP {shown}"
    elif name == "rfc":
        shown = f"RFC {shown}"
    elif name in {"cve", "cwe"}:
        shown = shown if shown.upper().startswith(name.upper()) else f"{name.upper()}-{shown}"
    return [nodes.inline(rawtext, shown)], []


def plain_role(name: str, rawtext: str, text: str) -> RoleResult:
    """Roles shown as their text (`abbr`, `guilabel`, `menuselection`, unknown roles)."""
    title, _, _ = split_title(text)
    if name == "guilabel":
        title = title.replace("&&", "\x00").replace("&", "").replace("\x00", "&")
    elif name == "menuselection":
        title = title.replace("-->", "›")
    return [nodes.inline(rawtext, title.lstrip("~!"))], []


_EXTERNAL_ROLES = frozenset({"issue", "pr", "user", "commit", "pypi", "pep", "rfc", "cve", "cwe"})
_TEXT_XREF_ROLES = frozenset({"ref", "doc", "term", "numref", "keyword", "download", "eq"})
_DOCUTILS_FIRST = frozenset(
    {"literal", "emphasis", "strong", "sub", "sup", "subscript", "superscript", "title-reference"}
)


def type_of_role(role: str, options: RstOptions) -> str | None:
    """The project's object or crossref type a role references (None: not such a role).

    Sphinx registers each type's role under its `rolename`; a type read with no role name
    (no `type_roles` entry names it) is referenced by its own name.
    """
    if role in options.type_roles:
        return options.type_roles[role]
    types = options.crossref_types | options.object_types
    return role if role in types and role not in options.type_roles.values() else None


def sphinx_role(name: str, options: RstOptions) -> Callable[[str, str, str], RoleResult] | None:
    """The handler for a Sphinx role name (`py:func`, `ref`, a custom object type), or None."""
    base = name.lower()
    if ":" in base:
        domain, _, rest = base.partition(":")
        if domain in DOMAINS:
            base = rest
    if base in _DOCUTILS_FIRST:
        return None
    parens = options.function_parentheses
    project_type = type_of_role(base, options)
    if project_type is not None:
        linkable = options.link_objects
        return lambda _n, raw, text: code_xref_role(project_type, raw, text, parens, linkable)
    if base in _CODE_ROLES:
        linkable = options.link_objects and base in _OBJECT_ROLES
        return lambda _n, raw, text: code_xref_role(base, raw, text, parens, linkable)
    if base in _TEXT_XREF_ROLES:
        return lambda _n, raw, text: text_xref_role(base, raw, text)
    if base in _EXTERNAL_ROLES:
        return lambda _n, raw, text: external_role(base, raw, text)
    if base in {"abbr", "guilabel", "menuselection", "dfn", "math"}:
        return lambda _n, raw, text: plain_role(base, raw, text)
    return None


def _interpreted(
    self: states.Inliner, rawsource: str, text: str, role: str, lineno: int
) -> RoleResult:
    """`Inliner.interpreted` that knows Sphinx's roles; an unknown role shows its text, no error."""
    st = state_of(self.document)
    name = role or st.default_role or st.options.default_role
    handler = sphinx_role(name, st.options) if name else None
    if handler is not None:
        result = handler(name, rawsource, text)
        for node in result[0]:
            if isinstance(node, xref):  # the scope a short object name is read in
                node["module"], node["classes"] = st.module, list(st.classes)
                node["program"] = st.program
        return result
    if not name:
        return states.Inliner.interpreted(self, rawsource, text, role, lineno)  # type: ignore[no-any-return]
    role_fn, _messages = roles.role(name, self.language, lineno, self.reporter)
    if role_fn is not None:
        return role_fn(name, rawsource, text, lineno, self)  # type: ignore[no-any-return]
    return plain_role(name, rawsource, text)


def sphinx_inliner() -> states.Inliner:
    """Docutils' inliner with Sphinx's roles.

    The method is replaced on the instance: docutils builds its patterns from
    `vars(self.__class__)`, so a subclass would lose them.
    """
    inliner = states.Inliner()
    inliner.interpreted = types.MethodType(_interpreted, inliner)
    return inliner
