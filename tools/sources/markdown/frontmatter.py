"""YAML front matter of a Markdown page: read, or kept as text when it does not parse."""

from __future__ import annotations

import logging
import re
from typing import Any

import yaml

log = logging.getLogger(__name__)


FRONTMATTER_RE = re.compile(r"\A\ufeff?\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
# libyaml's parser when installed (same objects, several times faster), else PyYAML's own.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """Split YAML frontmatter off the text; a broken block is left in the body and logged."""
    m = FRONTMATTER_RE.match(text)
    if not m:
        return {}, text
    try:
        data = yaml.load(m.group(1), Loader=_YAML_LOADER) or {}  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        log.warning("unparseable frontmatter kept as text: %s", exc)
        return {}, text
    if not isinstance(data, dict):
        return {}, text
    return data, text[m.end() :]


def read_frontmatters(text: str) -> tuple[dict[str, Any], str]:
    """Frontmatter that may come in two stacked blocks (a KB article wrapping an original page).

    The first block wins on conflicts: it is the article's own metadata.
    """
    meta, body = split_frontmatter(text)
    if meta:
        inner, rest = split_frontmatter(body.lstrip())
        if inner:
            merged = dict(inner)
            merged.update(meta)
            merged.setdefault("original", inner)
            return merged, rest
    return meta, body
