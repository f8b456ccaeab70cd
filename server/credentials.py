"""Who is calling: a request's bearer token resolved to a user, or a 401.

A static token of `AUTH_TOKENS` (compared in constant time), or a JWT: HS256 with
`AUTH_JWT_SECRET`, RS256 against `AUTH_JWKS_URL` (keys cached per URL); `exp` and `sub` required,
`aud`/`iss` when configured, and no longer-lived than `AUTH_JWT_MAX_LIFETIME_S` (settings/auth.py
parses and checks all of them). A subject in the guest identity space is refused: guest tokens
come from guest mode only (server/guest.py). Only the `Authorization` header is read; a
credential put in the URL is refused, since URLs end up in logs (server/log_redaction.py keeps
them out of ours).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections.abc import Mapping
from typing import Any

import jwt
from langgraph_sdk import Auth

from server.identity import (
    AUTHENTICATED_PERMISSION,
    DEV_PERMISSION,
    GUEST_IDENTITY_PREFIX,
    NAMESPACE_LABEL_FIELD,
    is_guest_identity,
    namespace_label,
)
from settings.auth import AuthConfig

log = logging.getLogger(__name__)

DEV_IDENTITY = "dev-anonymous"
_JWT_LEEWAY_S = 30
# Query parameters that carry a credential when a client puts one in the URL, where access logs
# and proxies keep it: refused, never read.
CREDENTIAL_PARAMS = frozenset(
    {"token", "access_token", "id_token", "jwt", "bearer", "auth", "authorization", "api_key"}
)


def unauthorized(detail: str = "Missing or invalid token") -> Auth.exceptions.HTTPException:
    """A 401 with `detail` (the server's words, never a secret)."""
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
        raise unauthorized()
    for known, user in config.tokens.items():
        # Constant-time compare: a static token must not leak through response timing.
        if hmac.compare_digest(known.encode(), token.encode()):
            return user_record(user, AUTHENTICATED_PERMISSION)
    if config.jwt_secret or config.jwks_url:
        try:
            claims = await asyncio.to_thread(decode_jwt, token, config)
        except jwt.ExpiredSignatureError:
            raise unauthorized("Token expired") from None
        except (jwt.PyJWTError, ValueError) as exc:
            log.info("JWT rejected: %s", exc)
            raise unauthorized() from None
        sub = claims.get("sub")
        # An identity is taken exactly as signed: no whitespace trimming, no coercion.
        if not isinstance(sub, str) or not sub or sub != sub.strip():
            raise unauthorized()
        if is_guest_identity(sub):
            # Guest identities are issued by guest mode only: a JWT naming one would become that
            # guest, threads and memories included.
            log.info("JWT rejected: its sub is in the guest namespace")
            raise unauthorized(
                f"This token's subject starts with {GUEST_IDENTITY_PREFIX!r}, which only guest "
                "tokens carry; the identity provider must issue another subject."
            )
        return user_record(sub, AUTHENTICATED_PERMISSION)
    raise unauthorized()


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


def refuse_credentials_in_url(query_params: Mapping[str, Any] | None) -> None:
    """401 for a credential sent as `?token=...`: only the Authorization header is read."""
    named = sorted(k for k in (query_params or {}) if str(k).lower() in CREDENTIAL_PARAMS)
    if named:
        raise unauthorized(
            f"Credentials in the URL are refused ({', '.join(named)}=): URLs end up in logs. "
            "Send the token as the header `Authorization: Bearer <token>`."
        )
