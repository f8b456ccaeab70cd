"""The profile of a folder of built `.html` pages."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.html.reader import BUILT_SITE_NOT_PAGES
from tools.sources.generators.html.rules import HtmlRules
from tools.sources.site import Site


def html_site(root: Path, config: Path | None) -> Site:
    """A folder of built `.html` pages: URLs keep their `.html`, a canonical link wins."""
    return Site(
        rules=HtmlRules(),
        url_style="html",
        slug="docutils",
        not_pages=BUILT_SITE_NOT_PAGES,
    )
