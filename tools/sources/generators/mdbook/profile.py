"""The mdBook site profile: `book.toml` and `SUMMARY.md` read into the book's pages and addresses.

The pages are the chapters SUMMARY.md links (drafts have no file, and nothing else is built:
not SUMMARY.md, not the 404 page, not a file only included); each is served at its path with
`.html` (README.md as index.html) under `site-url`. The docs folder may be the book's folder
(book.toml in it: chapters below `src/`) or its `src` folder (book.toml above it).
"""

from __future__ import annotations

import logging
from pathlib import Path

from tools.sources.generators.mdbook.config import BookConfig, read_book_config
from tools.sources.generators.mdbook.rules import MdBookRules
from tools.sources.generators.mdbook.summary import parse_summary
from tools.sources.reading import repository_root
from tools.sources.site import Site

log = logging.getLogger(__name__)


def _chapters(src: Path, base: Path) -> tuple[list[tuple[str, str]], bool]:
    """(each chapter's path below `base` and its name, in order; whether SUMMARY.md was read)."""
    summary = src / "SUMMARY.md"
    if not summary.is_file():
        return [], False
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for chapter in parse_summary(summary.read_text("utf-8", errors="replace")):
        if chapter.path is None:
            continue  # a draft: listed, never built
        full = (src / chapter.path).resolve()
        if not full.is_file() or not full.is_relative_to(base):
            continue
        inner = full.relative_to(base).as_posix()
        if inner not in seen:
            seen.add(inner)
            out.append((inner, chapter.name))
    return out, True


def mdbook_site(root: Path, config_path: Path | None) -> Site:
    """mdBook: the SUMMARY's chapters as pages, `.html` URLs under `site-url`, mdBook's ids."""
    config = read_book_config(config_path) if config_path else BookConfig()
    book_dir = (config_path.parent if config_path else root).resolve()
    root = root.resolve()
    src = (book_dir / config.src).resolve()
    page_dir = ""
    if src != root and src.is_relative_to(root):
        page_dir = src.relative_to(root).as_posix() + "/"
    # Paths of pages are relative to `src` when the docs folder holds it, else to the folder.
    base = src if src.is_relative_to(root) else root
    if not (src.is_relative_to(root) or root.is_relative_to(src)):
        log.warning(
            "%s is not the mdBook book %s nor its src folder %s: its chapters are elsewhere",
            root,
            book_dir,
            src,
        )
    chapters, has_summary = _chapters(src, base)
    if not has_summary:
        log.warning(
            "%s has no SUMMARY.md, so mdBook cannot build it: every Markdown file is read as a page",
            src,
        )
    if config.unread_preprocessors:
        log.warning(
            "%s runs preprocessors an index cannot run (%s): their syntax is read as Markdown",
            config_path,
            ", ".join(config.unread_preprocessors),
        )
    return Site(
        rules=MdBookRules(
            chapters=tuple(chapters),
            files_root=str(repository_root(book_dir)),
            language=config.language,
            smart_punctuation=config.smart_punctuation,
            definition_lists=config.definition_lists,
            admonitions=config.admonitions,
            hidelines=config.hidelines,
            redirects=config.redirects,
        ),
        base_url=config.site_url,
        url_style="html",
        slug="mdbook",
        page_dir=page_dir,
        nav=tuple(path for path, _ in chapters) if has_summary else None,
        # Never pages, even with the navigation switched off: the table of contents and the
        # not-found page (mdBook writes it as 404.html, outside the book's chapters).
        not_pages=("./SUMMARY.md", "./" + config.input_404.lstrip("/")),
        project_root=str(book_dir),
        config=str(config_path or ""),
    )
