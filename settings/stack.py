"""The local stack section: what `make aegra` serves on (commands/local_stack.py).

`DATABASE_URL` and `REDIS_URL` (empty: throw-away local ones are started), and
`DOCS_AGENT_AEGRA_VENV`, where `make aegra-install` put Aegra's Python 3.12 environment. Aegra
reads the first two itself as well; `make aegra` reads them as Aegra does (settings/dotenv.py:
the environment wins over `.env`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from settings.dotenv import REPO_ROOT, configured_env, resolve_path
from settings.values import Reader


@dataclass(frozen=True)
class StackSettings:
    """Databases to serve on ("" = start local ones) and the Aegra environment."""

    database_url: str = ""
    redis_url: str = ""
    aegra_venv: Path = field(default_factory=lambda: REPO_ROOT / ".venv-aegra")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> StackSettings:
        """Parse the section from `env` (default: the environment as a command sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> StackSettings:
        """The three variables, through `reader`."""
        venv = reader.text("DOCS_AGENT_AEGRA_VENV")
        return cls(
            database_url=reader.text("DATABASE_URL"),
            redis_url=reader.text("REDIS_URL"),
            aegra_venv=resolve_path(venv) if venv else REPO_ROOT / ".venv-aegra",
        )
