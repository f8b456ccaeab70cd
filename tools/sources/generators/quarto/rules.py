"""What Quarto decides beyond the common site fields: rendered pages served at their folder's URL."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tools.sources.html.built import served_path
from tools.sources.site import HTML_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class QuartoRules(GeneratorRules):
    """A rendered Quarto website: `get-started/index.html` served at `get-started/`, others as written."""

    name: str = "quarto"
    # The site's name in its pages' `<title>` ("Docs | kind"), dropped from a title taken there.
    site_name: str = ""

    canonical_url: ClassVar[bool] = True
    base_url_setting: ClassVar[str] = "website: site-url (_quarto.yml)"

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Rendered pages only: `.qmd` and notebooks are what Quarto executes, not what it shows."""
        return "quarto" if rel.lower().endswith(HTML_SUFFIXES) else None

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """`X/index.html` → `X/`, `index.html` → ``, `X.html` stays `X.html`."""
        return served_path(path)
