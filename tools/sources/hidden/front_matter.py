"""Front matter at a page's start: a block no reader can parse is hidden text."""

from __future__ import annotations

import logging
import re

import yaml

log = logging.getLogger(__name__)


_YAML_BLOCK_RE = re.compile(r"\A\s*---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_TOML_BLOCK_RE = re.compile(r"\A\s*\+\+\+[ \t]*\n(.*?)\n\+\+\+[ \t]*(?:\n|\Z)", re.DOTALL)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_FRONT_MATTERS = 2  # what the Markdown reader reads: a KB article may wrap its page's block


def _yaml_kind(block: str) -> str:
    """`mapping`, `prose` (a plain string or nothing) or `other` (a YAML error, a list, a number)."""
    try:
        data = yaml.load(block, Loader=_YAML_LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        return "other"
    if isinstance(data, dict):
        return "mapping"
    return "prose" if isinstance(data, str) or data is None else "other"


def split_front_matter(text: str) -> tuple[str, str]:
    """(front matter the reader parses, the rest); a leading block nobody can read is dropped.

    A leading YAML block that parses to a mapping is metadata the Markdown reader reads (title,
    slug, id) and is kept as it is, as is a second one stacked under it (a KB article wrapping its
    page). A first block that does not parse, or parses to a list or number, would be indexed as
    page text, so it goes, as does TOML (`+++`) front matter, which no reader here parses. One that
    reads as a plain sentence is prose between two rules and stays.
    """
    kept: list[str] = []
    rest = text
    for n in range(MAX_FRONT_MATTERS):
        m = _YAML_BLOCK_RE.match(rest) or (_TOML_BLOCK_RE.match(rest) if n == 0 else None)
        if m is None:
            break
        kind = _yaml_kind(m.group(1)) if m.re is _YAML_BLOCK_RE else "toml"
        if kind == "mapping":
            kept.append(m.group(0))
        elif n == 0 and kind != "prose":
            # A warning: the page's metadata (title, slug) is lost, which its author should fix.
            log.warning("unreadable frontmatter dropped, not indexed as text: %.60r", m.group(1))
        else:
            break
        rest = rest[m.end() :]
    return "".join(kept), rest
