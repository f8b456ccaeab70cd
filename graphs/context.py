"""Runtime context of both graphs: what a run may change (model, language, suggestions).

Unset fields take the deployment's defaults (settings/agent.py, read from the environment once),
so a deployment configures defaults once and a client or Studio overrides them per run
(`context={...}`). Field metadata drives Studio's form; `model` is annotated as an LLM picker
(`Annotated[str, {"__template_metadata__": {"kind": "llm"}}]`, as langchain-ai/react-agent does).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any

from graphs import model_policy
from settings import current


def default_model() -> str:
    """DOCS_AGENT_MODEL, else OpenAI when a key is set, else the built-in offline model."""
    return current().agent.default_model


@dataclass(kw_only=True)
class Context:
    """Per-run settings of docs_agent and deep_agent."""

    model: Annotated[str, {"__template_metadata__": {"kind": "llm"}}] = field(
        default="",
        metadata={
            "description": "Chat model as provider:model (e.g. openai:gpt-4.1-mini, "
            "anthropic:claude-sonnet-4-5) or 'offline' for the built-in extractive model. "
            "Default: DOCS_AGENT_MODEL, else OpenAI when OPENAI_API_KEY is set, else offline. "
            "Signed-in users choose among the deployment's models (DOCS_AGENT_ALLOWED_MODELS); "
            "guests cannot choose."
        },
    )
    fallback_models: str = field(
        default="",
        metadata={
            "description": "Comma-separated provider:model chain tried in order when the model "
            "fails (DOCS_AGENT_FALLBACK_MODELS); the same choice rules as `model`."
        },
    )
    language: str = field(
        default="",
        metadata={
            "description": "Answer language: 'auto' answers in the user's language, or a name "
            "such as 'English' (DOCS_AGENT_LANGUAGE)."
        },
    )
    num_suggestions: int = field(
        default=-1,
        metadata={
            "description": "Follow-up suggestions after each answer, 0 to switch off "
            "(DOCS_AGENT_NUM_SUGGESTIONS, default 3)."
        },
    )
    prune_history: bool | None = field(
        default=None,
        metadata={
            "description": "Keep only questions and final answers in the thread after each turn "
            "(DOCS_AGENT_PRUNE_HISTORY, default true)."
        },
    )

    def __post_init__(self) -> None:
        """Fill every unset field from the deployment's settings (one rule for all fields)."""
        settings = current().agent
        defaults: dict[str, Any] = {
            "model": settings.default_model,
            "fallback_models": settings.fallback_models,
            "language": settings.language,
            "num_suggestions": settings.num_suggestions,
            "prune_history": settings.prune_history,
        }
        for name, fallback in defaults.items():
            if _unset(getattr(self, name)):
                setattr(self, name, fallback)
        self.num_suggestions = max(0, min(int(self.num_suggestions), 10))
        # The model fields are text whatever a client sent (`{"model": 123}`), so the model
        # policy and the loader read them as text: an odd value is refused, never a crash.
        self.model, self.fallback_models = str(self.model), str(self.fallback_models)

    @property
    def fallback_chain(self) -> list[str]:
        """Fallback model specs in order."""
        return model_policy.spec_list(self.fallback_models)

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        """The JSON schema Studio's form reads, with the deployment's defaults, not the sentinels.

        A field's dataclass default is a sentinel ("" or -1: "not set by this run") so that the
        settings read at run time fill it; the form shows what an unset field will actually be.
        """
        schema: dict[str, Any] = handler(core_schema)
        properties = handler.resolve_ref_schema(schema).get("properties", {})
        resolved = cls()
        for name, prop in properties.items():
            if hasattr(resolved, name):
                prop["default"] = getattr(resolved, name)
        return schema

    @classmethod
    def field_names(cls) -> list[str]:
        """Names of the configurable fields."""
        return [f.name for f in fields(cls)]


def _unset(value: Any) -> bool:
    """Empty text, None, or a negative count: the run did not set this field."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, bool):
        return False
    return isinstance(value, int) and value < 0


def _requested_context(runtime: Any) -> Context:
    """The Context the run asked for, whatever shape the server delivered it in (unchecked)."""
    ctx = getattr(runtime, "context", None)
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, dict):
        known = {k: v for k, v in ctx.items() if k in Context.field_names()}
        return Context(**known)
    return Context()


def context_of(runtime: Any) -> Context:
    """The run's Context with its model choice checked (`graphs.model_policy`).

    A model the caller may not choose is replaced by the refusal (a model that answers why and
    calls nothing), with no suggestions; every reader of the Context goes through here.
    """
    ctx = _requested_context(runtime)
    chooser = model_policy.current_chooser()
    refused = model_policy.refused_spec(ctx.model, ctx.fallback_chain, chooser, current().agent)
    if refused is None:
        return ctx
    spec = model_policy.refusal_spec(chooser, refused)
    return replace(ctx, model=spec, fallback_models=spec, num_suggestions=0)
