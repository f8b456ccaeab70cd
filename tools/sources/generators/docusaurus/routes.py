"""How Docusaurus names a doc's route: number prefixes dropped from file and folder names."""

from __future__ import annotations

import re

# Docusaurus strips a number prefix from file and folder names (`01-intro.md`, `01 - intro.md`
# → `intro`), but not what reads as a version or a date (`4-0.md`, `2021-11-notes.md`):
# plugin-content-docs' `DefaultNumberPrefixParser`, both patterns as it writes them.
_IGNORED_PREFIX_RE = re.compile(r"^\d+[-_.]\d+")
_NUMBER_PREFIX_RE = re.compile(r"^(?P<prefix>\d+)\s*[-_.]+\s*(?P<suffix>[^-_.\s].*)$")


def strip_number_prefix(name: str) -> str:
    """A file or folder name without its Docusaurus number prefix."""
    if _IGNORED_PREFIX_RE.match(name):
        return name
    m = _NUMBER_PREFIX_RE.match(name)
    return m.group("suffix") if m else name
