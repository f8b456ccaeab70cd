"""Swap in a role's offline model (deep_agent's orchestrator or a researcher) when the run is offline.

Sits inside `ContextModelMiddleware`, so it sees the model that middleware chose for the run; a
real model passes through unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse

from graphs.offline.model import OfflineChatModel


class OfflineRole(AgentMiddleware):
    """When the run's model is the plain offline model, swap in the role's offline variant."""

    def __init__(self, make: Callable[[OfflineChatModel], OfflineChatModel]) -> None:
        """`make` builds the role's offline model from the chosen one (keeping its language)."""
        super().__init__()
        self.make = make

    def _swap(self, request: ModelRequest) -> ModelRequest:
        model = request.model
        if type(model) is OfflineChatModel:
            role = self.make(model)
            if model.failed_model:  # a fallback: the role's answer says the configured model failed
                role = role.model_copy(update={"failed_model": model.failed_model})
            return request.override(model=role)
        return request

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Call with the role's offline model (or the real model unchanged)."""
        return handler(self._swap(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        return await handler(self._swap(request))
