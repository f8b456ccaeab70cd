"""A built Hugo page: the theme's main element (or its densest block), without the theme's furniture."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.hugo.rules import HugoRules
from tools.sources.html.content import ContentRules
from tools.sources.html.page import HtmlSite
from tools.sources.records import Page
from tools.sources.site import Site

# Hugo has no page template of its own: each theme writes its own, so the main content is found
# as on any built site (`<main>`, `role="main"`, one `<article>`, else the block holding the
# page's prose); dropped inside it, the furniture themes put there: Hugo's `.TableOfContents` (a
# `nav#TableOfContents`, often in a `.toc` box), breadcrumbs, page metadata and pagers.
HUGO_CONTENT = ContentRules(
    drop=(
        "#TableOfContents",
        ".toc",
        ".breadcrumb",
        ".breadcrumbs",
        ".page-meta",
        ".post-meta",
        ".pagination",
    ),
    article_inside=False,
)


def read_hugo(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A built Hugo page: its main content only; `meta["canonical"]` when the theme writes one."""
    name = site.rules.site_name if isinstance(site.rules, HugoRules) else ""
    return HtmlSite(root, site.base_url, HUGO_CONTENT, name).parse(rel, text)
