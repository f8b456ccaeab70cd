"""deep_agent's parts played by the offline model: the orchestrator and the researchers, by rules.

The orchestrator calls all three researchers with the question, then joins their findings; a
researcher searches its own source, searches again with fewer words when nothing matched, reads
the best hits and condenses the best passages extractively with their citations. Passages come
from the read tools' artifacts (`graphs.offline.passages`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from graphs.messages import current_turn
from graphs.offline.answer import compose_deep_answer, source_failures
from graphs.offline.language import phrase, resolve_language
from graphs.offline.model import SEARCH_TOOLS, OfflineChatModel
from graphs.offline.passages import code_block, select_passages
from tools.text import identifiers_in, query_terms

READ_TOOLS = frozenset({"get_doc_page", "get_article_content", "read_code_file"})


def _tool_name(message: ToolMessage) -> str:
    return str(message.name or "")


class OfflineResearcherModel(OfflineChatModel):
    """The offline model as a researcher: search → (refine) → read → condensed, cited findings."""

    kind: str = "docs"

    def plan(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """The next step over this researcher's own tools."""
        question, turn = current_turn(messages)
        lang = resolve_language(self.language, question)
        if not question.strip():
            return AIMessage(content=phrase("nothing", lang))
        tool_msgs = [m for m in turn if isinstance(m, ToolMessage)]
        searches = [m for m in tool_msgs if _tool_name(m) in SEARCH_TOOLS]
        reads = [m for m in tool_msgs if _tool_name(m) in READ_TOOLS]
        calls: list[dict[str, Any]] = []
        if not searches:
            calls = self._search_calls(question, lang) or self._fallback_search(question)
        elif not reads:
            calls = self._read_calls(searches, lang)
            if not calls and len(searches) == 1:
                calls = self._refined_search(question)
        if calls:
            return AIMessage(
                content="", tool_calls=[self._call(c, messages, i) for i, c in enumerate(calls)]
            )
        return AIMessage(content=self.findings(question, tool_msgs))

    def _fallback_search(self, question: str) -> list[dict[str, Any]]:
        """Code search when the question names no identifier: a definition matching its key term."""
        if not self._has("search_code"):
            return []
        terms = sorted(
            (t for t in query_terms(question) if len(t) >= 5 and t.isalpha()), key=len, reverse=True
        )
        if not terms:
            return []
        pattern = rf"^\s*(class|def) \w*{re.escape(terms[0][:8])}"
        return [self._code_search(pattern, f"Searching the code for {terms[0]}")]

    def _refined_search(self, question: str) -> list[dict[str, Any]]:
        """The first search found nothing: search again with the three strongest terms only."""
        terms = [t for t in query_terms(question) if len(t) > 3][:3]
        if not terms:
            return []
        query = " ".join(terms)
        if self._has("search_docs"):
            return [self._docs_search(query, f"Searching again: {query}")]
        if self._has("search_support_articles"):
            return [self._kb_search(query, f"Searching again: {query}")]
        if self._has("search_code") and identifiers_in(question):
            return []
        return self._fallback_search(" ".join(terms[1:])) if len(terms) > 1 else []

    def findings(self, question: str, tool_msgs: list[ToolMessage]) -> str:
        """The best passages read, each cut to a couple of sentences and cited."""
        chosen = select_passages(tool_msgs)
        # A source that failed is reported, never condensed into "nothing relevant".
        failures = source_failures(tool_msgs, resolve_language(self.language, question))
        if not chosen and failures:
            return "\n".join(failures)
        if not chosen:
            searched = [json.dumps(m.name) for m in tool_msgs]
            return f"Nothing relevant found in the {self.kind} source (ran {', '.join(searched) or 'no searches'})."
        lines = []
        for p in chosen:
            label = p.title + (f" › {p.heading}" if p.heading else "")
            if p.kind == "code":
                code = "\n".join([ln for ln in p.text.splitlines() if ln.strip()][:8])
                lines.append(f"- {label} — `{p.cite}`\n{code_block(code, p.cite)}")
            else:
                lines.append(f"- **{label}**: {_sentences(p.text, 60)} — {p.cite}")
        return "\n".join(lines + failures)  # the researcher's condense step caps it at ~400 words


def _sentences(text: str, max_words: int) -> str:
    """The leading sentences of a passage, up to `max_words` words, on one line.

    A code block stands in as its first line, in a code span: a sentence that introduces one
    ("One of these when running `make dev`:") says nothing without it.
    """
    flat = re.sub(r"```[^`\n]*\n?(.*?)```", _first_code_line, text, flags=re.S)
    # Links inside a quoted passage are the page's, not our citations: keep their text only.
    flat = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", flat)
    flat = re.sub(r"(`[^`]*`)|https?://\S+", lambda m: m.group(1) or "", flat)
    flat = re.sub(r"\s+", " ", flat).strip()
    out: list[str] = []
    count = 0
    for sentence in re.split(r"(?<=[.!?])\s+", flat):
        n = len(sentence.split())
        if out and count + n > max_words:
            break
        out.append(" ".join(sentence.split()[:max_words]))
        count += n
    return " ".join(out)


def _first_code_line(block: re.Match[str]) -> str:
    """A fenced block's first non-blank line as a code span (its backticks dropped), or a space."""
    line = next((ln.strip() for ln in block.group(1).splitlines() if ln.strip()), "")
    return f" `{line.replace('`', '')[:120]}` " if line else " "


class OfflineOrchestratorModel(OfflineChatModel):
    """The offline model as the orchestrator: ask every researcher, then join their findings."""

    def plan(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """Dispatch all bound `ask_*` tools in one step; answer once their findings are in."""
        question, turn = current_turn(messages)
        lang = resolve_language(self.language, question)
        if not question.strip():
            return AIMessage(content=phrase("nothing", lang))
        findings = [m for m in turn if isinstance(m, ToolMessage)]
        if not findings and self.tool_names:
            calls = [
                {"name": n, "args": {"task": question.strip()[:1000]}}
                for n in self.tool_names
                if n.startswith("ask_")
            ]
            return AIMessage(
                content="", tool_calls=[self._call(c, messages, i) for i, c in enumerate(calls)]
            )
        return AIMessage(content=compose_deep_answer(findings, lang, self.failed_model))
