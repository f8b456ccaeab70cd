"""The GitBook site profile: `.gitbook.yaml` (or `book.json`) and `SUMMARY.md` read into the space's pages.

The pages are the readme (`structure.readme`, the space's root page) and the files SUMMARY.md
links; nothing else is published (not SUMMARY.md itself, not a file no entry links, not the
reusable blocks of `.gitbook/includes`). A GitBook 3 book with `LANGS.md` is read in its
default language (the first listed); the other languages' folders are no pages of it. The docs
folder may be the repository (`.gitbook.yaml` in it, pages below its `root`) or that root.
"""

from __future__ import annotations

import logging
from pathlib import Path

from tools.sources.generators.gitbook.config import SpaceConfig, read_space_config
from tools.sources.generators.gitbook.rules import GitBookRules
from tools.sources.generators.gitbook.summary import parse_langs, parse_summary
from tools.sources.site import MARKDOWN_SUFFIXES, Site

log = logging.getLogger(__name__)


def _inner(path: Path, base: Path) -> str | None:
    """A file's path below `base` (how the site's pages are named), None when outside it."""
    return path.relative_to(base).as_posix() if path.is_relative_to(base) else None


def _language_folder(space: Path, config: SpaceConfig) -> tuple[Path, list[str]]:
    """(the folder of the book's default language, the other languages' folders below `space`)."""
    langs_file = space / config.langs
    if not langs_file.is_file():
        return space, []
    langs = parse_langs(langs_file.read_text("utf-8", errors="replace"))
    if not langs:
        return space, []
    others = [folder for folder, _ in langs[1:]]
    log.info(
        "%s: a book in %d languages; its default language's pages (%s/) are read, not %s",
        space,
        len(langs),
        langs[0][0],
        ", ".join(f"{f}/" for f in others),
    )
    return (space / langs[0][0]).resolve(), others


def gitbook_site(root: Path, config_path: Path | None) -> Site:
    """GitBook: the readme at the space's root, SUMMARY's pages at their paths without `.md`."""
    root = root.resolve()
    if config_path is None:
        config, config_dir = SpaceConfig(), root
        log.warning(
            "%s: no .gitbook.yaml; read as a GitBook space with Git Sync's defaults (README.md at "
            "the root, SUMMARY.md the pages, addresses without .md); a GitBook 3 book built with "
            "gitbook-cli serves .html pages: set DOCS_AGENT_DOCS_URL_STYLE=html",
            root,
        )
    else:
        config, config_dir = read_space_config(config_path), config_path.parent.resolve()
    space = (config_dir / config.root).resolve()
    book, other_languages = _language_folder(space, config)
    base = space if space.is_relative_to(root) else root
    page_dir = ""
    if space != root and space.is_relative_to(root):
        page_dir = space.relative_to(root).as_posix() + "/"
    summary = book / config.summary
    readme = (book / config.readme).resolve()
    readme_inner = _inner(readme, base) if readme.is_file() else None
    if readme_inner is None:
        log.warning(
            "%s: the space's readme %s is not there; no page is served at the space's root",
            config_path or root,
            config.readme,
        )
    nav: list[str] = [readme_inner] if readme_inner else []
    titles: list[tuple[str, str]] = []
    if summary.is_file():
        for entry in parse_summary(summary.read_text("utf-8", errors="replace")):
            full = (summary.parent / entry.path).resolve()
            inner = _inner(full, base)
            if inner is None or not full.is_file() or not inner.lower().endswith(MARKDOWN_SUFFIXES):
                continue
            titles.append((inner, entry.title))
            if inner not in nav:
                nav.append(inner)
    not_pages = [".gitbook/**", "**/.gitbook/**", f"./{config.langs}", "./GLOSSARY.md"]
    not_pages += [f"./{folder}/**" for folder in other_languages]
    summary_inner = _inner(summary.resolve(), base)
    if summary_inner:
        not_pages.append("./" + summary_inner)
    return Site(
        rules=GitBookRules(
            readme=readme_inner or "",
            titles=tuple(titles),
            space_root=str(space),
            legacy=config.legacy,
            variables=config.variables,
            redirects=config.redirects,
        ),
        url_style="html" if config.legacy else "index-slash",
        slug="github" if config.legacy else "gitbook",
        page_dir=page_dir,
        nav=tuple(nav) if summary.is_file() else None,
        not_pages=tuple(not_pages),
        project_root=str(config_dir),
        config=str(config_path or ""),
    )
