"""The VitePress site profile: pages, addresses, locales and navigation from `.vitepress/config.*`.

Every `.md` file under `srcDir` is a page (VitePress builds them all, on the sidebar or not) but
those `srcExclude` names, `node_modules` and `dist` folders, dynamic route templates
(`[pkg].md`: their pages come from code), the not-found page `404.md`, and fragments other pages
include (`<!--@include: ./part.md-->`). A page is served at `sitemap.hostname` + `base` + its
path after `rewrites`, `.html` ending it unless `cleanUrls`; a folder's `index.md` at the folder.
The root locale is the site's language: the other locales' folders are translations.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from tools.sources.generators.vitepress.config import (
    VitePressConfig,
    links,
    read_vitepress_config,
)
from tools.sources.generators.vitepress.rewrites import Rewrite
from tools.sources.generators.vitepress.rules import PAGE_SUFFIX, VitePressRules
from tools.sources.generators.vitepress.snippets import INCLUDE_RE, include_target
from tools.sources.reading import repository_root
from tools.sources.site import Locale, Site, glob_match

log = logging.getLogger(__name__)

# What VitePress never builds as a page: its not-found page, dynamic route templates
# (`[pkg].md`, their pages come from a paths loader), and its own skipped folders.
_NOT_PAGES = ("./404.md", "*[[]*[]]*.md")
_SKIPPED = ("**/node_modules/**", "**/dist/**")
_WALK_SKIP = {"node_modules", "dist", ".git"}


def _markdown_files(src_dir: Path) -> list[str]:
    """The `.md` files under the pages' folder (dot folders, `node_modules`, `dist` left out)."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(src_dir):
        dirnames[:] = sorted(d for d in dirnames if d not in _WALK_SKIP and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(PAGE_SUFFIX):
                out.append(Path(dirpath, name).relative_to(src_dir).as_posix())
    return out


def _fragments(src_dir: Path, files: list[str]) -> set[str]:
    """The files that pages include (`<!--@include: …-->`): parts of pages, not pages."""
    out: set[str] = set()
    for rel in files:
        try:
            text = (src_dir / rel).read_text("utf-8", errors="replace")
        except OSError:
            continue
        if "@include" not in text:
            continue
        for m in INCLUDE_RE.finditer(text):
            target = include_target(m.group(1), src_dir / rel, src_dir)
            if target is not None and target[0].is_relative_to(src_dir):
                out.add(target[0].relative_to(src_dir).as_posix())
    return out


def _rules(config: VitePressConfig) -> VitePressRules:
    rewrites: list[Rewrite] = []
    for source, target in config.rewrites:
        try:
            rewrites.append(Rewrite.of(source, target))
        except re.error as exc:
            log.warning("%s: rewrite %r could not be read (%s); left out", config.path, source, exc)
    labels = [("", tuple(config.labels.items()))]
    labels += [(loc.key, tuple(loc.labels.items())) for loc in config.locales if loc.labels]
    return VitePressRules(
        rewrites=tuple(rewrites),
        clean_urls=config.clean_urls,
        src_dir=str(config.src_dir),
        files_root=str(repository_root(config.root)),
        labels=tuple(labels),
        site_title=config.title,
    )


def _locales(config: VitePressConfig) -> tuple[Locale, ...]:
    """The site's locales: `root` at the top of the pages, every other one in its key's folder."""
    return tuple(
        Locale(
            loc.key,
            "" if loc.key == "root" else loc.key.strip("/") + "/",
            loc.lang or (config.lang if loc.key == "root" else ""),
            loc.label,
        )
        for loc in config.locales
    )


def _nav(config: VitePressConfig, rules: VitePressRules, pages: list[str]) -> tuple[str, ...]:
    """The home page, then the sidebar's pages, then the nav bar's, each once (source paths)."""
    served = {rules.served_path(p): p for p in pages}
    root = next((loc for loc in config.locales if loc.key == "root"), None)
    theme = dict(config.theme)
    theme.update(root.theme if root is not None else {})
    out: list[str] = []
    for link in ["/", *links(theme.get("sidebar")), *links(theme.get("nav"))]:
        path = link.split("#", 1)[0].split("?", 1)[0]
        if config.base != "/" and path.startswith(config.base):
            path = "/" + path[len(config.base) :]
        path = path.lstrip("/")
        path = path.removesuffix(".html").removesuffix(PAGE_SUFFIX)
        path = (path + "index" if path.endswith("/") or not path else path) + PAGE_SUFFIX
        source = served.get(path)
        if source is not None and source not in out:
            out.append(source)
    return tuple(out)


def vitepress_site(root: Path, config_path: Path | None) -> Site:
    """VitePress: `.md` pages, rewritten paths, clean URLs or `.html`, its own slug rule."""
    if config_path is None:
        rules = VitePressRules(src_dir=str(root), files_root=str(repository_root(root)))
        return Site(rules=rules, url_style="index-slash", slug="vitepress", not_pages=_NOT_PAGES)
    config = read_vitepress_config(config_path)
    root = root.resolve()
    src = config.src_dir
    if src == root or not src.is_relative_to(root):
        page_dir = ""
        if src != root:
            log.warning(
                "%s: its pages are in %s (srcDir), not %s; reading the folder given as that",
                config_path,
                src,
                root,
            )
            src = root
    else:
        page_dir = src.relative_to(root).as_posix() + "/"
    rules = _rules(config)
    exclude = tuple(g if "/" in g else f"./{g}" for g in config.src_exclude) + _SKIPPED
    files = [f for f in _markdown_files(src) if not glob_match(f, exclude)]
    fragments = sorted(_fragments(src, files))
    locales = _locales(config)
    default = next(
        (loc.key for loc in locales if loc.folder == ""), locales[0].key if locales else ""
    )
    hostname = config.hostname.rstrip("/")
    return Site(
        rules=rules,
        base_url=hostname + config.base if hostname else "",
        url_style="index-slash",
        slug="vitepress",
        page_dir=page_dir,
        nav=_nav(config, rules, files) or None,
        exclude=exclude,
        not_pages=_NOT_PAGES + tuple(f"./{f}" for f in fragments),
        locales=locales,
        locale=default,
        project_root=str(config.root),
        config=str(config_path),
    )
