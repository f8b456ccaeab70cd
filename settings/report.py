"""The report section: how long turn records are kept, and who may read them.

- `DOCS_AGENT_REPORT_TTL_DAYS` (default 90): a turn record's lifetime in the store (minutes there);
  lenient as it always was: a value that does not parse keeps the default, and the log names it.
- `AUTH_OPERATORS`: comma-separated user ids who read the answers report (empty: nobody).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from settings.dotenv import configured_env
from settings.values import Reader

DEFAULT_TTL_DAYS = 90.0


@dataclass(frozen=True)
class ReportSettings:
    """Turn-record lifetime and the report's operators."""

    ttl_days: float = DEFAULT_TTL_DAYS
    operators: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ReportSettings:
        """Parse the section from `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> ReportSettings:
        """Both variables, through `reader`."""
        return cls(
            ttl_days=reader.number("DOCS_AGENT_REPORT_TTL_DAYS", DEFAULT_TTL_DAYS, lenient=True),
            operators=frozenset(reader.words("AUTH_OPERATORS")),
        )

    @property
    def ttl_minutes(self) -> float:
        """Record lifetime in minutes (store TTLs are in minutes), at least one minute."""
        return max(self.ttl_days, 1 / 1440) * 1440
