"""Quotable passages from what the read tools returned, and which of them answer a question.

Passages come from the tools' artifacts (`tools.artifacts`), never from their rendered text: a
page's sections, an article's sections, a code file's lines. Ranking is a small BM25 over the
passages of this turn; the choice keeps 3-5, at most 2 per citation, the best of each source kind.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, ToolMessage

from tools.artifacts import SectionArtifact
from tools.mdx import slugify
from tools.text import fenced_lines, query_terms, stem

MAX_PASSAGES = 5
MIN_PASSAGES = 3
MIN_PARAGRAPH_CHARS = 40
CODE_PASSAGE_LINES = 15


@dataclass(eq=False)
class Passage:
    """A quotable piece of a source with its citation (`kind`: docs | kb | code)."""

    text: str
    title: str
    cite: str
    kind: str
    heading: str = ""
    score: float = 0.0


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


def _section_passages(
    sections: Iterable[SectionArtifact], title: str, kind: str, cite_for: Any
) -> list[Passage]:
    out = []
    for s in sections:
        heading = s["heading"] if s["heading"] != title else ""
        for para in paragraphs(s["text"]):
            out.append(Passage(para, title, cite_for(heading, s), kind, heading))
    return out


def page_passages(artifact: dict[str, Any]) -> list[Passage]:
    """Paragraphs of a `get_doc_page` artifact, cited by page URL and section anchor."""
    url = str(artifact.get("url") or "").split("#", 1)[0]
    if not url:
        return []
    title = str(artifact.get("title") or url)

    def cite(heading: str, s: SectionArtifact) -> str:
        return url + (f"#{s['anchor'] or slugify(heading)}" if heading else "")

    return _section_passages(artifact.get("sections") or [], title, "docs", cite)


def article_passages(artifacts: Sequence[dict[str, Any]]) -> list[Passage]:
    """Paragraphs of `get_article_content` artifacts, cited as `KB <id> — <url>`."""
    out: list[Passage] = []
    for art in artifacts:
        cite = f"KB {art['id']}" + (f" — {art['url']}" if art.get("url") else "")
        title = str(art.get("title") or art["id"])
        out += _section_passages(art.get("sections") or [], title, "kb", lambda _h, _s, c=cite: c)
    return out


def code_passages(artifact: dict[str, Any]) -> list[Passage]:
    """A `read_code_file` artifact in blocks of 15 lines, cited as `file:first-last`."""
    file, lines = artifact.get("file"), artifact.get("lines") or []
    if not file or not lines:
        return []
    start = int(artifact.get("start") or 1)
    out = []
    for i in range(0, len(lines), CODE_PASSAGE_LINES):
        chunk = lines[i : i + CODE_PASSAGE_LINES]
        first, last = start + i, start + i + len(chunk) - 1
        out.append(Passage("\n".join(chunk), file, f"{file}:{first}-{last}", "code"))
    return out


def passages_of(messages: Iterable[BaseMessage]) -> list[Passage]:
    """Every passage the read tools returned in `messages` (failed calls skipped)."""
    out: list[Passage] = []
    for m in messages:
        if not isinstance(m, ToolMessage) or m.status == "error":
            continue
        art = m.artifact
        if m.name == "get_doc_page" and isinstance(art, dict):
            out += page_passages(art)
        elif m.name == "get_article_content" and isinstance(art, list):
            out += article_passages([a for a in art if isinstance(a, dict) and "id" in a])
        elif m.name == "read_code_file" and isinstance(art, dict):
            out += code_passages(art)
    return out


def rank_passages(question: str, passages: list[Passage]) -> list[Passage]:
    """BM25-like scoring of passages against the question's terms (idf over these passages)."""
    terms = [stem(t) for t in query_terms(question)]
    if not terms or not passages:
        return []
    docs = [
        [stem(w) for w in re.findall(r"[a-z0-9]+", (p.heading + " " + p.text).lower())]
        for p in passages
    ]
    n = len(docs)
    avg = sum(len(d) for d in docs) / n or 1.0
    df = {t: sum(1 for d in docs if t in d) for t in terms}
    for p, words in zip(passages, docs, strict=True):
        score = 0.0
        for t in terms:
            tf = words.count(t)
            if not tf:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(words) / avg))
            if t in p.heading.lower():
                score += idf * 0.5
        p.score = score
    return sorted((p for p in passages if p.score > 0), key=lambda p: -p.score)


def choose_passages(question: str, passages: list[Passage]) -> list[Passage]:
    """3-5 best passages, at most 2 from one citation and the best of each source kind included."""
    ranked = rank_passages(question, passages)
    chosen: list[Passage] = []
    for kind in ("docs", "kb", "code"):
        best = next((p for p in ranked if p.kind == kind), None)
        if best and (not chosen or best.score >= 0.35 * chosen[0].score):
            chosen.append(best)
    for p in ranked:
        if len(chosen) >= MAX_PASSAGES:
            break
        if p in chosen or sum(c.cite == p.cite for c in chosen) >= 2:
            continue
        if len(chosen) >= MIN_PASSAGES and p.score < 0.5 * ranked[0].score:
            break
        chosen.append(p)
    return sorted(chosen, key=lambda p: -p.score)
