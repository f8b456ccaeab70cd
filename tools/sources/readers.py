"""One reader per markup, by name: the single place where a file's raw text enters a reader.

A reader is a module-level function `(rel, text, site, root) -> Page` (module-level so worker
processes that parse pages can be sent it by name). The site profile picks the reader for each
file (`Site.reader_for`); adding a format is one module with its reader function, one line in
`READERS` and its tests.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tools.sources.mdx import Page, parse_markdown
from tools.sources.mkdocs import SnippetFiles, parse_mkdocs
from tools.sources.site import Site

ReaderFn = Callable[[str, str, Site, Path, str], Page]


def read_markdown(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """Markdown / MDX (CommonMark + GFM, Mintlify and Docusaurus components)."""
    return parse_markdown(rel, text, language, site.slug)


def read_mkdocs(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """MkDocs / Material Markdown: its extensions rewritten, snippets resolved."""
    dirs = site.snippet_dirs or (site.project_root or str(root), str(root))
    files = SnippetFiles(tuple(dirs), site.project_root or str(root))
    page_dir = (root / rel).parent
    return parse_mkdocs(rel, text, language, site.slug, files, page_dir)


READERS: dict[str, ReaderFn] = {
    "markdown": read_markdown,
    "mkdocs": read_mkdocs,
}


def has_reader(name: str | None) -> bool:
    """Whether a reader of that name is installed."""
    return name is not None and name in READERS


def decode(raw: bytes) -> str:
    """A file's bytes as text: UTF-8 (with or without BOM), bad bytes replaced, never an error."""
    return raw.decode("utf-8-sig", errors="replace")


def read_page(rel: str, raw: bytes, site: Site, root: Path, language: str) -> Page:
    """The page of one file, read by the reader its site profile names for it.

    Every file's raw text enters the readers here, once: text-level cleaning that applies to
    every format belongs on the `text = decode(raw)` line.
    """
    name = site.reader_for(rel)
    reader = READERS.get(name or "", read_markdown)
    text = decode(raw)
    return reader(rel.replace(os.sep, "/"), text, site, root, language)
