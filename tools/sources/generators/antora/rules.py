"""What Antora decides beyond the common site fields: pages served at the path Antora wrote."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tools.sources.site import HTML_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class AntoraRules(GeneratorRules):
    """A built Antora site: `<component>/<version>/<module>/<page>.html`, cited as written.

    Antora links a component's start page as `index.html` (its default `html_extension_style`),
    so the address keeps it. Its canonical link names the newest version of a page, not the page
    itself, so the address is the file's.
    """

    name: str = "antora"
    # The site's name in its pages' `<title>` ("Docs | kind"), dropped from a title taken there.
    site_name: str = ""

    base_url_setting: ClassVar[str] = "site.url (antora-playbook.yml)"

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Built pages only: the `.adoc` sources are not what the site shows."""
        return "antora" if rel.lower().endswith(HTML_SUFFIXES) else None
