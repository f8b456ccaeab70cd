"""The client section: where a command finds the server, and with which token.

`DOCS_AGENT_URL` (default `http://127.0.0.1:8123`) and `DOCS_AGENT_TOKEN` (a bearer token, e.g. an
operator's for `make report`). client_examples/ read the same two names on their own: they are
examples to copy, so they stay free of this package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from settings.dotenv import configured_env
from settings.values import Reader

DEFAULT_URL = "http://127.0.0.1:8123"


@dataclass(frozen=True)
class ClientSettings:
    """The server's URL and a bearer token ("" when none)."""

    url: str = DEFAULT_URL
    token: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ClientSettings:
        """Parse the section from `env` (default: the environment as a command sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> ClientSettings:
        """Both variables, through `reader`."""
        return cls(
            url=reader.text("DOCS_AGENT_URL", DEFAULT_URL), token=reader.text("DOCS_AGENT_TOKEN")
        )
