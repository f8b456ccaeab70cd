"""A generator golden (tests/fixtures/generators) read as a user points the project at it.

The source folder is listed and read through the registry and the readers, with the site's
address given as a user gives it (`DOCS_AGENT_DOCS_BASE_URL`) or left to the config; each fact
of `expected.json` is then held against what the index would store: which files are pages,
their URLs and titles, their sections' anchors, and where each block, snippet and rendered
text landed. Nothing here knows a generator's rules: the golden is the real generator's output.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.records import Page, Section
from tools.sources.registry import SiteOptions, detect_site

GOLDENS = Path(__file__).resolve().parents[4] / "fixtures" / "generators"

_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:`{3,}|~{3,}).*$", re.M)
_LINK_RE = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def golden(generator: str, project: str) -> dict[str, Any]:
    """The golden's facts."""
    path = GOLDENS / generator / project / "expected.json"
    facts: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return facts


def source(generator: str, project: str) -> Path:
    """The golden's source folder (the docs as the team has them)."""
    return GOLDENS / generator / project / "source"


def shown(markdown: str) -> str:
    """Markdown as its words read: fences, emphasis, link targets, list and quote marks gone.

    Code keeps every character but its fence lines.
    """
    markdown = markdown.translate(_QUOTES)  # typographic quotes as typed (smartypants)
    out: list[str] = []
    in_code = False
    for line in markdown.split("\n"):
        if _FENCE_LINE_RE.match(line):
            in_code = not in_code
            continue
        if not in_code:
            line = _LINK_RE.sub(lambda m: m.group(1), line)
            line = re.sub(r"^[ \t]*(?:[-*+]|\d+\.|>)[ \t]+", "", line)
            line = line.replace("**", "").replace("`", "")
        out.append(line)
    return " ".join(" ".join(out).split())


@dataclass
class ReadSite:
    """The pages the project reads from a source folder: by source path, with URL and page."""

    pages: dict[str, tuple[str, Page]]

    def page(self, rel: str) -> Page:
        assert rel in self.pages, f"{rel} is not read as a page"
        return self.pages[rel][1]

    def url_path(self, rel: str) -> str:
        """The page's URL without its host (what the golden's `url` is)."""
        url = self.pages[rel][0]
        path = urlsplit(url).path
        return path or "/"

    def text_from(self, rel: str, anchor: str) -> str:
        """The words of the section at `#anchor` and of every section after it (headings left out).

        An included file may bring headings of its own: what it shows runs on past them.
        """
        sections = self.page(rel).sections
        start = sections.index(self.section(rel, anchor))
        return " ".join(shown(sec.text) for sec in sections[start:])

    def section(self, rel: str, anchor: str) -> Section:
        """The section the site opens at `#anchor` ("" or `_top`-less: the page's top)."""
        sections = self.page(rel).sections
        for sec in sections:
            if anchor and anchor in sec.anchors:
                return sec
        if not anchor:
            return sections[0]
        raise AssertionError(f"{rel}: no section #{anchor}")


def read_site(root: Path, index_dir: Path, base_url: str = "", locale: str = "auto") -> ReadSite:
    """The folder's pages as the index would store them (listed and read, not indexed)."""
    site = detect_site(root, SiteOptions(base_url=base_url, locale=locale))
    corpus = FolderCorpus(root, "docs", index_dir, UrlRule(base_url=base_url), site=site)
    corpus.files()
    pages: dict[str, tuple[str, Page]] = {}
    for key, rel in corpus.pages.paths.items():
        page, url, _ = corpus.pages.parse(key, corpus.pages.read(key))
        pages[rel] = (url, page)
    return ReadSite(pages)


def page_anchors(page: Page) -> set[str]:
    """Every id the page's sections open at."""
    return {a for sec in page.sections for a in sec.anchors}


def _tab_labels(facts: dict[str, Any], page: str) -> set[str]:
    """The labels of a page's tab sets, which its HTML shows in a row before the panels."""
    return {label for b in facts["blocks"] if b["page"] == page for label in b.get("labels", [])}


def without_words(text: str, words: set[str]) -> str:
    """The text without these words (tab labels: a reader takes them with each panel, the
    page's HTML shows them all first, so the order of label and panel is left out)."""
    return " ".join(w for w in text.split() if w not in words)


def check_blocks(read: ReadSite, facts: dict[str, Any], skip_kinds: tuple[str, ...] = ()) -> None:
    """Each block's title and text are in the section the site shows it under."""
    for block in facts["blocks"]:
        if block["page"] not in read.pages or block["kind"] in skip_kinds:
            continue
        text = shown(read.section(block["page"], block["section"] or "").text)
        if not block.get("labels") and _tab_labels(facts, block["page"]):
            labels = _tab_labels(facts, block["page"])
            wanted = without_words(block["text"], labels)
            assert wanted in without_words(text, labels), (block["kind"], wanted, text)
            continue
        if block.get("title"):
            assert block["title"] in text, (block["page"], block["kind"], block["title"], text)
        labels = block.get("labels", [])
        for label in labels:
            assert label in text, (block["kind"], label, text)
        for piece in block["text"].translate(_QUOTES).split(" | "):
            label, _, body = piece.partition(": ")
            wanted = body if label in labels else piece
            assert " ".join(wanted.split()) in text, (block["page"], block["kind"], wanted, text)


def check_snippets(read: ReadSite, facts: dict[str, Any]) -> None:
    """Each included file's shown lines are in its section; the lines it leaves out are not."""
    for snippet in facts["snippets"]:
        if snippet["page"] not in read.pages:
            continue
        text = read.text_from(snippet["page"], snippet["section"] or "")
        labels = _tab_labels(facts, snippet["page"])
        wanted = without_words(snippet["text"], labels)
        assert wanted in without_words(text, labels), (snippet["directive"], text)
        whole = read.page(snippet["page"]).body
        for line in snippet["lines_absent"]:
            assert line not in whole, (snippet["directive"], line)


def check_rendered(read: ReadSite, facts: dict[str, Any]) -> None:
    """What the page computes reads as the site renders it."""
    for rendered in facts["rendered"]:
        text = shown(read.section(rendered["page"], rendered["section"] or "").text)
        assert rendered["text"] in text, (rendered["source_text"], text)
        assert rendered["source_text"] not in text
