"""What GitBook decides beyond the common site fields: its reader, the readme as the root, page titles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tools.sources.generators.gitbook import anchors  # noqa: F401 - registers `gitbook`
from tools.sources.site import MARKDOWN_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class GitBookRules(GeneratorRules):
    """GitBook: pages at their path without `.md`, a README at its folder, the readme at the root.

    The space's readme (`structure.readme`) is served at the space's root.

    `readme` is the readme's path as the site's pages are named (below `page_dir`); `titles`
    pairs each page with its SUMMARY title (what a content-ref card shows); `space_root` is the
    folder `.gitbook.yaml` names as `root` (includes are read inside it, `.gitbook/includes` too);
    `legacy`: a GitBook 3 book (`book.json`), whose `variables` its pages show.
    """

    name: str = "gitbook"
    readme: str = "README.md"
    titles: tuple[tuple[str, str], ...] = ()
    space_root: str = ""
    legacy: bool = False
    variables: tuple[tuple[str, str], ...] = ()
    # `.gitbook.yaml` redirects (old path -> file): served as redirects, never pages.
    redirects: tuple[tuple[str, str], ...] = ()

    readme_index: ClassVar[bool] = True

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Markdown pages are read by the GitBook reader; the rest as on any site."""
        if rel.lower().endswith(MARKDOWN_SUFFIXES):
            return "gitbook"
        return super().reader_for(site, rel)

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """The page's path: `` for the readme, a README's folder, else the file without `.md`.

        The readme's route is empty, so it is served at the space's root (`base/`); a folder's
        README is the folder itself, with no trailing slash (GitBook's addresses end in none).
        """
        if path == self.readme:
            return ""
        stem = path.rsplit(".", 1)[0] if path.lower().endswith(MARKDOWN_SUFFIXES) else path
        folder, _, name = stem.rpartition("/")
        return folder if name.lower() == "readme" else stem

    def title_of(self, inner: str) -> str | None:
        """The SUMMARY title of the page at this path (below `page_dir`), None if it has none."""
        return dict(self.titles).get(inner)
