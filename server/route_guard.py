"""Only the routes this project serves answer: an engine's own debug and deploy routes never do.

Why: `langgraph dev` (langgraph-runtime-inmem) adds meta routes that no auth handler sees —
`GET /internal/debug/thread/{id}` returns any thread whole, `POST /internal/truncate` wipes every
user's threads, checkpoints and store, `POST /deploy` starts a deploy — and with `AUTH_TOKENS`
set they answered without a token (measured on 0.36.7: the owner's thread 200 → 404 after one
anonymous POST, also from another origin's page with a `no-cors` fetch). Auth handlers cannot
close them (the engine never calls them there), so this ASGI middleware of `server/app.py`,
which both engines put around every route, meta routes included, does.

The rule is an allow-list, not a deny-list, so a route a future engine release adds stays shut
until it is looked at: with auth on, a request whose first path segment is not one of
`SERVED_PREFIXES` (the platform API, the engines' health routes, MCP/A2A, the chat page) is
answered 404 before any route sees it. In dev mode (no auth configured, `langgraph dev` only) the
engine's tools stay usable for the developer, but never from another site's page: a browser
request to them from an origin other than the server's own, loopback or Studio is refused (403).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from urllib.parse import urlparse

from starlette.types import ASGIApp, Receive, Scope, Send

# First path segments of every route the project means to serve, on either engine (langgraph-api
# 0.16: its OpenAPI plus meta routes; Aegra 0.11: its routers), and the chat page's (server/web).
SERVED_PREFIXES = frozenset(
    {
        "",  # GET / (load-balancer health check)
        "ok",
        "info",
        "health",  # Aegra
        "live",  # Aegra
        "ready",  # Aegra
        "metrics",
        "docs",
        "openapi.json",
        "assistants",
        "threads",
        "runs",
        "store",
        "mcp",
        "a2a",
        "ui",  # langgraph-api's generative-UI bundles (auth-protected like the API)
        "chat",  # this project's page, widget and their API (server/web)
    }
)
# Origins a developer's own tools run on: the page itself, loopback, LangGraph Studio.
_TRUSTED_ORIGIN = re.compile(
    r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$|^https://(eu\.)?smith\.langchain\.com$"
)


def first_segment(path: str) -> str:
    """`/internal/truncate` → `internal`; `/` → ``."""
    return path.lstrip("/").split("/", 1)[0]


def is_served(path: str) -> bool:
    """True when `path` belongs to a route this project serves (see SERVED_PREFIXES)."""
    return first_segment(path) in SERVED_PREFIXES


def trusted_origin(origin: str | None, host: str | None) -> bool:
    """No browser origin at all (curl, an SDK), the server's own, loopback or Studio."""
    if origin is None:
        return True
    if origin == "null":  # a sandboxed frame or a file:// page
        return False
    return urlparse(origin).netloc == (host or "") or bool(_TRUSTED_ORIGIN.match(origin))


async def auth_dev_mode() -> bool:
    """Whether the server runs without auth (server/auth.py's configuration, read once).

    Imported lazily and in a worker thread, as server/web/feedback.py does: the module checks the
    environment (and may write the dev-state marker) when first imported. A refused configuration
    (`CONFIG is None`) counts as auth on: it is never a reason to open anything.
    """
    server_auth = await asyncio.to_thread(importlib.import_module, "server.auth")
    config = server_auth.CONFIG
    return config is not None and config.dev_mode


class EngineRouteGuard:
    """ASGI middleware: 404 for routes outside SERVED_PREFIXES unless in dev mode (see module)."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap `app` (the engine's whole app, meta routes included)."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass served routes at once; decide the others by the auth mode and the origin."""
        if scope["type"] not in ("http", "websocket") or is_served(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if await auth_dev_mode():
            if trusted_origin(headers.get("origin"), headers.get("host")):
                await self.app(scope, receive, send)
                return
            await _refuse(scope, send, 403, "This route is for the local developer's own tools.")
            return
        await _refuse(scope, send, 404, "Not Found")


async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
