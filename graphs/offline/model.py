"""The built-in offline model: a deterministic, extractive baseline that needs no API key.

Its passages are in `graphs.offline.passages`, its answers in `graphs.offline.answer`, its
suggestions in `graphs.offline.suggestions`, deep_agent's roles in `graphs.offline.roles`.

It is a real `BaseChatModel` (bind_tools, token streaming) that plays the agent's part by rules:
1. search docs and KB with the user's question (and code, when the question names an identifier);
2. read the best sources of the merged docs + KB ranking (the matching section of up to 3 pages,
   up to 2 articles) and the code that defines the symbol;
3. answer with one passage per source in that ranking's order, quoted and cited, under a first
   line saying plainly that this is an extractive answer because no model is configured.
Nothing is generated: every sentence in the answer comes from a source or from a fixed phrase.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from graphs.messages import current_turn
from graphs.offline.answer import compose_answer
from graphs.offline.language import phrase, resolve_language
from graphs.offline.ranking import RankedSource, ranked_sources
from graphs.offline.suggestions import is_suggestions_request, offline_suggestions
from tools.text import identifiers_in

_TOKEN_RE = re.compile(r"\s*\S+|\s+$")
# The answer streams a line per chunk (long lines in pieces of this many words), as a real model's
# tokens arrive but in readable units: every chunk is one event the server publishes (Aegra makes
# three Redis round trips per event), and a word-per-event stream of a 400-word quote costs the
# server more than composing it. Whole lines arrive at once, so quotes never flicker half-built.
MAX_WORDS_PER_CHUNK = 24
# How far down the merged docs + KB ranking the offline model reads: the top 5, so the answer can
# cite the right page whenever search ranks it there (the recall@5 the search is measured by).
READ_SOURCES = 5
MAX_PAGES = 3
MAX_ARTICLES = 2
MAX_TOOL_CALLS = 6  # a turn's searches and reads together: "3-6 tool calls for most questions"
# Files of a code root that are prose or data rows, not code: the code step never quotes them.
NON_CODE_SUFFIXES = (".md", ".mdx", ".rst", ".txt", ".jsonl", ".csv", ".tsv")
# The searches of a turn: while none of them has answered, the next plan searches, and the code
# step of that plan (`_code_step`) reads the docs index and symbol tables and may run ripgrep.
SEARCH_TOOLS = frozenset({"search_docs", "search_support_articles", "search_code"})


class OfflineChatModel(BaseChatModel):
    """Deterministic extractive model; see the module docstring for what it does."""

    tool_names: tuple[str, ...] = ()
    language: str = "auto"
    # The configured model this one stands in for when it is a fallback (its answer says so).
    failed_model: str = ""

    @property
    def _llm_type(self) -> str:
        return "docs-agent-offline"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> OfflineChatModel:
        """Remember which tools exist; the plan only calls those."""
        names = []
        for t in tools:
            if isinstance(t, BaseTool):
                names.append(t.name)
            elif isinstance(t, dict) and "name" in t:
                names.append(str(t["name"]))
            else:
                names.append(convert_to_openai_tool(t)["function"]["name"])
        return self.model_copy(update={"tool_names": tuple(names)})

    # -- planning ------------------------------------------------------------------------------

    def plan(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """The next step: tool calls for this turn, or the final answer."""
        if is_suggestions_request(messages):
            return AIMessage(content=offline_suggestions(messages, self.language))
        question, turn = current_turn(messages)
        lang = resolve_language(self.language, question)
        done = {m.name for m in turn if isinstance(m, ToolMessage)}
        calls: list[dict[str, Any]] = []
        if not question.strip():
            return AIMessage(content=phrase("nothing", lang))
        if not done & SEARCH_TOOLS:
            calls = self._search_calls(question, lang)
        elif not done & {"get_doc_page", "get_article_content", "read_code_file"}:
            calls = self._read_calls(turn, lang)
        if calls:
            return AIMessage(
                content="", tool_calls=[self._call(c, messages, i) for i, c in enumerate(calls)]
            )
        return AIMessage(content=compose_answer(question, turn, lang, self.failed_model))

    def _has(self, name: str) -> bool:
        return name in self.tool_names

    @staticmethod
    def _docs_search(query: str, feedback: str) -> dict[str, Any]:
        return {
            "name": "search_docs",
            "args": {"query": query, "limit": 5, "feedback_to_user": feedback},
        }

    @staticmethod
    def _kb_search(query: str, feedback: str) -> dict[str, Any]:
        return {
            "name": "search_support_articles",
            "args": {
                "query": query,
                "collections": "all",
                "limit": 10,
                "feedback_to_user": feedback,
            },
        }

    @staticmethod
    def _code_search(pattern: str, feedback: str) -> dict[str, Any]:
        return {
            "name": "search_code",
            "args": {"pattern": pattern, "path": None, "feedback_to_user": feedback},
        }

    def _search_calls(self, question: str, lang: str) -> list[dict[str, Any]]:
        """Docs and KB searches with the question; a code search when it points at code."""
        query = question.strip()[:500]
        calls = []
        if self._has("search_docs"):
            calls.append(self._docs_search(query, phrase("search_docs", lang)))
        if self._has("search_support_articles"):
            calls.append(self._kb_search(query, phrase("search_kb", lang)))
        code = _code_step(question) if self._has("search_code") else None
        if code:
            pattern, label = code
            calls.append(self._code_search(pattern, f"{phrase('search_code', lang)} {label}"))
        return calls

    def _hits(self, results: dict[str | None, ToolMessage], search: str, read: str) -> list[Any]:
        """A search's artifact hits, when there are any and the tool that reads them is bound."""
        msg = results.get(search)
        if msg is None or not isinstance(msg.artifact, list) or not self._has(read):
            return []
        return msg.artifact

    @staticmethod
    def _page_call(src: RankedSource, lang: str) -> dict[str, Any]:
        """Read the part of a page the search matched (its section and subsections)."""
        return {
            "name": "get_doc_page",
            "args": {
                "url_or_path": src.ref,
                "section": src.section_ref,
                "feedback_to_user": f"{phrase('read_page', lang)}: {src.title}",
            },
        }

    def _read_calls(self, turn: Sequence[BaseMessage], lang: str) -> list[dict[str, Any]]:
        """The best sources of the merged docs + KB ranking, and the code that defines the symbol.

        Reads go down the top READ_SOURCES hits in rank order — each docs page's matching section
        (one call each, up to MAX_PAGES) and the articles (up to MAX_ARTICLES, one call) — within
        a turn budget of MAX_TOOL_CALLS, searches included, with one read kept for the code when
        the code search found something. Sources left unread are quoted by their search snippet.
        """
        results = {m.name: m for m in turn if isinstance(m, ToolMessage)}
        # A Markdown or text file in a code root is documentation, which the docs and KB steps
        # search and cite already, and a data file (an eval set's questions) quotes the question
        # back: the code read is for code.
        files = [
            hit
            for hit in self._hits(results, "search_code", "read_code_file")
            if not str(hit.get("file", "")).lower().endswith(NON_CODE_SUFFIXES)
        ]
        budget = MAX_TOOL_CALLS - len(results) - (1 if files else 0)
        pages: list[RankedSource] = []
        ids: list[str] = []
        for src in ranked_sources(turn)[:READ_SOURCES]:
            if src.kind == "docs" and self._has("get_doc_page") and len(pages) < MAX_PAGES:
                if budget <= 0:
                    continue
                pages.append(src)
                budget -= 1
            elif src.kind == "kb" and self._has("get_article_content") and len(ids) < MAX_ARTICLES:
                if not ids:  # the first article opens the one call the others join
                    if budget <= 0:
                        continue
                    budget -= 1
                ids.append(src.ref)
        calls = [self._page_call(src, lang) for src in pages]
        if ids:
            calls.append(
                {
                    "name": "get_article_content",
                    "args": {"article_ids": ids, "feedback_to_user": phrase("read_kb", lang)},
                }
            )
        if files:
            top_file = files[0]
            # Start at the definition when the search saw one, else at the first match.
            anchors = top_file.get("definitions") or top_file.get("lines") or [1]
            calls.append(
                {
                    "name": "read_code_file",
                    "args": {
                        "file_path": top_file["file"],
                        "start_line": max(1, int(anchors[0]) - 2),
                        "num_lines": 40,
                        "feedback_to_user": f"{phrase('read_code', lang)} {top_file['file'].rsplit('/', 1)[-1]}",
                    },
                }
            )
        return calls

    @staticmethod
    def _call(call: dict[str, Any], messages: Sequence[BaseMessage], i: int) -> dict[str, Any]:
        seed = f"{len(messages)}|{call['name']}|{sorted(call['args'].items(), key=str)}|{i}"
        call_id = "call_" + hashlib.sha1(seed.encode()).hexdigest()[:16]
        return {"name": call["name"], "args": call["args"], "id": call_id, "type": "tool_call"}

    # -- BaseChatModel -------------------------------------------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.plan(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        yield from _chunks(self.plan(messages))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = await self._aplan(messages)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _may_search_code(self, messages: Sequence[BaseMessage]) -> bool:
        """Whether this step may run the code step: no search of the turn has answered yet.

        Not only a turn's first step: a turn can hold other tool results before any search (a
        user may write tool calls into their own thread, a model may list memories first), and
        then the next plan still searches. Errs on the side of the thread: a step it sends
        there needlessly costs a thread hop, one it keeps wrongly blocks every user's requests.
        """
        if not self._has("search_code") or is_suggestions_request(messages):
            return False
        turn = current_turn(messages)[1]
        return not any(isinstance(m, ToolMessage) and m.name in SEARCH_TOOLS for m in turn)

    async def _aplan(self, messages: Sequence[BaseMessage]) -> AIMessage:
        """`plan` on the event loop, or in a worker thread when it may search the code.

        The code step queries the docs index (SQLite), reads symbol tables and may run ripgrep
        (a subprocess): blocking I/O that must not hold the loop, which serves every user's
        requests (`tests/unit/graphs/offline/test_event_loop.py` runs whole turns under the
        detector `langgraph dev` uses). Every other step is a fraction of a millisecond of pure
        Python, which a thread cannot run any sooner (the GIL) but hands over with a delay: on a
        server that hop cost about 3 ms of the first answer line (paired runs on Aegra).
        """
        if self._may_search_code(messages):
            return await asyncio.to_thread(self.plan, messages)
        return self.plan(messages)

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        """Plans (`_aplan`), then yields the chunks.

        BaseChatModel's default `_astream` moves every chunk of `_stream` through the thread pool:
        one thread hop per chunk, which was most of a streamed offline answer's cost on a server.
        After each chunk the event loop gets a turn, as a provider's network read would give it:
        without one, the whole answer is produced before the stream's reader sees its first line.
        """
        for chunk in _chunks(await self._aplan(messages)):
            yield chunk
            await asyncio.sleep(0)


def _chunks(message: AIMessage) -> Iterator[ChatGenerationChunk]:
    """A planned message as stream chunks: its tool calls in one chunk, or its text a line each.

    The last chunk says it is the last (`chunk_position`), as a provider's final chunk does;
    otherwise langchain-core appends an empty one, one more event for the server to publish.
    """
    if message.tool_calls:
        chunk = AIMessageChunk(
            content="",
            tool_call_chunks=[
                {
                    "name": c["name"],
                    "args": _json(c["args"]),
                    "id": c["id"],
                    "index": i,
                    "type": "tool_call_chunk",
                }
                for i, c in enumerate(message.tool_calls)
            ],
            chunk_position="last",
        )
        yield ChatGenerationChunk(message=chunk)
        return
    pieces = list(_line_pieces(str(message.content))) or [""]
    for i, text in enumerate(pieces):
        last = i == len(pieces) - 1
        yield ChatGenerationChunk(
            message=AIMessageChunk(content=text, chunk_position="last" if last else None)
        )


def _line_pieces(text: str) -> Iterator[str]:
    """`text` in stream chunks: one per line, long lines cut every MAX_WORDS_PER_CHUNK words.

    The chunks join back into exactly `text`.
    """
    piece: list[str] = []
    for token in _TOKEN_RE.findall(text):
        if piece and (
            "\n" in token[: len(token) - len(token.lstrip())] or len(piece) >= MAX_WORDS_PER_CHUNK
        ):
            yield "".join(piece)
            piece = []
        piece.append(token)
    if piece:
        yield "".join(piece)


def _code_step(question: str) -> tuple[str, str] | None:
    """The code search for a question; None when nothing fits.

    Its named identifiers, the names the pages answering it mention, and the defined symbols its
    words point to (`tools.codebase.symbols`), over the configured code roots.
    """
    from tools import load_sources
    from tools.codebase.symbols import code_pattern

    try:
        sources = load_sources()
        roots = sources.code_roots
    except Exception:  # noqa: BLE001 — a broken source config must not stop the answer
        sources, roots = None, []
    if roots:
        # The symbol index chose: a bare product or builtin name it skipped (LangGraph, vLLM,
        # ValueError) would only find mentions of it, in comments, data and docs.
        pattern, names = code_pattern(question, roots, sources=sources)
        return (pattern, ", ".join(names[:3])) if pattern else None
    idents = identifiers_in(question)
    if idents:
        return r"\b" + re.escape(idents[0]) + r"\b", idents[0]
    return None


def _json(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False)
