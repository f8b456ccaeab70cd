"""The engine route guard: served routes pass, the engine's own tools only in dev mode, never cross-site."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server import route_guard


class Recorder:
    """A stand-in for the engine's app: records what reached it."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def call(path: str, *, dev: bool, origin: str | None = None, monkeypatch: Any) -> tuple[int, bool]:
    """(status, reached the engine) of one request through the guard."""

    async def fake_dev_mode() -> bool:
        return dev

    monkeypatch.setattr(route_guard, "auth_dev_mode", fake_dev_mode)
    inner = Recorder()
    guard = route_guard.EngineRouteGuard(inner)
    headers = [(b"host", b"127.0.0.1:8123")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    return sent[0]["status"], bool(inner.paths)


SERVED = [
    "/",
    "/ok",
    "/threads/search",
    "/runs/wait",
    "/mcp/",
    "/chat",
    "/chat/api/guest",
    "/store/items",
]
ENGINE_TOOLS = [
    "/internal/truncate",
    "/internal/debug/thread/x",
    "/deploy",
    "/deploy/1/stream",
    "/x",
]


@pytest.mark.parametrize("path", SERVED)
def test_served_routes_pass_with_auth_on(path: str, monkeypatch: Any) -> None:
    assert call(path, dev=False, monkeypatch=monkeypatch) == (200, True)


@pytest.mark.parametrize("path", ENGINE_TOOLS)
def test_the_engines_own_routes_are_404_with_auth_on(path: str, monkeypatch: Any) -> None:
    assert call(path, dev=False, monkeypatch=monkeypatch) == (404, False)
    assert call(path, dev=False, origin="http://127.0.0.1:8123", monkeypatch=monkeypatch) == (
        404,
        False,
    )


@pytest.mark.parametrize("path", ENGINE_TOOLS)
def test_dev_mode_keeps_them_for_the_developer_but_not_for_other_sites(
    path: str, monkeypatch: Any
) -> None:
    for origin in (
        None,
        "http://127.0.0.1:8123",
        "http://localhost:3000",
        "https://smith.langchain.com",
    ):
        assert call(path, dev=True, origin=origin, monkeypatch=monkeypatch) == (200, True), origin
    for origin in (
        "https://evil.example",
        "null",
        "http://localhost.evil.example",
        "https://smith.langchain.com.evil.example",
    ):
        assert call(path, dev=True, origin=origin, monkeypatch=monkeypatch) == (403, False), origin


def test_first_segment_is_exact() -> None:
    assert route_guard.first_segment("/internal/truncate") == "internal"
    assert not route_guard.is_served("/threadsx/search")
    assert not route_guard.is_served("/chatty")
    assert route_guard.is_served("/threads")
