"""Object descriptions (`py:function`, `confval`, `option`, autodoc…): their signature and the ids Sphinx gives them."""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes
from docutils.parsers.rst import Directive
from typing_extensions import override

from tools.sources.generators.sphinx.directives.base import SphinxDirective, code_block
from tools.sources.generators.sphinx.ids import (
    UNKNOWN_CLASS,
    PyName,
    document_object_id,
    enter_scope,
    leave_scope,
    option_names,
    option_prefix,
    py_name,
    register_ids,
    std_object_name,
)
from tools.sources.generators.sphinx.nodes import object_desc


def _signatures(directive: Directive) -> list[str]:
    text = directive.arguments[0] if directive.arguments else ""
    return [line.strip() for line in text.replace("\\\n", " ").splitlines() if line.strip()]


class ObjectDirective(SphinxDirective):
    """An object description: its signature becomes a section heading with the object's ids."""

    kind = ""

    def ids_for(self, signature: str) -> list[str]:
        """The ids the built page gives this signature (none for a plain description)."""
        return []

    def heading(self, signatures: Sequence[str]) -> str:
        """The section heading: the first signature as written."""
        return signatures[0] if signatures else ""

    @override
    def run(self) -> list[nodes.Node]:
        signatures = _signatures(self)
        node = object_desc()
        node["kind"] = self.kind or self.name
        node["signature"] = self.heading(signatures)
        noindex = {"noindex", "no-index", "no-typesetting"} & set(self.options)
        for signature in signatures:
            if not noindex:
                node["ids"].extend(i for i in self.ids_for(signature) if i not in node["ids"])
        register_ids(self.state.document, node)
        self._fields(node)
        self.enter()
        try:
            self.parse_content(node)
        finally:
            self.leave()
        return [node]

    def enter(self) -> None:
        """Before the content is parsed (a class makes its methods' names dotted)."""
        return None

    def leave(self) -> None:
        """After the content is parsed."""
        return None

    def _fields(self, node: nodes.Element) -> None:
        """Options shown on the page (`:type:`, `:default:` of a confval) as a short field list."""
        shown = {k: v for k, v in self.options.items() if k in {"type", "default"} and v}
        if not shown:
            return
        items = nodes.field_list()
        for key, value in shown.items():
            inline, _ = self.state.inline_text(value, self.lineno)
            items += nodes.field(
                "",
                nodes.field_name("", key.capitalize()),
                nodes.field_body("", nodes.paragraph("", "", *inline)),
            )
        node += items


class StdObject(ObjectDirective):
    """`confval`, `envvar` and `add_object_type` types: id `KIND-name`."""

    @override
    def ids_for(self, signature: str) -> list[str]:
        name = std_object_name(self.name, signature)
        return [document_object_id(self.state.document, self.name.split(":")[-1], name)]


class OptionObject(ObjectDirective):
    """`option`: one `cmdoption-[program-]name` id per option name of the signature."""

    kind = "option"

    @override
    def ids_for(self, signature: str) -> list[str]:
        prefix = option_prefix(self.parse_state.program)
        return [
            document_object_id(self.state.document, prefix, name)
            for name in option_names(signature)
        ]


class PyObject(ObjectDirective):
    """Python domain objects and autodoc: id is the dotted name, inside the current module/class.

    `like` names the built-in directive a project's own (`add_directive_to_domain`) is.
    """

    like = ""

    @property
    def directive(self) -> str:
        """The built-in directive this one is (its own name, or the one conf.py's class is)."""
        return self.like or self.name

    def _name(self, signature: str) -> PyName | None:
        st = self.parse_state
        current = st.classes[-1] if st.classes else ""
        module_option = str(self.options.get("module") or "").strip()
        return py_name(self.directive, signature, st.module, current, module_option)

    @override
    def ids_for(self, signature: str) -> list[str]:
        name = self._name(signature)
        return [document_object_id(self.state.document, "", name.dotted)] if name else []

    @override
    def heading(self, signatures: Sequence[str]) -> str:
        if not signatures:
            return ""
        if self.directive.startswith("auto"):
            name = self._name(signatures[0])
            return name.dotted if name else signatures[0]
        return signatures[0]

    @override
    def enter(self) -> None:
        if self.directive.startswith("auto"):
            self.parse_state.note_autodoc(self.state.document)
        signatures = _signatures(self)
        name = self._name(signatures[0]) if signatures else None
        st = self.parse_state
        self._outer = enter_scope(name, st)

    @override
    def leave(self) -> None:
        leave_scope(getattr(self, "_outer", None), self.parse_state)


class GenericObject(ObjectDirective):
    """Objects of other domains (`rst:directive`, `js:function`…): id `KIND-name`."""

    @override
    def ids_for(self, signature: str) -> list[str]:
        return [document_object_id(self.state.document, self.name.split(":")[-1], signature)]


class DescribeObject(ObjectDirective):
    """`describe` / `object`: a heading without an id."""


class OwnNamedClass(DescribeObject):
    """A project's Python class directive with its own `handle_signature`: a heading, no id.

    Sphinx nests what it contains in the name it makes, which only its code knows: those
    objects get no id either (one guessed would not be on the page).
    """

    @override
    def enter(self) -> None:
        self.parse_state.classes.append(UNKNOWN_CLASS)

    @override
    def leave(self) -> None:
        if self.parse_state.classes:
            self.parse_state.classes.pop()


class CrossrefTarget(SphinxDirective):
    """An `add_crossref_type` directive: a bare target `std-NAME-x` on what follows."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        name = " ".join((self.arguments[0] if self.arguments else "").split())
        node_id = document_object_id(self.state.document, f"std:{self.name.split(':')[-1]}", name)
        target = nodes.target("", "", ids=[node_id])
        register_ids(self.state.document, target)
        return [target]


class ModuleDirective(SphinxDirective):
    """`module` / `py:module`: sets the current module and marks `module-NAME`."""

    @override
    def run(self) -> list[nodes.Node]:
        name = (self.arguments[0] if self.arguments else "").strip()
        self.parse_state.module = name
        self.parse_state.classes.clear()
        if not name or "no-index" in self.options or "noindex" in self.options:
            return []
        target = nodes.target("", "", ids=[f"module-{name}"])
        register_ids(self.state.document, target)
        return [target]


class AutoModule(ModuleDirective):
    """`automodule`: autodoc writes a `py:module` (current module, `module-NAME`), then the content.

    The module's docstring and `:members:` need an import (never done): the directive's own
    content is what can be shown.
    """

    @override
    def run(self) -> list[nodes.Node]:
        self.parse_state.note_autodoc(self.state.document)
        out = super().run()
        return out + list(self.parse_content(nodes.container()).children)


class CurrentModule(SphinxDirective):
    """`currentmodule`: sets the module later objects belong to (`None` clears it)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        name = (self.arguments[0] if self.arguments else "").strip()
        self.parse_state.module = "" if name == "None" else name
        self.parse_state.classes.clear()
        return []


class Program(SphinxDirective):
    """`program`: later `option`s belong to this program (their ids carry its name)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        name = (self.arguments[0] if self.arguments else "").strip()
        self.parse_state.program = "" if name == "None" else "-".join(name.split())
        return []


class AutoSummary(SphinxDirective):
    """`autosummary`: the listed names as a list of code."""

    @override
    def run(self) -> list[nodes.Node]:
        items = nodes.bullet_list()
        for line in self.content:
            name = line.strip()
            if name and not name.startswith((":", "..")):
                items += nodes.list_item("", nodes.paragraph("", "", nodes.literal(name, name)))
        return [items] if len(items) else []


class CodeLike(SphinxDirective):
    """Directives whose content is code or a diagram (`doctest`, `mermaid`…): a code block."""

    language = ""

    @override
    def run(self) -> list[nodes.Node]:
        text = "\n".join(self.content)
        return [code_block(text, self.language)] if text.strip() else []


def code_like(language: str) -> type[CodeLike]:
    """A directive whose content is code in this language (`jupyter-execute`, `plantuml`)."""
    return type(f"CodeLike_{language or 'text'}", (CodeLike,), {"language": language})
