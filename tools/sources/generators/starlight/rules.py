"""What Starlight decides beyond the common site fields: page slugs (Astro's content ids), its reader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tools.sources.site import GeneratorRules, Site
from tools.sources.slugs import github

# What Starlight's docs loader takes (Astro's Markdown and MDX extensions); `.mdoc` with Markdoc.
PAGE_SUFFIXES = (".md", ".mdx", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn")
MARKDOC_SUFFIX = ".mdoc"


def default_slug(path: str) -> str:
    """Astro's id of a content file: each folder and the name github-slugged, `index` dropped."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    slug = "/".join(github(part) for part in stem.split("/"))
    if slug == "index":
        return ""
    return slug.removesuffix("/index")


def page_slug(path: str, meta: Mapping[str, Any]) -> str:
    """A page's slug: its front matter's `slug` as written, else Astro's id of its path."""
    given = meta.get("slug")
    if isinstance(given, str | int) and str(given).strip():
        slug = str(given).strip().strip("/")
        return "" if slug == "index" else slug
    return default_slug(path)


@dataclass(frozen=True)
class StarlightRules(GeneratorRules):
    """Starlight: every content file is a page, served at its slug.

    `markdoc`: `.mdoc` pages are read (the Markdoc integration is on); `files_root` the folder
    imported files may come from (the repository holding the site).
    """

    name: str = "starlight"
    markdoc: bool = False
    files_root: str = ""

    nav_lists_pages: ClassVar[bool] = False
    # Astro compiles each imported MDX file on its own: its headings' ids are its own.
    separate_parts: ClassVar[bool] = True

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Markdown, MDX (and Markdoc when on) files are read by the Starlight reader."""
        lower = rel.lower()
        if lower.endswith(PAGE_SUFFIXES) or (self.markdoc and lower.endswith(MARKDOC_SUFFIX)):
            return "starlight"
        return None

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """The page's slug (`guides/authoring-content`; "" for the home page)."""
        return page_slug(path, meta)
