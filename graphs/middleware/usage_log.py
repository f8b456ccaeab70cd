"""Log input, output and cached input tokens of each model call.

Providers report cached tokens in `usage_metadata` (`input_token_details.cache_read`); the message
keeps them in the thread too, this puts them in the server log.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse

log = logging.getLogger(__name__)


class UsageLogMiddleware(AgentMiddleware):
    """Log the token usage of every model response."""

    @staticmethod
    def _log(response: ModelResponse) -> ModelResponse:
        for message in response.result:
            usage = getattr(message, "usage_metadata", None)
            if usage:
                cached = (usage.get("input_token_details") or {}).get("cache_read", 0)
                log.info(
                    "model usage: input=%s cached=%s output=%s",
                    usage.get("input_tokens"),
                    cached,
                    usage.get("output_tokens"),
                )
        return response

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Log the usage of the response."""
        return self._log(handler(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        return self._log(await handler(request))
