"""Lean thread history: after the final answer only questions and answers stay in the thread.

Hand-written as an `after_agent` middleware because langchain's `ContextEditingMiddleware` only
edits what the model sees on each call (a `wrap_model_call` over request messages, replacing tool
results with a placeholder); the thread state keeps every tool dump. Here the tool calls and tool
results are removed from state with `RemoveMessage` once the turn is answered, so they live for
one turn. Switched by `Context.prune_history` (default on).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.messages import BaseMessage, RemoveMessage
from langgraph.runtime import Runtime

from graphs.context import context_of
from graphs.messages import is_ai

log = logging.getLogger(__name__)


def tool_traffic(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Messages that are not a user question or a final answer: tool results and tool-calling AI turns.

    The whole thread is scanned, not just this turn, so a turn that was cancelled half-way (its
    dangling tool calls would break the next model call on strict providers) is cleaned up too.
    Checked by `.type`, since streamed messages may be chunks rather than `AIMessage`.
    """
    return [
        m
        for m in messages
        if m.type in {"tool", "ToolMessageChunk"}
        or (is_ai(m) and (getattr(m, "tool_calls", None) or getattr(m, "invalid_tool_calls", None)))
    ]


class PruneHistoryMiddleware(AgentMiddleware):
    """After the agent answers, drop this thread's tool calls and tool results from state."""

    def after_agent(self, state: AgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """`RemoveMessage` for every tool message and tool-calling AI message, when enabled."""
        if not context_of(runtime).prune_history:
            return None
        messages = list(state.get("messages") or [])
        traffic = tool_traffic(messages)
        if not messages or not is_ai(messages[-1]) or messages[-1] in traffic:
            # No final answer (an error or an interrupted turn): keep the trail for the retry.
            return None
        removals = [RemoveMessage(id=m.id) for m in traffic if m.id]
        if not removals:
            return None
        log.debug("pruning %d tool messages from the thread", len(removals))
        return {"messages": removals}

    async def aafter_agent(self, state: AgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Async twin of `after_agent` (pure state work, no I/O)."""
        return self.after_agent(state, runtime)
