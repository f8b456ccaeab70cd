"""docs_answer — docs_agent for callers that want only the answer and its sources (MCP, scripts).

The server's MCP endpoint (`POST /mcp`) exposes every graph as a tool: the tool's arguments are the
graph's input schema and its result is `repr()` of the run's output. For docs_agent that output is
the conversation (`messages`), which Studio and chat UIs need; an IDE agent calling a tool wants a
question in and an answer out. This graph is that tool: input `{question}`, output
`{answer, sources}` — the citation-checked answer of docs_agent (run as a subgraph, no follow-up
suggestions) and the citations it contains.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from graphs.citations import cited_sources
from graphs.context import Context, context_of
from graphs.docs_agent import graph as docs_agent


class AnswerInput(TypedDict):
    """A question about the product, in any language."""

    question: str


class AnswerOutput(TypedDict):
    """The checked answer (markdown) and the citations in it (URLs, `KB <id>`, `path:start-end`)."""

    answer: str
    sources: list[str]


class AnswerState(AnswerInput, AnswerOutput):
    """Input and output together."""


async def answer(state: AnswerInput, runtime: Runtime[Context]) -> dict[str, Any]:
    """Run docs_agent on the question; keep only its final, checked answer and the sources in it."""
    question = str(state.get("question") or "").strip()
    if not question:
        return {"answer": "The question is empty: ask something about the product.", "sources": []}
    ctx = dataclasses.replace(context_of(runtime), num_suggestions=0)
    # The run's config (callbacks, streaming) reaches the subgraph through the async context.
    out = await docs_agent.ainvoke({"messages": [HumanMessage(question)]}, context=ctx)
    text = out["messages"][-1].text if out.get("messages") else ""
    return {"answer": text, "sources": cited_sources(text, doc_paths=True)}


builder = StateGraph(
    AnswerState, input_schema=AnswerInput, output_schema=AnswerOutput, context_schema=Context
)
builder.add_node("answer", answer)
builder.add_edge(START, "answer")
builder.add_edge("answer", END)
graph = builder.compile(name="docs_answer")
