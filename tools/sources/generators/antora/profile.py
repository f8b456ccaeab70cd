"""The Antora site profile: a built site's pages (the newest version of each component), address, navigation.

Antora writes `<component>/<version>/<module>/<page>.html` (no segment for the `ROOT` component
or module, nor for a version `~`), redirects for page aliases and the start page, a `404.html`
and `sitemap.xml`. Each version of a component is a full copy of its pages: only the newest is
read (Antora's order: a version that is not a number before numbers, then numbers newest
first), unless the folder pointed at is an older version's. The UI says which component and
version a page belongs to (`data-component` / `data-version` on its navigation, default UI);
where it does not, a page whose canonical link names another page of the site is that page's
older copy. The navigation tree (the UI's `nav`) gives the pages' order.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import yaml
from selectolax.lexbor import LexborHTMLParser

from tools.sources.generators.antora.detect import is_antora_build
from tools.sources.generators.antora.rules import AntoraRules
from tools.sources.html.built import (
    BUILT_SITE_NOT_PAGES,
    base_url_from_sitemap,
    build_note,
    head_of,
    html_files,
    redirect_target,
    site_name,
    sitemap_urls,
    unbuilt_site,
)
from tools.sources.site import ERROR_PAGE, Site
from tools.sources.yaml_config import read_yaml

# Only a module's `pages/` are pages: partials, examples, attachments and `nav.adoc` are parts,
# and Antora skips files and folders whose name starts with `_`.
SOURCE_NOT_PAGES = ("partials", "examples", "attachments", "nav.adoc", "_*")
NOT_PAGES = (*BUILT_SITE_NOT_PAGES, "_")  # `_/` holds the UI's assets
_COMPONENT = re.compile(
    r"""data-component\s*=\s*["']([^"']+)["'][^>]*?data-version\s*=\s*["']([^"']*)["']"""
)
_CANONICAL = re.compile(
    r"""<link\s+rel\s*=\s*["']canonical["']\s+href\s*=\s*["']([^"']+)["']""", re.I
)


def antora_site(root: Path, config: Path | None) -> Site:
    """A built Antora site, or its sources (a note saying to build them first)."""
    if not is_antora_build(root):
        return unbuilt_site("antora", config, _source_note(config), SOURCE_NOT_PAGES)
    files = html_files(root)
    pages = [rel for rel in files if redirect_target(head_of(root / rel, 4096)) is None]
    texts = {rel: _read(root / rel) for rel in pages}
    versions = {rel: v for rel, text in texts.items() if (v := _component_version(text))}
    older = _older_versions(pages, versions) if versions else _copies(texts)
    kept = [rel for rel in pages if rel not in older and not ERROR_PAGE.match(rel)]
    base_url = _site_url(config) or base_url_from_sitemap(sitemap_urls(root), files)
    if not base_url:
        base_url = _from_canonical(texts)
    nav = _nav_order(kept, texts)
    return Site(
        rules=AntoraRules(site_name=site_name(texts[rel][:4096] for rel in kept)),
        base_url=base_url,
        url_style="html",
        slug="github",
        nav=tuple(nav) if nav else None,
        not_pages=NOT_PAGES,
        skipped=frozenset(set(files) - set(kept)),
        config=str(config or ""),
    )


def _source_note(config: Path | None) -> str:
    output = "the playbook's output folder (`output.dir`, default build/site)"
    if config is not None and config.name.startswith("antora-playbook"):
        settings = _yaml(config)
        out = settings.get("output")
        folder = out.get("dir") if isinstance(out, dict) else None
        output = str((config.parent / str(folder or "build/site")).resolve())
    return build_note(
        "Antora",
        config,
        "resolve AsciiDoc attributes and includes",
        "npx antora antora-playbook.yml",
        output,
    )


def _yaml(path: Path) -> dict[str, Any]:
    try:
        return read_yaml(path)
    except (OSError, yaml.YAMLError):
        return {}


def _site_url(config: Path | None) -> str:
    if config is None or not config.name.startswith("antora-playbook"):
        return ""
    site = _yaml(config).get("site")
    url = str(site.get("url") or "") if isinstance(site, dict) else ""
    return url if url.startswith(("http://", "https://")) else ""


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return ""


def _component_version(text: str) -> tuple[str, str] | None:
    m = _COMPONENT.search(text)
    return (m.group(1), m.group(2)) if m else None


def version_order_key(version: str) -> tuple[int, Any]:
    """Antora's order, newest first: names that are no number first (reverse alphabetical), then numbers."""
    semver = version[1:] if re.match(r"^v\d", version) else version
    if re.match(r"^\d", semver) and ("." in semver or semver.isdigit()):
        core, _, pre = semver.partition("-")
        numbers = [int(n) if n.isdigit() else 0 for n in core.split(".")[:3]]
        numbers += [0] * (3 - len(numbers))
        # A prerelease of a version comes after the version itself.
        return (1, tuple(-n for n in numbers) + ((1, pre) if pre else (0, "")))
    return (0, tuple(-ord(c) for c in version))


def _older_versions(pages: list[str], versions: dict[str, tuple[str, str]]) -> set[str]:
    """Pages of a component version that is not its newest."""
    by_component: dict[str, set[str]] = defaultdict(set)
    for component, version in versions.values():
        by_component[component].add(version)
    newest = {c: min(vs, key=version_order_key) for c, vs in by_component.items()}
    return {
        rel
        for rel, (component, version) in versions.items()
        if rel in pages and version != newest[component]
    }


def _copies(texts: dict[str, str]) -> set[str]:
    """Pages whose canonical link names another page of the site (an older version's copy)."""
    canon: dict[str, str] = {}
    for rel, text in texts.items():
        m = _CANONICAL.search(text)
        if m:
            canon[rel] = urlsplit(m.group(1)).path
    out: set[str] = set()
    for rel, path in canon.items():
        if not path.endswith("/" + rel) and any(
            path.endswith("/" + other) for other in texts if other != rel
        ):
            out.add(rel)
    return out


def _from_canonical(texts: dict[str, str]) -> str:
    for rel, text in texts.items():
        m = _CANONICAL.search(text)
        if m and urlsplit(m.group(1)).path.endswith("/" + rel):
            url = m.group(1)
            return url[: len(url) - len(rel)]
    return ""


def _nav_order(pages: list[str], texts: dict[str, str]) -> list[str]:
    """The pages in the order the site's navigation tree lists them, then the others.

    Each component version has its own tree; one page of each is read (they all show it).
    """
    kept = set(pages)
    seen_groups: set[str] = set()
    order: list[str] = []
    for rel in pages:
        group = "/".join(rel.split("/")[:2])
        if group in seen_groups:
            continue
        seen_groups.add(group)
        tree = LexborHTMLParser(texts[rel])
        for nav in tree.css("nav"):
            for link in nav.css("a[href]"):
                href = urlsplit(link.attributes.get("href") or "")
                if href.scheme or href.netloc or not href.path:
                    continue
                target = urlsplit(urljoin("/" + rel, href.path)).path.lstrip("/")
                if target in kept and target not in order:
                    order.append(target)
    if not order:
        return []
    return order + [rel for rel in pages if rel not in set(order)]
