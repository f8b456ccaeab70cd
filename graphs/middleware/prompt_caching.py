"""Prompt caching for Anthropic models (a no-op for every other provider).

Why a wrapper around `AnthropicPromptCachingMiddleware`: `langchain_anthropic` (and the
`anthropic` SDK under it) costs seconds to import, which every server start would pay for a
provider most deployments never call. The wrapped middleware tags the system prompt and tools
with `cache_control`; OpenAI caches stable prefixes by itself, and the prompt keeps system
prompt and tools first for both.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import (
    AgentMiddleware,
    ModelCallResult,
    ModelRequest,
    ModelResponse,
)


class AnthropicCachingMiddleware(AgentMiddleware):
    """Anthropic's prompt-cache middleware, loaded only when a run actually uses an Anthropic model."""

    def __init__(self) -> None:
        """Nothing is imported until an Anthropic model is seen."""
        super().__init__()
        self._inner: AgentMiddleware[Any, Any] | None = None

    def _delegate(self, request: ModelRequest) -> AgentMiddleware[Any, Any] | None:
        if not type(request.model).__module__.startswith("langchain_anthropic"):
            return None
        if self._inner is None:
            from langchain_anthropic.middleware import AnthropicPromptCachingMiddleware

            self._inner = AnthropicPromptCachingMiddleware(unsupported_model_behavior="ignore")
        return self._inner

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelCallResult:
        """Add cache-control marks for Anthropic models; pass everything else through."""
        inner = self._delegate(request)
        return inner.wrap_model_call(request, handler) if inner else handler(request)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelCallResult:
        """Async twin of `wrap_model_call`."""
        inner = self._delegate(request)
        return await inner.awrap_model_call(request, handler) if inner else await handler(request)
