"""The agent's section: models, answers, the limits of one turn, guardrails.

`SourceSettings` (settings/sources.py) configures the knowledge sources; this configures the agent
around them. `Context` (graphs/context.py) takes its per-run defaults from it, and the middleware
stack is built from it. The tuning numbers are lenient, as they always were: a value that does not
parse keeps the default (and the log names it); a flag that is not a flag is a start error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from settings.dotenv import configured_env
from settings.values import Reader

OFFLINE = "offline"
DEFAULT_OPENAI_MODEL = "openai:gpt-4.1-mini"

Kind = Literal["text", "flag", "whole", "number", "lower_words", "is_set"]

# field -> (environment variable, default, how it is read); the order is the .env.example order.
ENV: dict[str, tuple[str, Any, Kind]] = {
    "model": ("DOCS_AGENT_MODEL", "", "text"),
    "fallback_models": ("DOCS_AGENT_FALLBACK_MODELS", "", "text"),
    "allowed_models": ("DOCS_AGENT_ALLOWED_MODELS", "", "text"),
    "language": ("DOCS_AGENT_LANGUAGE", "auto", "text"),
    "num_suggestions": ("DOCS_AGENT_NUM_SUGGESTIONS", 3, "whole"),
    "prune_history": ("DOCS_AGENT_PRUNE_HISTORY", True, "flag"),
    "model_timeout_s": ("DOCS_AGENT_MODEL_TIMEOUT_S", 60.0, "number"),
    "model_retries": ("DOCS_AGENT_MODEL_RETRIES", 2, "whole"),
    "retry_initial_s": ("DOCS_AGENT_RETRY_INITIAL_S", 1.0, "number"),
    "retry_max_s": ("DOCS_AGENT_RETRY_MAX_S", 20.0, "number"),
    "max_model_calls": ("DOCS_AGENT_MAX_MODEL_CALLS", 8, "whole"),
    "max_tool_calls": ("DOCS_AGENT_MAX_TOOL_CALLS", 16, "whole"),
    "max_input_chars": ("DOCS_AGENT_MAX_INPUT_CHARS", 16_000, "whole"),
    "max_tool_chars": ("DOCS_AGENT_MAX_TOOL_CHARS", 16_000, "whole"),
    "history_tokens": ("DOCS_AGENT_HISTORY_TOKENS", 6_000, "whole"),
    "guardrails": ("DOCS_AGENT_GUARDRAILS", True, "flag"),
    "guardrails_model": ("DOCS_AGENT_GUARDRAILS_MODEL", "", "text"),
    "guardrails_allow": ("DOCS_AGENT_GUARDRAILS_ALLOW", (), "lower_words"),
    "openai_base_url": ("OPENAI_BASE_URL", "", "text"),
    "openai_api_key_set": ("OPENAI_API_KEY", False, "is_set"),
}


def _read(reader: Reader, variable: str, default: Any, kind: Kind) -> Any:
    if kind == "text":
        return reader.text(variable, default)
    if kind == "flag":
        return reader.flag(variable, default)
    if kind == "whole":
        return reader.whole(variable, default, lenient=True)
    if kind == "number":
        return reader.number(variable, default, lenient=True)
    if kind == "lower_words":
        return tuple(w.lower() for w in reader.words(variable))
    return bool(reader.text(variable))  # is_set


@dataclass(frozen=True, kw_only=True)
class AgentSettings:
    """Typed view of the environment; an unset or empty value keeps the default."""

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
    guardrails_allow: tuple[str, ...] = field(default=())
    openai_base_url: str = ""
    openai_api_key_set: bool = False

    @classmethod
    def read(cls, reader: Reader) -> AgentSettings:
        """Every variable of the `ENV` table, through `reader`."""
        return cls(**{name: _read(reader, *spec) for name, spec in ENV.items()})

    @classmethod
    def from_env(cls, env: Any = None) -> AgentSettings:
        """Parse the `ENV` table from `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @property
    def default_model(self) -> str:
        """DOCS_AGENT_MODEL, else OpenAI when a key is set, else the built-in offline model."""
        if self.model:
            return self.model
        return DEFAULT_OPENAI_MODEL if self.openai_api_key_set else OFFLINE
