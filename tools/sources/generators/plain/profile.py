"""No generator recognised: plain Markdown, every Markdown file a page."""

from __future__ import annotations

from pathlib import Path

from tools.sources.site import PART_FOLDERS, Site


def markdown_site(root: Path, config: Path | None) -> Site:
    """No generator recognised: every Markdown file is a page, URLs from the configured rule."""
    return Site(slug="mintlify", url_style="plain", not_pages=PART_FOLDERS)
