"""The run's model from `Context.model`, falling back along `Context.fallback_models`.

Written here rather than using `ModelFallbackMiddleware` because that one fixes its chain at
build time, while the chain here is a per-run setting (Studio, `context={...}`). Like it, an
interrupt or other `GraphBubbleUp` passes straight through: it is control flow, not a failure.
When the offline model stands in for a model that failed, it is told which (its answer says so).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.language_models import BaseChatModel
from langgraph.errors import GraphBubbleUp

from graphs import models
from graphs.context import context_of
from graphs.offline.model import OfflineChatModel

log = logging.getLogger(__name__)


class ContextModelMiddleware(AgentMiddleware):
    """Call the context's model, then each fallback on failure."""

    def _candidates(self, request: ModelRequest) -> list[tuple[str, BaseChatModel]]:
        ctx = context_of(request.runtime)
        specs = [ctx.model, *ctx.fallback_chain]
        chosen = []
        for spec in dict.fromkeys(specs):
            try:
                # Through the module, so tests can swap `graphs.models.load_chat_model`.
                chosen.append((spec, models.for_context(models.load_chat_model(spec), ctx)))
            except Exception as exc:  # noqa: BLE001 — a bad spec must not hide a good fallback
                log.error("cannot load model %r: %s", spec, exc)
        if not chosen:
            raise ValueError(f"No usable model among {specs}; check DOCS_AGENT_MODEL.")
        return chosen

    @staticmethod
    def _standing_in(model: BaseChatModel, failed: str | None) -> BaseChatModel:
        """The offline model told which model it stands in for; any other model unchanged."""
        if failed and isinstance(model, OfflineChatModel):
            return model.model_copy(update={"failed_model": failed})
        return model

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Call the context's model, then each fallback on failure."""
        candidates = self._candidates(request)
        failed: str | None = None
        for i, (spec, model) in enumerate(candidates):
            try:
                return handler(request.override(model=self._standing_in(model, failed)))
            except GraphBubbleUp:
                raise
            except Exception as exc:
                if i == len(candidates) - 1:
                    raise
                failed = failed or spec
                log.warning("model %s failed (%s); falling back", models.model_name(model), exc)
        raise AssertionError("unreachable")

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        candidates = self._candidates(request)
        failed: str | None = None
        for i, (spec, model) in enumerate(candidates):
            try:
                return await handler(request.override(model=self._standing_in(model, failed)))
            except GraphBubbleUp:
                raise
            except Exception as exc:
                if i == len(candidates) - 1:
                    raise
                failed = failed or spec
                log.warning("model %s failed (%s); falling back", models.model_name(model), exc)
        raise AssertionError("unreachable")
