"""The toctree directives of a page, read from its lines alone: the navigation before any page is parsed."""

from __future__ import annotations

import re

_TOCTREE_START = re.compile(r"^([ \t]*)\.\.[ \t]+toctree[ \t]*::", re.IGNORECASE)


def toctree_blocks(text: str) -> list[str]:
    """The `.. toctree::` directives of a page, each as its own block of source text.

    A directive's block is its first line and every following line that is blank or indented
    deeper (reStructuredText's own rule); docutils then parses just these blocks, so the
    navigation is known without parsing every page in full.
    """
    lines = text.splitlines()
    blocks: list[str] = []
    i = 0
    while i < len(lines):
        m = _TOCTREE_START.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1).expandtabs())
        block = [lines[i][len(m.group(1)) :]]
        i += 1
        while i < len(lines) and (
            not lines[i].strip()
            or len(lines[i].expandtabs()) - len(lines[i].expandtabs().lstrip()) > indent
        ):
            block.append(lines[i].expandtabs()[indent:])
            i += 1
        blocks.append("\n".join(block))
    return blocks
