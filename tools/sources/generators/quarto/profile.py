"""The Quarto site profile: a rendered `_site/` folder's pages and address; its project told to render first.

Quarto renders every `.qmd` / `.ipynb` / `.md` of a website project to `.html` under `output-dir`
(`_site/`), with its scripts in `site_libs/` and each page's figures in `<page>_files/`; it adds
redirects for `aliases`, a `404.html`, `search.json` and `sitemap.xml` (with `site-url`). A
listing page that holds only its listing is no page of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tools.sources.generators.quarto.detect import is_quarto_build
from tools.sources.generators.quarto.reader import QUARTO_CONTENT
from tools.sources.generators.quarto.rules import QuartoRules
from tools.sources.html.built import (
    BUILT_SITE_NOT_PAGES,
    base_url_from_sitemap,
    build_note,
    head_of,
    html_files,
    is_link_list_page,
    redirect_target,
    site_name,
    sitemap_urls,
    unbuilt_site,
)
from tools.sources.site import Site
from tools.sources.yaml_config import read_yaml

# Quarto renders no file or folder whose name starts with `_` (includes, `_site`, `_freeze`).
SOURCE_NOT_PAGES = ("_*",)
NOT_PAGES = (*BUILT_SITE_NOT_PAGES, "site_libs", "*_files")


def quarto_site(root: Path, config: Path | None) -> Site:
    """A rendered Quarto website (`_site/`), or its project (a note saying to render it first)."""
    settings = _read(config)
    project = _section(settings, "project")
    website = _section(settings, "website")
    output = str(project.get("output-dir") or "_site")
    folder = config.parent.resolve() if config is not None else root.resolve()
    if not (is_quarto_build(root) or (config is not None and root.resolve() != folder)):
        note = build_note(
            "Quarto",
            config,
            "run their code cells and includes",
            "quarto render",
            f"{folder / output}",
        )
        return unbuilt_site("quarto", config, note, SOURCE_NOT_PAGES)
    files = html_files(root)
    skipped = set()
    heads: dict[str, str] = {}
    for rel in files:
        head = heads[rel] = head_of(root / rel)
        if redirect_target(head) is not None:
            skipped.add(rel)
        elif "quarto-listing" in head and _only_a_listing(root / rel):
            skipped.add(rel)
    base_url = str(website.get("site-url") or "")
    if not base_url.startswith(("http://", "https://")):
        base_url = base_url_from_sitemap(sitemap_urls(root), files)
    return Site(
        rules=QuartoRules(site_name=site_name(h for rel, h in heads.items() if rel not in skipped)),
        base_url=base_url,
        url_style="index-slash",
        slug="github",
        not_pages=NOT_PAGES,
        skipped=frozenset(skipped),
        config=str(config or ""),
    )


def _section(settings: dict[str, Any], name: str) -> dict[str, Any]:
    value = settings.get(name)
    return value if isinstance(value, dict) else {}


def _read(config: Path | None) -> dict[str, Any]:
    if config is None:
        return {}
    try:
        return read_yaml(config)
    except (OSError, yaml.YAMLError):
        return {}


def _only_a_listing(path: Path) -> bool:
    try:
        return is_link_list_page(path.read_text("utf-8", errors="replace"), QUARTO_CONTENT)
    except OSError:
        return False
