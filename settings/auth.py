"""The auth section: the `AUTH_*` variables, parsed and checked so that auth never opens by accident.

Who may call (server/credentials.py resolves a request against this) is configured by static
bearer tokens (`AUTH_TOKENS="token:user_id,..."`) or a JWT key (HS256 `AUTH_JWT_SECRET`, RS256
`AUTH_JWKS_URL`; `AUTH_JWT_AUDIENCE`, `AUTH_JWT_ISSUER`, `AUTH_JWT_MAX_LIFETIME_S`). With none of
them the server runs in dev mode, which only the local `langgraph dev` server starts unasked
(`AUTH_DEV_MODE=true` elsewhere; `false` forbids it there too).

Everything that could leave a server open or ambiguous is an `AuthConfigError` naming the variable:
a set-but-blank value (under `langgraph dev` a `.env` value wins over the environment, so
`AUTH_TOKENS=` in `.env` must not switch auth off), a name that reads as an auth setting but is
not one of `KNOWN_VARIABLES` exactly (`AUTH_TOKEN`, `auth_tokens`, `DOCS_AGENT_AUTH_TOKENS`),
audience/issuer without a key, duplicate, short, copied or patterned tokens and secrets, a JWKS
URL over plain http. `AUTH_DEV_MODE` is a flag of the one vocabulary (settings/values.py).
What a server does with a refused configuration depends on the engine: server/auth.py.
"""

from __future__ import annotations

import difflib
import ipaddress
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlparse

from settings.dotenv import configured_env
from settings.engine import is_local_dev_server
from settings.values import FALSE_WORDS, FLAG_WORDS, TRUE_WORDS, Reader, SettingError

MIN_TOKEN_CHARS = 16
MIN_SECRET_BYTES = 32  # RFC 7518 §3.2: an HS256 key must be at least 256 bits
# Fewer distinct characters than these is a run or a pattern, not a random value: 16 random hex
# characters fall under 6 distinct once in ~30,000 draws, 32 under 8 practically never.
MIN_DISTINCT_TOKEN_CHARS = 6
MIN_DISTINCT_SECRET_CHARS = 8
# The placeholder values our own examples show (.env.example, docker-compose.yml, docs/): a copy
# of an example is not a secret. Matched case-insensitively anywhere in a token or secret.
PLACEHOLDER_MARKERS = (
    "change-me",
    "changeme",
    "long-random",
    "random chars",
    "...",
    "<",
    ">",
    "your-token",
    "your-secret",
    "replace-me",
)
# RFC 6750 §2.1 b64token: what a client can send after `Bearer ` byte for byte.
_B64TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
# A name that reads as one of our settings whatever its case, separators, spaces or prefix — ours
# or the platform's, which a deployer copies from its docs: `auth_tokens`, `AUTHTOKENS`,
# ` AUTH_TOKENS`, `DOCS_AGENT_AUTH_TOKENS`, `LANGGRAPH_AUTH_TOKENS`. Other tools' names that merely
# contain AUTH (`SENTRY_AUTH_TOKEN`, `TWILIO_AUTH_TOKEN`, `NGROK_AUTHTOKEN`, `SSH_AUTH_SOCK`, and
# the platform's own `LANGGRAPH_AUTH` and `LANGGRAPH_AUTH_TYPE`) are not ours and pass.
_OUR_PREFIXES = ("", "DOCSAGENT", "LANGGRAPH")
_SETTING_STEMS = ("TOKEN", "JWT", "JWKS", "SECRET", "DEV")
DEFAULT_MAX_LIFETIME_S = 24 * 3600

KNOWN_VARIABLES = frozenset(
    {
        "AUTH_TOKENS",
        "AUTH_JWT_SECRET",
        "AUTH_JWKS_URL",
        "AUTH_JWT_AUDIENCE",
        "AUTH_JWT_ISSUER",
        "AUTH_JWT_MAX_LIFETIME_S",
        "AUTH_DEV_MODE",
        # Who may read the answers report (server/report_access.py).
        "AUTH_OPERATORS",
        # Aegra's own switch (`noop`/`custom`); it changes nothing for this module's handlers.
        "AUTH_TYPE",
    }
)


class AuthConfigError(SettingError):
    """An auth setting that would leave the server open or ambiguous: the start must fail."""


@dataclass(frozen=True)
class AuthConfig:
    """Auth settings read from the environment; `dev_mode` only when nothing is configured."""

    tokens: Mapping[str, str] = field(default_factory=dict)
    jwt_secret: str = ""
    jwks_url: str = ""
    audience: str = ""
    issuer: str = ""
    max_lifetime_s: int = DEFAULT_MAX_LIFETIME_S

    @property
    def dev_mode(self) -> bool:
        """True when no credential source is configured (every request accepted)."""
        return not (self.tokens or self.jwt_secret or self.jwks_url)

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, local_dev: bool | None = None
    ) -> AuthConfig:
        """Parse and check `AUTH_*` of `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env), local_dev=local_dev)

    @classmethod
    def read(cls, reader: Reader, *, local_dev: bool | None = None) -> AuthConfig:
        """Parse and check `AUTH_*`; raise AuthConfigError on anything that could open the server.

        `local_dev` (default: detected from the environment) says whether this is the in-memory
        `langgraph dev` server, the only place dev mode starts without `AUTH_DEV_MODE=true`.
        """
        env = reader.env
        if local_dev is None:
            local_dev = is_local_dev_server(env)
        for name in sorted(KNOWN_VARIABLES):
            reader.raw(name)  # each is read here: an unset one keeps its default
        present = reader.names("AUTH_")
        unknown = sorted(k for k in env if k not in KNOWN_VARIABLES and looks_like_auth_setting(k))
        if unknown:
            shown = [repr(k) if k != k.strip() or not k.isprintable() else k for k in unknown]
            hints = [
                f"{name} → {hint}"
                for name, raw in zip(shown, unknown, strict=True)
                if (hint := closest_known_variable(raw))
            ]
            raise AuthConfigError(
                f"Unknown auth variable(s) {', '.join(shown)}"
                + (f" (did you mean: {'; '.join(hints)}?)" if hints else "")
                + f": known are {', '.join(sorted(KNOWN_VARIABLES))}, exactly so spelled (upper"
                " case, no prefix — not even the platform's LANGGRAPH_ — no spaces). Fix the name"
                " or remove it."
            )
        for name, value in present.items():
            if not value.strip():
                raise AuthConfigError(
                    f"{name} is set but blank. Give it a value or remove it (a blank value never "
                    "switches auth off; under `langgraph dev` a .env entry wins over the environment)."
                )
        config = cls(
            tokens=_parse_tokens(present.get("AUTH_TOKENS", "")),
            jwt_secret=present.get("AUTH_JWT_SECRET", ""),
            jwks_url=present.get("AUTH_JWKS_URL", "").strip(),
            audience=present.get("AUTH_JWT_AUDIENCE", "").strip(),
            issuer=present.get("AUTH_JWT_ISSUER", "").strip(),
            max_lifetime_s=_parse_lifetime(present.get("AUTH_JWT_MAX_LIFETIME_S")),
        )
        config._check(present, local_dev=local_dev)
        return config

    def _check(self, present: Mapping[str, str], *, local_dev: bool) -> None:
        if self.jwt_secret and len(self.jwt_secret.encode()) < MIN_SECRET_BYTES:
            raise AuthConfigError(
                f"AUTH_JWT_SECRET is shorter than {MIN_SECRET_BYTES} bytes; use a long random secret."
            )
        if self.jwt_secret != self.jwt_secret.strip():
            raise AuthConfigError("AUTH_JWT_SECRET has leading or trailing whitespace.")
        if self.jwt_secret:
            if not self.jwt_secret.isprintable():
                raise AuthConfigError(
                    "AUTH_JWT_SECRET holds invisible or control characters; use a random secret."
                )
            _check_guessable(
                "AUTH_JWT_SECRET", "the secret", self.jwt_secret, MIN_DISTINCT_SECRET_CHARS
            )
        if self.jwks_url:
            _check_jwks_url(self.jwks_url)
        for name, value in (("AUTH_JWT_AUDIENCE", self.audience), ("AUTH_JWT_ISSUER", self.issuer)):
            if value and not value.isprintable():
                raise AuthConfigError(f"{name} holds invisible or control characters.")
        if not (self.jwt_secret or self.jwks_url):
            for name in ("AUTH_JWT_AUDIENCE", "AUTH_JWT_ISSUER", "AUTH_JWT_MAX_LIFETIME_S"):
                if name in present:
                    raise AuthConfigError(
                        f"{name} is set but no JWT key is: set AUTH_JWT_SECRET or AUTH_JWKS_URL."
                    )
        dev_flag = _dev_flag(present.get("AUTH_DEV_MODE"))
        if dev_flag is True and not self.dev_mode:
            raise AuthConfigError(
                "AUTH_DEV_MODE=true together with credentials: remove one of them."
            )
        if self.dev_mode and not (dev_flag is True or (local_dev and dev_flag is not False)):
            where = (
                "AUTH_DEV_MODE=false forbids dev mode"
                if dev_flag is False
                else "this is not the local `langgraph dev` server"
            )
            raise AuthConfigError(
                f"No auth configured and {where}: set AUTH_TOKENS, AUTH_JWT_SECRET or AUTH_JWKS_URL"
                " (or AUTH_DEV_MODE=true to serve every request unauthenticated, never in production)."
            )

    def describe(self) -> str:
        """Which credential sources are on, for the start-up log (no secrets)."""
        parts = []
        if self.tokens:
            parts.append(f"{len(self.tokens)} static token(s)")
        if self.jwt_secret:
            parts.append("JWT HS256")
        if self.jwks_url:
            parts.append(f"JWT RS256 via {self.jwks_url}")
        return ", ".join(parts) or "dev mode"


def _dev_flag(raw: str | None) -> bool | None:
    """`AUTH_DEV_MODE` as a flag of the one vocabulary; None when unset (blank fails earlier)."""
    if raw is None:
        return None
    word = raw.strip().lower()
    if word not in TRUE_WORDS | FALSE_WORDS:
        raise AuthConfigError(f"AUTH_DEV_MODE must be true or false ({FLAG_WORDS}).")
    return word in TRUE_WORDS


def _parse_tokens(raw: str) -> dict[str, str]:
    """`token:user_id,...` → {token: user}; blank entries, short or duplicate tokens fail.

    A user id holds no `:` (the pair splits at the last one), so none is ever in the guest
    identity space (`guest:...`).
    """
    tokens: dict[str, str] = {}
    if not raw:
        return tokens
    for pair in raw.split(","):
        token, sep, user = pair.strip().rpartition(":")
        if not sep or not token or not user or token != token.strip() or user != user.strip():
            raise AuthConfigError(
                "AUTH_TOKENS must be 'token:user_id,...' with no blank entries; "
                "found an entry without both parts"
            )
        if not user.isprintable():
            raise AuthConfigError(
                f"AUTH_TOKENS: the user id {user!r} holds invisible or control characters "
                "(it would look like another user's id)."
            )
        if len(token) < MIN_TOKEN_CHARS:
            raise AuthConfigError(
                f"AUTH_TOKENS: a token for {user!r} is shorter than {MIN_TOKEN_CHARS} characters."
            )
        if not _B64TOKEN.fullmatch(token):
            raise AuthConfigError(
                f"AUTH_TOKENS: the token for {user!r} holds characters a bearer token cannot carry"
                " (spaces, invisible, control or non-ASCII characters; RFC 6750 allows letters,"
                " digits and -._~+/=)."
            )
        _check_guessable("AUTH_TOKENS", f"the token for {user!r}", token, MIN_DISTINCT_TOKEN_CHARS)
        if token in tokens:
            raise AuthConfigError(
                f"AUTH_TOKENS: the same token is given for {tokens[token]!r} and {user!r}."
            )
        tokens[token] = user
    return tokens


def looks_like_auth_setting(name: str) -> bool:
    """True for a name that reads as an auth setting in any case, spacing or with our prefix.

    The known names pass this too; the caller accepts only those, exactly as spelled, so a name
    the server would ignore can never leave auth off (`auth_tokens=` in `.env` reaches the
    environment as is: `langgraph dev` and Aegra load `.env` keys without changing their case).
    """
    if name.startswith("AUTH_"):
        return True
    folded = _folded(name)
    return any(
        folded.startswith(prefix + "AUTH") and folded[len(prefix) + 4 :].startswith(_SETTING_STEMS)
        for prefix in _OUR_PREFIXES
    )


def _folded(name: str) -> str:
    """`name` upper-cased with only its letters and digits (NFKC): how `looks_like_auth_setting` reads it."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", name).upper() if ch.isalnum())


def closest_known_variable(name: str) -> str | None:
    """The known variable an unknown name most likely meant (`LANGGRAPH_AUTH_TOKENS` → AUTH_TOKENS)."""
    folded = _folded(name)
    for prefix in sorted(_OUR_PREFIXES, key=len, reverse=True):
        if prefix and folded.startswith(prefix + "AUTH"):
            folded = folded[len(prefix) :]
            break
    known = {_folded(k): k for k in KNOWN_VARIABLES}
    if folded in known:
        return known[folded]
    close = difflib.get_close_matches(folded, list(known), n=1, cutoff=0.75)
    return known[close[0]] if close else None


def _check_guessable(variable: str, what: str, value: str, min_distinct: int) -> None:
    """Refuse a copied placeholder, a run of one character or a short repeated pattern."""
    lowered = value.lower()
    marker = next((m for m in PLACEHOLDER_MARKERS if m in lowered), None)
    if marker is not None:
        raise AuthConfigError(
            f"{variable}: {what} is a placeholder from the examples (contains {marker!r}); "
            'generate one: python -c "import secrets; print(secrets.token_urlsafe(32))"'
        )
    if len(set(value)) < min_distinct or _shortest_period(value) < len(value):
        raise AuthConfigError(
            f"{variable}: {what} is too regular to be random (one character or a short pattern "
            f"repeated, fewer than {min_distinct} distinct characters); generate one: "
            'python -c "import secrets; print(secrets.token_urlsafe(32))"'
        )


def _shortest_period(value: str) -> int:
    """Length of the shortest unit that `value` repeats (the value's own length if none)."""
    n = len(value)
    for p in range(1, n // 2 + 1):
        if n % p == 0 and value[:p] * (n // p) == value:
            return p
    return n


def _check_jwks_url(raw: str) -> None:
    """Refuse a JWKS URL over plain http (anyone on the way could swap the keys) but for loopback."""
    url = urlparse(raw)
    if not url.netloc or not url.hostname or url.scheme not in ("https", "http"):
        raise AuthConfigError("AUTH_JWKS_URL must be an https:// URL of a JWKS document.")
    if url.scheme == "http" and not _is_loopback(url.hostname):
        raise AuthConfigError(
            "AUTH_JWKS_URL must be an https:// URL of a JWKS document: over plain http anyone on"
            " the way can replace the keys (http is accepted for a loopback host only)."
        )


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _parse_lifetime(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_MAX_LIFETIME_S
    try:
        value = int(raw.strip())
    except ValueError:
        raise AuthConfigError(
            "AUTH_JWT_MAX_LIFETIME_S must be a whole number of seconds."
        ) from None
    if value <= 0:
        raise AuthConfigError("AUTH_JWT_MAX_LIFETIME_S must be positive.")
    return value
