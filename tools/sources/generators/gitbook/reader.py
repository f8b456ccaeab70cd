r"""Reader of GitBook pages: its blocks read as shown, its anchors, its title, its exports' escapes.

A page is read as GitBook shows it: blocks and includes (blocks.py), a heading's exported
custom anchor (`## Setup <a href="#setup" id="setup"></a>`) as its id, GitBook 3's
`{{ book.x }}` variables, Markdown's escaped parentheses of GitBook's exports (`when\(\)`) as
text, then the shared Markdown reader. The first H1 is the page's title, no anchor of it. An
anchor GitBook's documentation does not settle (anchors.py) is said once in the log, with an
example, so that a team knows which citations may open a page's top instead of its section.
"""

from __future__ import annotations

import logging
import posixpath
import re
from collections.abc import Callable
from pathlib import Path

from tools.sources.generators.gitbook.anchors import gitbook_anchor, settled
from tools.sources.generators.gitbook.blocks import PageLinks, read_blocks
from tools.sources.generators.gitbook.rules import GitBookRules
from tools.sources.hidden.strip import strip_hidden
from tools.sources.markdown.frontmatter import split_frontmatter
from tools.sources.markdown.inline import outside_code
from tools.sources.markdown.parse import parse_markdown
from tools.sources.reading import may_include, note_read
from tools.sources.records import Page
from tools.sources.site import Site

log = logging.getLogger(__name__)

MAX_INCLUDE_BYTES = 1 << 20
# `## Title <a href="#x" id="x"></a>`: the anchor GitBook exports with a heading.
_HEADING_ANCHOR_RE = re.compile(
    r"^(#{1,6}[ \t]+.*?)[ \t]*<a\b[^<>]*?\b(?:id|name)=[\"']([^\"']+)[\"'][^<>]*>[ \t]*</a>[ \t]*$",
    re.M,
)
_EXPLICIT_RE = re.compile(r"\{#([^}\s]+)\}[ \t]*$", re.M)
_VARIABLE_RE = re.compile(r"\{\{\s*book\.([\w.-]+)\s*\}\}")
_ESCAPED_PAREN_RE = re.compile(r"\\([()])")
_FENCE_SPLIT_RE = re.compile(r"(^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\2[ \t]*$)", re.M | re.S)
# Spaces whose unsettled anchors were said (once per process each).
_SAID: set[str] = set()


def _rules(site: Site) -> GitBookRules:
    return site.rules if isinstance(site.rules, GitBookRules) else GitBookRules()


def _page_link(site: Site, rel: str, url: str) -> tuple[str | None, str]:
    """(the title of the page a content-ref names, its address)."""
    target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), url.split("#", 1)[0]))
    if not target.lower().endswith(".md"):
        target = posixpath.join(target, "README.md")
    inner = target[len(site.page_dir) :] if target.startswith(site.page_dir) else target
    return _rules(site).title_of(inner), site.url_for(target)


def _include(site: Site, root: Path, rel: str, target: str) -> str | None:
    """A reusable block's text (front matter gone), read inside the space only."""
    space = Path(_rules(site).space_root or root).resolve()
    allowed = (space / ".gitbook" / "includes", space / ".gitbook")
    try:
        real = ((root / rel).parent / target).resolve()
        if not may_include(real, space, allowed):
            return None
        note_read(real)
        if not real.is_file() or real.stat().st_size > MAX_INCLUDE_BYTES:
            return None
        text = real.read_text("utf-8", errors="replace")
    except (OSError, ValueError):
        return None
    return strip_hidden(split_frontmatter(text)[1])


def _in_prose(body: str, rewrite: Callable[[str], str]) -> str:
    """`rewrite` applied to the page's prose, its fenced code blocks left as written."""
    parts = _FENCE_SPLIT_RE.split(body)
    out: list[str] = []
    for i in range(0, len(parts), 3):
        out.append(rewrite(parts[i]))
        if i + 1 < len(parts):
            out.append(parts[i + 1])  # a fenced block, whole
    return "".join(out)


def _unescaped(prose: str) -> str:
    r"""GitBook's exports escape parentheses (`when\(\)`): read as the characters, code aside."""
    return outside_code(prose, lambda part: _ESCAPED_PAREN_RE.sub(r"\1", part))


def _say_unsettled(site: Site, rel: str, unsettled: list[tuple[str, str]]) -> None:
    key = _rules(site).space_root or site.config
    if key in _SAID:
        return
    _SAID.add(key)
    heading, anchor = unsettled[0]
    log.warning(
        "%s: GitBook does not document the anchors of headings with punctuation, a leading digit, "
        "letters outside ASCII or a repeat; those are read with GitHub's rule (%s#%s for %r): "
        "a citation of one may open the page's top, not its section",
        key,
        rel,
        anchor,
        heading,
    )


def read_gitbook(rel: str, text: str, site: Site, root: Path, language: str) -> Page:
    """A GitBook page as a `Page` (never raises on malformed input: the readers' promise)."""
    rules = _rules(site)
    links = PageLinks(
        page=lambda url: _page_link(site, rel, url),
        include=lambda target: _include(site, root, rel, target),
    )
    body = read_blocks(text, links)
    if rules.legacy and rules.variables and "book." in body:
        values = dict(rules.variables)
        body = _VARIABLE_RE.sub(lambda m: values.get(m.group(1), m.group(0)), body)
    body = _in_prose(body, lambda prose: _unescaped(_HEADING_ANCHOR_RE.sub(r"\1 {#\2}", prose)))
    explicit = {m.group(1) for m in _EXPLICIT_RE.finditer(body)}
    page = parse_markdown(rel, body, language, site.slug)
    inner = rel[len(site.page_dir) :] if rel.startswith(site.page_dir) else rel
    if page.title == posixpath.splitext(posixpath.basename(rel))[0]:
        page.title = rules.title_of(inner) or page.title  # no H1: the SUMMARY's title
    unsettled: list[tuple[str, str]] = []
    first_h1 = not rules.legacy
    for section in page.sections:
        if first_h1 and section.level == 1:
            section.anchor = ""  # the page's title: GitBook gives it no anchor
            first_h1 = False
            continue
        if section.level == 0 or not section.anchor or section.anchor in explicit:
            continue
        if site.slug == "gitbook" and not (
            settled(section.heading) and section.anchor == gitbook_anchor(section.heading)
        ):
            unsettled.append((section.heading, section.anchor))
    if unsettled:
        _say_unsettled(site, rel, unsettled)
        page.meta["unsettled_anchors"] = len(unsettled)
    for problem in links.problems:
        log.warning("%s: %s", rel, problem)
    return page
