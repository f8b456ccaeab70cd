"""The per-user limits section (server/limits.py enforces them at the server's door).

Lenient by design: a bad value keeps the default and the log names it, never a start error.
The limits are read by the auth module's handlers, and a limit that stays at its default stays
safe; a size cap is never switched off by a bad value (its floor is 1), the run limit by 0 only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from settings.dotenv import configured_env
from settings.values import Reader

DEFAULT_MAX_RUNS_PER_USER = 2  # a person has a question or two in flight, not a queue
DEFAULT_MAX_WRITE_CHARS = 64_000  # 4 x DOCS_AGENT_MAX_INPUT_CHARS: the graph cuts below this
DEFAULT_MAX_STORE_VALUE_CHARS = 4_000
# A request body's bytes, before any engine reads it: room for DOCS_AGENT_MAX_WRITE_CHARS of
# text even where a client escapes every character (`\uXXXX`, 6 bytes), and no more.
DEFAULT_MAX_REQUEST_BYTES = 512 * 1024

# field -> (environment variable, default, floor)
ENV = {
    "max_runs_per_user": ("DOCS_AGENT_MAX_RUNS_PER_USER", DEFAULT_MAX_RUNS_PER_USER, 0),
    "max_write_chars": ("DOCS_AGENT_MAX_WRITE_CHARS", DEFAULT_MAX_WRITE_CHARS, 1),
    "max_store_value_chars": (
        "DOCS_AGENT_MAX_STORE_VALUE_CHARS",
        DEFAULT_MAX_STORE_VALUE_CHARS,
        1,
    ),
    "max_request_bytes": ("DOCS_AGENT_MAX_REQUEST_BYTES", DEFAULT_MAX_REQUEST_BYTES, 1),
}


@dataclass(frozen=True)
class Limits:
    """The limits; 0 switches the run limit off (never the size caps)."""

    max_runs_per_user: int = DEFAULT_MAX_RUNS_PER_USER
    max_write_chars: int = DEFAULT_MAX_WRITE_CHARS
    max_store_value_chars: int = DEFAULT_MAX_STORE_VALUE_CHARS
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """Parse the variables of `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> Limits:
        """Parse the variables; a bad value keeps the default and logs an error naming it."""
        return cls(
            **{
                name: reader.whole(var, default, minimum=floor, lenient=True)
                for name, (var, default, floor) in ENV.items()
            }
        )
