"""Chat models by `provider:model` string, the offline fallback, and per-run model choice.

Models come from `init_chat_model`, so any provider langchain supports works by name; OpenAI
honours `OPENAI_BASE_URL` for any OpenAI-compatible server. `offline` is the built-in extractive
model, used when no key is configured.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel

from graphs.context import Context, default_model
from graphs.offline_model import OfflineChatModel

log = logging.getLogger(__name__)

OFFLINE = "offline"
_cache: dict[tuple[str, bool], BaseChatModel] = {}
_cache_lock = threading.Lock()
_announced = False


def load_chat_model(spec: str, *, streaming: bool = True) -> BaseChatModel:
    """A chat model for `provider:model` (or `offline`), cached per (spec, streaming)."""
    spec = (spec or "").strip() or default_model()
    key = (spec, streaming)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    if spec == OFFLINE:
        model: BaseChatModel = OfflineChatModel()
    else:
        kwargs: dict[str, Any] = {}
        if spec.startswith("openai:") and os.environ.get("OPENAI_BASE_URL"):
            kwargs["base_url"] = os.environ["OPENAI_BASE_URL"]
        if not streaming:
            kwargs["disable_streaming"] = True
        if spec.split(":", 1)[0] in {"openai", "anthropic", "azure_openai"}:
            # One retry layer, ours (graphs/resilience.py: jitter, Retry-After, an honest final
            # message): SDK retries would multiply it and, with the SDK's 600 s default timeout,
            # keep a dead provider from ever reaching the fallback chain.
            kwargs["max_retries"] = 0
            kwargs["timeout"] = float(os.environ.get("DOCS_AGENT_MODEL_TIMEOUT_S", "") or 60)
        model = init_chat_model(spec, **kwargs)
    with _cache_lock:
        _cache[key] = model
    return model


def announce_model() -> str:
    """Log once per process which model serves by default (the server calls this at start)."""
    global _announced
    spec = default_model()
    if not _announced:
        _announced = True
        if spec == OFFLINE:
            log.warning(
                "docs-agent model: offline (built-in extractive answers). Set OPENAI_API_KEY or "
                "DOCS_AGENT_MODEL=provider:model to use a real model."
            )
        else:
            log.warning("docs-agent model: %s", spec)
    return spec


def context_of(runtime: Any) -> Context:
    """The run's Context, whatever shape the server delivered it in."""
    ctx = getattr(runtime, "context", None)
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, dict):
        known = {k: v for k, v in ctx.items() if k in Context.field_names()}
        return Context(**known)
    return Context()


def _configure(model: BaseChatModel, ctx: Context) -> BaseChatModel:
    if isinstance(model, OfflineChatModel) and model.language != ctx.language:
        return model.model_copy(update={"language": ctx.language})
    return model


class ContextModelMiddleware(AgentMiddleware):
    """Pick the run's model from `Context.model` and fall back along `Context.fallback_models`.

    Written here rather than using `ModelFallbackMiddleware` because that one fixes its chain at
    build time, while the chain here is a per-run setting (Studio, `context={...}`).
    """

    def _candidates(self, request: ModelRequest) -> list[BaseChatModel]:
        ctx = context_of(request.runtime)
        specs = [ctx.model, *ctx.fallback_chain]
        models = []
        for spec in dict.fromkeys(specs):
            try:
                models.append(_configure(load_chat_model(spec), ctx))
            except Exception as exc:  # noqa: BLE001 — a bad spec must not hide a good fallback
                log.error("cannot load model %r: %s", spec, exc)
        if not models:
            raise ValueError(f"No usable model among {specs}; check DOCS_AGENT_MODEL.")
        return models

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Call the context's model, then each fallback on failure."""
        models = self._candidates(request)
        for i, model in enumerate(models):
            try:
                return handler(request.override(model=model))
            except Exception as exc:
                if i == len(models) - 1:
                    raise
                log.warning("model %s failed (%s); falling back", _name(model), exc)
        raise AssertionError("unreachable")

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        models = self._candidates(request)
        for i, model in enumerate(models):
            try:
                return await handler(request.override(model=model))
            except Exception as exc:
                if i == len(models) - 1:
                    raise
                log.warning("model %s failed (%s); falling back", _name(model), exc)
        raise AssertionError("unreachable")


def _name(model: BaseChatModel) -> str:
    return str(
        getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
    )
