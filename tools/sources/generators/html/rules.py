"""What a built HTML site decides beyond the common site fields: `.html` files are its pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tools.sources.site import HTML_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class HtmlRules(GeneratorRules):
    """A folder of built pages: `.html` files read as HTML, a page's canonical link is its URL."""

    name: str = "html"

    canonical_url: ClassVar[bool] = True

    def reader_for(self, site: Site, rel: str) -> str | None:
        """HTML pages by the HTML reader; Markdown, rst and notebooks as on any site."""
        reader = super().reader_for(site, rel)
        if reader is None and rel.lower().endswith(HTML_SUFFIXES):
            return "html"
        return reader
