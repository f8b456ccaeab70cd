"""`Site`: how one generator turns a docs folder into a website: page URLs, anchors, which files are pages.

A site profile is plain data (worker processes that parse pages get a copy): the generator's
name, where its URLs start and how they end (`X/`, `X.html` or `X`), which slug rule its heading
anchors follow, the navigation when the site has one, and the globs of files that are parts of
pages rather than pages (snippets, partials, templates). Profiles are built per generator from
the folder's own configuration (tools/sources/generators/) and every field can be overridden in
settings (tools/settings.py, docs/sources.md).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

# File suffixes each kind of markup uses; which reader takes them depends on the generator.
MARKDOWN_SUFFIXES = (".md", ".mdx", ".markdown")
RST_SUFFIXES = (".rst", ".rest")
HTML_SUFFIXES = (".html", ".htm")
NOTEBOOK_SUFFIXES = (".ipynb",)
# Files of these suffixes are documentation markup: found with no reader to take them, they are
# reported (a docs folder in a format this package does not read must not pass silently).
# `.html` is left out outside a built-HTML site: every generator keeps templates and theme
# overrides in `.html` files, and those are no pages.
DOCUMENT_SUFFIXES = (
    *MARKDOWN_SUFFIXES,
    *RST_SUFFIXES,
    *NOTEBOOK_SUFFIXES,
    ".adoc",
    ".asciidoc",
    ".qmd",
    ".rmd",
    ".org",
    ".textile",
)


def glob_match(rel: str, patterns: tuple[str, ...]) -> bool:
    """Whether a path matches one of the globs, gitignore-like.

    A pattern without `/` matches a file or folder of that name anywhere (`_*`, `__pycache__`);
    one with `/` matches from the folder's root (`api/*.md`, `./README.md`), or at any depth when
    it starts with `**/`; a pattern that names a folder matches everything under it.
    """
    parts = rel.split("/")
    for pattern in patterns:
        pat = pattern.strip().strip("/")
        if not pat:
            continue
        if "/" not in pat:
            if any(fnmatch.fnmatchcase(part, pat) for part in parts):
                return True
            continue
        anywhere = pat.startswith("**/")
        core = pat[3:] if anywhere else pat.removeprefix("./")  # `./x`: `x` at the root only
        for i in range(len(parts) if anywhere else 1):
            sub = "/".join(parts[i:])
            if fnmatch.fnmatchcase(sub, core) or fnmatch.fnmatchcase(sub, core + "/*"):
                return True
    return False


# The "not found" page every generator makes from a top-level `404.*` (MkDocs `404.md`, Sphinx
# notfound `404.rst`, mdBook `404.md`, a built `404.html`): shown for a missing page, never an answer.
ERROR_PAGE = re.compile(r"^404\.[A-Za-z]+$")

# Folders that, by wide convention, hold parts of pages (snippets, partials, includes): not pages.
PART_FOLDERS = ("snippets", "_snippets", "partials", "_partials", "includes", "_includes")


@dataclass(frozen=True)
class Locale:
    """One language of a site: its key in the config, the folder of its pages, its language tag.

    `folder` is relative to the pages' folder, with a trailing `/` (`zh/`); "" is the root
    locale, whose pages are those outside every other locale's folder.
    """

    key: str
    folder: str
    lang: str = ""
    label: str = ""

    def names(self) -> tuple[str, ...]:
        """What a setting may call it: its key, its folder, its language tag (lower case)."""
        names = (self.key, self.folder.strip("/"), self.lang)
        return tuple(n.lower() for n in names if n)


@dataclass(frozen=True)
class GeneratorRules:
    """What one generator decides beyond the fields every site has: readers, routes, loaders.

    These defaults are plain Markdown's (every Markdown file a page, `X/index.md` served at `X`).
    Each generator package subclasses it with its own settings (MkDocs' snippet folders, the
    Docusaurus docs route, Sphinx's cross-reference targets), so nothing outside a generator's
    package asks which generator a site is. Plain data: worker processes get a copy.
    """

    name: str = "markdown"

    # A folder's `README.md` is its index page, as `index.md` is (MkDocs, Docusaurus).
    readme_index: ClassVar[bool] = False
    # Each file a page imports is compiled as a document of its own: its headings' ids are
    # unique among themselves only (Docusaurus' MDX imports).
    separate_parts: ClassVar[bool] = False
    # A page that names its own address (`<link rel="canonical">`) is cited at it (built HTML).
    canonical_url: ClassVar[bool] = False
    # How the Markdown of a notebook is read (`markdown`, or `myst` under Sphinx) and the slug
    # rule of its headings (None: the site's).
    notebook_reader: ClassVar[str] = "markdown"
    notebook_slug: ClassVar[str | None] = None
    # The generator's setting that names the site's address (`html_baseurl`): a site of this
    # generator with no base URL anywhere cites file paths, and a note says which to set.
    base_url_setting: ClassVar[str] = ""
    # The navigation (`Site.nav`) lists the pages there are; False: every page the other rules
    # admit is one, the navigation orders only those it lists (VitePress, Starlight build every
    # Markdown file, on a sidebar or not).
    nav_lists_pages: ClassVar[bool] = True
    # The reader gets the file's text before hidden text is dropped, and drops it itself once
    # it has read what the generator reads in comments and scripts (VitePress'
    # `<!--@include: …-->`, a page's `<script setup>` values).
    reads_raw: ClassVar[bool] = False

    def reader_for(self, site: Site, rel: str) -> str | None:
        """The name of the reader for this file (tools/sources/readers.py), or None: not read."""
        lower = rel.lower()
        if lower.endswith(MARKDOWN_SUFFIXES):
            return "markdown"
        if lower.endswith(RST_SUFFIXES):
            return "rst"
        if lower.endswith(NOTEBOOK_SUFFIXES) and site.notebooks:
            return "notebook"
        return None

    def route(self, path: str, meta: Mapping[str, Any]) -> str:
        """A page's path under the base URL, a folder's index page ending with `/` (`guide/`)."""
        stem = _strip_suffix(path)
        page = _page_path(stem, self.readme_index)
        return page + "/" if page != stem and page else page

    def loaded(self, text: str) -> str:
        """A Markdown file's text as the generator's loader hands it to its Markdown reader."""
        return text

    def with_url_style(self, url_style: str) -> GeneratorRules:
        """The rules when settings choose the URL style (links the generator writes follow it)."""
        return self

    @property
    def uses_changed(self) -> Callable[[Mapping[str, str]], bool] | None:
        """Whether what a page used of the rest of the site changed (None: pages use nothing)."""
        return None


@dataclass(frozen=True)
class Site:
    """One generator's addresses and page rules for a docs folder (paths relative to that folder).

    `page_dir`: where pages live inside the folder (`docs/` when the folder is a MkDocs project
    root), stripped before a path becomes a URL. `nav`: the pages the navigation lists, in order
    (None: the site has no navigation, or it is switched off, and every page counts).
    """

    rules: GeneratorRules = field(default_factory=GeneratorRules)
    base_url: str = ""
    path_prefix: str = ""
    strip_prefixes: tuple[str, ...] = ()
    # `plain` (X), `directory` (X/), `html` (X.html), `index-slash` (X, and a folder's index
    # page X/: Docusaurus without a `trailingSlash` option).
    url_style: str = "plain"
    slug: str = "mintlify"
    page_dir: str = ""
    nav: tuple[str, ...] | None = None
    titles: tuple[tuple[str, str], ...] = ()
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    not_pages: tuple[str, ...] = ()
    # The project's folder (where its config is): includes and imports start there.
    project_root: str = ""
    config: str = ""
    # The files the generator builds, when it says so itself (Sphinx: `exclude_patterns` and
    # its own rules applied); None: decided by the globs above.
    built: tuple[str, ...] | None = None
    # Notebooks are pages (Sphinx: nbsphinx, myst-nb; MkDocs: mkdocs-jupyter, mknotebooks).
    notebooks: bool = False
    # What the profile is unsure of or cannot read, in sentences its owner can act on (a source
    # that must be built first, no base URL, a config no generator here reads): said loudly when
    # the folder is indexed. Not part of what the index stores (`repr=False`: no new index).
    notes: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # Files a built site holds that are no pages, found by reading them (redirects, list pages
    # of links only, other languages' and older versions' copies). Like the navigation, no part
    # of the index's identity: a new redirect is one file less, not a new index.
    skipped: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    # The site's languages, and the one whose pages are read (its default locale unless the
    # settings pick another; None: every locale). A page of another locale is a translation of
    # one read, not a page of its own.
    locales: tuple[Locale, ...] = ()
    locale: str | None = ""

    # -- which reader, which files -------------------------------------------------------------

    @property
    def generator(self) -> str:
        """The generator's name (`mkdocs`, `sphinx`, …; `markdown`: none recognised)."""
        return self.rules.name

    def reader_for(self, rel: str) -> str | None:
        """The name of the reader for this file on this site (tools/sources/readers.py), or None."""
        return self.rules.reader_for(self, rel)

    def is_page(self, rel: str) -> bool:
        """Whether the file is a page of the site (not a partial, snippet, excluded or off-nav file)."""
        if self.page_dir and not rel.startswith(self.page_dir):
            return False
        inner = rel[len(self.page_dir) :]
        if self.include and not glob_match(inner, self.include):
            return False
        if glob_match(inner, self.exclude) or glob_match(inner, self.not_pages):
            return False
        if inner in self.skipped or ERROR_PAGE.match(inner):
            return False
        if self.built is not None and inner not in self._built_set:
            return False
        if self.locales and self.locale is not None and self.locale_of(inner) != self.locale:
            return False
        if self.nav is not None and self.rules.nav_lists_pages:
            return inner in self._nav_set
        return True

    def locale_of(self, inner: str) -> str | None:
        """The key of the locale a page (relative to `page_dir`) belongs to; None: none of them.

        The locale whose folder is the longest one holding the page; the root locale (folder
        "") holds every page outside the others' folders.
        """
        folders = sorted(self.locales, key=lambda loc: len(loc.folder), reverse=True)
        for loc in folders:
            if inner.startswith(loc.folder):
                return loc.key
        return None

    @cached_property
    def _nav_set(self) -> frozenset[str]:
        return frozenset(self.nav or ())

    @cached_property
    def _built_set(self) -> frozenset[str]:
        return frozenset(self.built or ())

    def is_part(self, rel: str) -> bool:
        """A file that is part of pages, not a page (snippet, partial, template): never reported."""
        inner = rel[len(self.page_dir) :] if rel.startswith(self.page_dir) else rel
        if inner in self.skipped or ERROR_PAGE.match(inner):
            return True
        return glob_match(inner, self.not_pages) or glob_match(inner, self.exclude)

    def title_for(self, rel: str) -> str | None:
        """The navigation's title of the page, which the generator shows before the page's own."""
        inner = rel[len(self.page_dir) :]
        return dict(self.titles).get(inner)

    def nav_position(self, rel: str) -> int | None:
        """The page's place in the navigation (0 first), or None when off it or with no nav."""
        if self.nav is None:
            return None
        try:
            return self.nav.index(rel[len(self.page_dir) :])
        except ValueError:
            return None

    # -- addresses -----------------------------------------------------------------------------

    def url_for(self, rel: str, meta: Mapping[str, Any] | None = None) -> str:
        """The page's URL as the generator builds it; without a base URL, the repo-relative path."""
        if not self.base_url:
            return f"{self.path_prefix}{rel}"
        path = rel[len(self.page_dir) :] if rel.startswith(self.page_dir) else rel
        for prefix in self.strip_prefixes:
            if path.startswith(prefix):
                path = path[len(prefix) :]
                break
        base = self.base_url.rstrip("/")
        if self.url_style == "html":
            stem = _strip_suffix(path)
            if self.rules.readme_index and (stem == "README" or stem.endswith("/README")):
                stem = stem[: -len("README")] + "index"
            return f"{base}/{stem}.html"
        path = self.rules.route(path, meta or {})  # a folder's index ends with `/`
        index = path.endswith("/") or not path
        path = path.strip("/")
        if self.url_style == "directory" or (self.url_style == "index-slash" and index):
            return base + "/" + (path + "/" if path else "")
        return base + ("/" + path if path else "")


def _strip_suffix(path: str) -> str:
    """A file's path without its markup extension."""
    lower = path.lower()
    for suffix in (*MARKDOWN_SUFFIXES, *RST_SUFFIXES, *HTML_SUFFIXES, *NOTEBOOK_SUFFIXES):
        if lower.endswith(suffix):
            return path[: -len(suffix)]
    return path


def _page_path(stem: str, readme: bool) -> str:
    """A page's path without extension, an `index` (and for some generators `README`) as its folder."""
    for index in ("index", "README") if readme else ("index",):
        if stem == index:
            return ""
        if stem.endswith("/" + index):
            return stem[: -len(index) - 1]
    return stem
