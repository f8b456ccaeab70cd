"""Reading a built site's folder as a user does, and holding it against a generator golden.

A golden (tests/fixtures/generators/<generator>/<project>/expected.json) lists the pages the
generator built, the URL each is served at and the ids its headings serve. The folder is read
through the real path: `detect_site` on the built folder (base URL from the settings, as
docs/sources.md tells a user), `FolderCorpus.files`, each page parsed by its reader.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.records import Page
from tools.sources.registry import SiteOptions, detect_site

GOLDENS = Path(__file__).resolve().parents[4] / "fixtures" / "generators"
# Markup a built page must never show: template and shortcode syntax of the generators read here.
LEFTOVER = re.compile(r"\{\{[<%]|[>%]\}\}|\{\{\s*[.$]|\binclude::|\{[a-z][\w-]*\}")
_SPACE = re.compile(r"\s+")


def golden(generator: str, project: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (GOLDENS / generator / project / "expected.json").read_text("utf-8")
    )
    return data


@dataclass
class ReadSite:
    """What docs-agent made of a folder: each page file's page and URL."""

    generator: str
    pages: dict[str, tuple[Page, str]]
    notes: tuple[str, ...]


def read_folder(
    root: Path, index_dir: Path, base_url: str = "", generator: str = "auto"
) -> ReadSite:
    site = detect_site(root, SiteOptions(generator=generator, base_url=base_url))
    corpus = FolderCorpus(root, "docs", index_dir, UrlRule(base_url), site=site)
    pages: dict[str, tuple[Page, str]] = {}
    for source_file in corpus.files():
        page, url, _ = corpus.pages.parse(source_file.key, corpus.pages.read(source_file.key))
        pages[corpus.pages.paths[source_file.key]] = (page, url)
    return ReadSite(site.generator, pages, site.notes)


def page_anchors(page: Page) -> set[str]:
    """Every id a section of the page answers to (its anchor and its extra ids)."""
    return {a for s in page.sections for a in (s.anchor, *s.ids) if a}


def section_text(page: Page, anchor: str, onward: bool = False) -> str:
    """The text of the section with this anchor ('' anchor: the page's first section).

    `onward`: with the headings and text of the sections after it (a block holding a heading,
    a tab's own title, splits its section there).
    """
    for i, section in enumerate(page.sections):
        if section.anchor == anchor or anchor in section.ids or (not anchor and section.level <= 1):
            if not onward:
                return section.text
            rest = page.sections[i + 1 :]
            return " ".join([section.text, *(f"{s.heading} {s.text}" for s in rest)])
    return ""


def collapse(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def check_against_golden(read: ReadSite, expected: dict[str, Any], locale: str = "") -> None:
    """Pages = the golden's built pages (of the default locale), URLs and anchors as served, no markup."""
    wanted = {p["built"]: p for p in expected["pages"] if p["built"] and p["locale"] == locale}
    assert set(read.pages) == set(wanted)
    for built, page_facts in wanted.items():
        page, url = read.pages[built]
        assert urlsplit(url).path == page_facts["url"], built
        served = {h["id"] for h in page_facts["headings"] if h["id"]}
        anchors = {s.anchor for s in page.sections if s.anchor}
        assert served <= page_anchors(page), built  # every served anchor is citable
        assert anchors <= served, built  # and no section cites an anchor the page lacks
        if page_facts["h1"]:
            assert page.title == page_facts["h1"], built
        for section in page.sections:
            for text in (section.heading, section.text):
                assert not LEFTOVER.search(_without_code(text)), (built, text[:200])


def visible(text: str) -> str:
    """Section Markdown as words a reader sees: no fence markers, backticks or emphasis marks."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link reads as its text
    return collapse(re.sub(r"[*`]", "", re.sub(r"```[\w+#.-]*", " ", text)))


def _without_code(text: str) -> str:
    return re.sub(r"```.*?```|`[^`\n]*`", "", text, flags=re.S)


def check_blocks(read: ReadSite, expected: dict[str, Any]) -> None:
    """Each rendered block's text (shortcode output, admonition, listing) is in its section."""
    by_source = {p["source"]: p["built"] for p in expected["pages"]}
    for block in expected["blocks"]:
        page, _ = read.pages[by_source[block["page"]]]
        text = visible(section_text(page, block["section"], onward=True))
        for piece in re.split(r" \| ", block["text"]):
            words = collapse(
                piece.split(": ", 1)[1] if block["kind"] == "tabset" and ": " in piece else piece
            )
            assert words in text, (block["kind"], words, text[:400])
        if block.get("title"):
            assert block["title"] in section_text(page, block["section"], onward=True), block
