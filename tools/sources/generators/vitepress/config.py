"""What a `.vitepress/config.*` says, read as text (tools/sources/jsconfig.py), never run.

The options that decide pages, addresses and what a page shows: `srcDir`, `srcExclude`, `base`,
`cleanUrls`, `rewrites`, `locales`, the theme's `sidebar` and `nav`, `sitemap.hostname` (the
site's address, when the config names it), the site `title`, and the container labels of
`markdown.container`. VitePress 2's additional configs (`config.ts` files in the pages' folder,
`defineAdditionalConfig({…})`) add the theme options of the pages below them: the one at the
top of the pages' folder is read too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.sources.jsconfig import NOT_LITERAL, SPREAD, JsConfig

log = logging.getLogger(__name__)

ENV_BASE_URL = "DOCS_AGENT_DOCS_BASE_URL"
# What says the paths a computed `rewrites` gives (`en/x.md` served as `x`: strip `en/`).
ENV_REWRITES = "DOCS_AGENT_DOCS_STRIP_PREFIXES"
# The labels VitePress gives containers and GitHub alerts without a title of their own.
DEFAULT_LABELS = {
    "tip": "TIP",
    "info": "INFO",
    "warning": "WARNING",
    "danger": "DANGER",
    "details": "Details",
    "note": "NOTE",
    "important": "IMPORTANT",
    "caution": "CAUTION",
}
_ADDITIONAL_CONFIGS = ("config.ts", "config.mts", "config.js", "config.mjs")


@dataclass(frozen=True)
class LocaleConfig:
    """One entry of `locales`: its key (`root`, `zh`), label, language, and its own theme options."""

    key: str
    label: str = ""
    lang: str = ""
    link: str = ""
    theme: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class VitePressConfig:
    """The options of one VitePress site that this package reads (defaults: VitePress's)."""

    path: Path
    root: Path  # the VitePress project's folder: the one holding `.vitepress/`
    src_dir: Path
    base: str = "/"
    clean_urls: bool = False
    src_exclude: tuple[str, ...] = ()
    rewrites: tuple[tuple[str, str], ...] = ()
    locales: tuple[LocaleConfig, ...] = ()
    lang: str = "en-US"
    hostname: str = ""
    title: str = ""
    theme: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)


def _text(value: Any) -> str:
    """A literal string value, else ""."""
    return value if isinstance(value, str) else ""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def container_labels(markdown: Any) -> dict[str, str]:
    """The container labels a `markdown` option sets (`container: { tipLabel: '提示' }`)."""
    container = _dict(_dict(markdown).get("container"))
    out: dict[str, str] = {}
    for kind in DEFAULT_LABELS:
        label = container.get(f"{kind}Label")
        if isinstance(label, str) and label:
            out[kind] = label
    return out


def _locales(config: JsConfig, data: dict[str, Any]) -> tuple[LocaleConfig, ...]:
    """The `locales` entries, each with its language, link and theme options."""
    out: list[LocaleConfig] = []
    for key, value in _dict(data.get("locales")).items():
        if key == SPREAD or not isinstance(value, dict):
            continue
        out.append(
            LocaleConfig(
                key,
                _text(value.get("label")),
                _text(value.get("lang")),
                _text(value.get("link")),
                _dict(value.get("themeConfig")),
                container_labels(value.get("markdown")),
            )
        )
    return tuple(out)


def _additional_theme(src_dir: Path) -> dict[str, Any]:
    """The theme options of an additional config at the top of the pages' folder (VitePress 2)."""
    for name in _ADDITIONAL_CONFIGS:
        path = src_dir / name
        if path.is_file():
            try:
                extra = JsConfig.read(path).exported()
            except OSError:
                return {}
            return _dict(extra.get("themeConfig"))
    return {}


def read_vitepress_config(path: Path) -> VitePressConfig:
    """The config file read as text; a computed value is VitePress's default, with a warning."""
    config = JsConfig.read(path)
    data = config.exported()
    root = path.parent.parent if path.parent.name == ".vitepress" else path.parent.parent.parent
    src = config.setting(data, "srcDir", ".", "DOCS_AGENT_DOCS_DIR")
    src_dir = (root / src).resolve()
    base = config.setting(data, "base", "/", ENV_BASE_URL)
    clean = config.setting(data, "cleanUrls", False, "DOCS_AGENT_DOCS_URL_STYLE")
    exclude = config.setting(data, "srcExclude", [], "DOCS_AGENT_DOCS_EXCLUDE")
    rewrites: list[tuple[str, str]] = []
    given = data.get("rewrites")
    if isinstance(given, dict):
        for source, target in given.items():
            if source == SPREAD or not isinstance(target, str):
                config.computed(f"rewrites[{source!r}]", str(target), None, ENV_REWRITES)
                continue
            rewrites.append((source, target))
    elif given is not None:
        config.computed("rewrites", "a function of the page", "no rewrites", ENV_REWRITES)
    markdown = _dict(data.get("markdown"))
    if "anchor" in markdown:
        log.warning(
            "%s: markdown.anchor changes how heading ids are made; VitePress's own rule is used "
            "(set DOCS_AGENT_DOCS_SLUG if the site's differs)",
            path,
        )
    theme = _dict(data.get("themeConfig"))
    for key, value in _additional_theme(src_dir).items():
        theme.setdefault(key, value)
    return VitePressConfig(
        path=path,
        root=root,
        src_dir=src_dir,
        base="/" + base.strip("/") + "/" if base.strip("/") else "/",
        clean_urls=bool(clean),
        src_exclude=tuple(str(g) for g in exclude if isinstance(g, str)),
        rewrites=tuple(rewrites),
        locales=_locales(config, data),
        lang=config.setting(data, "lang", "en-US", "DOCS_AGENT_DOCS_LOCALE"),
        hostname=_text(_dict(data.get("sitemap")).get("hostname")),
        title=_text(data.get("title")),
        theme=theme,
        labels=container_labels(markdown),
    )


def links(items: Any, base: str = "") -> list[str]:
    """Every internal link of a sidebar or nav (in order), each group's `base` put before it.

    A sidebar is a list of items or a mapping of path prefixes to lists (or to `{ base, items }`);
    an item has a `link`, `items`, or both. A link of another site (`https://…`) is no page.
    """
    out: list[str] = []
    if isinstance(items, dict) and "items" not in items and "link" not in items:
        for key, value in items.items():
            if key != SPREAD:
                out += links(value, base)
        return out
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list):
        return out
    for item in items:
        if not isinstance(item, dict):
            continue
        given = item.get("base")
        item_base = given if isinstance(given, str) else base
        link = item.get("link")
        if isinstance(link, str) and link and link is not NOT_LITERAL and "://" not in link:
            out.append(link if link.startswith("/") else item_base + link)
        if "items" in item:
            out += links(item["items"], item_base)
    return out
