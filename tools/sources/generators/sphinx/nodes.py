"""The docutils nodes Sphinx's directives and roles leave for the renderer (tools/sources/generators/sphinx/render.py)."""

from __future__ import annotations

from docutils import nodes


class object_desc(nodes.Element):  # type: ignore[misc]  # noqa: N801 - docutils names node classes in lower case
    """A described object (`confval`, `option`, `autofunction`…): its own section on the page."""


class labelled(nodes.Element):  # type: ignore[misc]  # noqa: N801
    """A block shown under a label: `seealso`, `versionadded`, a tab, an unknown directive."""


class xref(nodes.inline):  # type: ignore[misc]  # noqa: N801
    """A cross-reference (`:ref:`, `:doc:`, an object role): a link when the site has its target.

    `reftype` is the role without its domain, `reftarget` what it names, `explicit` whether a
    title was written; object roles also keep the scope they were written in (`module`,
    `classes`, `program`), which decides what a short name means.
    """


class highlight_marker(nodes.Element, nodes.Invisible):  # type: ignore[misc]  # noqa: N801
    """`.. highlight:: lang`: the language of the `::` literal blocks that follow."""
