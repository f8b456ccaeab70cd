"""Guest mode for a public docs site: short-lived signed identities for anonymous readers.

Off unless `DOCS_AGENT_GUESTS=true` *and* `DOCS_AGENT_GUEST_SECRET` (≥ 32 bytes) are set
(settings/guests.py); when
off, `authenticate_guest` returns None for every request and nothing else changes.

When on, `POST /chat/api/guest` (server/web/app.py) hands each browser a token
`guest.<JWT>`: HS256 signed with the guest secret (PyJWT, audience `docs-agent-guest`, never
accepted as a user JWT and vice versa), `sub` = `guest:<random>`, `addr` = a keyed hash of the
caller's address (server/client_address.py: the TCP peer, or what a proxy of
`DOCS_AGENT_TRUSTED_PROXIES` says), lifetime `DOCS_AGENT_GUEST_TTL_S` (default 1 h). A guest is an
ordinary owner for server/auth.py — it sees only its own threads and store items — with less
reach: it cannot schedule crons (they would outlive it, server/auth.py) nor choose the model
(graphs/model_policy.py). The `guest:` identity space is its own: server/auth.py refuses a
static-token user id or a JWT `sub` in it, so no other credential can become a guest.

Limits keep one visitor from spending the model budget. They are counted per process in sliding
windows (an in-memory dict of deques: a few bytes per recent request; with several replicas each
counts its own share, so set the limits per replica):
- new guest identities per address per hour (`DOCS_AGENT_GUEST_NEW_PER_ADDRESS_HOUR`, 10),
- API requests per guest per minute (`DOCS_AGENT_GUEST_REQUESTS_PER_MINUTE`, 120),
- runs per guest per hour (`DOCS_AGENT_GUEST_RUNS_PER_HOUR`, 20),
- runs per address per hour, all its guests together (`DOCS_AGENT_GUEST_ADDRESS_RUNS_PER_HOUR`, 60).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

import jwt
from langgraph_sdk import Auth

from server.identity import (
    GUEST_IDENTITY_PREFIX,
    GUEST_PERMISSION,
    NAMESPACE_LABEL_FIELD,
    is_guest_identity,
    namespace_label,
)
from settings import current
from settings.guests import GuestConfig, GuestConfigError

PREFIX = "guest."
AUDIENCE = "docs-agent-guest"
IDENTITY_PREFIX = GUEST_IDENTITY_PREFIX
PERMISSION = GUEST_PERMISSION


class GuestLimitError(Exception):
    """A guest or an address used up its allowance; `retry_after_s` says when to come back."""

    def __init__(self, what: str, retry_after_s: int) -> None:
        """Remember which limit was hit and when it frees up."""
        super().__init__(f"Guest limit reached ({what}); try again in {retry_after_s} s.")
        self.what = what
        self.retry_after_s = retry_after_s


class SlidingWindow:
    """At most `limit` events per key in any `window_s` seconds (thread-safe, in memory)."""

    def __init__(self, limit: int, window_s: float, clock: Any = time.monotonic) -> None:
        """A window of `window_s` seconds allowing `limit` events per key."""
        self.limit = limit
        self.window_s = window_s
        self._clock = clock
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, what: str) -> None:
        """Count one event for `key`, or raise GuestLimitError when the window is full."""
        now = self._clock()
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and events[0] <= now - self.window_s:
                events.popleft()
            if len(events) >= self.limit:
                raise GuestLimitError(what, max(1, int(events[0] + self.window_s - now + 0.999)))
            events.append(now)
            if len(self._events) > 100_000:  # forget idle keys so memory stays bounded
                for stale in [k for k, v in self._events.items() if not v]:
                    del self._events[stale]


class GuestService:
    """Issues and verifies guest tokens and applies the guest limits."""

    def __init__(self, config: GuestConfig, clock: Any = time.monotonic) -> None:
        """Counters start empty; `clock` is injectable for tests."""
        self.config = config
        self._new = SlidingWindow(config.new_per_address_hour, 3600, clock)
        self._requests = SlidingWindow(config.requests_per_minute, 60, clock)
        self._runs = SlidingWindow(config.runs_per_hour, 3600, clock)
        self._address_runs = SlidingWindow(config.address_runs_per_hour, 3600, clock)
        self._address_of: dict[str, str] = {}

    def address_key(self, address: str) -> str:
        """A keyed hash of a client address: tokens and counters never hold the address itself."""
        digest = hmac.new(self.config.secret.encode(), address.encode(), hashlib.sha256)
        return digest.hexdigest()[:24]

    def issue(self, address: str) -> dict[str, Any]:
        """A new guest identity for a browser at `address`; GuestLimitError past the per-address cap."""
        if not self.config.enabled:
            raise GuestConfigError("guest mode is off")
        addr = self.address_key(address)
        self._new.hit(addr, "new guests per address")
        now = int(time.time())
        identity = IDENTITY_PREFIX + secrets.token_urlsafe(12)
        claims = {
            "sub": identity,
            "addr": addr,
            "aud": AUDIENCE,
            "iat": now,
            "exp": now + self.config.ttl_s,
        }
        token = PREFIX + jwt.encode(claims, self.config.secret, algorithm="HS256")
        return {"token": token, "identity": identity, "expires_in": self.config.ttl_s}

    def verify(self, token: str) -> dict[str, Any] | None:
        """The claims of a valid guest token, None when it is not one (bad signature, expired)."""
        if not self.config.enabled or not token.startswith(PREFIX):
            return None
        try:
            claims = jwt.decode(
                token[len(PREFIX) :],
                self.config.secret,
                algorithms=["HS256"],
                audience=AUDIENCE,
                options={"require": ["exp", "sub", "addr", "iat"]},
            )
        except jwt.PyJWTError:
            return None
        sub = claims.get("sub")
        if not isinstance(sub, str) or not sub.startswith(IDENTITY_PREFIX):
            return None
        if claims["exp"] - claims["iat"] > self.config.ttl_s + 30:
            return None
        return dict(claims)

    def user_for(self, claims: Mapping[str, Any]) -> dict[str, Any]:
        """The server user of a verified guest (counts one request against its allowance)."""
        identity = str(claims["sub"])
        self._requests.hit(identity, "requests per minute")
        self._address_of[identity] = str(claims["addr"])
        if len(self._address_of) > 100_000:
            self._address_of.clear()
        return {
            "identity": identity,
            "permissions": [PERMISSION],
            "display_name": "guest",
            # The store label every user carries (server/identity.py; Aegra's memory scope).
            NAMESPACE_LABEL_FIELD: namespace_label(identity),
        }

    def count_run(self, identity: str) -> None:
        """Count a new run of a guest and of its address; GuestLimitError when either is used up."""
        if not is_guest(identity):
            return
        self._runs.hit(identity, "runs per hour")
        addr = self._address_of.get(identity)
        if addr:
            self._address_runs.hit(addr, "runs per address per hour")


def is_guest(identity: str) -> bool:
    """True for identities this module issues (server/auth.py lets no user id take that shape)."""
    return is_guest_identity(identity)


def bearer_token(authorization: str | None) -> str:
    """The token of a `Bearer` header value, '' when there is none."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def configured() -> GuestConfig:
    """The guests section (settings/guests.py); off when the settings were refused.

    Never raises: server/auth.py imports this module, and an auth module that fails to import
    leaves Aegra open to everyone. A refused guest setting is raised by server/auth.py's own load
    of the settings instead, which then refuses every request (and fails `langgraph dev`'s start).
    """
    try:
        return current().guests
    except Exception:  # noqa: BLE001 - reported by server/auth.py, which refuses every request
        return GuestConfig()


CONFIG = configured()
SERVICE = GuestService(CONFIG)


def authenticate_guest(authorization: str | None) -> dict[str, Any] | None:
    """The guest user of a guest bearer token; None when it is no guest token or guest mode is off.

    A `guest.` token that fails verification is refused outright (401), never passed on to the
    user checks. Raises GuestLimitError (→ 429) when the guest sends too many requests.
    """
    token = bearer_token(authorization)
    if not CONFIG.enabled or not token.startswith(PREFIX):
        return None
    claims = SERVICE.verify(token)
    if claims is None:
        raise Auth.exceptions.HTTPException(
            status_code=401, detail="Invalid or expired guest token"
        )
    try:
        return SERVICE.user_for(claims)
    except GuestLimitError as exc:
        raise _too_many(exc) from None


def check_run(identity: str) -> None:
    """Count a run for a guest (a no-op for everyone else); 429 past the guest's run limits."""
    if not CONFIG.enabled:
        return
    try:
        SERVICE.count_run(identity)
    except GuestLimitError as exc:
        raise _too_many(exc) from None


def _too_many(exc: GuestLimitError) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(
        status_code=429, detail=str(exc), headers={"Retry-After": str(exc.retry_after_s)}
    )
