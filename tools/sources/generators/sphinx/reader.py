"""The Sphinx readers: reStructuredText and MyST pages, read as the project's Sphinx build reads them."""

from __future__ import annotations

from pathlib import Path

from tools.sources.generators.sphinx.rules import SphinxRules
from tools.sources.records import Page
from tools.sources.site import Site


def read_rst(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """Read reStructuredText through docutils, with the Sphinx project's roles, directives and ids."""
    from tools.sources.generators.sphinx.project import read_sphinx_page

    source = Path(site.project_root) if site.project_root else root
    inner = rel[len(site.page_dir) :] if rel.startswith(site.page_dir) else rel
    xrefs = site.rules.xrefs if isinstance(site.rules, SphinxRules) else None
    return read_sphinx_page(inner, text, source, xrefs)


def read_myst(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """MyST Markdown of a Sphinx project (myst-parser): directives, roles and ids as Sphinx reads them."""
    return read_rst(rel, text, site, root, language)  # the Sphinx reader tells MyST from rst
