"""docs_answer — docs_agent for callers that want only the answer and its sources (MCP, scripts).

The server's MCP endpoint (`POST /mcp`) exposes every graph as a tool: the tool's arguments are the
graph's input schema and its result is `repr()` of the run's output. For docs_agent that output is
the conversation (`messages`), which Studio and chat UIs need; an IDE agent calling a tool wants a
question in and an answer out. This graph is that tool: input `{question}`, output
`{answer, sources, source_cards}` — the citation-checked answer of docs_agent (run as a subgraph,
no follow-up suggestions), the citations it contains, and those citations as source cards (title,
section path, where to open it: the same cards the chat page shows, graphs/source_cards.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import get_runtime
from typing_extensions import TypedDict

from graphs.citations import cited_sources
from graphs.context import Context, context_of
from graphs.docs_agent import graph as docs_agent
from graphs.source_cards import SourceCard


class AnswerInput(TypedDict):
    """A question about the product, in any language."""

    question: str


class AnswerOutput(TypedDict):
    """The checked answer (markdown), its citations, and a card per citation.

    `sources`: the citations as written (URLs, `KB <id>`, `path:start-end`); `source_cards`:
    `{ref, kind, title, section, url}` each (url None when no site is configured).
    """

    answer: str
    sources: list[str]
    source_cards: list[SourceCard]


class AnswerState(AnswerInput, AnswerOutput):
    """Input and output together."""


EMPTY_QUESTION = "The question is empty: ask something about the product."


def _request(state: AnswerInput) -> tuple[dict[str, Any], Context] | None:
    """docs_agent's input and context for the question (no suggestions), or None when it is empty."""
    question = str(state.get("question") or "").strip()
    if not question:
        return None
    ctx = dataclasses.replace(context_of(get_runtime(Context)), num_suggestions=0)
    return {"messages": [HumanMessage(question)]}, ctx


def _output(out: dict[str, Any]) -> AnswerOutput:
    """The final, checked answer of docs_agent, the sources cited in it and their cards.

    The cards are the ones the citation check wrote on the answer; `sources` are their refs, so
    both name the same citations. Without a check (no sources configured) the refs are read off
    the text and there are no cards.
    """
    last = out["messages"][-1] if out.get("messages") else None
    text = last.text if last is not None else ""
    cards = list((last.additional_kwargs.get("sources") if last is not None else None) or [])
    refs = [c["ref"] for c in cards] if cards else cited_sources(text, doc_paths=True)
    return {"answer": text, "sources": refs, "source_cards": cards}


async def answer(state: AnswerInput) -> AnswerOutput:
    """Run docs_agent on the question; keep only its final, checked answer and the sources in it."""
    request = _request(state)
    if request is None:
        return {"answer": EMPTY_QUESTION, "sources": [], "source_cards": []}
    # The run's config (callbacks, streaming) reaches the subgraph through the async context.
    return _output(await docs_agent.ainvoke(request[0], context=request[1]))


def answer_sync(state: AnswerInput) -> AnswerOutput:
    """`answer` for `invoke()`: the same steps through docs_agent's synchronous API."""
    request = _request(state)
    if request is None:
        return {"answer": EMPTY_QUESTION, "sources": [], "source_cards": []}
    return _output(docs_agent.invoke(request[0], context=request[1]))


builder = StateGraph(
    AnswerState, input_schema=AnswerInput, output_schema=AnswerOutput, context_schema=Context
)
# Both entry points, so `graph.invoke()` works as well as `ainvoke()` (a plain async node has no
# synchronous path, and LangGraph then refuses `invoke`).
builder.add_node("answer", RunnableLambda(answer_sync, afunc=answer, name="answer"))
builder.add_edge(START, "answer")
builder.add_edge("answer", END)
graph = builder.compile(name="docs_answer")
