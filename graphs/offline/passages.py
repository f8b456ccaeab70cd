"""Quotable passages from what the read tools returned, in the order the search ranked them.

Passages come from the tools' artifacts (`tools.artifacts`), never from their rendered text: a
page's sections, an article's sections, a code file's lines. Which ones are quoted, and in which
order, follows the search that found the sources (`graphs.offline.ranking`): the section each
source matched, most relevant source first — not a second scorer over fragments, which favours
fragments that happen to repeat a common word of the question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from langchain_core.messages import BaseMessage, ToolMessage

from graphs.offline.ranking import RankedSource, ranked_sources
from tools.artifacts import SectionArtifact
from tools.presentation.site_links import resolve_links, resolve_snippet
from tools.sources.markdown.inline import slugify
from tools.text import fence_code, fenced_lines

MAX_TEXT_PASSAGES = 5  # one per source read (graphs.offline.model.READ_SOURCES)
MIN_PARAGRAPH_CHARS = 40
LEAD_MIN_CHARS = 200
CODE_PASSAGE_LINES = 15


# Fence languages of the code files a code root commonly holds; any other file gets a bare fence.
_FENCE_LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".json": "json",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".sh": "bash",
}


@dataclass(eq=False)
class Passage:
    """A quotable piece of a source with its citation (`kind`: docs | kb | code)."""

    text: str
    title: str
    cite: str
    kind: str
    heading: str = ""
    score: float = 0.0


def code_block(code: str, cite: str) -> str:
    """A code passage as a fenced block: its file's language, and a fence nothing inside closes.

    A code root holds more than Python, and a docstring's own ``` example would close a ```
    block early; CommonMark lets a longer run of backticks fence it in.
    """
    suffix = PurePosixPath(cite.rsplit(":", 1)[0]).suffix.lower()
    return fence_code(code, _FENCE_LANGUAGES.get(suffix, ""))


def paragraphs(text: str) -> list[str]:
    """Blank-line separated blocks of more than 40 characters; a code fence stays whole, with the paragraph before it."""
    blocks: list[str] = []
    buf: list[str] = []
    for line, inside in fenced_lines(text.splitlines()):
        if not line.strip() and not inside:
            if buf:
                blocks.append("\n".join(buf).strip())
                buf = []
            continue
        buf.append(line)
    if buf:
        blocks.append("\n".join(buf).strip())
    merged: list[str] = []
    for block in blocks:
        if block.startswith("```") and merged and not merged[-1].startswith("```"):
            merged[-1] += "\n" + block
        else:
            merged.append(block)
    return [b for b in merged if len(b) > MIN_PARAGRAPH_CHARS]


# Blank, comment, `import`/`from … import`, an imported name continuing a list, or its `)`.
_PREAMBLE_RE = re.compile(
    r"^\s*(?:$|#|from \S+ import\b|import |\)\s*$|[\w.]+(?:\s+as\s+\w+)?,\s*$)"
)


def is_preamble(lines: Sequence[str]) -> bool:
    """Lines that only import names, continue an import list, or comment: no symbol is shown."""
    return all(_PREAMBLE_RE.match(line) for line in lines)


def code_passages(artifact: dict[str, Any]) -> list[Passage]:
    """A `read_code_file` artifact in blocks of 15 lines, cited as `file:first-last`.

    Blocks of imports are left out: a quote must show where a symbol is defined or used.
    """
    file, lines = artifact.get("file"), artifact.get("lines") or []
    if not file or not lines:
        return []
    start = int(artifact.get("start") or 1)
    out = []
    for i in range(0, len(lines), CODE_PASSAGE_LINES):
        chunk = lines[i : i + CODE_PASSAGE_LINES]
        if is_preamble(chunk):
            continue
        first, last = start + i, start + i + len(chunk) - 1
        out.append(Passage("\n".join(chunk), file, f"{file}:{first}-{last}", "code"))
    return out


def _section_order(sections: Sequence[SectionArtifact], src: RankedSource) -> list[int]:
    """Indexes of the sections to quote from: the one that matched the search first, then on."""
    wanted = {src.anchor, slugify(src.section)} - {""}
    first = next(
        (
            i
            for i, s in enumerate(sections)
            if s["anchor"] in wanted or (src.section and s["heading"] == src.section)
        ),
        0,
    )
    return list(range(first, len(sections)))


def _lead(sections: Sequence[SectionArtifact], src: RankedSource) -> SectionArtifact | None:
    """The matched section, or the first one after it with quotable text."""
    for i in _section_order(sections, src):
        if paragraphs(sections[i]["text"]):
            return sections[i]
    return None


def page_cite(url: str, heading: str, anchor: str) -> str:
    """A docs citation: the page URL, with the section's anchor when a section is quoted."""
    return url + (f"#{anchor or slugify(heading)}" if heading else "")


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))[:200]


def source_passage(art: dict[str, Any], src: RankedSource) -> Passage | None:
    """The opening of the section the search matched in a read page or article.

    The lead paragraph, joined with the next one when it is only a sentence, so the quote can
    stand on its own.
    """
    section = _lead(art.get("sections") or [], src)
    if section is None:
        return None
    paras = paragraphs(section["text"])
    text = paras[0]
    if len(text) < LEAD_MIN_CHARS and len(paras) > 1:
        text += "\n\n" + paras[1]
    title = str(art.get("title") or src.title)
    heading = section["heading"] if section["heading"] != title else ""
    if src.kind == "docs":
        url = str(art.get("url") or src.ref).split("#", 1)[0]
        cite = page_cite(url, heading, section["anchor"])
    else:
        url = str(art.get("url") or "")
        cite = f"KB {art['id']}" + (f" — {url}" if url else "")
    # The read tools show links as the site's URLs already; a quote is what users see, so
    # whatever an artifact still holds (written before, or by a source with no page table)
    # passes the same rules.
    return Passage(resolve_links(text, url), title, cite, src.kind, heading)


def snippet_passage(src: RankedSource) -> Passage | None:
    """A source the search ranked but nothing read: its snippet, when it has one."""
    if len(src.snippet) <= MIN_PARAGRAPH_CHARS:
        return None
    heading = src.section if src.section != src.title else ""
    if src.kind == "docs":
        cite = page_cite(src.ref, heading, src.anchor)
    else:
        cite = f"KB {src.ref}"
    text = resolve_snippet(src.snippet, src.ref if src.kind == "docs" else "")
    return Passage(text, src.title, cite, src.kind, heading)


def select_passages(
    turn: Sequence[BaseMessage], max_text: int = MAX_TEXT_PASSAGES
) -> list[Passage]:
    """The passages to quote, in the order of the search ranking that found their sources.

    One passage per source read (the section that matched), never the same text twice, at most
    `max_text` from docs and KB; then one code passage when code was read, from the block that
    shows the symbol (not a block of imports).
    """
    pages: dict[str, dict[str, Any]] = {}
    articles: dict[str, dict[str, Any]] = {}
    code: list[Passage] = []
    for m in turn:
        if not isinstance(m, ToolMessage) or m.status == "error":
            continue
        art = m.artifact
        if m.name == "get_doc_page" and isinstance(art, dict) and art.get("url"):
            pages[str(art["url"])] = art
        elif m.name == "get_article_content" and isinstance(art, list):
            articles.update({str(a["id"]): a for a in art if isinstance(a, dict) and "id" in a})
        elif m.name == "read_code_file" and isinstance(art, dict):
            code += code_passages(art)
    ranked = ranked_sources(turn)
    # Sources read without a search of this turn (a model may read a page it already knows)
    # follow the ranked ones, in the order they were read, from their first section.
    known = {(s.kind, s.ref) for s in ranked}
    ranked += [RankedSource("docs", ref, "", "", "") for ref in pages if ("docs", ref) not in known]
    ranked += [RankedSource("kb", ref, "", "", "") for ref in articles if ("kb", ref) not in known]
    chosen: list[Passage] = []
    seen: set[str] = set()
    for rank, src in enumerate(ranked):
        art = pages.get(src.ref) if src.kind == "docs" else articles.get(src.ref)
        if art:
            passage = source_passage(art, src)
        elif rank < max_text:
            # Ranked high but not read (the reads are capped): the search's own snippet of the
            # matching section stands in, cited the same way.
            passage = snippet_passage(src)
        else:
            passage = None
        if passage is None or _norm(passage.text) in seen:
            continue
        seen.add(_norm(passage.text))
        chosen.append(passage)
        if len(chosen) >= max_text:
            break
    return chosen + code[:1]
