"""The profile of a folder of built `.html` pages."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.html.rules import HtmlRules
from tools.sources.html.built import BUILT_SITE_NOT_PAGES, html_files, redirects
from tools.sources.site import Site


def html_site(root: Path, config: Path | None) -> Site:
    """A folder of built `.html` pages: URLs keep their `.html`, a canonical link wins.

    Redirect pages (`<meta http-equiv="refresh">`: aliases and moved pages) are no pages.
    """
    return Site(
        rules=HtmlRules(),
        url_style="html",
        slug="docutils",
        not_pages=BUILT_SITE_NOT_PAGES,
        skipped=frozenset(redirects(root, html_files(root))),
    )
