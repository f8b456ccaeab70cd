"""The reader of a built site of no known generator: its main content by the landmarks themes write."""

from __future__ import annotations

from pathlib import Path

from tools.sources.html.page import read_html_page
from tools.sources.records import Page
from tools.sources.site import Site


def read_html(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A built HTML page: its main content only; `meta["url"]` is its canonical URL if it has one."""
    return read_html_page(rel, text, root, site.base_url)
