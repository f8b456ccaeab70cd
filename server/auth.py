"""Authentication and ownership for the LangGraph Server (`langgraph.json` → `auth.path`).

Who is calling: a static bearer token (`AUTH_TOKENS="token:user_id,..."`) or a JWT (HS256 with
`AUTH_JWT_SECRET`, RS256 against `AUTH_JWKS_URL`; `exp`, and `aud`/`iss` when configured, checked).
What they may touch: threads, runs, crons and history are stamped with `metadata.user_id` (a client
value is overwritten) and filtered by it, so another user's thread is a 404; assistants are readable
by everyone authenticated; the store is confined to `("memories", <user>)`.

With no `AUTH_*` variable the module runs in an explicit, logged dev mode: every request is accepted
and the client's `metadata.user_id` is kept as given, so `langgraph dev` and the client examples
work unchanged. Auth is never silently open once a variable is set: a bad value fails the start.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import jwt
from langgraph_sdk import Auth

log = logging.getLogger(__name__)

OWNER_KEY = "user_id"
MEMORY_NAMESPACE = "memories"
DEV_PERMISSION = "dev_mode"
DEV_IDENTITY = "dev-anonymous"
_JWT_LEEWAY_S = 30


@dataclass(frozen=True)
class AuthConfig:
    """Auth settings read from the environment; `dev_mode` when none is set."""

    tokens: Mapping[str, str] = field(default_factory=dict)
    jwt_secret: str = ""
    jwks_url: str = ""
    audience: str = ""
    issuer: str = ""

    @property
    def dev_mode(self) -> bool:
        """True when no credential source is configured (every request accepted)."""
        return not (self.tokens or self.jwt_secret or self.jwks_url)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AuthConfig:
        """Parse `AUTH_*`; a malformed `AUTH_TOKENS` raises so auth never degrades to open."""
        env = os.environ if env is None else env
        tokens: dict[str, str] = {}
        for pair in (env.get("AUTH_TOKENS") or "").split(","):
            pair = pair.strip()
            if not pair:
                continue
            token, sep, user = pair.rpartition(":")
            if not sep or not token.strip() or not user.strip():
                raise ValueError(
                    "AUTH_TOKENS must be 'token:user_id,...'; got an entry without both parts"
                )
            tokens[token.strip()] = user.strip()
        return cls(
            tokens=tokens,
            jwt_secret=(env.get("AUTH_JWT_SECRET") or "").strip(),
            jwks_url=(env.get("AUTH_JWKS_URL") or "").strip(),
            audience=(env.get("AUTH_JWT_AUDIENCE") or "").strip(),
            issuer=(env.get("AUTH_JWT_ISSUER") or "").strip(),
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
        return dict(jwt.decode(token, config.jwt_secret, algorithms=["HS256"], **kwargs))
    if alg == "RS256" and config.jwks_url:
        key = _jwks_client(config.jwks_url).get_signing_key_from_jwt(token).key
        return dict(jwt.decode(token, key, algorithms=["RS256"], **kwargs))
    raise jwt.InvalidAlgorithmError(f"algorithm {alg!r} is not accepted here")


async def resolve_user(authorization: str | None, config: AuthConfig) -> dict[str, Any]:
    """The user for an `Authorization` header, or raise 401. Dev mode accepts everything."""
    if config.dev_mode:
        return {"identity": DEV_IDENTITY, "permissions": [DEV_PERMISSION], "display_name": "dev"}
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise _unauthorized()
    for known, user in config.tokens.items():
        # Constant-time compare: a static token must not leak through response timing.
        if hmac.compare_digest(known.encode(), token.encode()):
            return {"identity": user, "permissions": ["authenticated"]}
    if config.jwt_secret or config.jwks_url:
        try:
            claims = await asyncio.to_thread(decode_jwt, token, config)
        except jwt.ExpiredSignatureError:
            raise _unauthorized("Token expired") from None
        except (jwt.PyJWTError, ValueError) as exc:
            log.info("JWT rejected: %s", exc)
            raise _unauthorized() from None
        sub = str(claims.get("sub") or "").strip()
        if not sub:
            raise _unauthorized()
        return {"identity": sub, "permissions": ["authenticated"]}
    raise _unauthorized()


CONFIG = AuthConfig.from_env()
if CONFIG.dev_mode:
    log.warning(
        "docs-agent auth: DEV MODE — no AUTH_TOKENS, AUTH_JWT_SECRET or AUTH_JWKS_URL set; every "
        "request is accepted and metadata.user_id is trusted as sent. Never expose this server."
    )
else:
    log.warning(
        "docs-agent auth: on (%s); threads, runs and store are owner-scoped", CONFIG.describe()
    )

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


@auth.authenticate
async def authenticate(headers: Mapping[Any, Any] | None) -> dict[str, Any]:
    """Server hook: resolve the caller from the request's `Authorization` header."""
    return await resolve_user(authorization_header(headers), CONFIG)


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
    if _is_dev(ctx):
        return None
    if ctx.action in ("create", "update", "create_run"):
        stamp_owner(value, ctx.user.identity)
    return {OWNER_KEY: ctx.user.identity}


@auth.on.assistants
async def assistants(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType | None:
    """Assistants (the deployed graphs) are readable by everyone; writes are owner-scoped."""
    if _is_dev(ctx) or ctx.action in ("read", "search"):
        return None
    if ctx.action in ("create", "update"):
        stamp_owner(value, ctx.user.identity)
    # The deployment's own assistants carry no owner, so no user can change or delete them.
    return {OWNER_KEY: ctx.user.identity}


def _confine(
    namespace: tuple[str, ...] | None, identity: str, *, prefix_ok: bool
) -> tuple[str, ...]:
    """The namespace narrowed to `("memories", identity)`; 403 when it names anything else."""
    own = (MEMORY_NAMESPACE, identity)
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
    if _is_dev(ctx):
        return None
    action = str(ctx.action)
    value["namespace"] = _confine(
        value.get("namespace"), ctx.user.identity, prefix_ok=action in ("search", "list_namespaces")
    )
    return None
