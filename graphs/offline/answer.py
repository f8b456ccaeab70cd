"""The offline answers: quoted, cited passages (docs_agent) and researchers' findings by source (deep_agent).

Nothing is generated: every sentence comes from a source or a fixed phrase.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, ToolMessage

from graphs.offline.language import phrase
from graphs.offline.passages import choose_passages, passages_of
from tools.text import ends_in_fence

PASSAGE_CHARS = 700

# Section titles of the deep answer, by the orchestrator tool that brought the findings.
DEEP_SECTIONS = {
    "ask_docs_researcher": "Documentation",
    "ask_kb_researcher": "Known issues (support articles)",
    "ask_code_researcher": "Code",
}


def clip(text: str, limit: int = PASSAGE_CHARS) -> str:
    """A quote cut at `limit` characters, never inside an unclosed code fence."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if ends_in_fence(cut):
        cut = cut.rsplit("```", 1)[0]
    return cut.rstrip() + " …"


def _sources_list(sources: list[str], language: str) -> list[str]:
    return [f"**{phrase('sources', language)}:**", *(f"{i}. {c}" for i, c in enumerate(sources, 1))]


def compose_answer(question: str, turn: list[BaseMessage], language: str) -> str:
    """The extractive answer: a plain first line, the chosen passages quoted, then the sources."""
    chosen = choose_passages(question, passages_of(turn))
    lines = [f"_{phrase('extractive', language)}_", ""]
    if not chosen:
        lines.append(phrase("nothing", language))
        return "\n".join(lines)
    sources: list[str] = []
    for p in chosen:
        label = p.title + (f" › {p.heading}" if p.heading else "")
        if p.kind == "code":
            lines.append(f"**{label}** — `{p.cite}`")
            lines.append("```python\n" + clip(p.text) + "\n```")
        else:
            lines.append(f"**{label}** — {p.cite}")
            lines.append("\n".join("> " + line for line in clip(p.text).splitlines()))
        lines.append("")
        if p.cite not in sources:
            sources.append(p.cite)
    return "\n".join(lines + _sources_list(sources, language))


def compose_deep_answer(findings: Sequence[ToolMessage], lang: str) -> str:
    """The offline final answer: the researchers' findings by source, then every cited source.

    The sources come from each researcher's structured output (the `ask_*` tool's artifact).
    """
    lines = [f"_{phrase('extractive', lang)}_", ""]
    sources: list[str] = []
    for m in findings:
        text = m.text.strip()
        if not text or text.startswith("Nothing relevant"):
            continue
        name = str(m.name or "")
        lines += [f"### {DEEP_SECTIONS.get(name, name)}", text, ""]
        art = m.artifact if isinstance(m.artifact, dict) else {}
        for c in art.get("sources") or []:
            if c not in sources:
                sources.append(c)
    if not sources:
        lines.append(phrase("nothing", lang))
        return "\n".join(lines)
    return "\n".join(lines + _sources_list(sources, lang))
