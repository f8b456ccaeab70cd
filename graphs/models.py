"""Chat models by `provider:model` string, and the built-in offline model when no key is set.

Models come from `init_chat_model`, so any provider langchain supports works by name; OpenAI
honours `OPENAI_BASE_URL` for any OpenAI-compatible server. `offline` is the built-in extractive
model (`graphs.offline`). The per-run choice and fallback chain is
`graphs.middleware.model_choice.ContextModelMiddleware`; which models a run may choose is
`graphs.model_policy`, and a refused choice loads as `RefusedChoiceModel`.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from langchain.chat_models import init_chat_model
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from graphs import model_policy
from graphs.context import Context, default_model
from graphs.offline.model import OfflineChatModel
from settings import current
from settings.agent import OFFLINE

log = logging.getLogger(__name__)

_cache: dict[tuple[str, bool], BaseChatModel] = {}
_cache_lock = threading.Lock()
_announced = False


def load_chat_model(spec: str, *, streaming: bool = True) -> BaseChatModel:
    """A chat model for `provider:model` (or `offline`), cached per (spec, streaming)."""
    spec = (spec or "").strip() or default_model()
    if model_policy.is_refusal(spec):
        # Not cached: its text names what a caller asked for, which is theirs to vary.
        return RefusedChoiceModel(spec=spec, text=model_policy.refusal_text(spec))
    key = (spec, streaming)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    if spec == OFFLINE:
        model: BaseChatModel = OfflineChatModel()
    else:
        settings = current().agent
        kwargs: dict[str, Any] = {}
        if spec.startswith("openai:") and settings.openai_base_url:
            kwargs["base_url"] = settings.openai_base_url
        if not streaming:
            kwargs["disable_streaming"] = True
        if spec.split(":", 1)[0] in {"openai", "anthropic", "azure_openai"}:
            # One retry layer, ours (graphs/middleware/retry.py: jitter, Retry-After, an honest
            # final message): SDK retries would multiply it and, with the SDK's 600 s default
            # timeout, keep a dead provider from ever reaching the fallback chain.
            kwargs["max_retries"] = 0
            kwargs["timeout"] = settings.model_timeout_s
        model = init_chat_model(spec, **kwargs)
    with _cache_lock:
        _cache[key] = model
    return model


class RefusedChoiceModel(BaseChatModel):
    """Stands in for a model the run may not choose: answers why, and calls nothing.

    A model rather than an error so the run ends like any other turn — the answer in the thread,
    the next question works — and no code path can reach the refused model through the Context.
    """

    spec: str
    text: str

    @property
    def _llm_type(self) -> str:
        return "docs-agent-refused-choice"

    def bind_tools(self, tools: Any, **kwargs: Any) -> RefusedChoiceModel:
        """It calls no tools; binding them changes nothing."""
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        log.warning("model choice refused: %s", self.spec)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.text))])


def for_context(model: BaseChatModel, ctx: Context) -> BaseChatModel:
    """The model as this run should use it: the offline model answers in the run's language."""
    if isinstance(model, OfflineChatModel) and model.language != ctx.language:
        return model.model_copy(update={"language": ctx.language})
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


def model_name(model: BaseChatModel) -> str:
    """A readable name of a model for logs."""
    return str(
        getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
    )
