"""What every Sphinx directive handler here shares: options that accept anything, code blocks.

A Sphinx project's `.rst` files use markup that docutils alone does not know (`code-block`,
`toctree`, `:ref:`, object descriptions such as `confval`…). Running Sphinx would mean installing
it with every extension a project loads and executing its `conf.py`; instead each construct gets a
small handler that yields what the built page shows as text, with the ids the built page
serves (`confval-x`, `cmdoption-k`, `std-fixture-capsys`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from typing_extensions import override

from tools.sources.generators.sphinx.nodes import highlight_marker
from tools.sources.generators.sphinx.options import ParseState, state_of


class AnyOptions(dict[str, Callable[[str | None], Any]]):
    """An option spec taking every option as text: an extension's options are never errors."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> Callable[[str | None], Any]:
        return _any_value

    def __bool__(self) -> bool:
        return True


def _any_value(value: str | None) -> str:
    return (value or "").strip()


class SphinxDirective(Directive):  # type: ignore[misc]
    """Base: any options, optional arguments with spaces, content allowed."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = AnyOptions()

    @property
    def parse_state(self) -> ParseState:
        """What this page's parse has collected so far."""
        return state_of(self.state.document)

    def parse_content(self, into: nodes.Element) -> nodes.Element:
        """Parse the directive's content as reStructuredText into `into`."""
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, into)
        return into


# -- code -----------------------------------------------------------------------------------


def code_block(text: str, language: str) -> nodes.literal_block:
    """A literal block that keeps its language (the renderer writes a fenced block)."""
    node = nodes.literal_block(text, text)
    node["language"] = language
    return node


class CodeBlock(SphinxDirective):
    """`code-block` / `sourcecode` / `code`: a literal block in the named language."""

    @override
    def run(self) -> list[nodes.Node]:
        language = (self.arguments[0] if self.arguments else "").strip()
        language = language or self.parse_state.options.highlight_language
        node = code_block("\n".join(self.content), language)
        out: list[nodes.Node] = []
        if self.options.get("caption"):
            out.append(nodes.paragraph("", "", nodes.strong("", self.options["caption"])))
        if self.options.get("name"):
            node["names"].append(nodes.fully_normalize_name(self.options["name"]))
            self.state.document.note_explicit_target(node, node)
        out.append(node)
        return out


class Highlight(SphinxDirective):
    """`highlight`: sets the language of later `::` blocks (applied when rendering)."""

    has_content = False

    @override
    def run(self) -> list[nodes.Node]:
        marker = highlight_marker()
        marker["language"] = (self.arguments[0] if self.arguments else "").strip()
        return [marker]
