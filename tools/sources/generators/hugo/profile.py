"""The Hugo site profile: a built `public/` folder's pages and address; its source told to build first.

Hugo writes every page as HTML, and beside them pages that are no page of the docs: aliases
(redirects), the 404 page, list pages of sections with no content of their own, taxonomy lists
(`tags/`, `categories/`), their later pages (`page/2/`) and, on a multilingual site, a copy of the
site per other language (`/fr/`), read only when the folder pointed at is that language's. The
address is the config's `baseURL` (the config above a `public/` folder), else the sitemap's.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

from tools.sources.generators.hugo.detect import is_hugo_build
from tools.sources.generators.hugo.reader import HUGO_CONTENT
from tools.sources.generators.hugo.rules import HugoRules
from tools.sources.html.built import (
    BUILT_SITE_NOT_PAGES,
    base_url_from_sitemap,
    build_note,
    head_of,
    html_files,
    is_link_list_page,
    page_lang,
    redirect_target,
    site_name,
    sitemap_urls,
    unbuilt_site,
)
from tools.sources.site import Site
from tools.sources.yaml_config import read_yaml

# What a Hugo project holds besides `content/` (templates, themes, files copied as they are).
SOURCE_NOT_PAGES = (
    "layouts",
    "themes",
    "archetypes",
    "static",
    "assets",
    "data",
    "i18n",
    "resources",
    "public",
)
# Hugo's taxonomies when the config names none.
DEFAULT_TAXONOMIES = ("tags", "categories")
# A language folder of a multilingual site: `fr`, `pt-br`, `zh-hans`.
_LANG_FOLDER = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$", re.I)
_PAGER = re.compile(r"(?:^|/)page/\d+(?:/index\.html|\.html)$")


def hugo_site(root: Path, config: Path | None) -> Site:
    """A built Hugo site (`public/`), or its source (a note saying to build it first)."""
    settings = read_config(config)
    project = _project(config)
    if not _built(root, project):
        output = settings.get("publishdir") or "public"
        where = f"{project / output}" if project is not None else "the built folder (public/)"
        note = build_note("Hugo", config, "run shortcodes and templates", "hugo", where)
        return unbuilt_site("hugo", config, note, SOURCE_NOT_PAGES)
    files = html_files(root)
    heads = {rel: head_of(root / rel, 4096) for rel in files}
    skipped = _not_pages(root, files, heads, settings)
    base_url = str(settings.get("baseurl") or "")
    if not base_url.startswith(("http://", "https://")):
        base_url = base_url_from_sitemap(sitemap_urls(root), files)
    return Site(
        rules=HugoRules(site_name=site_name(h for rel, h in heads.items() if rel not in skipped)),
        base_url=base_url,
        url_style="index-slash",
        slug="github",
        not_pages=BUILT_SITE_NOT_PAGES,
        skipped=frozenset(skipped),
        config=str(config or ""),
    )


def read_config(config: Path | None) -> dict[str, Any]:
    """The Hugo config's top-level settings, keys lower-cased (Hugo's keys are case-insensitive)."""
    if config is None:
        return {}
    try:
        if config.suffix in (".yaml", ".yml"):
            data: Any = read_yaml(config)
        else:
            text = config.read_text("utf-8", errors="replace")
            data = tomllib.loads(text) if config.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError, yaml.YAMLError):
        return {}
    return {str(k).lower(): v for k, v in data.items()} if isinstance(data, dict) else {}


def _project(config: Path | None) -> Path | None:
    """The Hugo project folder of a config (`config/_default/hugo.toml` → the folder of `config/`)."""
    if config is None:
        return None
    folder = config.parent.resolve()
    if folder.name == "_default" and folder.parent.name == "config":
        return folder.parent.parent
    return folder


def _built(root: Path, project: Path | None) -> bool:
    """Whether the folder is Hugo's output: its home page says so, or it holds pages outside the project's source."""
    if is_hugo_build(root):
        return True
    return project is not None and root.resolve() != project and (root / "index.html").is_file()


def _not_pages(
    root: Path, files: list[str], heads: dict[str, str], settings: dict[str, Any]
) -> set[str]:
    """The built files that are no page of the docs (redirects, other languages, lists, pagers)."""
    skipped: set[str] = set()
    skipped |= {rel for rel, head in heads.items() if redirect_target(head) is not None}
    skipped |= {rel for rel in files if _PAGER.search(rel)}
    home_lang = page_lang(heads.get("index.html", ""))
    for folder in _other_languages(root, files, heads, home_lang, settings):
        skipped |= {rel for rel in files if rel.startswith(folder + "/")}
    taxonomies = settings.get("taxonomies")
    names = tuple(taxonomies.values()) if isinstance(taxonomies, dict) else DEFAULT_TAXONOMIES
    for name in names:
        index = f"{name}/index.html" if f"{name}/index.html" in heads else f"{name}.html"
        if index in heads and (isinstance(taxonomies, dict) or _list_page(root / index)):
            skipped |= {rel for rel in files if rel == index or rel.startswith(f"{name}/")}
    for rel in _list_candidates(files):
        if rel not in skipped and _list_page(root / rel):
            skipped.add(rel)
    return skipped


def _other_languages(
    root: Path, files: list[str], heads: dict[str, str], home_lang: str, settings: dict[str, Any]
) -> list[str]:
    """Top folders holding another language's copy of the site (the config's languages, or the pages' `lang`)."""
    languages = settings.get("languages")
    default = str(settings.get("defaultcontentlanguage") or "").lower()
    out: list[str] = []
    for folder in sorted({rel.split("/", 1)[0] for rel in files if "/" in rel}):
        if isinstance(languages, dict) and languages:
            if folder in {str(k).lower() for k in languages} and folder != default:
                out.append(folder)
            continue
        index = heads.get(f"{folder}/index.html")
        if not _LANG_FOLDER.match(folder) or index is None:
            continue
        lang = page_lang(index)
        if redirect_target(index) is not None or (lang and home_lang and lang != home_lang):
            out.append(folder)
    return out


def _list_candidates(files: list[str]) -> list[str]:
    """Pages that may be lists: a folder's index with pages below it, or `X.html` beside a folder `X/`."""
    out: list[str] = []
    for rel in files:
        if rel == "index.html":
            out.append(rel)
            continue
        folder = rel[: -len("/index.html")] if rel.endswith("/index.html") else rel[: -len(".html")]
        if any(other.startswith(folder + "/") and other != rel for other in files):
            out.append(rel)
    return out


def _list_page(path: Path) -> bool:
    try:
        return is_link_list_page(path.read_text("utf-8", errors="replace"), HUGO_CONTENT)
    except OSError:
        return False
