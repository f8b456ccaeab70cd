"""The address a request comes from, as the guest limits count it: the TCP peer, or what a proxy says.

The rule: the TCP peer, unless the peer is one of `DOCS_AGENT_TRUSTED_PROXIES` (IP addresses and
CIDR networks, comma-separated; default: none). Then the right-most `X-Forwarded-For` hop that is
not itself a trusted proxy — each proxy appends the address it saw, so that hop is the last one a
trusted machine wrote; everything left of it is whatever the client sent.

Why not `scope["client"]`: both engines serve through uvicorn with its proxy-headers middleware
on and its default `FORWARDED_ALLOW_IPS` (`127.0.0.1,::1`), which rewrites `scope["client"]` from
`X-Forwarded-For` for a loopback peer before any app code runs. Anyone reaching the server
through loopback (a local proxy or tunnel that passes the header on, a local process) chose their
own address: past a new-guest cap of 3, 9 of 9 further guests were minted (issue 33).
uvicorn builds that middleware when it loads the app (`uvicorn.config.Config.load`), right after
importing it, and both `langgraph dev` and Aegra import this project's `http.app` (which imports
this module) while being imported. So on import this module gives uvicorn a subclass of its own
middleware that first keeps the TCP peer in the scope (`PEER_KEY`), then rewrites as before: the
engines' behaviour (scheme, their logs) is unchanged, and this module reads the true peer.

Without that record (another ASGI server, proxy headers switched off, a uvicorn that builds the
middleware differently) a request carrying `X-Forwarded-For` has no verifiable address: all such
requests share one key (`UNVERIFIED`) rather than trusting the header, and a warning says so once.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

from settings import current
from settings.web import Network

log = logging.getLogger(__name__)

PEER_KEY = "docs_agent.peer"
"""Scope key holding the TCP peer `(host, port)` as the server saw it, before any rewrite."""
UNVERIFIED = "unverified-forwarded"
UVICORN_MIDDLEWARE = "ProxyHeadersMiddleware"
"""The name `uvicorn.config.Config.load` wraps the app with (verified on uvicorn 0.54 and 0.55)."""
MAX_HOP_CHARS = 64


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:10.0.0.1 is 10.0.0.1
    return mapped or ip


def is_trusted(host: str, proxies: Iterable[Network]) -> bool:
    """True when `host` is an address inside one of `proxies`."""
    ip = _ip(host)
    return ip is not None and any(ip.version == n.version and ip in n for n in proxies)


def _normal(hop: str) -> str:
    ip = _ip(hop)
    return str(ip) if ip is not None else hop.strip()[:MAX_HOP_CHARS]


def forwarded_for(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    """The hops of every `X-Forwarded-For` header, left to right."""
    hops: list[str] = []
    for name, value in headers:
        if name.lower() == b"x-forwarded-for":
            hops += [h.strip() for h in value.decode("latin-1").split(",") if h.strip()]
    return hops


def address_of(peer: str, hops: list[str], proxies: tuple[Network, ...]) -> str:
    """The client's address: `peer`, or from a trusted proxy its right-most untrusted hop."""
    if not is_trusted(peer, proxies):
        return _normal(peer)
    for hop in reversed(hops):
        if not is_trusted(hop, proxies):
            return _normal(hop)
    return _normal(hops[0]) if hops else _normal(peer)  # every hop a proxy: the first one


_warned = False


def client_address(scope: Mapping[str, Any], proxies: tuple[Network, ...] | None = None) -> str:
    """The address the guest limits count for this request (see the module docstring)."""
    global _warned
    proxies = TRUSTED if proxies is None else proxies
    hops = forwarded_for(scope.get("headers") or [])
    if PEER_KEY in scope:
        peer = scope[PEER_KEY]
    elif not hops:
        peer = scope.get("client")  # nothing to rewrite from: the server's peer is the peer
    else:
        if not _warned:
            _warned = True
            log.warning(
                "docs-agent: the TCP peer of a request with X-Forwarded-For is unknown here (not "
                "served by uvicorn with proxy headers on?); such requests share one address for "
                "the guest limits."
            )
        return UNVERIFIED
    host = str(peer[0]) if peer else "unknown"
    return address_of(host, hops, proxies)


def install_peer_record() -> bool:
    """Make uvicorn's proxy-headers middleware keep the TCP peer in the scope (`PEER_KEY`).

    Patches the name `uvicorn.config` builds the middleware from, once per process, before the
    engine's server loads the app. Returns False where uvicorn is not installed.
    """
    try:
        import uvicorn.config as uvicorn_config  # noqa: PLC0415 — only where uvicorn serves
    except ImportError:
        return False
    base = getattr(uvicorn_config, UVICORN_MIDDLEWARE)
    if getattr(base, "keeps_peer", False):
        return True

    class PeerKeepingProxyHeadersMiddleware(base):  # type: ignore[misc,valid-type]
        """uvicorn's own middleware, which first notes the TCP peer it is about to rewrite."""

        keeps_peer = True

        async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
            if scope.get("type") in ("http", "websocket"):
                scope[PEER_KEY] = scope.get("client")
            await super().__call__(scope, receive, send)

    setattr(uvicorn_config, UVICORN_MIDDLEWARE, PeerKeepingProxyHeadersMiddleware)
    return True


TRUSTED = current().web.trusted_proxies  # parsed in settings/web.py
install_peer_record()
