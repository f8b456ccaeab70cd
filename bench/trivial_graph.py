"""The baseline for bench/load.py: one node that streams the configured model, nothing else.

Served by the same `langgraph dev` as docs_agent, so the difference in time-to-first-token between
the two is our graphs' own overhead (the dev server's ~1 s queue poll cancels out).
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import START, MessagesState, StateGraph

from graphs.context import default_model
from graphs.models import load_chat_model


async def answer(state: MessagesState) -> dict[str, Any]:
    """Stream one answer from the default model."""
    return {"messages": [await load_chat_model(default_model()).ainvoke(state["messages"])]}


graph = (
    StateGraph(MessagesState)
    .add_node("answer", answer)
    .add_edge(START, "answer")
    .compile(name="trivial")
)
