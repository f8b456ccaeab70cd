"""Reader of Starlight pages: the page title as the `_top` heading, asides and components rewritten.

Starlight draws the front matter's `title` (a splash page's `hero.title`) as the page's `<h1
id="_top">`, then the hero's tagline and actions; the Markdown follows. MDX imports of Markdown
files are inlined (each compiled apart, so its headings' ids are its own), and what the page
names for its `<Code>` components is read before the components are rewritten (components.py).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tools.sources.generators.starlight.components import (
    aside_labels,
    code_sources,
    join_multiline_tags,
    rewrite_asides,
    rewrite_components,
    rewrite_markdoc,
)
from tools.sources.generators.starlight.rules import MARKDOC_SUFFIX, StarlightRules
from tools.sources.hidden.strip import strip_hidden
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.markdown.mdx import ImportLoader, inline_imports
from tools.sources.markdown.parse import parse_markdown
from tools.sources.reading import may_include, note_read
from tools.sources.records import Page
from tools.sources.site import Site

log = logging.getLogger(__name__)


def page_lang(site: Site, rel: str) -> str:
    """The language of the page's locale (its folder's), "" when the site names none."""
    inner = rel[len(site.page_dir) :] if rel.startswith(site.page_dir) else rel
    key = site.locale_of(inner)
    return next((loc.lang or loc.key for loc in site.locales if loc.key == key), "")


def _loader(page: Path, project: Path, confine: Path) -> ImportLoader:
    """How the page's MDX imports of Markdown files are read (inside the repository only)."""

    def load(spec: str) -> str | None:
        if spec.startswith("~/"):
            path = project / "src" / spec[2:]
        elif spec.startswith("/"):
            path = project / spec.lstrip("/")
        else:
            path = page.parent / spec
        try:
            real = path.resolve()
        except OSError:
            return None
        if not may_include(real, confine):
            return None
        note_read(real)
        if not real.is_file():
            return None
        return strip_hidden(real.read_text("utf-8", errors="replace"))

    return load


def _hero(meta: Mapping[str, Any]) -> tuple[str, str]:
    """A splash page's hero: its title ("" for none) and its tagline and actions as Markdown."""
    hero = meta.get("hero")
    if not isinstance(hero, Mapping):
        return "", ""
    title = hero.get("title") if isinstance(hero.get("title"), str) else ""
    lines = [hero["tagline"]] if isinstance(hero.get("tagline"), str) else []
    actions = hero.get("actions") if isinstance(hero.get("actions"), list) else []
    links = [
        f"[{a['text']}]({a['link']})" if isinstance(a.get("link"), str) else str(a["text"])
        for a in actions or []
        if isinstance(a, Mapping) and isinstance(a.get("text"), str)
    ]
    if links:
        lines.append(" · ".join(links))
    return str(title), "\n\n".join(lines)


def read_starlight(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A Starlight page as the site shows it (see the module docstring); never raises."""
    rules = site.rules if isinstance(site.rules, StarlightRules) else StarlightRules()
    page = (root / rel).resolve()
    project = Path(site.project_root or root).resolve()
    confine = Path(rules.files_root or project).resolve()
    labels = aside_labels(page_lang(site, rel))
    text = text.replace("\r\n", "\n")
    meta, body = split_frontmatter(text)
    head = text[: len(text) - len(body)]
    try:
        if "import " in body:
            body = inline_imports(body, _loader(page, project, confine), mark=True)
        names = code_sources(body, page, project, confine)
        body = rewrite_components(rewrite_asides(body, labels), labels, names)
        body = join_multiline_tags(body)
        if rel.lower().endswith(MARKDOC_SUFFIX):
            body = rewrite_markdoc(body, labels)
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not read the Starlight syntax of %s (%s); read as Markdown", rel, exc)
    hero_title, hero_text = _hero(meta)
    title = str(meta.get("title") or "").strip() or rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    top = " ".join((hero_title or title).split())
    body = f"# {top} {{#_top}}\n\n{hero_text}\n\n{body}"
    return parse_markdown(rel, head + body, language, site.slug)
