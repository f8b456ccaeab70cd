"""The structured results the read tools return beside their text (`content_and_artifact`).

The model reads the rendered text; code that needs the passages back (the offline model, the
researchers, the citation check) reads these instead, so a change of wording in `tools/presentation/render.py`
cannot break it. Plain JSON-ready dicts: artifacts are stored in checkpoints with the messages.
"""

from __future__ import annotations

from typing import TypedDict


class SectionArtifact(TypedDict):
    """One rendered section: its heading ('' for text before the first heading), level, anchor, text."""

    heading: str
    level: int
    anchor: str
    text: str


class SearchHitArtifact(TypedDict, total=False):
    """One hit of `search_docs` (`url`) or `search_support_articles` (`id`).

    `section`/`anchor` name the section that matched best; `score` is the hit's calibrated score,
    comparable across the docs and KB indexes (`tools.search.merge_rankings`), None when unknown.
    """

    url: str
    id: str
    key: str
    title: str
    collection: str
    section: str
    anchor: str
    score: float | None
    snippet: str  # the matching section's opening words, cleaned, as the rendered list shows


class PageArtifact(TypedDict, total=False):
    """`get_doc_page`: the page and the sections the model was shown (cleaned, as rendered)."""

    url: str
    title: str
    key: str
    section: str | None
    sections: list[SectionArtifact]
    # Every heading of the page, read or not: what else the page covers.
    outline: list[str]


class ArticleArtifact(TypedDict):
    """One article of `get_article_content`, with the sections the model was shown."""

    id: str
    title: str
    url: str
    sections: list[SectionArtifact]


class CodeArtifact(TypedDict, total=False):
    """`read_code_file`: the file as cited, the range shown, its length and the lines themselves."""

    file: str
    start: int
    end: int
    total: int
    lines: list[str]
