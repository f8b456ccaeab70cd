"""What MkDocs decides beyond the common site fields: its Markdown reader and where included files come from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from tools.sources.generators.mkdocs.syntax import MarkdownSyntax
from tools.sources.site import MARKDOWN_SUFFIXES, GeneratorRules, Site


@dataclass(frozen=True)
class MkDocsRules(GeneratorRules):
    """MkDocs: Markdown read with its extensions, snippets and includes; `README.md` is an index.

    `snippet_dirs` are the pymdownx.snippets `base_path` folders (and the docs folder);
    `files_root` the folder included files may come from (the repository holding the project;
    "" is the project's folder); `includes` the include extensions the site turns on
    (`mdx_include`, `include_variants`) and `include_base` the folder their relative names start
    from; `syntax` the Markdown extensions that change how a page's text reads.
    """

    name: str = "mkdocs"
    snippet_dirs: tuple[str, ...] = ()
    files_root: str = ""
    includes: tuple[str, ...] = ()
    include_base: str = ""
    syntax: MarkdownSyntax = field(default_factory=MarkdownSyntax)

    readme_index: ClassVar[bool] = True
    # mkdocs-jupyter renders notebooks with nbconvert, whose heading ids keep the heading's text.
    notebook_slug: ClassVar[str | None] = "jupyter"

    def reader_for(self, site: Site, rel: str) -> str | None:
        """Markdown files are read by the MkDocs reader; the rest as on any site."""
        if rel.lower().endswith(MARKDOWN_SUFFIXES):
            return "mkdocs"
        return super().reader_for(site, rel)
