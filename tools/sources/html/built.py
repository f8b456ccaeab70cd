"""What a built site's folder says about itself: its generator, its pages, its address.

A generator's output names the generator (`<meta name="generator" content="Hugo 0.111.3">` on the
home page; Antora's redirect pages), lists its pages and their URLs (`sitemap.xml`), and marks the
files that are no pages: redirects (`<meta http-equiv="refresh">`, written for aliases, moved
pages and a start page), the 404 page, and list pages that only link to other pages. The built-site
generators (tools/sources/generators/{hugo,quarto,antora}) read their folder with these helpers;
nothing here names a generator.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import unescape as html_unescape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser

from tools.sources.html.content import DEFAULT_RULES, ContentRules, drop_furniture, main_content
from tools.sources.site import HTML_SUFFIXES, GeneratorRules, Site

# What a built site's folder holds besides its pages (`Site.not_pages` globs): generators' asset,
# source-copy and highlighted-source folders (Sphinx `_modules` is the viewcode source listing),
# and their search, index and error pages.
BUILT_SITE_NOT_PAGES = (
    "_static",
    "_sources",
    "_images",
    "_downloads",
    "_modules",
    "assets",
    "search",
    "search.html",
    "genindex.html",
    "py-modindex.html",
    "404.html",
)

_META_GENERATOR = re.compile(
    r"""<meta\s+(?=[^>]*\bname\s*=\s*["']?generator\b)[^>]*\bcontent\s*=\s*["']([^"']*)["']""",
    re.I,
)
_REFRESH = re.compile(
    r"""<meta\s+[^>]*http-equiv\s*=\s*["']?refresh["']?[^>]*content\s*=\s*["']\s*\d+\s*;?\s*(?:url\s*=\s*)?([^"']*)["']""",
    re.I,
)
_LANG = re.compile(r"""<html\b[^>]*\blang\s*=\s*["']?([\w-]+)""", re.I)
_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>", re.I)
# Enough of a page to hold its `<head>` (generator, refresh, lang) on every theme met.
HEAD_BYTES = 16384


def head_of(path: Path, size: int = HEAD_BYTES) -> str:
    """The first bytes of a file as text ('' when it cannot be read)."""
    try:
        with path.open("rb") as handle:
            return handle.read(size).decode("utf-8", errors="replace")
    except OSError:
        return ""


def meta_generator(html: str) -> str:
    """The page's `<meta name="generator">` content ('' when it has none)."""
    m = _META_GENERATOR.search(html)
    return m.group(1).strip() if m else ""


def redirect_target(html: str) -> str | None:
    """Where a redirect page sends the reader (`<meta http-equiv="refresh">`), None: no redirect."""
    m = _REFRESH.search(html)
    return m.group(1).strip() if m else None


def page_lang(html: str) -> str:
    """The `<html lang>` of a page, lower case ('' when it says none)."""
    m = _LANG.search(html)
    return m.group(1).lower() if m else ""


def home_pages(root: Path) -> list[tuple[Path, str]]:
    """The folder's home page and where its redirect leads (a start page), with their heads.

    A generator names itself on its home page; a site whose home is a redirect (Antora's start
    page, Hugo's default language in a subfolder) names itself on the page the redirect opens,
    and on its 404 page.
    """
    out: list[tuple[Path, str]] = []
    home = root / "index.html"
    if home.is_file():
        head = head_of(home)
        out.append((home, head))
        target = redirect_target(head)
        if target and not urlsplit(target).scheme and not target.startswith("/"):
            page = (root / urlsplit(target).path).resolve()
            if page.is_dir():
                page = page / "index.html"
            if page.is_file() and page.is_relative_to(root.resolve()):
                out.append((page, head_of(page)))
    for name in ("404.html",):
        if (root / name).is_file():
            out.append((root / name, head_of(root / name)))
    return out


def site_generator(root: Path) -> str:
    """The generator the folder's home (or start, or 404) page names ('' when none does)."""
    for _, head in home_pages(root):
        name = meta_generator(head)
        if name:
            return name
    return ""


def html_files(root: Path) -> list[str]:
    """Every `.html` file under the folder, relative to it, outside dot folders, sorted."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "node_modules")
        for name in filenames:
            if name.lower().endswith(HTML_SUFFIXES) and not name.startswith("."):
                out.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
    return sorted(out)


def sitemap_urls(root: Path) -> list[str]:
    """The page URLs the folder's `sitemap.xml` lists (a sitemap index's local sitemaps followed)."""
    out: list[str] = []
    seen: set[Path] = set()
    todo = [root / "sitemap.xml"]
    while todo:
        path = todo.pop(0)
        if path in seen or not path.is_file() or len(seen) > 100:
            continue
        seen.add(path)
        for loc in _LOC.findall(head_of(path, 8 * 1024 * 1024)):
            name = urlsplit(loc).path.rsplit("/", 1)[-1]
            if name.endswith(".xml"):
                todo.append(root / name)  # a sitemap index names its sitemaps beside it
            else:
                out.append(loc)
    return out


def base_url_from_sitemap(urls: Iterable[str], files: Iterable[str]) -> str:
    """The site's address: the part of a sitemap URL before the file's own path (`https://x.dev/docs/`).

    A URL ending in `/` is served by `<path>index.html`, one ending in `.html` by that file; the
    first URL whose path ends with a file's served path gives the address every page shares.
    """
    served: set[str] = set()
    for rel in files:
        served.add(rel)
        if rel == "index.html" or rel.endswith("/index.html"):
            served.add(rel[: -len("index.html")])
    urls = list(urls)
    longest_first = sorted((rel for rel in served if rel), key=len, reverse=True)
    for url in urls:
        path = urlsplit(url).path
        for rel in longest_first:
            if path.endswith("/" + rel):
                return urljoin(url, path[: len(path) - len(rel)])
    homes = [url for url in urls if urlsplit(url).path.endswith("/")]
    return min(homes, key=len) if homes else ""  # only the home page is listed


_LINK_ONLY_TAGS = "ul, ol, dl, table"


def is_link_list_page(html: str, rules: ContentRules = DEFAULT_RULES) -> bool:
    """Whether the page's main content is only its title and links to other pages (a list page).

    A section, taxonomy or listing page a generator makes from no content of its own: its words
    are other pages' titles (and summaries kept on those pages), so citing it answers nothing.
    """
    tree = LexborHTMLParser(html)
    root = main_content(tree, rules)
    if root is None:
        return True
    drop_furniture(root, rules)
    for block in root.css(_LINK_ONLY_TAGS):
        words = _words(block.text(deep=True))
        linked = sum(_words(a.text(deep=True)) for a in block.css("a"))
        if words and linked >= words:
            block.decompose()
    for heading in root.css("h1, h2, h3, h4, h5, h6"):
        heading.decompose()
    return _words(root.text(deep=True)) == 0


def _words(text: str) -> int:
    return len(text.split())


@dataclass(frozen=True)
class UnbuiltRules(GeneratorRules):
    """The source of a site whose pages are made at build time: no reader takes its files.

    Its pages run templates or code when the site is built (Hugo shortcodes, Quarto cells,
    AsciiDoc attributes and includes); read as they are written, they would answer with markup
    and miss what the build puts in. The site's `notes` say how to build it and where to point.
    """

    def reader_for(self, site: Site, rel: str) -> str | None:
        """No file of an unbuilt source is read."""
        return None


def unbuilt_site(
    name: str, config: Path | None, note: str, not_pages: tuple[str, ...] = ()
) -> Site:
    """The profile of a built-site generator's source folder: no pages, and the note saying why.

    `not_pages`: what the generator never builds into a page (templates, partials, `_` files),
    left out of the count of the source's pages.
    """
    return Site(
        rules=UnbuiltRules(name=name),
        config=str(config or ""),
        notes=(note,),
        not_pages=not_pages,
    )


def build_note(label: str, config: Path | None, what: str, command: str, output: str) -> str:
    """The loud sentence for a generator's source: what it runs at build time, how to build, where to point."""
    found = f" ({config.name})" if config is not None else ""
    return (
        f"this is {'an' if label[:1] in 'AEIOU' else 'a'} {label} source{found}: its pages {what} when the site is built, so docs-agent "
        f"reads the built site: run `{command}`, then set DOCS_AGENT_DOCS_DIR to {output}"
    )


def redirects(root: Path, files: Iterable[str]) -> set[str]:
    """The files that only send the reader elsewhere (aliases, moved pages, a start page)."""
    return {rel for rel in files if redirect_target(head_of(root / rel, 4096)) is not None}


def served_path(path: str) -> str:
    """The path a static host serves a built file at: `X/index.html` → `X/`, `X.html` as it is."""
    if path == "index.html":
        return ""
    if path.endswith("/index.html"):
        return path[: -len("index.html")]
    return path


_TITLE = re.compile(r"<title[^>]*>([^<]*)</title>", re.I)


def site_name(heads: Iterable[str]) -> str:
    """The site's name as its pages' `<title>`s carry it ("Quick Start | kind" → "kind").

    The part after (or before) a separator that most pages share, when at least half share it.
    """
    counts: dict[str, int] = {}
    total = 0
    for head in heads:
        m = _TITLE.search(head)
        if not m:
            continue
        title = " ".join(html_unescape(m.group(1)).split())
        total += 1
        seen: set[str] = set()
        for sep in (" | ", " :: ", " – ", " — ", " - ", " · "):
            if sep in title:
                seen.add(title.rsplit(sep, 1)[1])
                seen.add(title.split(sep, 1)[0])
        for name in seen:
            counts[name] = counts.get(name, 0) + 1
    if not counts or total < 2:
        return ""
    name, n = max(counts.items(), key=lambda item: (item[1], len(item[0])))
    return name if n * 2 >= total else ""
