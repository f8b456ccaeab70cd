"""The Starlight site profile: pages, addresses, locales and navigation from `astro.config.*`.

Every Markdown / MDX file of the docs collection (`<srcDir>/content/docs/`) is a page, but files
named with a leading `_` (partials), the not-found page (`404.md`) and drafts (`draft: true`,
left out of a production build). A page is served at `site` + `base` + its slug (front matter
`slug`, else its path github-slugged), ending with `/` when `trailingSlash` is `always`, or
`ignore` with the `directory` build format (the default). The default locale (`defaultLocale`,
else `root`) is the site's language: the other locales' folders are translations, and the
fallback pages Starlight makes for them are no files at all.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from tools.sources.generators.starlight.config import StarlightConfig, read_starlight_config
from tools.sources.generators.starlight.rules import (
    MARKDOC_SUFFIX,
    PAGE_SUFFIXES,
    StarlightRules,
    page_slug,
)
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.reading import repository_root
from tools.sources.site import Locale, Site

log = logging.getLogger(__name__)

CONTENT = ("content", "docs")
# Partials (Starlight's loader takes `**/[^_]*.{md,mdx,…}`) and the not-found page.
_NOT_PAGES = tuple(f"_*{s}" for s in (*PAGE_SUFFIXES, MARKDOC_SUFFIX)) + tuple(
    f"404{s}" for s in (*PAGE_SUFFIXES, MARKDOC_SUFFIX)
)
# How much of a file is read to find its front matter (draft, slug, sidebar order).
_HEAD_BYTES = 8192


def _content_files(content: Path, markdoc: bool) -> dict[str, dict[str, Any]]:
    """Each page file of the collection (relative to it) with its front matter."""
    suffixes = (*PAGE_SUFFIXES, MARKDOC_SUFFIX) if markdoc else PAGE_SUFFIXES
    out: dict[str, dict[str, Any]] = {}
    for dirpath, dirnames, filenames in os.walk(content):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith(("_", ".")) or not name.lower().endswith(suffixes):
                continue
            path = Path(dirpath, name)
            try:
                with path.open("r", encoding="utf-8", errors="replace") as handle:
                    head = handle.read(_HEAD_BYTES)
            except OSError:
                continue
            meta, _ = split_frontmatter(head)
            out[path.relative_to(content).as_posix()] = meta
    return out


def _locales(config: StarlightConfig) -> tuple[tuple[Locale, ...], str]:
    """The site's locales (`root` at the collection's top, others in their key's folder), and the default."""
    locales = tuple(
        Locale(loc.key, "" if loc.key == "root" else loc.key + "/", loc.lang, loc.label)
        for loc in config.locales
    )
    keys = [loc.key for loc in locales]
    default = config.default_locale if config.default_locale in keys else ""
    if not default:
        default = "root" if "root" in keys else (keys[0] if keys else "")
    return locales, default


def _nav(
    sidebar: list[Any], files: dict[str, dict[str, Any]], folder: str, base: str
) -> tuple[str, ...]:
    """The home page, then the sidebar's pages in order (the default locale's files), each once."""
    by_slug: dict[str, str] = {}
    for rel, meta in files.items():
        if rel.startswith(folder):
            by_slug.setdefault(page_slug(rel[len(folder) :], meta), rel)
    out: list[str] = []

    def add(slug: str) -> None:
        rel = by_slug.get(slug.strip("/"))
        if rel is not None and rel not in out:
            out.append(rel)

    def walk(items: Any) -> None:
        for item in items if isinstance(items, list) else []:
            if isinstance(item, str):
                add(item)
            elif isinstance(item, dict):
                if isinstance(item.get("slug"), str):
                    add(item["slug"])
                link = item.get("link")
                if isinstance(link, str) and "://" not in link:
                    add(link.removeprefix(base) if base != "/" else link)
                generated = item.get("autogenerate")
                if isinstance(generated, dict) and isinstance(generated.get("directory"), str):
                    directory = generated["directory"].strip("/") + "/"
                    for slug in sorted(
                        (s for s in by_slug if s.startswith(directory)),
                        key=lambda s: (_order(files[by_slug[s]]), s),
                    ):
                        if not _hidden(files[by_slug[slug]]):
                            add(slug)
                walk(item.get("items"))

    add("")  # the home page first, as a reader meets it
    walk(sidebar)
    return tuple(out)


def _sidebar_meta(meta: dict[str, Any]) -> dict[str, Any]:
    sidebar = meta.get("sidebar")
    return sidebar if isinstance(sidebar, dict) else {}


def _order(meta: dict[str, Any]) -> float:
    order = _sidebar_meta(meta).get("order")
    return float(order) if isinstance(order, int | float) else float("inf")


def _hidden(meta: dict[str, Any]) -> bool:
    return _sidebar_meta(meta).get("hidden") is True


def starlight_site(root: Path, config_path: Path | None) -> Site:
    """Starlight: the docs collection's pages, Astro's slugs and trailing slash, github-slugger ids."""
    if config_path is None:
        return Site(
            rules=StarlightRules(files_root=str(repository_root(root))),
            url_style="directory",
            slug="github",
            not_pages=_NOT_PAGES,
        )
    config = read_starlight_config(config_path)
    project = config_path.parent.resolve()
    content = (project / config.src_dir).joinpath(*CONTENT).resolve()
    root = root.resolve()
    if content == root or not content.is_relative_to(root):
        if content != root:
            log.warning(
                "%s: its pages are in %s, not %s; reading the folder given as that",
                config_path,
                content,
                root,
            )
            content = root
        page_dir = ""
    else:
        page_dir = content.relative_to(root).as_posix() + "/"
    markdoc = "@astrojs/markdoc" in config_path.read_text("utf-8", errors="replace")
    files = _content_files(content, markdoc)
    drafts = tuple(f"./{rel}" for rel, meta in files.items() if meta.get("draft") is True)
    locales, default = _locales(config)
    folder = next((loc.folder for loc in locales if loc.key == default), "")
    site = config.site.rstrip("/")
    base = "/" + config.base.strip("/") if config.base.strip("/") else ""
    directory = config.trailing_slash == "always" or (
        config.trailing_slash == "ignore" and config.build_format == "directory"
    )
    return Site(
        rules=StarlightRules(markdoc=markdoc, files_root=str(repository_root(project))),
        base_url=site + base if site else "",
        url_style="directory" if directory else "plain",
        slug="github",
        page_dir=page_dir,
        nav=_nav(config.sidebar, files, folder, base or "/") or None,
        not_pages=_NOT_PAGES + drafts,
        locales=locales,
        locale=default,
        project_root=str(project),
        config=str(config_path),
    )
