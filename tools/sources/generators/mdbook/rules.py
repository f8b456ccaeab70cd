"""What mdBook decides beyond the common site fields: its reader, chapter names, Markdown options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tools.sources.generators.mdbook import ids  # noqa: F401 - registers the `mdbook` slug rule
from tools.sources.site import MARKDOWN_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class MdBookRules(GeneratorRules):
    """mdBook: chapters read by the mdBook reader; `README.md` is served as `index.html`.

    `chapters` pairs each chapter (its path as the site's pages are named, below `page_dir`)
    with its SUMMARY name, the page's title unless `{{#title}}` sets one; `files_root` is the
    folder includes may read from (the repository holding the book). The Markdown options are
    `[output.html]`'s; `language` is `[book] language`, the language of every chapter (mdBook
    builds one language per book: translations are gettext catalogues, not pages).
    """

    name: str = "mdbook"
    chapters: tuple[tuple[str, str], ...] = ()
    files_root: str = ""
    language: str = "en"
    smart_punctuation: bool = True
    definition_lists: bool = True
    admonitions: bool = True
    hidelines: tuple[tuple[str, str], ...] = ()
    # `[output.html.redirect]`: old paths mdBook writes a redirect page at (never pages).
    redirects: tuple[tuple[str, str], ...] = ()

    # mdBook's `index` preprocessor: a chapter file named README.md is written as index.html.
    readme_index: ClassVar[bool] = True

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Markdown chapters are read by the mdBook reader; the rest as on any site."""
        if rel.lower().endswith(MARKDOWN_SUFFIXES):
            return "mdbook"
        return super().reader_for(site, rel)

    def chapter_name(self, inner: str) -> str | None:
        """The SUMMARY name of the chapter at this path (below `page_dir`), None if none."""
        return dict(self.chapters).get(inner)
