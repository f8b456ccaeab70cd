"""End a runaway model ⇄ tools loop with an answer, not `GraphRecursionError`.

Hand-written instead of `ModelCallLimitMiddleware`/`ToolCallLimitMiddleware`: those add three
graph nodes per model ⇄ tools loop (before_model, 2× after_model), so under docs_agent's recursion
limit of 25 a long loop hit `GraphRecursionError` after ~4 rounds, before their limit. Counting this
turn's AI and tool messages inside the model call adds no node, and the last allowed call runs
without tools, so the turn ends with an answer from what was found.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, HumanMessage

log = logging.getLogger(__name__)

LIMIT_NOTE = (
    "The tool budget for this question is spent. Answer now from the material above; say plainly "
    "what you could not check."
)


def _turn_counts(messages: list[Any]) -> tuple[int, int]:
    """(model calls, tool calls) since the newest human message."""
    start = 0
    for i in range(len(messages) - 1, -1, -1):
        if getattr(messages[i], "type", "") == "human":
            start = i + 1
            break
    turn = messages[start:]
    return sum(1 for m in turn if getattr(m, "type", "") == "ai"), sum(
        1 for m in turn if getattr(m, "type", "") == "tool"
    )


class TurnLimitMiddleware(AgentMiddleware):
    """Answer without tools once the turn's budget is spent.

    When this turn has used `max_model_calls - 1` model calls or `max_tool_calls` tool calls, the
    model is called once more without tools and told to answer; if it still asks for tools, the
    turn ends with an honest note.
    """

    def __init__(self, max_model_calls: int = 8, max_tool_calls: int = 16) -> None:
        """Limits per turn (one user question)."""
        super().__init__()
        self.max_model_calls = max(2, max_model_calls)
        self.max_tool_calls = max(1, max_tool_calls)

    def _limited(self, request: ModelRequest) -> ModelRequest | None:
        model_calls, tool_calls = _turn_counts(list(request.messages))
        if model_calls + 1 < self.max_model_calls and tool_calls < self.max_tool_calls:
            return None
        log.warning(
            "turn limit reached (%d model calls, %d tool calls): answering without tools",
            model_calls,
            tool_calls,
        )
        return request.override(
            tools=[], messages=[*request.messages, HumanMessage(content=LIMIT_NOTE)]
        )

    def _final(self, response: ModelResponse) -> ModelResponse:
        for message in response.result:
            if isinstance(message, AIMessage) and (
                message.tool_calls or message.invalid_tool_calls
            ):
                return ModelResponse(
                    result=[
                        AIMessage(
                            content=(
                                f"I stopped after {self.max_model_calls} steps without reaching a final answer. "
                                "Please ask a narrower question, or name the page, article or file to look at."
                            )
                        )
                    ]
                )
        return response

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Call the model, without tools once the turn's budget is spent."""
        limited = self._limited(request)
        if limited is None:
            return handler(request)
        return self._final(handler(limited))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        limited = self._limited(request)
        if limited is None:
            return await handler(request)
        return self._final(await handler(limited))
