"""A built page (a generator's `.html` output) as a `Page` record: its main content only.

Parsed with selectolax (the Lexbor HTML5 parser): it keeps every attribute, so headings keep the
ids the page serves and code blocks their `language-x` / `highlight-x` class, which the article
extractors (trafilatura, readability) drop. The main content is found by the generator's rules
(tools/sources/html/content.py), furniture is removed inside it, and the rest becomes sections
(tools/sources/html/convert.py).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser

from tools.sources.html.content import DEFAULT_RULES, ContentRules, drop_furniture, main_content
from tools.sources.html.convert import SPACE, convert, drop_permalinks
from tools.sources.records import Page, Section, plain_page

log = logging.getLogger(__name__)

__all__ = ["HtmlSite", "parse_html", "read_html_page"]

_SPACE = SPACE


def parse_html(
    path: str, html: str, url: str = "", rules: ContentRules = DEFAULT_RULES, site_name: str = ""
) -> Page:
    """Parse one built page into a `Page`; never raises on malformed input.

    `url` is where the page is served (links are made absolute against it); the page's
    `<link rel="canonical">`, when present, is returned in `meta["canonical"]`. A title taken
    from `<title>` (the page has no heading) loses the site's name (`site_name`: "Docs | kind").
    """
    try:
        return _parse(path, html, url, rules, site_name)
    except Exception as exc:  # noqa: BLE001 — a bad page must still be searchable
        log.warning("could not parse %s (%s); indexing it as plain text", path, exc)
        return plain_page(path, _SPACE.sub(" ", re.sub(r"<[^>]+>", " ", html)).strip())


def _parse(path: str, html: str, url: str, rules: ContentRules, site_name: str) -> Page:
    tree = LexborHTMLParser(html)
    meta: dict[str, object] = {}
    canonical = tree.css_first("link[rel=canonical]")
    if canonical is not None and canonical.attributes.get("href"):
        meta["canonical"] = urljoin(url, canonical.attributes.get("href") or "")
    description = ""
    for selector in ("meta[name=description]", "meta[property='og:description']"):
        node = tree.css_first(selector)
        if node is not None and node.attributes.get("content"):
            description = (node.attributes.get("content") or "").strip()
            break
    head_title = tree.css_first("title")
    root = main_content(tree, rules)
    sections: list[Section] = []
    if root is not None:
        drop_furniture(root, rules)
        drop_permalinks(root)
        sections = convert(root, rules)
    title = next((s.heading for s in sections if s.level == 1), "")
    served = _SPACE.sub(" ", head_title.text(deep=True)).strip() if head_title is not None else ""
    if not title and site_name and served:
        title = strip_site_name(served, site_name)  # the page's own name, not its first subheading
    if not title:
        title = next((s.heading for s in sections if s.level > 0), "")
    if not title and served:
        title = served
    title = title or path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if sections and sections[0].level == 0:
        sections[0].heading = title
    return Page(path, title, description, sections, meta)


# What themes put between a page's title and the site's name in `<title>`.
_TITLE_SEPARATORS = (" | ", " :: ", " – ", " — ", " - ", " · ")


def strip_site_name(title: str, site_name: str) -> str:
    """A `<title>` without the site's name before or after it ("Docs | kind" → "Docs")."""
    if not site_name or title == site_name:
        return title
    for sep in _TITLE_SEPARATORS:
        if title.endswith(sep + site_name):
            return title[: -len(sep + site_name)].strip()
        if title.startswith(site_name + sep):
            return title[len(site_name + sep) :].strip()
    return title


class HtmlSite:
    """A folder of built `.html` pages (a site's output), cited by their canonical URLs.

    Without a canonical link a page's URL is `base_url` + its path in the folder, as served
    (`guide/index.html` stays `guide/index.html`; set `base_url` to the folder's address).
    """

    def __init__(
        self,
        root: Path,
        base_url: str = "",
        rules: ContentRules = DEFAULT_RULES,
        site_name: str = "",
    ) -> None:
        self.root = root
        self.base_url = base_url
        self.rules = rules
        self.site_name = site_name

    def url_for(self, rel_path: str) -> str:
        """The page's address from the folder layout (the canonical link overrides it)."""
        return (self.base_url.rstrip("/") + "/" + rel_path) if self.base_url else rel_path

    def parse(self, rel_path: str, html: str | None = None) -> Page:
        """The page of one file, with `meta["url"]`: its canonical URL, else `url_for`."""
        if html is None:
            html = (self.root / rel_path).read_text(encoding="utf-8", errors="replace")
        page = parse_html(rel_path, html, self.url_for(rel_path), self.rules, self.site_name)
        page.meta["url"] = page.meta.get("canonical") or self.url_for(rel_path)
        return page


def read_html_page(rel: str, text: str, root: Path, base_url: str = "") -> Page:
    """One page of a built site's folder, for callers that read page by page (by name).

    `page.meta["url"]` is the page's canonical URL when it declares one, else `base_url` + `rel`.
    """
    return HtmlSite(root, base_url).parse(rel, text)
