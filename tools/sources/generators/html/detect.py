"""How a built HTML site is recognised without a config: `.html` pages at its top, no Markdown."""

from __future__ import annotations

from pathlib import Path


def is_built_site(root: Path) -> bool:
    """Whether the folder holds built pages (`*.html` at its top) and no Markdown source."""
    return any(root.glob("*.html")) and not any(root.rglob("*.md"))
