"""The web section: the chat page, the widget's sites, the first screen, and the proxies trusted.

- `DOCS_AGENT_WEB_ORIGINS`: docs sites allowed to embed the assistant (comma-separated origins,
  never `*`); three things follow it (server/web/origins.py).
- `DOCS_AGENT_WEB_WELCOME`, `DOCS_AGENT_WEB_EXAMPLES` (joined by `|`), `DOCS_AGENT_WEB_DISCLAIMER`:
  the first screen (server/web/first_screen.py); each text at most 300 characters, 4 examples.
- `DOCS_AGENT_TRUSTED_PROXIES`: proxies whose `X-Forwarded-For` names the client for the
  per-address guest limits (server/client_address.py); IP addresses and CIDR networks.
- `LANGGRAPH_API_URL` (set by `langgraph dev`), `HOST`, `PORT`: where the page is served, for the
  start log's line.
A value that cannot be used is a start error naming the variable.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass

from settings.dotenv import configured_env
from settings.values import Reader, SettingError, split_list

ORIGINS = "DOCS_AGENT_WEB_ORIGINS"
TRUSTED_PROXIES = "DOCS_AGENT_TRUSTED_PROXIES"
MAX_EXAMPLES = 4
MAX_TEXT = 300

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_origins(raw: str) -> tuple[str, ...]:
    """Origins allowed to frame the page (comma-separated; never `*`); SettingError otherwise."""
    origins = tuple(o.rstrip("/") for o in split_list(raw))
    bad = [o for o in origins if "*" in o or not o.startswith(("https://", "http://"))]
    if bad:
        raise SettingError(
            f"{ORIGINS}: {', '.join(bad)} is not an origin like https://docs.example.com"
        )
    return origins


def parse_trusted_proxies(raw: str) -> tuple[Network, ...]:
    """`10.0.0.5, 10.1.0.0/16, ::1` → networks; SettingError naming the variable on anything else."""
    networks: list[Network] = []
    for entry in split_list(raw or ""):
        if "*" in entry:
            raise SettingError(
                f"{TRUSTED_PROXIES}: '*' would let every client choose its address; name the "
                "proxies' addresses or networks (e.g. 10.0.0.0/8)."
            )
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise SettingError(
                f"{TRUSTED_PROXIES}: {entry!r} is not an IP address or network (e.g. 127.0.0.1, "
                "10.0.0.0/8, ::1)."
            ) from None
    return tuple(networks)


@dataclass(frozen=True)
class WebSettings:
    """The web section (see the module docstring); None / () where unset."""

    origins: tuple[str, ...] = ()
    welcome: str | None = None
    examples: tuple[str, ...] = ()
    disclaimer: str | None = None
    trusted_proxies: tuple[Network, ...] = ()
    api_url: str = ""
    host: str = ""
    port: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WebSettings:
        """Parse the section from `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> WebSettings:
        """Every variable of the section, through `reader`."""

        def text(name: str) -> str | None:
            return reader.text(name)[:MAX_TEXT] or None

        examples = [
            e.strip()[:MAX_TEXT] for e in (reader.raw("DOCS_AGENT_WEB_EXAMPLES") or "").split("|")
        ]
        return cls(
            origins=parse_origins(reader.raw(ORIGINS) or ""),
            welcome=text("DOCS_AGENT_WEB_WELCOME"),
            examples=tuple(e for e in examples if e)[:MAX_EXAMPLES],
            disclaimer=text("DOCS_AGENT_WEB_DISCLAIMER"),
            trusted_proxies=parse_trusted_proxies(reader.raw(TRUSTED_PROXIES) or ""),
            api_url=reader.text("LANGGRAPH_API_URL").rstrip("/"),
            host=reader.text("HOST"),
            port=reader.text("PORT"),
        )
