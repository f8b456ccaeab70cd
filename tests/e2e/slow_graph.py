"""A test-only graph that waits: each run holds its place for as many seconds as the question says.

The run-limit e2e needs runs that stay pending or running for a known while without using the
CPU (the wait is `asyncio.sleep`), on both engines.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph

MAX_WAIT_S = 60.0


async def wait(state: MessagesState) -> dict[str, Any]:
    """Sleep for the number of seconds in the last message (at most MAX_WAIT_S), then say so."""
    try:
        seconds = min(MAX_WAIT_S, max(0.0, float(str(state["messages"][-1].content).strip())))
    except ValueError:
        seconds = 0.0
    await asyncio.sleep(seconds)
    return {"messages": [AIMessage(content=f"waited {seconds:g} s")]}


builder = StateGraph(MessagesState)
builder.add_node("wait", wait)
builder.add_edge(START, "wait")
builder.add_edge("wait", END)
graph = builder.compile(name="slow")
