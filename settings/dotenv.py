"""The one `.env` reader, and the one rule for which value wins.

Who loads `.env`, and what wins when a variable is both in the file and in the environment:

| process | who reads `.env` | which wins |
|---|---|---|
| `langgraph dev` / LangGraph Server | the engine, from `langgraph.json` → `env` | the file |
| Aegra | the engine, from the `.env` beside its config | the environment |
| a command (`make index`, `make refresh`, `make report`, the benches) | this module | the file, as under `langgraph dev` |
| `make aegra`'s start check (`python -m commands.check_auth --env-file .env`) | this module | the environment, as Aegra |

Inside a server the engine has loaded the file into the process environment already (from the
file its own config names), so `configured_env()` reads the environment alone and never the file
a second time. Elsewhere it reads the file named by `DOCS_AGENT_ENV_FILE` (empty: none), else the
repository's `.env` when there is one, with the file winning, so a command sees what
`langgraph dev` would. Both engines read the file with python-dotenv, which is why this does too
(it comes with langgraph-cli and with Aegra).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# A process that has one of these loaded is a server: its engine loaded `.env` already.
SERVER_MODULES = ("langgraph_api", "aegra_api")


def resolve_path(value: str) -> Path:
    """A configured path: `~` expanded, relative paths taken from the repository root."""
    path = Path(value).expanduser()
    return path if path.is_absolute() else (REPO_ROOT / path)


def in_server() -> bool:
    """True when an engine (langgraph-api or Aegra) has loaded this process's code."""
    return any(name in sys.modules for name in SERVER_MODULES)


def env_file() -> Path | None:
    """The `.env` a command reads: `DOCS_AGENT_ENV_FILE` (empty: none), else the repository's."""
    name = os.environ.get("DOCS_AGENT_ENV_FILE")
    if name is not None:
        return resolve_path(name) if name.strip() else None
    path = REPO_ROOT / ".env"
    return path if path.is_file() else None


def read_env_file(path: Path) -> dict[str, str]:
    """`KEY=value` lines of a `.env` file as python-dotenv reads them (both engines use it).

    Keys keep their case as written: both engines load them that way, which is why the auth
    settings look for misspelled names in any case (settings/auth.py).
    """
    from dotenv import dotenv_values  # noqa: PLC0415 - only commands read the file themselves

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


def effective_env(base: Mapping[str, str], path: Path | None, *, file_wins: bool) -> dict[str, str]:
    """`base` with the file's values: over it (`langgraph dev`) or only where unset (Aegra)."""
    env = dict(base)
    if path is not None and path.is_file():
        for key, value in read_env_file(path).items():
            if file_wins or key not in env:
                env[key] = value
    return env


def configured_env() -> Mapping[str, str]:
    """The environment as a server sees it (see the module docstring for the precedence)."""
    path = env_file()
    if path is None or in_server():
        return os.environ
    return effective_env(os.environ, path, file_wins=True)
