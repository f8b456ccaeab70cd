"""Runtime context of both graphs: what a run may change (model, language, suggestions).

Unset fields come from environment variables, so a deployment configures defaults once and a
client or Studio overrides them per run (`context={...}`). Field metadata drives Studio's form.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


def default_model() -> str:
    """OpenAI when a key is set, the built-in offline model otherwise."""
    explicit = os.environ.get("DOCS_AGENT_MODEL", "").strip()
    if explicit:
        return explicit
    return "openai:gpt-4.1-mini" if os.environ.get("OPENAI_API_KEY") else "offline"


@dataclass(kw_only=True)
class Context:
    """Per-run settings of docs_agent and deep_agent."""

    model: str = field(
        default="",
        metadata={
            "description": "Chat model as provider:model (e.g. openai:gpt-4.1-mini, "
            "anthropic:claude-sonnet-4-5) or 'offline' for the built-in extractive model. "
            "Default: DOCS_AGENT_MODEL, else OpenAI when OPENAI_API_KEY is set, else offline."
        },
    )
    fallback_models: str = field(
        default="",
        metadata={
            "description": "Comma-separated provider:model chain tried in order when the model "
            "fails (DOCS_AGENT_FALLBACK_MODELS)."
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
        """Fill unset fields from the environment."""
        env = os.environ
        if not self.model:
            self.model = default_model()
        if not self.fallback_models:
            self.fallback_models = env.get("DOCS_AGENT_FALLBACK_MODELS", "").strip()
        if not self.language:
            self.language = env.get("DOCS_AGENT_LANGUAGE", "auto").strip() or "auto"
        if self.num_suggestions is None or int(self.num_suggestions) < 0:
            self.num_suggestions = int(env.get("DOCS_AGENT_NUM_SUGGESTIONS", "3") or 3)
        self.num_suggestions = max(0, min(int(self.num_suggestions), 10))
        if self.prune_history is None:
            self.prune_history = env.get(
                "DOCS_AGENT_PRUNE_HISTORY", "true"
            ).strip().lower() not in {"0", "false", "no", "off"}

    @property
    def fallback_chain(self) -> list[str]:
        """Fallback model specs in order."""
        return [m.strip() for m in self.fallback_models.split(",") if m.strip()]

    @classmethod
    def field_names(cls) -> list[str]:
        """Names of the configurable fields."""
        return [f.name for f in fields(cls)]
