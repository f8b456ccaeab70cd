"""Keep each model request within a token budget of earlier conversation, however long the thread.

The thread keeps every question and answer (the user rereads them; history pruning already drops
tool traffic), but a real model is sent only the current turn and as many of the latest earlier
turns as fit `DOCS_AGENT_HISTORY_TOKENS`, cut at a question so no answer loses its question.
The request then stops growing once the budget is reached.

Why not langchain's `SummarizationMiddleware`: it rewrites the thread itself, replacing old
turns with a synthetic human message that chat UIs then show as something the user wrote, and
it spends a model call each time the budget is crossed. For a docs assistant, whose turns are
mostly independent questions, the latest turns are the context that matters; trimming the request
(langchain_core's `trim_messages`) costs nothing and changes nothing a user sees. The offline
model reads only the current question, so its requests pass through unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AnyMessage, BaseMessage, trim_messages
from langchain_core.messages.utils import count_tokens_approximately

from graphs.offline.model import OfflineChatModel


def _turn_start(messages: Sequence[BaseMessage]) -> int:
    """Index of the current question (the last human message), or 0."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].type == "human":
            return i
    return 0


def within_budget(messages: Sequence[AnyMessage], max_tokens: int) -> list[AnyMessage]:
    """The current turn whole, after the latest earlier turns that fit `max_tokens`."""
    start = _turn_start(messages)
    earlier, current = list(messages[:start]), list(messages[start:])
    if not earlier or count_tokens_approximately(earlier) <= max_tokens:
        return list(messages)
    kept = trim_messages(
        earlier,
        max_tokens=max_tokens,
        token_counter=count_tokens_approximately,
        strategy="last",
        start_on="human",
        allow_partial=False,
    )
    return [*cast("list[AnyMessage]", kept), *current]


class HistoryBudgetMiddleware(AgentMiddleware[Any, Any]):
    """Send a real model at most `max_tokens` of earlier turns; 0 switches the budget off."""

    def __init__(self, max_tokens: int) -> None:
        """Budget in approximate tokens (characters / 4, as langchain_core counts them)."""
        super().__init__()
        self.max_tokens = max_tokens

    def _trimmed(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        if self.max_tokens <= 0 or isinstance(request.model, OfflineChatModel):
            return request
        messages = within_budget(request.messages, self.max_tokens)
        if len(messages) == len(request.messages):
            return request
        return request.override(messages=messages)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        """Trim the request's earlier turns to the budget."""
        return handler(self._trimmed(request))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        """Trim the request's earlier turns to the budget."""
        return await handler(self._trimmed(request))
