"""One reader per markup, by name: the single place where a file's raw text enters a reader.

A reader is a module-level function `(rel, text, site, root, language) -> Page` (module-level so
worker processes that parse pages can be sent it by name). The site's generator rules pick the
reader for each file (`Site.reader_for`). Markdown and notebooks are read here, for every
generator; a generator's own readers come with its package (`Generator.readers`, listed by
tools/sources/registry.py).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from tools.sources.generator import ReaderFn
from tools.sources.generators.mkdocs.extensions import rewrite_admonitions
from tools.sources.hidden.invisible import strip_invisible
from tools.sources.hidden.strip import strip_hidden
from tools.sources.markdown.parse import parse_markdown, without_slug_marks
from tools.sources.reading import may_include, note_read, recording_reads
from tools.sources.records import Page, plain_page
from tools.sources.registry import generator_readers
from tools.sources.site import HTML_SUFFIXES, Site

log = logging.getLogger(__name__)


def read_markdown(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """Markdown / MDX (CommonMark + GFM, Mintlify and Docusaurus components, MDX imports)."""
    text = rewrite_admonitions(text)  # `!!! note` blocks also turn up outside MkDocs
    return parse_markdown(
        rel,
        text,
        language,
        site.slug,
        lambda spec: _cleaned(load_import(spec, rel, root, site.project_root), site),
        separate_parts=site.rules.separate_parts,
    )


def _cleaned(text: str | None, site: Site) -> str | None:
    """An imported file's text cleaned as a page's is: it becomes part of the page."""
    return None if text is None else strip_hidden(site.rules.loaded(text))


def load_import(spec: str, rel: str, root: Path, site_dir: str = "") -> str | None:
    """The text of a file an MDX page imports, found inside the docs folder only.

    A relative name (`./_part.mdx`) is looked up beside the page; an absolute one
    (`/snippets/x.mdx`, from the site's root) in each folder from the page's up to the docs
    folder, since the docs folder given may sit below or above the site's own root. Docusaurus'
    `@site/x.md` names a file of the site's folder (`site_dir`, where its config is), and may
    be read from anywhere inside it.
    """
    page_dir = (root / rel).parent
    confine = root.resolve()
    if spec.startswith("@site/"):
        if not site_dir:
            return None
        confine = Path(site_dir).resolve()
        candidates = [confine / spec.removeprefix("@site/")]
    elif spec.startswith("."):
        candidates = [page_dir / spec]
    else:
        name = spec.lstrip("/")
        folders = [page_dir, *page_dir.parents]
        candidates = [f / name for f in folders if f == root or f.is_relative_to(root)]
    for path in candidates:
        try:
            real = path.resolve()
            if not may_include(real, confine):
                continue
            note_read(real)  # found or not: a file that appears there later is read then
            if real.is_file():
                return real.read_text("utf-8", errors="replace")
        except OSError:
            continue
    return None


def read_notebook(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A Jupyter notebook, as its site shows it: its Markdown, read by the site's Markdown reader.

    Sphinx (nbsphinx, myst-nb) reads the cells as MyST; MkDocs (mkdocs-jupyter) renders them
    with nbconvert, whose heading ids keep the heading's text (`jupyter` slug rule). The
    notebook's JSON is cleaned of invisible characters only (`clean_text`); its Markdown is
    cleaned here, as any Markdown page's is, before the reader sees it.
    """
    from tools.sources.notebook import notebook_markdown

    notebook = notebook_markdown(text)
    inner = site.rules.notebook_reader
    markdown = clean_text(inner, notebook.text)
    reader = reader_named(inner) if inner != "markdown" else None
    if reader is not None:  # the generator's own reader (Sphinx: MyST)
        page = reader(rel, markdown, site, root, notebook.language)
    else:
        slug = site.rules.notebook_slug or site.slug
        page = parse_markdown(rel, markdown, notebook.language, slug, lambda _spec: None)
    if notebook.problem:
        page.meta.setdefault("warnings", []).append(notebook.problem)
    return page


# The readers of what every generator may have: Markdown and notebooks. Each generator's own
# come with its package (`Generator.readers`, asked through the registry: `reader_named`).
READERS: dict[str, ReaderFn] = {
    "markdown": read_markdown,
    "notebook": read_notebook,
}


def reader_named(name: str) -> ReaderFn | None:
    """The reader of that name: a shared one, else the one a registered generator brings."""
    return READERS.get(name) or generator_readers().get(name)


def has_reader(name: str | None) -> bool:
    """Whether a reader of that name is installed."""
    return name is not None and reader_named(name) is not None


def decode(raw: bytes) -> str:
    """A file's bytes as text: UTF-8 (with or without BOM), bad bytes replaced, never an error."""
    return raw.decode("utf-8-sig", errors="replace")


def clean_text(reader: str, text: str, html: bool = False) -> str:
    """Hidden text dropped before any reader sees it (tools/sources/hidden/).

    Markdown-based formats get the whole cleaning (hidden HTML, comments, unreadable front matter,
    invisible characters); built HTML its invisible characters here, its hidden elements and
    comments in the DOM its reader builds; reStructuredText, whose comments and raw blocks
    docutils itself keeps out of the text, only the invisible characters.
    """
    # MyST: hidden text is dropped once its footnotes are read; a notebook's Markdown is
    # cleaned by `read_notebook`.
    if reader in ("rst", "myst", "notebook"):
        return strip_invisible(text)
    if html or reader == "html":
        # A built page is parsed into a DOM, where its hidden elements are dropped by the same
        # rule (`hidden.elements.is_hidden`, tools/sources/html/content.py): a second, textual
        # pass over every tag of the page (a highlighted code block is thousands) costs 5x the
        # page's whole reading.
        return strip_invisible(text)
    return strip_hidden(text)


def read_page(rel: str, raw: bytes, site: Site, root: Path, language: str) -> Page:
    """The page of one file, read by the reader its site profile names for it.

    Every file's raw text enters the readers here, once: text-level cleaning that applies to
    every format belongs on the `text = decode(raw)` line. The other files the reader read
    (includes, snippets, imports) are listed in `page.meta["reads"]`, resolved.
    """
    name = site.reader_for(rel)
    reader = reader_named(name or "") or read_markdown
    text = decode(raw)
    if reader is read_markdown:
        text = site.rules.loaded(text)  # what the generator's loader does before MDX reads it
    # A built page is HTML whichever generator's reader takes it (html, hugo, quarto, antora…);
    # a reader that reads raw text drops hidden text itself (`GeneratorRules.reads_raw`).
    if not site.rules.reads_raw:
        text = clean_text(name or "markdown", text, html=rel.lower().endswith(HTML_SUFFIXES))
    rel = rel.replace(os.sep, "/")
    with recording_reads() as reads:
        try:
            page = reader(rel, text, site, root, language)
        except Exception as exc:  # noqa: BLE001 — one page a reader fails on must cost no other
            # Every reader promises never to raise; this is the one place that holds if one
            # breaks that promise on a page nobody foresaw: the page is indexed as its text,
            # hidden text dropped whatever the format (nothing a reader would have dropped may
            # reach the index through its failure).
            log.warning(
                "could not read %s (%s: %s); indexing it as plain text",
                rel,
                type(exc).__name__,
                exc,
            )
            shown = without_slug_marks(strip_hidden(text)).strip()
            page = plain_page(rel, shown, f"{type(exc).__name__}: {exc}")
    if reads:
        page.meta["reads"] = sorted(set(reads))
    return page
