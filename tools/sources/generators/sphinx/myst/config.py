"""Whether a Sphinx project reads MyST (myst-parser / myst-nb), and the MyST settings of its conf.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Extensions whose presence in conf.py `extensions` makes `.md` pages MyST.
MYST_EXTENSIONS = ("myst_parser", "myst_nb")


@dataclass(frozen=True)
class MystConfig:
    """The conf.py settings (`myst_*`) that change what a MyST page shows or which ids it has."""

    heading_anchors: int = 0
    heading_ids: bool = True
    slug_func: str = "github"
    extensions: frozenset[str] = frozenset()
    substitutions: Mapping[str, str] = field(default_factory=dict)


def enables_myst(extensions: Sequence[str]) -> bool:
    """Whether a Sphinx project reads Markdown as MyST (myst-parser or myst-nb is an extension)."""
    return any(ext.split(".", 1)[0] in MYST_EXTENSIONS for ext in extensions)


def myst_config(values: Mapping[str, Any]) -> MystConfig:
    """The MyST settings of a conf.py's literal `myst_*` values (others: myst-parser's defaults)."""
    anchors = values.get("myst_heading_anchors")
    slug = values.get("myst_heading_slug_func")
    subs = values.get("myst_substitutions")
    return MystConfig(
        heading_anchors=anchors
        if isinstance(anchors, int) and not isinstance(anchors, bool)
        else 0,
        heading_ids=values.get("myst_heading_anchors_html_ids", True) is not False,
        slug_func=slug if slug in ("github", "gitlab", "docutils") else "github",
        extensions=frozenset(
            e for e in values.get("myst_enable_extensions") or () if isinstance(e, str)
        ),
        substitutions={str(k): str(v) for k, v in subs.items()} if isinstance(subs, dict) else {},
    )
