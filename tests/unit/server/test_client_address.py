"""server/client_address.py: the TCP peer counts, a header only from a configured proxy.

The attack of issue 33: the engines' uvicorn rewrote `scope["client"]` from `X-Forwarded-For` for
any loopback peer, so one machine minted 9 of 9 guests past a per-address cap of 3.
"""

from __future__ import annotations

from typing import Any

import uvicorn

from server import client_address as C
from settings.web import parse_trusted_proxies

NONE = parse_trusted_proxies("")
LOCAL_PROXY = parse_trusted_proxies("127.0.0.1, ::1")
CHAIN = parse_trusted_proxies("10.0.0.0/8, 192.0.2.1")


def scope(peer: str | None, *xff: str, recorded: bool = True) -> dict[str, Any]:
    """An HTTP scope as our routes see it: `client` maybe rewritten, the peer kept beside it."""
    headers = [(b"x-forwarded-for", v.encode()) for v in xff]
    client = (peer, 40000) if peer else None
    s: dict[str, Any] = {"type": "http", "headers": headers, "client": client}
    if recorded:
        s[C.PEER_KEY] = client
    return s


def test_without_trusted_proxies_the_peer_is_the_address_whatever_the_header() -> None:
    for xff in ((), ("198.51.100.7",), ("198.51.100.7, 127.0.0.1",), ("garbage",)):
        assert C.client_address(scope("127.0.0.1", *xff), NONE) == "127.0.0.1"
        assert C.client_address(scope("203.0.113.4", *xff), NONE) == "203.0.113.4"


def test_from_a_trusted_proxy_the_right_most_untrusted_hop_counts() -> None:
    # nginx `proxy_add_x_forwarded_for` appends the peer it saw to what the client sent.
    assert C.client_address(scope("127.0.0.1", "1.2.3.4, 203.0.113.9"), LOCAL_PROXY) == (
        "203.0.113.9"
    )
    assert C.client_address(scope("127.0.0.1", "203.0.113.9"), LOCAL_PROXY) == "203.0.113.9"
    # Two proxies in a row, two headers: hops of trusted proxies are skipped from the right.
    s = scope("10.0.0.2", "6.6.6.6, 203.0.113.9", "192.0.2.1, 10.3.4.5")
    assert C.client_address(s, CHAIN) == "203.0.113.9"
    # A trusted proxy that sent no header is the client itself; all hops trusted: the first.
    assert C.client_address(scope("127.0.0.1"), LOCAL_PROXY) == "127.0.0.1"
    assert C.client_address(scope("10.0.0.2", "10.9.9.9, 10.0.0.7"), CHAIN) == "10.9.9.9"
    # A peer outside the list is never overruled by a header.
    assert C.client_address(scope("203.0.113.50", "10.0.0.2"), CHAIN) == "203.0.113.50"


def test_addresses_are_normalised_and_garbage_is_cut() -> None:
    assert C.client_address(scope("::ffff:127.0.0.1", "203.0.113.9"), LOCAL_PROXY) == (
        "203.0.113.9"
    )
    assert C.client_address(scope("127.0.0.1", "2001:DB8::1"), LOCAL_PROXY) == "2001:db8::1"
    long = C.client_address(scope("127.0.0.1", "x" * 5000), LOCAL_PROXY)
    assert long == "x" * C.MAX_HOP_CHARS


def test_an_unverifiable_header_shares_one_key_but_a_plain_request_keeps_its_peer() -> None:
    rewritten = scope("198.51.100.7", "198.51.100.7", recorded=False)  # peer unknown here
    assert C.client_address(rewritten, NONE) == C.UNVERIFIED
    assert C.client_address(scope("203.0.113.4", recorded=False), NONE) == "203.0.113.4"


async def test_uvicorn_still_rewrites_but_the_true_peer_is_kept() -> None:
    # The engines' own path: uvicorn builds its proxy-headers middleware when it loads the app,
    # after this module was imported (uvicorn's default trusts loopback peers).
    seen: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope)

    config = uvicorn.Config(app, proxy_headers=True, forwarded_allow_ips="127.0.0.1")
    config.load()
    assert getattr(type(config.loaded_app), "keeps_peer", False)
    await config.loaded_app(scope("127.0.0.1", "198.51.100.7", recorded=False), None, None)
    assert seen[0]["client"] == ("198.51.100.7", 0)  # the engine's view: unchanged behaviour
    assert seen[0][C.PEER_KEY] == ("127.0.0.1", 40000)
    assert C.client_address(seen[0], NONE) == "127.0.0.1"
    assert C.client_address(seen[0], LOCAL_PROXY) == "198.51.100.7"
    assert C.install_peer_record()  # idempotent
