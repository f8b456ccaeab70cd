"""What counts as leftover markup in a title, heading, answer, snippet or suggestion (issue 23).

Block markers count at a line's start (`!!! note`, `=== "Tab"`, `/// tip`, `:::tip`, `.. note::`),
the rest anywhere; code (fences and inline spans) is left out, since code may hold any of them.
"""

from __future__ import annotations

import re

_CODE_RE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)
LEFTOVER_RE = re.compile(
    r"\{\s*:?\s*#[\w-]|\{\s*:?\s*\.[a-z]"  # attribute lists / explicit ids
    r"|^\s*(?:!!!|\?\?\?\+?|===[!+]?\s*\"|///|:::|\.\. [\w-]+::|\.\. _)"  # block markers
    r"|--8<--|:ref:`|:doc:`|:class:`|:func:`"  # snippets, Sphinx roles
    r"|\]\[[\w.]*\]",  # reference links / autorefs
    re.M,
)


def leftovers(text: str) -> list[str]:
    """The markup leftovers in a text (outside code), each with a little context."""
    prose = _CODE_RE.sub(" ", text)
    return [prose[max(0, m.start() - 30) : m.end() + 30] for m in LEFTOVER_RE.finditer(prose)]
