"""A generator golden (tests/fixtures/generators/<generator>/<project>/) read the way the index reads it.

The golden tests of each generator package index the fixture's `source/` as a user points
docs-agent at it, then hold every fact of `expected.json` (pages, URLs, titles, anchors,
non-pages, blocks, snippets) against the indexed pages. These helpers read the golden, build
the index and compare text the way a reader sees it (markup and spacing aside).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.search import Document
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.records import Section

GOLDENS = Path(__file__).resolve().parents[4] / "fixtures" / "generators"

_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def golden(generator: str, project: str) -> dict[str, Any]:
    """The fixture's `expected.json`."""
    data: dict[str, Any] = json.loads((GOLDENS / generator / project / "expected.json").read_text())
    return data


def source(generator: str, project: str) -> Path:
    """The fixture's docs as the docs team has them."""
    return GOLDENS / generator / project / "source"


def seen(text: str) -> str:
    """Text as a reader compares it: no Markdown emphasis, code or quote marks, one space between words."""
    text = re.sub(r"^[ \t]*(?:>[ \t]?)+", "", text, flags=re.M)
    text = re.sub(r"^[ \t]*(`{3,}|~{3,})[^\n]*$", " ", text, flags=re.M)
    text = text.replace("**", "").replace("`", "").translate(_QUOTES)
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class IndexedPage:
    """One indexed page: its file (relative to the folder indexed), URL and stored document."""

    rel: str
    url: str
    doc: Document

    def section(self, anchor: str) -> Section:
        """The section the site opens at `#anchor` (its own id or one it also serves)."""
        for section in self.doc.sections:
            if anchor in section.anchors or (not anchor and section is self.doc.sections[0]):
                return section
        raise AssertionError(f"{self.rel}: no section #{anchor}")

    @property
    def anchors(self) -> list[str]:
        """Every id the page's sections serve, in document order."""
        return [a for section in self.doc.sections for a in section.anchors]


def indexed(root: Path, index_dir: Path, rule: UrlRule | None = None) -> dict[str, IndexedPage]:
    """The folder indexed as a user points docs-agent at it, by file (relative to `root`)."""
    corpus = FolderCorpus(root, "docs", index_dir, rule or UrlRule())
    corpus.sync(workers=1)
    out: dict[str, IndexedPage] = {}
    for key, rel in corpus.pages.paths.items():
        doc = corpus.get(key)
        assert doc is not None, key
        out[rel] = IndexedPage(rel, doc.url, doc)
    return out


def shown_in(section: Section, text: str) -> str:
    """The part of the section that shows `text`: the code block holding it, else the section's text."""
    for block in section.code_blocks:
        if seen(text) in seen(block.code):
            return seen(block.code)
    body = seen(section.text)
    assert seen(text) in body, f"#{section.anchor} does not show {text!r}: {body[:300]!r}"
    return body
