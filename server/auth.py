"""Authentication and ownership for the LangGraph Server (`langgraph.json` → `auth.path`).

Who is calling: a static bearer token (`AUTH_TOKENS="token:user_id,..."`) or a JWT (HS256 with
`AUTH_JWT_SECRET`, RS256 against `AUTH_JWKS_URL`; `exp` required and at most
`AUTH_JWT_MAX_LIFETIME_S` ahead, `aud`/`iss` when configured).
What they may touch: threads, runs, crons and history are stamped with `metadata.user_id` (a client
value is overwritten) and filtered by it, so another user's thread is a 404; assistants are the
packaged graphs plus the caller's own; the store is confined to `("memories", <user>)`.

Auth never opens by accident. Dev mode (every request accepted, the client's `metadata.user_id`
kept) needs no `AUTH_*` variable at all *and* the local in-memory `langgraph dev` server — or an
explicit `AUTH_DEV_MODE=true`. Anything else fails the start with a message naming the variable:
no auth on another server, a set-but-blank value (under `langgraph dev` a `.env` value wins over
the environment, so `AUTH_TOKENS=` in `.env` must not switch auth off), an `AUTH_*` name this
module does not know (a typo such as `AUTH_TOKEN`), audience/issuer without a key, duplicate or
short tokens, a short secret, and dev mode on a state folder that holds threads created with auth.

Fail closed on every engine. `langgraph dev` and LangGraph Server refuse to start when this module
raises at import, so there a refused configuration raises. Aegra instead logs the error and serves
every request as one shared `anonymous` user; so everywhere else the module never raises: the
`auth` object always exists, and with a refused configuration it refuses every request (503, which
Aegra answers as 401) with the message naming the variable. `python -m server.auth --check` (and
`make aegra` before it starts Aegra) runs the same checks and exits non-zero.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import hmac
import ipaddress
import logging
import os
import re
import sys
import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlparse

import jwt
from langgraph_sdk import Auth

from server import guest, limits, report_access
from server.identity import (
    AUTHENTICATED_PERMISSION,
    DEV_PERMISSION,
    GUEST_IDENTITY_PREFIX,
    MEMORY_NAMESPACE,
    NAMESPACE_LABEL_FIELD,
    OWNER_KEY,
    is_guest_identity,
    namespace_label,
)

log = logging.getLogger(__name__)

DEV_IDENTITY = "dev-anonymous"
_JWT_LEEWAY_S = 30
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
# Where the in-memory dev server keeps its state (relative to its working directory), and the
# file that marks a state folder as written with auth on.
DEV_STATE_DIR = Path(".langgraph_api")
AUTH_MARKER = ".docs_agent_auth_on"
_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}


class AuthConfigError(ValueError):
    """An auth setting that would leave the server open or ambiguous: the start must fail."""


def is_local_dev_server(env: Mapping[str, str]) -> bool:
    """True only under `langgraph dev`: its CLI sets LANGGRAPH_RUNTIME_EDITION=inmem explicitly.

    Platform images set `postgres`; Aegra and other servers set nothing, so they are not dev.
    """
    return env.get("LANGGRAPH_RUNTIME_EDITION") == "inmem"


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
        """Parse and check `AUTH_*`; raise AuthConfigError on anything that could open the server.

        `local_dev` (default: detected from the environment) says whether this is the in-memory
        `langgraph dev` server, the only place dev mode starts without `AUTH_DEV_MODE=true`.
        """
        env = os.environ if env is None else env
        if local_dev is None:
            local_dev = is_local_dev_server(env)
        present = {k: v for k, v in env.items() if k.startswith("AUTH_")}
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
        dev_flag = present.get("AUTH_DEV_MODE", "").strip().lower()
        if dev_flag and dev_flag not in _TRUE | _FALSE:
            raise AuthConfigError("AUTH_DEV_MODE must be true or false.")
        if dev_flag in _TRUE and not self.dev_mode:
            raise AuthConfigError(
                "AUTH_DEV_MODE=true together with credentials: remove one of them."
            )
        if self.dev_mode and not (dev_flag in _TRUE or (local_dev and dev_flag not in _FALSE)):
            where = (
                "AUTH_DEV_MODE=false forbids dev mode"
                if dev_flag in _FALSE
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


def check_dev_state(config: AuthConfig, state_dir: Path = DEV_STATE_DIR) -> None:
    """Keep data created under auth away from anonymous callers of a dev-mode restart.

    With auth on, the state folder of the in-memory server is marked; dev mode refuses to start
    on a marked folder (it would serve those users' threads and memories to anyone).
    """
    marker = state_dir / AUTH_MARKER
    if config.dev_mode:
        if marker.exists():
            raise AuthConfigError(
                f"{state_dir}/ holds threads created with auth on; dev mode would serve them to "
                f"anyone. Configure the same AUTH_* settings, or move {state_dir}/ away."
            )
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    marker.write_text("Threads in this folder were created with auth on; see server/auth.py.\n")


def _unauthorized(detail: str = "Missing or invalid token") -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=401, detail=detail)


_jwks_clients: dict[str, Any] = {}


def _jwks_client(url: str) -> Any:
    """One cached PyJWKClient per URL (it caches keys and refetches on an unknown `kid`)."""
    if url not in _jwks_clients:
        _jwks_clients[url] = jwt.PyJWKClient(url, cache_keys=True)
    return _jwks_clients[url]


def decode_jwt(token: str, config: AuthConfig) -> dict[str, Any]:
    """Verify signature, `exp`, `aud`, `iss`; raise jwt.PyJWTError on any failure.

    Blocking when a JWKS fetch is needed: the async caller runs it in a thread.
    """
    options = {"require": ["exp", "sub"]}
    kwargs: dict[str, Any] = {"leeway": _JWT_LEEWAY_S, "options": options}
    if config.audience:
        kwargs["audience"] = config.audience
    else:
        options["verify_aud"] = False  # type: ignore[assignment]
    if config.issuer:
        kwargs["issuer"] = config.issuer
    header = jwt.get_unverified_header(token)
    alg = header.get("alg")
    if alg == "HS256" and config.jwt_secret:
        claims = dict(jwt.decode(token, config.jwt_secret, algorithms=["HS256"], **kwargs))
    elif alg == "RS256" and config.jwks_url:
        key = _jwks_client(config.jwks_url).get_signing_key_from_jwt(token).key
        claims = dict(jwt.decode(token, key, algorithms=["RS256"], **kwargs))
    else:
        raise jwt.InvalidAlgorithmError(f"algorithm {alg!r} is not accepted here")
    _check_lifetime(claims, config.max_lifetime_s)
    return claims


def _check_lifetime(claims: Mapping[str, Any], max_lifetime_s: int) -> None:
    """A token may not live longer than the configured maximum (from `iat`, else from now)."""
    exp = claims["exp"]
    starts = [time.time()]
    if isinstance(claims.get("iat"), int | float):
        starts.append(claims["iat"])
    if any(exp - start > max_lifetime_s + _JWT_LEEWAY_S for start in starts):
        raise jwt.InvalidTokenError(
            f"token lifetime exceeds AUTH_JWT_MAX_LIFETIME_S ({max_lifetime_s} s)"
        )


def user_record(identity: str, permission: str, **extra: str) -> dict[str, Any]:
    """The user dict the engine keeps: identity, permissions and the identity's store label."""
    return {
        "identity": identity,
        "permissions": [permission],
        NAMESPACE_LABEL_FIELD: namespace_label(identity),
        **extra,
    }


async def resolve_user(authorization: str | None, config: AuthConfig) -> dict[str, Any]:
    """The user for an `Authorization` header, or raise 401. Dev mode accepts everything."""
    if config.dev_mode:
        return user_record(DEV_IDENTITY, DEV_PERMISSION, display_name="dev")
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise _unauthorized()
    for known, user in config.tokens.items():
        # Constant-time compare: a static token must not leak through response timing.
        if hmac.compare_digest(known.encode(), token.encode()):
            return user_record(user, AUTHENTICATED_PERMISSION)
    if config.jwt_secret or config.jwks_url:
        try:
            claims = await asyncio.to_thread(decode_jwt, token, config)
        except jwt.ExpiredSignatureError:
            raise _unauthorized("Token expired") from None
        except (jwt.PyJWTError, ValueError) as exc:
            log.info("JWT rejected: %s", exc)
            raise _unauthorized() from None
        sub = claims.get("sub")
        # An identity is taken exactly as signed: no whitespace trimming, no coercion.
        if not isinstance(sub, str) or not sub or sub != sub.strip():
            raise _unauthorized()
        if is_guest_identity(sub):
            # Guest identities are issued by guest mode only: a JWT naming one would become that
            # guest, threads and memories included.
            log.info("JWT rejected: its sub is in the guest namespace")
            raise _unauthorized(
                f"This token's subject starts with {GUEST_IDENTITY_PREFIX!r}, which only guest "
                "tokens carry; the identity provider must issue another subject."
            )
        return user_record(sub, AUTHENTICATED_PERMISSION)
    raise _unauthorized()


def load_config(env: Mapping[str, str] | None = None) -> AuthConfig:
    """The server's auth settings, checked as a start checks them (the dev state folder too)."""
    env = os.environ if env is None else env
    config = AuthConfig.from_env(env)
    if is_local_dev_server(env):
        check_dev_state(config)
    return config


def engine_refuses_failed_auth() -> bool:
    """True when the module is loaded by langgraph-api (`langgraph dev`, LangGraph Server).

    Its loader (`langgraph_api.auth.custom`, already imported when it loads us) lets an import
    error stop the start. Aegra's loader catches it and serves everyone as `anonymous`, and an
    unknown engine may do the same: there the module must not raise (see `refusal`).
    """
    return "langgraph_api.auth.custom" in sys.modules


def refusal_message(exc: BaseException) -> str:
    """What every request is told when the configuration was refused (no secret in it).

    An AuthConfigError names the variable and never quotes a secret; any other error's text may
    hold anything, so callers get its type and the log gets the rest.
    """
    reason = (
        str(exc)
        if isinstance(exc, AuthConfigError)
        else f"{type(exc).__name__} while reading the auth settings (details in the server log)."
    )
    return (
        f"This server's auth configuration was refused, so it serves no request: {reason} "
        "Fix the setting and restart (check with `python -m server.auth --check`)."
    )


def _log_mode(config: AuthConfig) -> None:
    if config.dev_mode:
        log.warning(
            "docs-agent auth: DEV MODE — no AUTH_TOKENS, AUTH_JWT_SECRET or AUTH_JWKS_URL set; "
            "every request is accepted and metadata.user_id is trusted as sent. Never expose "
            "this server."
        )
    else:
        log.warning(
            "docs-agent auth: on (%s); threads, runs and store are owner-scoped",
            config.describe(),
        )


CONFIG: AuthConfig | None = None
REFUSAL: str | None = "server/auth.py is run as a program: it serves no request"
"""Set when the configuration was refused: every request is then refused with this message."""
if __name__ != "__main__":  # `python -m server.auth --check` checks in main(), quietly
    try:
        CONFIG, REFUSAL = load_config(), None
        _log_mode(CONFIG)
    except Exception as exc:  # any failure: never an auth object that lets requests through
        if engine_refuses_failed_auth():
            raise
        CONFIG, REFUSAL = None, refusal_message(exc)
        trace = None if isinstance(exc, AuthConfigError) else exc
        log.error("docs-agent auth: REFUSING EVERY REQUEST. %s", REFUSAL, exc_info=trace)

auth = Auth()


def authorization_header(headers: Mapping[Any, Any] | None) -> str | None:
    """The `Authorization` value from a headers mapping with str or bytes keys and values.

    langgraph-api passes `dict[bytes, bytes]`; Aegra passes a `str` mapping as the first
    positional argument. Reading the mapping ourselves makes one handler serve both.
    """
    for key, value in (headers or {}).items():
        name = key.decode("latin-1") if isinstance(key, bytes) else str(key)
        if name.lower() == "authorization":
            return value.decode("latin-1") if isinstance(value, bytes) else str(value)
    return None


# Query parameters that carry a credential when a client puts one in the URL, where access logs
# and proxies keep it: refused, never read.
CREDENTIAL_PARAMS = frozenset(
    {"token", "access_token", "id_token", "jwt", "bearer", "auth", "authorization", "api_key"}
)


def refuse_credentials_in_url(query_params: Mapping[str, Any] | None) -> None:
    """401 for a credential sent as `?token=...`: only the Authorization header is read."""
    named = sorted(k for k in (query_params or {}) if str(k).lower() in CREDENTIAL_PARAMS)
    if named:
        raise _unauthorized(
            f"Credentials in the URL are refused ({', '.join(named)}=): URLs end up in logs. "
            "Send the token as the header `Authorization: Bearer <token>`."
        )


@auth.authenticate
async def authenticate(
    headers: Mapping[Any, Any] | None, query_params: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Server hook: resolve the caller from the request's `Authorization` header.

    langgraph-api passes `query_params` by name; Aegra passes the headers alone (its access log is
    redacted instead, see `install_log_redaction`).
    """
    if CONFIG is None:
        # 503 where the engine keeps the status (Aegra answers every auth error as 401).
        raise Auth.exceptions.HTTPException(status_code=503, detail=REFUSAL)
    refuse_credentials_in_url(query_params)
    # A guest token (only when guest mode is on, server/guest.py), else the configured users.
    user = guest.authenticate_guest(authorization_header(headers))
    user = user or await resolve_user(authorization_header(headers), CONFIG)
    return report_access.with_report_scope(user)


def _is_dev(ctx: Auth.types.AuthContext) -> bool:
    return DEV_PERMISSION in (ctx.permissions or [])


def stamp_owner(value: Any, identity: str) -> None:
    """Overwrite `metadata.user_id` on a create/update payload with the authenticated owner."""
    if not isinstance(value, dict):
        return
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
        value["metadata"] = metadata
    metadata[OWNER_KEY] = identity


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType | None:
    """Threads, runs, crons (every action): stamp the owner on writes, filter every access by it.

    A global handler rather than per-action ones because per-action handlers leave any action
    they do not name open (measured: read/update/delete/run returned 200 for another user).
    """
    # Size caps always; the per-user run limit with real users (not dev mode's one identity).
    await limits.check_thread_event(ctx, value, limit_runs=not _is_dev(ctx))
    if ctx.resource == "threads" and ctx.action == "search":
        refuse_values_filter(value)  # dev mode too: it is the engine failing, not a permission
    if _is_dev(ctx):
        return None
    if ctx.resource == "crons" and ctx.action == "create":
        refuse_guest_cron(ctx.user.identity)
    if ctx.resource == "threads" and ctx.action in ("create", "create_run"):
        refuse_existence_probe(value)
    if ctx.action == "create_run":
        guest.check_run(ctx.user.identity)  # guests' run limits (no-op for everyone else)
    if ctx.action in ("create", "update", "create_run"):
        stamp_owner(value, ctx.user.identity)
    return {OWNER_KEY: ctx.user.identity}


def refuse_values_filter(value: Any) -> None:
    """422 for a thread search or count filtered by `values`, which no engine here serves.

    langgraph dev (langgraph-runtime-inmem 0.36) answers 500 as soon as the caller has a thread
    without values yet (its containment check reads `None`); Aegra 0.11 has no such field and
    returns the threads unfiltered. Either way the caller would not get what they asked for, so
    the filter is refused with the way that works. An empty filter matches everything and passes.
    """
    if isinstance(value, dict) and value.get("values"):
        raise Auth.exceptions.HTTPException(
            status_code=422,
            detail="Filtering threads by `values` is not supported by this server; filter by "
            "`metadata` (or `status`), then read each thread's state.",
        )


def refuse_guest_cron(identity: str) -> None:
    """403 for a guest's cron: it would keep running, and spending, after the guest has gone.

    A cron runs as its creator with no token to expire: a guest's kept calling the model after the
    guest's token had expired (4 calls in 190 s), on an hourly allowance that renews. Guests are
    one visit's readers, so they schedule nothing; signed-in users' crons are unaffected.
    """
    if is_guest_identity(identity):
        raise Auth.exceptions.HTTPException(
            status_code=403,
            detail="Guests cannot schedule runs (crons): a guest's session is short-lived. Sign in "
            "to schedule runs, or ask your question now.",
        )


def refuse_existence_probe(value: Any, what: str = "thread") -> None:
    """Refuse the two options whose answers tell whether another user holds a thread id.

    `threads.create` with `if_exists="do_nothing"` answers with the thread (yours), 409 (someone
    else's) or a new thread (unused); a run on a chosen id with `if_not_exists="create"` answers
    404 (someone else's) or creates it (unused). The handler cannot see which ids exist, so it
    refuses the options themselves, whatever the id: every taken id then answers a plain 409 on
    create and 404 on a run. Stateless runs (no thread id here) are not affected. The same holds
    for an assistant created with a chosen id (`what="assistant"`): yours 200, another's 409.
    """
    if not isinstance(value, dict):
        return
    if value.get("if_exists") == "do_nothing":
        option = "if_exists='do_nothing'"
        advice = f"create the {what} without it and treat 409 as 'this id is taken'"
    elif value.get("if_not_exists") == "create" and value.get("thread_id") is not None:
        option = "if_not_exists='create'"
        advice = "create the thread first (POST /threads), then run on it"
    else:
        return
    raise Auth.exceptions.HTTPException(
        status_code=422, detail=f"{option} is not accepted with auth on; {advice}."
    )


# A metadata key never stored on an assistant (see `assistants`).
CREATE_GUARD_KEY = "docs_agent_create_guard"
# The deployment's own assistants (one per graph in langgraph.json) are made by the server.
SYSTEM_ASSISTANTS: Auth.types.FilterType = {"created_by": "system"}


@auth.on.assistants
async def assistants(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType | None:
    """The packaged graphs and your own assistants; another user's are invisible (404).

    The same filter serves the REST API, the MCP tool list and the A2A agent cards, which all read
    assistants through it. Writes are owner-scoped: the packaged assistants carry no owner, so no
    user can change or delete them.
    """
    if _is_dev(ctx):
        return None
    own: Auth.types.FilterType = {OWNER_KEY: ctx.user.identity}
    if ctx.action in ("read", "search"):
        # `$or` is supported by the server's filter but missing from the SDK's FilterType.
        return cast(Auth.types.FilterType, {"$or": [own, SYSTEM_ASSISTANTS]})
    if ctx.action == "create":
        refuse_existence_probe(value, "assistant")  # Aegra shows the handler `if_exists`
    if ctx.action in ("create", "update"):
        stamp_owner(value, ctx.user.identity)
    if ctx.action == "create":
        # langgraph-api does not show `if_exists` but answers a taken id 409 unless the existing
        # assistant matches this filter (then `do_nothing` returns it: 200 for yours, 409 for
        # another's). A key no assistant carries makes every taken id the same plain 409.
        return {**own, CREATE_GUARD_KEY: "a taken id is always a conflict"}
    return own


def _confine(
    namespace: tuple[str, ...] | None, identity: str, *, prefix_ok: bool
) -> tuple[str, ...]:
    """The namespace narrowed to `("memories", label)`; 403 when it names anything else."""
    own = (MEMORY_NAMESPACE, namespace_label(identity))
    ns = tuple(namespace or ())
    if ns[:2] == own:
        return ns
    if prefix_ok and own[: len(ns)] == ns:
        return own  # a broader search/list prefix is narrowed to the user's own namespace
    raise Auth.exceptions.HTTPException(
        status_code=403, detail="Store access outside your namespace"
    )


@auth.on.store()
async def store(ctx: Auth.types.AuthContext, value: Any) -> None:
    """The store is confined to `("memories", <user>)`: reads, writes, search and listing."""
    limits.check_store_event(ctx, value)  # the value cap
    if _is_dev(ctx):
        return None
    action = str(ctx.action)
    if report_access.in_report_namespace(value.get("namespace") or value.get("namespace_prefix")):
        try:
            report_access.authorize(ctx.user.identity, action, value, report_access.operators())
        except report_access.ReportAccessError as exc:  # 403, or 429 past the vote cap
            headers = {"Retry-After": str(exc.retry_after_s)} if exc.retry_after_s else None
            raise Auth.exceptions.HTTPException(
                status_code=exc.status_code, detail=str(exc), headers=headers
            ) from None
        return None
    # langgraph-api names the searched prefix `namespace`; Aegra names it `namespace_prefix` (and
    # narrows it to the caller itself, with its store scopes), so check whichever is given.
    key = (
        "namespace_prefix"
        if "namespace_prefix" in value and "namespace" not in value
        else "namespace"
    )
    value[key] = _confine(
        value.get(key), ctx.user.identity, prefix_ok=action in ("search", "list_namespaces")
    )
    return None


# --- Credentials never reach the log --------------------------------------------------------------

_SECRET_IN_QUERY = re.compile(
    r"(?i)(?<![\w-])(" + "|".join(sorted(CREDENTIAL_PARAMS)) + r")=([^&\s\"']+)"
)
_JWT_SHAPED = re.compile(r"eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*")


def redact(text: str) -> str:
    """`text` with credential query values and JWT-shaped strings replaced by `[redacted]`."""
    return _JWT_SHAPED.sub("[redacted]", _SECRET_IN_QUERY.sub(r"\1=[redacted]", text))


class RedactCredentials(logging.Filter):
    """Redacts credentials from every record a handler writes (access logs log the query string).

    A filter rather than a change to the engines' loggers: both engines (and uvicorn) log the full
    URL of a request, and a token a client put in the URL would otherwise be kept in the log.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drop it."""
        # A str, or structlog's event dict (Aegra nests the URL: `http={"url": ...}`).
        record.msg = redact_value(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact_value(a) for a in record.args)
        return True


def redact_value(value: Any, depth: int = 0) -> Any:
    """`redact` applied to a string, or to the strings inside dicts, lists and tuples."""
    if isinstance(value, str):
        return redact(value)
    if depth > 4:
        return value
    if isinstance(value, dict):
        return {k: redact_value(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_value(v, depth + 1) for v in value)
    return value


def install_log_redaction(logger_names: Sequence[str] = ("", "uvicorn.access", "uvicorn")) -> None:
    """Put one `RedactCredentials` on every handler of these loggers (once)."""
    for name in logger_names:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RedactCredentials) for f in handler.filters):
                handler.addFilter(RedactCredentials())


try:
    install_log_redaction()
except Exception:  # logging set-up must never stop the auth object from existing
    log.exception("docs-agent auth: could not install the log redaction")


# --- Operator check: `python -m server.auth --check` ----------------------------------------------


def dotenv_values(path: Path) -> dict[str, str]:
    """`KEY=value` lines of a `.env` file as python-dotenv reads them (both engines use it).

    python-dotenv comes with langgraph-cli (a dependency) and with Aegra; only the CLI needs it.
    """
    from dotenv import dotenv_values as read  # noqa: PLC0415

    return {k: v for k, v in read(path).items() if v is not None}


def effective_env(
    base: Mapping[str, str], env_file: Path | None, *, file_wins: bool
) -> dict[str, str]:
    """The environment a server sees: `langgraph dev` lets `.env` win, Aegra the environment."""
    env = dict(base)
    if env_file is not None and env_file.is_file():
        for key, value in dotenv_values(env_file).items():
            if file_wins or key not in env:
                env[key] = value
    return env


def main(argv: Sequence[str] | None = None) -> int:
    """Check the auth settings a server would start with; 0 when it would serve, 2 when refused."""
    parser = argparse.ArgumentParser(
        prog="python -m server.auth", description="Check docs-agent's auth settings."
    )
    parser.add_argument("--check", action="store_true", required=True)
    parser.add_argument(
        "--env-file", type=Path, help="a .env the server reads too (Aegra: the environment wins)"
    )
    parser.add_argument(
        "--dev",
        action="store_true",
        help="check as `langgraph dev` would: the .env wins, dev mode allowed with nothing set",
    )
    args = parser.parse_args(argv)
    env = effective_env(os.environ, args.env_file, file_wins=args.dev)
    try:
        config = AuthConfig.from_env(env, local_dev=args.dev)
    except AuthConfigError as exc:
        print(f"auth settings refused: {exc}", file=sys.stderr)
        return 2
    print(f"auth settings ok: {config.describe()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
