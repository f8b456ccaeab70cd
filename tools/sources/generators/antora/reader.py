"""A built Antora page: `article.doc`, admonitions and titled listings as "Title: text"."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.antora.rules import AntoraRules
from tools.sources.html.content import ContentRules
from tools.sources.html.page import HtmlSite
from tools.sources.records import Page
from tools.sources.site import Site

# Antora's UI puts the page in `article.doc` (the page title as `h1.page`, no anchor); around and
# inside it the UI's toolbar, breadcrumbs, version menu, an embedded table of contents (`#toc`)
# and the pager. Asciidoctor writes an admonition as a table whose icon cell names its kind
# (`<td class="icon"><i title="Note">`) and a listing's title as `.title` above its code.
ANTORA_CONTENT = ContentRules(
    main=("article.doc",),
    drop=(".toolbar", ".breadcrumbs", ".page-versions", ".pagination", "#toc", ".toc"),
    labelled=(
        ("div.admonitionblock", "td.icon"),
        ("div.listingblock", ".title"),
        ("div.literalblock", ".title"),
        ("div.exampleblock", ".title"),
        ("div.sidebarblock", ".title"),
    ),
)


def read_antora(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A built Antora page: its article only."""
    name = site.rules.site_name if isinstance(site.rules, AntoraRules) else ""
    return HtmlSite(root, site.base_url, ANTORA_CONTENT, name).parse(rel, text)
