"""The Markdown extensions of an MkDocs site that change how its text reads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MarkdownSyntax:
    """The Python-Markdown / pymdownx extensions of an MkDocs site that change how its text reads.

    Each is off unless mkdocs.yml lists it, as in Python-Markdown: without the extension its
    syntax is text on the built page (`++ctrl+c++`, `` `#!python x` ``, `*[HTML]: …`).
    """

    inlinehilite: bool = False  # `#!lang code` / `:::lang code` in inline code
    keys: bool = False  # `++ctrl+alt+del++`
    key_separator: str = "+"
    key_camel_case: bool = False
    key_map: tuple[tuple[str, str], ...] = ()  # the site's own keys (`key_map`), name → label
    emoji: bool = False  # `:smile:` shortcodes (Material's icons are dropped in any case)
    abbr: bool = False  # `*[HTML]: Hyper Text Markup Language` definitions
    auto_append: tuple[str, ...] = ()  # snippets appended to every page (pymdownx.snippets)
