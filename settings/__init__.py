"""The one configuration path: every variable docs-agent reads, read once into typed sections.

At the bottom of the package (it imports nothing of graphs/, tools/ or server/), so every layer
reads its settings the same way:

- one `.env` reader with one documented precedence (settings/dotenv.py: `langgraph dev` lets
  `.env` win, Aegra the environment, a command reads it as `langgraph dev`);
- one vocabulary (settings/values.py): a flag is true/false, 1/0, yes/no or on/off, and any
  value that cannot be used is a `SettingError` naming the variable;
- one typed section per concern, each parsed the first time it is used, then kept for the
  process (restart a server after a change):

| section | variables | read by |
|---|---|---|
| `agent` (settings/agent.py) | models, answers, turn limits, guardrails | graphs/ |
| `memory` (settings/memory.py) | the memory tools and prompt block | tools/memory.py |
| `sources` (settings/sources.py) | docs, KB, code roots, index, live sources | tools/ (tools/settings.py checks the generator names) |
| `auth` (settings/auth.py) | `AUTH_*` | server/auth.py |
| `guests`, `guest_searches` (settings/guests.py) | `DOCS_AGENT_GUEST*` | server/guest.py, server/web/search.py |
| `limits` (settings/limits.py) | per-user limits | server/limits.py |
| `web` (settings/web.py) | embedding sites, first screen, trusted proxies | server/web/, server/client_address.py |
| `report` (settings/report.py) | turn-record lifetime, operators | graphs/middleware/turn_record.py, server/report_access.py |
| `client` (settings/client.py) | the server's URL and a token | commands/report.py |
| `stack` (settings/stack.py) | `make aegra`'s databases | commands/local_stack.py |

`current()` is the process's settings (from `configured_env()`); `Settings(env)` reads a given
mapping (tests, the check command). Every variable is listed, with its default, in `.env.example`
and docs/configuration.md; tests/unit/settings/test_variables.py proves the three agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property, lru_cache

from settings.agent import AgentSettings
from settings.auth import AuthConfig
from settings.client import ClientSettings
from settings.dotenv import configured_env
from settings.guests import GuestConfig, SearchLimits
from settings.limits import Limits
from settings.memory import MemorySettings
from settings.report import ReportSettings
from settings.sources import SourceSettings
from settings.stack import StackSettings
from settings.values import Reader, SettingError
from settings.web import WebSettings

__all__ = ["Settings", "SettingError", "current"]


class Settings:
    """Every section of one environment, each parsed on first use (errors name the variable)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        """Sections of `env`; nothing is parsed yet."""
        self.reader = Reader(env)

    @cached_property
    def agent(self) -> AgentSettings:
        """Models, answers, turn limits, guardrails, memory."""
        return AgentSettings.read(self.reader)

    @cached_property
    def memory(self) -> MemorySettings:
        """The per-user memory tools and prompt block."""
        return MemorySettings.read(self.reader)

    @cached_property
    def sources(self) -> SourceSettings:
        """Docs, KB, code roots, the index, live sources."""
        return SourceSettings.read(self.reader)

    @cached_property
    def auth(self) -> AuthConfig:
        """Who may call; AuthConfigError on anything that could open the server."""
        return AuthConfig.read(self.reader)

    @cached_property
    def guests(self) -> GuestConfig:
        """Guest mode and its limits."""
        return GuestConfig.read(self.reader)

    @cached_property
    def guest_searches(self) -> SearchLimits:
        """Guests' instant-search budget."""
        return SearchLimits.read(self.reader)

    @cached_property
    def limits(self) -> Limits:
        """Per-user limits (lenient: never a start error)."""
        return Limits.read(self.reader)

    @cached_property
    def web(self) -> WebSettings:
        """Embedding sites, first screen, trusted proxies, the page's address."""
        return WebSettings.read(self.reader)

    @cached_property
    def report(self) -> ReportSettings:
        """Turn-record lifetime and the report's operators."""
        return ReportSettings.read(self.reader)

    @cached_property
    def client(self) -> ClientSettings:
        """Where a command finds the server."""
        return ClientSettings.read(self.reader)

    @cached_property
    def stack(self) -> StackSettings:
        """`make aegra`'s databases and Aegra environment."""
        return StackSettings.read(self.reader)

    def check(self) -> list[str]:
        """Parse every section; the errors, one line each naming its variable (empty: all fine)."""
        errors: list[str] = []
        for name in SECTIONS:
            try:
                getattr(self, name)
            except SettingError as exc:
                errors.append(str(exc))
        return errors


SECTIONS = (
    "agent",
    "memory",
    "sources",
    "auth",
    "guests",
    "guest_searches",
    "limits",
    "web",
    "report",
    "client",
    "stack",
)


@lru_cache(maxsize=1)
def current() -> Settings:
    """The process's settings: the environment as the server sees it (settings/dotenv.py)."""
    return Settings(configured_env())
