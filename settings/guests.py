"""The guests section: anonymous readers of a public docs site (server/guest.py uses it).

Off unless `DOCS_AGENT_GUESTS` is true *and* `DOCS_AGENT_GUEST_SECRET` holds at least 32 bytes
that differ from `AUTH_JWT_SECRET`; switched on without them is a start error. The limits are
whole numbers above zero (checked only when guests are on, as before). The instant-search budget
of guests (`DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE`, `..._ADDRESS_SEARCHES_PER_MINUTE`) is its own
small section, checked whether guests are on or not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from settings.dotenv import configured_env
from settings.values import Reader, SettingError

MIN_SECRET_BYTES = 32

# field -> (environment variable, default) of the guest limits
LIMIT_VARIABLES = {
    "ttl_s": ("DOCS_AGENT_GUEST_TTL_S", 3600),
    "new_per_address_hour": ("DOCS_AGENT_GUEST_NEW_PER_ADDRESS_HOUR", 10),
    "requests_per_minute": ("DOCS_AGENT_GUEST_REQUESTS_PER_MINUTE", 120),
    "runs_per_hour": ("DOCS_AGENT_GUEST_RUNS_PER_HOUR", 20),
    "address_runs_per_hour": ("DOCS_AGENT_GUEST_ADDRESS_RUNS_PER_HOUR", 60),
}


class GuestConfigError(SettingError):
    """Guest mode asked for but not configured safely: the start must fail."""


@dataclass(frozen=True)
class GuestConfig:
    """Guest settings from the environment; `enabled` is False unless explicitly switched on."""

    enabled: bool = False
    secret: str = ""
    ttl_s: int = 3600
    new_per_address_hour: int = 10
    requests_per_minute: int = 120
    runs_per_hour: int = 20
    address_runs_per_hour: int = 60

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> GuestConfig:
        """Parse `DOCS_AGENT_GUEST*` of `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> GuestConfig:
        """Parse `DOCS_AGENT_GUEST*`; raise GuestConfigError when on without a strong secret."""
        enabled = reader.flag("DOCS_AGENT_GUESTS", False)
        secret = reader.raw("DOCS_AGENT_GUEST_SECRET") or ""
        user_secret = reader.raw("AUTH_JWT_SECRET")
        raw_limits = {name: reader.text(var) for name, (var, _) in LIMIT_VARIABLES.items()}
        if not enabled:
            return cls()
        if len(secret.encode()) < MIN_SECRET_BYTES:
            raise GuestConfigError(
                "DOCS_AGENT_GUESTS=true needs DOCS_AGENT_GUEST_SECRET of at least "
                f"{MIN_SECRET_BYTES} bytes (a long random value, not shared with AUTH_JWT_SECRET)."
            )
        if secret == user_secret:
            raise GuestConfigError("DOCS_AGENT_GUEST_SECRET must differ from AUTH_JWT_SECRET.")
        limits = {
            name: _positive(LIMIT_VARIABLES[name][0], raw, LIMIT_VARIABLES[name][1])
            for name, raw in raw_limits.items()
        }
        return cls(enabled=True, secret=secret, **limits)


def _positive(name: str, raw: str, default: int) -> int:
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GuestConfigError(f"{name} must be a whole number.") from None
    if value <= 0:
        raise GuestConfigError(f"{name} must be positive.")
    return value


@dataclass(frozen=True)
class SearchLimits:
    """Instant searches a guest (and all guests of one address) may make per minute."""

    per_guest_minute: int = 180
    per_address_minute: int = 600

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SearchLimits:
        """`DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE`, `DOCS_AGENT_GUEST_ADDRESS_SEARCHES_PER_MINUTE`."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> SearchLimits:
        """Both budgets; a value that is not a positive whole number is a start error."""

        def number(name: str, default: int) -> int:
            raw = reader.text(name)
            if not raw:
                return default
            if not raw.isdigit() or int(raw) <= 0:
                raise SettingError(f"{name} must be a positive whole number, not {raw!r}")
            return int(raw)

        return cls(
            number("DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE", cls.per_guest_minute),
            number("DOCS_AGENT_GUEST_ADDRESS_SEARCHES_PER_MINUTE", cls.per_address_minute),
        )
