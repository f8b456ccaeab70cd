"""The graphs' configuration: every `DOCS_AGENT_*` variable the graphs read, typed, in one table.

`tools/settings.py:SourceSettings` configures the knowledge sources; this configures the agent
around them (models, limits, guardrails, per-run defaults). `load_settings()` reads the
environment once per process; `Context` takes its per-run defaults from it, and the middleware
stack is built from it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

OFFLINE = "offline"
DEFAULT_OPENAI_MODEL = "openai:gpt-4.1-mini"


def _bool(value: str) -> bool:
    return value.strip().lower() not in {"0", "false", "no", "off"}


def _words(value: str) -> tuple[str, ...]:
    return tuple(w.strip().lower() for w in value.split(",") if w.strip())


# field -> (environment variable, default, parser); the order is the .env.example order.
ENV: dict[str, tuple[str, Any, Callable[[str], Any]]] = {
    "model": ("DOCS_AGENT_MODEL", "", str.strip),
    "fallback_models": ("DOCS_AGENT_FALLBACK_MODELS", "", str.strip),
    "allowed_models": ("DOCS_AGENT_ALLOWED_MODELS", "", str.strip),
    "language": ("DOCS_AGENT_LANGUAGE", "auto", str.strip),
    "num_suggestions": ("DOCS_AGENT_NUM_SUGGESTIONS", 3, int),
    "prune_history": ("DOCS_AGENT_PRUNE_HISTORY", True, _bool),
    "model_timeout_s": ("DOCS_AGENT_MODEL_TIMEOUT_S", 60.0, float),
    "model_retries": ("DOCS_AGENT_MODEL_RETRIES", 2, int),
    "retry_initial_s": ("DOCS_AGENT_RETRY_INITIAL_S", 1.0, float),
    "retry_max_s": ("DOCS_AGENT_RETRY_MAX_S", 20.0, float),
    "max_model_calls": ("DOCS_AGENT_MAX_MODEL_CALLS", 8, int),
    "max_tool_calls": ("DOCS_AGENT_MAX_TOOL_CALLS", 16, int),
    "max_input_chars": ("DOCS_AGENT_MAX_INPUT_CHARS", 16_000, int),
    "max_tool_chars": ("DOCS_AGENT_MAX_TOOL_CHARS", 16_000, int),
    "history_tokens": ("DOCS_AGENT_HISTORY_TOKENS", 6_000, int),
    "guardrails": ("DOCS_AGENT_GUARDRAILS", True, _bool),
    "guardrails_model": ("DOCS_AGENT_GUARDRAILS_MODEL", "", str.strip),
    "guardrails_allow": ("DOCS_AGENT_GUARDRAILS_ALLOW", (), _words),
    "openai_base_url": ("OPENAI_BASE_URL", "", str.strip),
    "openai_api_key_set": ("OPENAI_API_KEY", False, lambda v: bool(v.strip())),
}


@dataclass(frozen=True, kw_only=True)
class AgentSettings:
    """Typed view of the environment; an unset, empty or unparsable value keeps the default."""

    model: str = ""
    fallback_models: str = ""
    allowed_models: str = ""
    language: str = "auto"
    num_suggestions: int = 3
    prune_history: bool = True
    model_timeout_s: float = 60.0
    model_retries: int = 2
    retry_initial_s: float = 1.0
    retry_max_s: float = 20.0
    max_model_calls: int = 8
    max_tool_calls: int = 16
    max_input_chars: int = 16_000
    max_tool_chars: int = 16_000
    history_tokens: int = 6_000
    guardrails: bool = True
    guardrails_model: str = ""
    guardrails_allow: tuple[str, ...] = ()
    openai_base_url: str = ""
    openai_api_key_set: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AgentSettings:
        """Parse every variable of the `ENV` table from `env` (default: the process environment)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name, (var, default, parse) in ENV.items():
            raw = env.get(var, "")
            try:
                values[name] = parse(raw) if raw.strip() else default
            except ValueError:
                values[name] = default
            if values[name] == "" and default != "":
                values[name] = default
        return cls(**values)

    @property
    def default_model(self) -> str:
        """DOCS_AGENT_MODEL, else OpenAI when a key is set, else the built-in offline model."""
        if self.model:
            return self.model
        return DEFAULT_OPENAI_MODEL if self.openai_api_key_set else OFFLINE


@lru_cache(maxsize=1)
def load_settings() -> AgentSettings:
    """The process's settings, read from the environment on first use."""
    return AgentSettings.from_env()
