"""What Hugo decides beyond the common site fields: built pages served at their folder's URL."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tools.sources.html.built import served_path
from tools.sources.site import HTML_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class HugoRules(GeneratorRules):
    """A built Hugo site: `.html` pages read by the Hugo reader, served where Hugo wrote them.

    Pretty URLs (the default) write `docs/quick-start/index.html`, served at `docs/quick-start/`;
    `uglyURLs = true` writes `docs/quick-start.html`, served as it is. A theme that writes a
    canonical link names the page's address itself.
    """

    name: str = "hugo"
    # The site's name in its pages' `<title>` ("Docs | kind"), dropped from a title taken there.
    site_name: str = ""

    canonical_url: ClassVar[bool] = True
    base_url_setting: ClassVar[str] = "baseURL (hugo.toml)"

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Built pages only: the source's Markdown is not what the site shows."""
        return "hugo" if rel.lower().endswith(HTML_SUFFIXES) else None

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """`X/index.html` → `X/`, `index.html` → ``, `X.html` stays `X.html`."""
        return served_path(path)
