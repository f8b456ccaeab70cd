"""The offline answers: quoted, cited passages (docs_agent) and researchers' findings by source (deep_agent).

Nothing is generated: every sentence comes from a source or a fixed phrase.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from graphs.offline.language import PHRASES, phrase
from graphs.offline.passages import code_block, select_passages
from graphs.offline.ranking import ranked_sources
from tools.presentation.failures import (
    TOOL_SOURCES,
    partial_reasons,
    source_of_label,
    unavailable_reason,
)
from tools.presentation.site_links import without_open_link
from tools.text import ends_in_fence

PASSAGE_CHARS = 700
MORE_HEADINGS = 4  # other sections of the pages read, offered to go on with

# Section titles of the deep answer, by the orchestrator tool that brought the findings.
DEEP_SECTIONS = {
    "ask_docs_researcher": "Documentation",
    "ask_kb_researcher": "Known issues (support articles)",
    "ask_code_researcher": "Code",
}


def clip(text: str, limit: int = PASSAGE_CHARS) -> str:
    """A quote cut at `limit` characters, never inside an unclosed code fence or a link's URL."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if ends_in_fence(cut):
        cut = cut.rsplit("```", 1)[0]
    return without_open_link(cut.rstrip()).rstrip() + " …"


def _sources_list(sources: list[str], language: str) -> list[str]:
    return [f"**{phrase('sources', language)}:**", *(f"{i}. {c}" for i, c in enumerate(sources, 1))]


def _more_on_pages(turn: Sequence[BaseMessage], quoted: set[str]) -> list[str]:
    """Headings of the pages read that the answer did not quote: where the user can go next."""
    out: list[str] = []
    for m in turn:
        if isinstance(m, ToolMessage) and m.name == "get_doc_page" and isinstance(m.artifact, dict):
            for heading in m.artifact.get("outline") or []:
                if heading not in quoted and heading not in out:
                    out.append(heading)
    return out[:MORE_HEADINGS]


def _searched(turn: Sequence[BaseMessage]) -> tuple[str, list[str]]:
    """What the turn searched for, and the titles of the closest hits (however weak)."""
    queries: list[str] = []
    titles: list[str] = []
    for m in turn:
        if isinstance(m, AIMessage):
            for call in m.tool_calls:
                q = call["args"].get("query") or call["args"].get("pattern")
                if q and str(q) not in queries:
                    queries.append(str(q))
    for src in ranked_sources(turn):
        if src.title not in titles:
            titles.append(src.title)
    return "; ".join(queries), titles[:MORE_HEADINGS]


def source_failures(turn: Sequence[BaseMessage], language: str) -> list[str]:
    """One line per source that failed or answered in part this turn, naming it.

    Why: a help center that is down, refuses the token or answers an HTML page must read as
    that, never as "nothing found" (tools/presentation/failures.py writes what is parsed here).
    """
    lines: list[str] = []
    for m in turn:
        if not isinstance(m, ToolMessage) or m.name not in TOOL_SOURCES:
            continue
        if m.status == "error":
            parsed = unavailable_reason(m.text)
            source = source_of_label(parsed[0]) if parsed else TOOL_SOURCES[str(m.name)]
            reason = parsed[1] if parsed else m.text.split(".")[0]
            key = f"source_{source}"
            label = phrase(key, language) if key in PHRASES else source
            line = phrase("unreachable", language).format(source=label, reason=reason)
        else:
            notes = partial_reasons(m.text)
            if not notes:
                continue
            label_text, state = notes[0]
            key = f"source_{source_of_label(label_text)}"
            label = phrase(key, language) if key in PHRASES else label_text
            line = phrase("partly", language).format(source=label, reason=state)
        if line not in lines:
            lines.append(line)
    return lines


def lead_line(language: str, failed_model: str = "") -> str:
    """The answer's first line: it is extractive, because no model is configured or it failed.

    `failed_model` is the configured model the offline one stood in for (a fallback), if any.
    """
    if failed_model:
        return f"_{phrase('extractive_fallback', language).format(model=failed_model)}_"
    return f"_{phrase('extractive', language)}_"


def compose_answer(
    question: str, turn: list[BaseMessage], language: str, failed_model: str = ""
) -> str:
    """The extractive answer: the passages quoted in rank order, then where to go on, then sources.

    A plain first line says it is extractive; after the quotes come the other sections of the pages
    read, and the sources. With nothing to quote: what was searched and the closest topics.
    """
    chosen = select_passages(turn)
    lines = [lead_line(language, failed_model), ""]
    failures = source_failures(turn, language)
    if failures:
        lines += [*failures, ""]
    if not chosen:
        query, closest = _searched(turn)
        failed = any(isinstance(m, ToolMessage) and m.status == "error" for m in turn)
        lines.append(phrase("nothing_elsewhere" if failed else "nothing", language))
        if query:
            lines += ["", phrase("searched", language).format(query=query)]
        if closest:
            lines += ["", f"**{phrase('closest', language)}:** " + " · ".join(closest)]
        return "\n".join(lines)
    sources: list[str] = []
    for p in chosen:
        label = p.title + (f" › {p.heading}" if p.heading else "")
        if p.kind == "code":
            lines.append(f"**{label}** — `{p.cite}`")
            lines.append(code_block(clip(p.text), p.cite))
        else:
            lines.append(f"**{label}** — {p.cite}")
            lines.append("\n".join("> " + line for line in clip(p.text).splitlines()))
        lines.append("")
        if p.cite not in sources:
            sources.append(p.cite)
    more = _more_on_pages(turn, {p.heading for p in chosen})
    if more:
        lines += [f"**{phrase('more_on_pages', language)}:** " + " · ".join(more), ""]
    return "\n".join(lines + _sources_list(sources, language))


def _best_score(m: ToolMessage) -> float:
    art = m.artifact if isinstance(m.artifact, dict) else {}
    score = art.get("best_score")
    return float(score) if isinstance(score, int | float) else -1.0


def compose_deep_answer(findings: Sequence[ToolMessage], lang: str, failed_model: str = "") -> str:
    """The offline final answer: the researchers' findings by source, then every cited source.

    The sources come from each researcher's structured output (the `ask_*` tool's artifact).
    """
    lines = [lead_line(lang, failed_model), ""]
    sources: list[str] = []
    # The researcher whose search matched best leads (docs and KB scores share one scale); one
    # without a score (code) keeps its place after them.
    findings = sorted(findings, key=lambda m: -_best_score(m))
    shown = False
    for m in findings:
        text = m.text.strip()
        if not text or text.startswith("Nothing relevant"):
            continue
        name = str(m.name or "")
        lines += [f"### {DEEP_SECTIONS.get(name, name)}", text, ""]
        shown = True
        art = m.artifact if isinstance(m.artifact, dict) else {}
        for c in art.get("sources") or []:
            if c not in sources:
                sources.append(c)
    if not sources:
        # Findings without sources are a researcher's report of a failed source.
        lines.append(phrase("nothing_elsewhere" if shown else "nothing", lang))
        return "\n".join(lines)
    return "\n".join(lines + _sources_list(sources, lang))
