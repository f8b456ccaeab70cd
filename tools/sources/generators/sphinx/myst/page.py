"""Reader of MyST Markdown pages in a Sphinx site (myst-parser / myst-nb), read as Sphinx builds them.

MyST is Markdown with reStructuredText's directives and roles in Markdown syntax: convert.py
rewrites it to plain Markdown, the Markdown reader (tools/sources/markdown/parse.py) reads that,
and headings keep docutils' ids (the `make_id` rule of rst), plus the `myst_heading_anchors` slug
myst-parser adds as a second id. Labels and toctrees are read from the page's lines alone, before
any page is parsed in full.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import yaml
from docutils import nodes

from tools.sources.generators.sphinx.directives.registry import (
    describes_object,
)
from tools.sources.generators.sphinx.myst.config import MystConfig
from tools.sources.generators.sphinx.myst.convert import Converter
from tools.sources.generators.sphinx.myst.syntax import (
    HEADING_MARK,
    MAX_DEPTH,
    as_rst_directive,
    directive_of,
    heading_slug,
    markdown_parser,
    split_options,
    tokens_of,
)
from tools.sources.generators.sphinx.options import RstOptions
from tools.sources.generators.sphinx.targets import Label, PageTargets
from tools.sources.generators.sphinx.xref_scan import scan_page
from tools.sources.hidden.strip import strip_hidden
from tools.sources.markdown.parse import parse_markdown
from tools.sources.records import Page
from tools.sources.slugs import docutils_id

log = logging.getLogger(__name__)


def _finish_headings(
    text: str, converter: Converter, config: MystConfig
) -> tuple[str, dict[str, tuple[str, ...]]]:
    """Heading marks → ATX headings with their docutils id; the other ids each section has."""
    taken: set[str] = set()
    slugs: set[str] = set()
    extra: dict[str, tuple[str, ...]] = {}
    counter = 0
    out: list[str] = []
    for line in text.split("\n"):
        if not line.startswith(HEADING_MARK):
            out.append(line)
            continue
        number, _, heading = line[len(HEADING_MARK) :].partition("\x00")
        head = converter.headings[int(number)]
        plain = _plain(heading)
        if head.anchor:  # read by the rst reader: its ids as they are
            anchor, ids = head.anchor.strip("-"), list(head.ids)
        else:
            own = docutils_id(plain)
            if own in taken or not own:
                counter += 1
                own = f"id{counter}"  # docutils' id for a repeated (or id-less) title
            ids = [docutils_id(label) for label in head.labels]
            ids = [i for i in ids if i] + [own]
            if head.level <= config.heading_anchors and config.heading_ids:
                slug = heading_slug(plain, config.slug_func)
                base, n = slug, 0
                while slug in slugs:
                    n += 1
                    slug = f"{base}-{n}"
                if slug:
                    slugs.add(slug)
                    if not re.search(r"\s", slug) and slug not in taken:
                        ids.append(slug)
            anchor = ids[0]
        taken.update(ids)
        extra[anchor] = tuple(dict.fromkeys(i for i in ids if i and i != anchor))
        out.append("#" * min(head.level, 6) + f" {heading.strip()} {{#{anchor}}}")
    return "\n".join(out), extra


def _plain(markdown: str) -> str:
    """A heading's words (what docutils' `astext` gives): code spans' text, links' text."""
    tokens = markdown_parser().parseInline(markdown)
    words: list[str] = []
    for token in tokens:
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
    return " ".join("".join(words).split())


def page_labels(text: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """A MyST page's title and its labels (`(label)=`, `{#id}`) → (id served, section title)."""
    try:
        tokens = tokens_of(text)
    except Exception:  # noqa: BLE001 — targets of an unreadable page are just unknown
        return "", {}
    title = ""
    pending: list[str] = []
    labels: dict[str, tuple[str, str]] = {}
    for n, token in enumerate(tokens):
        if token.type == "myst_target":
            pending.append(token.content.strip())
        elif token.type == "heading_open" and token.level == 0:
            words = _plain(tokens[n + 1].content) if n + 1 < len(tokens) else ""
            title = title or words
            explicit = token.attrs.get("id")
            for name in [*pending, *([str(explicit)] if explicit else [])]:
                key = nodes.fully_normalize_name(name)
                labels.setdefault(key, (docutils_id(name), words))
            pending = []
        elif token.level == 0 and token.type not in ("myst_line_comment", "myst_block_break"):
            for name in pending:  # a label before another block: Sphinx links it only explicitly
                labels.setdefault(nodes.fully_normalize_name(name), (docutils_id(name), ""))
            pending = []
    return title, labels


def scan_myst_page(docname: str, text: str, options: RstOptions | None = None) -> PageTargets:
    """The cross-reference targets a MyST page defines, without a full read.

    Its title and labels, and (given the site's `options`) the objects its `{eval-rst}` blocks
    and object directives describe, read by the rst scanner in page order (`_rst_outline`), so
    a `currentmodule` of one block names the objects of the next.
    """
    title, labels = page_labels(text)
    page = PageTargets(docname, title)
    if options is not None:
        outline = _rst_outline(text, options, 0)
        if outline:
            page.objects.update(scan_page(docname, outline, options).objects)
    for name, (anchor, section) in labels.items():
        page.labels[name] = Label(docname, anchor, section)
    return page


def _rst_outline(text: str, options: RstOptions, depth: int) -> str:
    """A MyST text's object directives and `{eval-rst}` blocks as rst, in page order.

    Bodies are left out, except the object directives nested in them (indented under theirs).
    """
    if depth > MAX_DEPTH:
        return ""
    try:
        tokens = tokens_of(text)
    except Exception:  # noqa: BLE001 — no targets from an unreadable page
        return ""
    parts: list[str] = []
    for token in tokens:
        found = directive_of(token)
        if found is None:
            continue
        name, arg = found
        if name == "eval-rst":
            parts.append(token.content)
            continue
        options_, content = split_options(token.content)
        base = name.split(":", 1)[1] if name.startswith(("std:", "py:")) else name
        if base in ("module", "currentmodule", "program") or describes_object(name, options):
            parts.append(
                as_rst_directive(name, arg, options_, _rst_outline(content, options, depth + 1))
            )
        elif "{" in token.content:  # an admonition, tab or card may hold some
            parts.append(_rst_outline(content, options, depth + 1))
    return "\n\n".join(p for p in parts if p.strip())


def myst_toctree_blocks(text: str) -> list[str]:
    """The page's `{toctree}` directives (and those of its `{eval-rst}` blocks) as rst blocks."""
    from tools.sources.generators.sphinx.toctree import toctree_blocks

    try:
        tokens = tokens_of(text)
    except Exception:  # noqa: BLE001 — no navigation from an unreadable page
        return []
    blocks: list[str] = []
    for token in tokens:
        found = directive_of(token)
        if found is None:
            continue
        name, arg = found
        if name == "toctree":
            options, content = split_options(token.content)
            blocks.append(as_rst_directive("toctree", arg, options, content))
        elif name == "eval-rst":
            blocks.extend(toctree_blocks(token.content))
        elif token.content.count("{toctree}"):
            blocks.extend(myst_toctree_blocks(split_options(token.content)[1]))
    return blocks


def parse_myst(
    rel: str,
    text: str,
    options: RstOptions,
    config: MystConfig,
    source_path: Path | None = None,
    language: str = "python",
) -> Page:
    """Parse a MyST page into a `Page` with the sections and ids Sphinx builds; never raises."""
    converter = Converter(rel, options, config, source_path)
    text = text.replace("\r\n", "\n")
    try:
        markdown = converter.convert(text)
        _, labels = page_labels(text)
        markdown = converter.resolve_roles(markdown, labels)
        markdown, extra = _finish_headings(markdown, converter, config)
    except RecursionError as exc:
        log.warning("%s: MyST nested too deep (%s); read as plain Markdown", rel, exc)
        markdown, extra = text, {}
    front = ""
    if converter.meta.get("description"):
        front = "---\n" + yaml.safe_dump({"description": converter.meta["description"]}) + "---\n"
    # Hidden text (HTML comments, hidden elements, reference definitions) goes as on Markdown
    # pages, after the MyST read: a footnote line `[^n]: text` would read as a definition.
    page = parse_markdown(rel, front + strip_hidden(markdown), language, "docutils")
    for section in page.sections:
        if section.anchor in extra:
            section.ids = tuple(dict.fromkeys((*extra[section.anchor], *section.ids)))
    first = next((s.heading for s in page.sections if s.level > 0), "")
    if first:
        page.title = first  # Sphinx's title is the first heading, never the front matter's
    for key in ("toctrees", "includes", "warnings", "orphan"):
        if converter.meta.get(key):
            page.meta[key] = converter.meta[key]
    return page
