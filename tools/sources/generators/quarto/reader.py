"""A rendered Quarto page: `main#quarto-document-content`, callouts and tabsets as text, cell outputs kept."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.quarto.rules import QuartoRules
from tools.sources.html.content import ContentRules
from tools.sources.html.page import HtmlSite
from tools.sources.records import Page
from tools.sources.site import Site

# Quarto's HTML template puts the page in `main#quarto-document-content`: the title block
# (`header#title-block-header`, whose `h1.title` has no anchor), then `<section id>`s around
# the headings. Dropped: the title block's metadata (authors, dates, categories) and a listing's
# items (other pages' titles and summaries). Callouts read "Title: text"; a tabset's panels read
# "Tab: text" (its ARIA labels, tools/sources/html/convert.py); a cell's code and its outputs
# (`div.cell-output`) are code blocks, as the reader sees them.
QUARTO_CONTENT = ContentRules(
    main=("main#quarto-document-content", "#quarto-document-content"),
    drop=(
        ".quarto-title-meta",
        ".quarto-title-meta-heading",
        ".quarto-categories",
        ".quarto-listing",
        ".quarto-alternate-formats",
    ),
    labelled=((".callout", ".callout-title-container"),),
)


def read_quarto(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A rendered Quarto page: its main content only."""
    name = site.rules.site_name if isinstance(site.rules, QuartoRules) else ""
    return HtmlSite(root, site.base_url, QUARTO_CONTENT, name).parse(rel, text)
