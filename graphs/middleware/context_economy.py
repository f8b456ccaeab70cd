"""The orchestrator's context economy of a turn: what it was sent against what its researchers read.

Recorded in state (`context_economy`, internal) after deep_agent's orchestrator finishes, so a
benchmark or a developer can see that raw search output never reaches the orchestrator. Tokens
are estimated as characters / 4.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, NotRequired

from langchain.agents import AgentState
from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.runtime import Runtime

from graphs.messages import current_turn

CHARS_PER_TOKEN = 4


class ContextEconomyState(AgentState[Any]):
    """The agent's state plus the last turn's context economy (internal: not in the output schema)."""

    context_economy: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]


def message_chars(message: BaseMessage) -> int:
    """Characters a message costs in a model call: its text plus its tool calls' names and args."""
    chars = len(message.text)
    if isinstance(message, AIMessage) and message.tool_calls:
        chars += sum(
            len(c["name"]) + len(json.dumps(c["args"], ensure_ascii=False))
            for c in message.tool_calls
        )
    return chars


class ContextEconomyMiddleware(AgentMiddleware[ContextEconomyState, Any]):
    """Record per model call the orchestrator's input estimate and per researcher what it read."""

    state_schema = ContextEconomyState

    def __init__(self, overhead_chars: int) -> None:
        """`overhead_chars`: the system prompt and tool schemas sent with every call."""
        super().__init__()
        self.overhead_chars = overhead_chars

    @classmethod
    def for_prompt(cls, prompt: str, tools: Sequence[BaseTool]) -> ContextEconomyMiddleware:
        """The middleware for an agent with this system prompt and these tools (OpenAI format)."""
        return cls(len(prompt) + sum(len(json.dumps(convert_to_openai_tool(t))) for t in tools))

    def after_agent(
        self, state: ContextEconomyState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Store the turn's economy (pure state work, no I/O)."""
        messages = state["messages"]
        _, turn = current_turn(messages)
        before = len(messages) - len(turn)
        per_call = [
            (self.overhead_chars + sum(message_chars(m) for m in messages[: before + i]))
            // CHARS_PER_TOKEN
            for i, m in enumerate(turn)
            if isinstance(m, AIMessage)
        ]
        reads: dict[str, int] = {}
        for m in turn:
            art = m.artifact if isinstance(m, ToolMessage) else None
            if isinstance(art, dict) and "researcher" in art:
                name = str(art["researcher"])
                reads[name] = (
                    reads.get(name, 0) + int(art.get("read_chars") or 0) // CHARS_PER_TOKEN
                )
        return {
            "context_economy": {
                "token_estimate": "chars/4",
                "orchestrator_input_tokens_per_call": per_call,
                "orchestrator_max_input_tokens": max(per_call, default=0),
                "subagent_read_tokens": reads,
                "subagent_read_tokens_total": sum(reads.values()),
            }
        }

    async def aafter_agent(
        self, state: ContextEconomyState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `after_agent`."""
        return self.after_agent(state, runtime)
