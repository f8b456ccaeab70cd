"""Directives that show their content: `only`, admonition-like and unknown ones (labelled), versions, tables, glossaries.

Directives nobody registered are still parsed (their content as reStructuredText, their title
as a label), never an error.
"""

from __future__ import annotations

import ast
import re

from docutils import nodes
from docutils.parsers.rst.directives.tables import CSVTable
from typing_extensions import override

from tools.sources.generators.sphinx.directives.base import SphinxDirective, code_block
from tools.sources.generators.sphinx.ids import document_object_id, register_ids
from tools.sources.generators.sphinx.nodes import labelled
from tools.sources.generators.sphinx.options import state_of

_ONLY_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def eval_only(expression: str, tags: frozenset[str]) -> bool:
    """Sphinx's `only` expression (`html and not latex`, parentheses, `or`) over build tags."""
    tokens = _ONLY_TOKEN.findall(expression)
    pos = 0

    def peek() -> str:
        return tokens[pos] if pos < len(tokens) else ""

    def take() -> str:
        nonlocal pos
        pos += 1
        return str(tokens[pos - 1])

    def disjunction() -> bool:
        value = conjunction()
        while peek() == "or":
            take()
            value = conjunction() or value
        return value

    def conjunction() -> bool:
        value = negation()
        while peek() == "and":
            take()
            value = negation() and value
        return value

    def negation() -> bool:
        if peek() == "not":
            take()
            return not negation()
        if peek() == "(":
            take()
            value = disjunction()
            if peek() == ")":
                take()
            return value
        return take() in tags if peek() else False

    try:
        return disjunction()
    except IndexError:
        return True


class Only(SphinxDirective):
    """`only`: the content when the HTML build's tags satisfy the expression, else nothing.

    As in Sphinx, the content may hold section titles: they are parsed with the title styles of
    the page set aside (their levels are the block's own), and the sections sit under the
    current one. Content of a false branch is not parsed at all (a large generated page often
    carries a second copy for another builder); ids inside it are all this can shift.
    """

    @override
    def run(self) -> list[nodes.Node]:
        expression = self.arguments[0] if self.arguments else ""
        if not eval_only(expression, self.parse_state.options.tags) or not self.content:
            return []
        holder = nodes.container()
        memo = self.state.memo
        styles, level = memo.title_styles, memo.section_level
        memo.title_styles, memo.section_level = [], 0
        try:
            self.state.nested_parse(self.content, self.content_offset, holder, match_titles=True)
        finally:
            memo.title_styles, memo.section_level = styles, level
        return list(holder.children)


class Passthrough(SphinxDirective):
    """A directive whose content is ordinary reStructuredText shown as it is (`ifconfig`, `hlist`)."""

    @override
    def run(self) -> list[nodes.Node]:
        return list(self.parse_content(nodes.container()).children)


class Nothing(SphinxDirective):
    """A directive with no text on the page (`index`, `currentmodule` is handled apart)."""

    @override
    def run(self) -> list[nodes.Node]:
        return []


class Labelled(SphinxDirective):
    """Content under a label: `seealso`, `todo`; a tab's name is its label (`UnknownDirective`).

    With a fixed `label` (seealso), a text argument is the first paragraph, as in Sphinx;
    otherwise the argument is the label and a directive without content shows nothing.
    """

    label = ""

    @override
    def run(self) -> list[nodes.Node]:
        node = labelled()
        argument = (self.arguments[0] if self.arguments else "").strip()
        if self.label:
            node["label"] = self.label
            if argument:
                inline, _ = self.state.inline_text(argument, self.lineno)
                node += nodes.paragraph(argument, "", *inline)
        else:
            node["label"] = argument
        self.parse_content(node)
        return [node] if len(node) else []


# Signs that a body that parses as Python is code, not a word or a list of words.
_CODE_SIGNS = re.compile(r"[()\[\]{}=@]|:\s*$|^\s*(?:import|from|def|class|return)\b", re.M)


def code_language(text: str) -> str | None:
    """The language of a text that reads as code rather than prose (None: prose).

    A Python session (`>>>`) or shell prompt (`$ `) on the first line, or text that parses
    as Python and has a call, assignment, bracket, decorator or block in it (a sentence does
    not parse; a bare word or `- item` list does, but has none of those).
    """
    stripped = text.strip()
    if not stripped:
        return None
    if stripped.startswith(">>> "):
        return "pycon"
    if stripped.startswith("$ "):
        return "console"
    if not _CODE_SIGNS.search(stripped):
        return None
    try:
        ast.parse(stripped)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return "python"


class UnknownDirective(Labelled):
    """A directive neither Sphinx, docutils nor the project's conf.py defines (an extension's).

    What it does is unknown, so it describes no object: no section, no id. Its argument is a
    label (or a code block when it reads as code) and its content is shown: as a code block
    when it reads as code (`code_language`), else parsed as reStructuredText. Options with a
    value come first as `key: value` lines (`:keys: requires`, `:default: <empty list>`): an
    extension shows them, and they are often what the directive is about; a flag without a
    value (`:open:`) only switches how it is shown.
    """

    def _options(self) -> nodes.line_block | None:
        """The options that have a value, one `key: value` line each (inline markup read)."""
        block = nodes.line_block()
        for key, value in self.options.items():
            if not isinstance(value, str) or not value.strip():
                continue
            text = f"{key}: {' '.join(value.split())}"
            inline, _ = self.state.inline_text(text, self.lineno)
            block += nodes.line(text, "", *inline)
        return block if len(block) else None

    @override
    def run(self) -> list[nodes.Node]:
        argument = (self.arguments[0] if self.arguments else "").strip()
        body = "\n".join(self.content)
        body_language = code_language(body)
        argument_language = code_language(argument)
        node = labelled()
        node["label"] = "" if argument_language else argument
        if argument_language:
            node += code_block(argument, argument_language)
        shown = self._options()
        if shown is not None:
            node += shown
        if body_language:
            node += code_block(body.strip("\n"), body_language)
        else:
            self.parse_content(node)
        return [node] if len(node) else []


def labelled_directive(label: str) -> type[Labelled]:
    """A `Labelled` directive whose content shows under this label."""
    return type(f"Labelled_{label}", (Labelled,), {"label": label})


class Tab(Labelled):
    """`tab` (sphinx_inline_tabs) and friends: the tab's name as the label of its content."""


_VERSION_LABELS = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


class VersionChange(SphinxDirective):
    """`versionadded` and friends: "Added in version 8.1: …" as Sphinx words it."""

    @override
    def run(self) -> list[nodes.Node]:
        version, _, rest = (self.arguments[0] if self.arguments else "").partition("\n")
        version, _, same_line = version.strip().partition(" ")
        node = labelled()
        label = f"{_VERSION_LABELS[self.name]} {version}".strip()
        node["label"] = label
        explanation = " ".join(part for part in (same_line.strip(), rest.strip()) if part)
        if explanation:
            inline, messages = self.state.inline_text(explanation, self.lineno)
            node += nodes.paragraph(explanation, "", *inline)
        self.parse_content(node)
        if not len(node):  # "Added in version 8.4." on its own, as Sphinx shows it
            return [nodes.paragraph("", "", nodes.strong("", label + "."))]
        return [node]


class MetaDirective(SphinxDirective):
    """`meta`: page metadata (`:description:`), not text."""

    @override
    def run(self) -> list[nodes.Node]:
        for key, value in self.options.items():
            self.parse_state.meta[key] = value
        return []


class DefaultRole(SphinxDirective):
    """`default-role`: for the rest of this page only (docutils would change it for every page)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        self.parse_state.default_role = (self.arguments[0] if self.arguments else "").strip()
        return []


class CsvTable(CSVTable):  # type: ignore[misc]
    """docutils' `csv-table` without `:file:`/`:url:` (a page may not read other files)."""

    @override
    def run(self) -> list[nodes.Node]:
        if "file" in self.options or "url" in self.options:
            state_of(self.state.document).warnings.append("csv-table :file:/:url: not read")
            return []
        return super().run()  # type: ignore[no-any-return]


class Raw(SphinxDirective):
    """`raw`: HTML or LaTeX for one builder, not text (and never a file read)."""

    @override
    def run(self) -> list[nodes.Node]:
        return []


class Glossary(SphinxDirective):
    """`glossary`: a definition list whose terms get Sphinx's `term-NAME` ids."""

    @override
    def run(self) -> list[nodes.Node]:
        holder = self.parse_content(nodes.container())
        for term in holder.findall(nodes.term):
            term["ids"].append(document_object_id(self.state.document, "term", term.astext()))
            register_ids(self.state.document, term)
        return list(holder.children)
