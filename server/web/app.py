"""The chat page, the docs-site widget and their few API routes, served by the LangGraph server.

`router` is included by the server's own HTTP app (`server/app.py`, `langgraph.json` →
`http.app`), so `langgraph dev`, LangGraph Platform and Aegra serve these routes next to their
API; `app` is the same routes alone (tests, or an `http.app` of their own).

Routes (all under `/chat`):
- `GET /chat` the page; `GET /chat/static/<file>` its script and style; `GET /chat/widget.js`
  the one-tag widget. Static files go out gzip-compressed when the browser accepts it (compressed
  once, kept in memory; no GZip middleware, which the server would apply to its SSE streams too).
- `GET /chat/api/config` public settings the page needs (guest mode on?).
- `GET /chat/api/whoami` the identity the caller's token resolves to.
- `POST /chat/api/guest` a new guest token (404 unless guest mode is on; server/guest.py).
- `POST /chat/api/feedback` one vote on one answer (server/web/feedback.py).

Everything else the page does goes to the server's own API (threads, runs/stream, state).
The page may be framed only by `DOCS_AGENT_WEB_ORIGINS` (CSP `frame-ancestors`; default: the
server's own origin): the widget on another site is an iframe of this page.
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from langgraph_sdk import Auth

from server import client_address, guest
from server.web import feedback, search, sources, widget_api
from server.web.origins import FRAME_ORIGINS, allowed_origins  # noqa: F401 — allowed_origins: this module's API

STATIC = Path(__file__).with_name("static")
_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
}
PAGE_FILES = ("index.html",)
ASSET_FILES = (
    "chat.js",
    "chat.css",
    *("instant.js", "instant.css", "source.js", "source.css"),  # search and source viewer
)


@lru_cache(maxsize=16)
def _asset(name: str) -> tuple[bytes, bytes]:
    """(plain, gzip) bytes of a shipped static file."""
    raw = (STATIC / name).read_bytes()
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


def _static_response(request: Request, name: str, extra: dict[str, str] | None = None) -> Response:
    raw, packed = _asset(name)
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding", **(extra or {})}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        body = packed
    else:
        body = raw
    media = _TYPES.get(Path(name).suffix, "application/octet-stream")
    return Response(body, media_type=media, headers=headers)


def _page_headers() -> dict[str, str]:
    ancestors = " ".join(["'self'", *FRAME_ORIGINS])
    return {
        "Content-Security-Policy": (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            f"connect-src 'self'; frame-ancestors {ancestors}; base-uri 'none'; form-action 'none'"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


router = APIRouter()
router.include_router(search.router)  # GET /chat/api/search: instant search (server/web/search.py)
router.include_router(sources.router)  # /chat/source + /chat/api/source: the cited-source viewer
router.include_router(widget_api.router)  # GET /chat/api/widget: may this site show the widget?


@router.get("/chat", include_in_schema=False)
async def page(request: Request) -> Response:
    """The chat page (also what the widget frames)."""
    return _static_response(request, "index.html", _page_headers())


@router.get("/chat/static/{name}", include_in_schema=False)
async def asset(request: Request, name: str) -> Response:
    """The page's script and style (only the shipped files, never a path)."""
    if name not in ASSET_FILES:
        return Response(status_code=404)
    return _static_response(request, name, {"X-Content-Type-Options": "nosniff"})


@router.get("/chat/widget.js", include_in_schema=False)
async def widget(request: Request) -> Response:
    """The one-tag widget a docs site loads (cross-origin by design)."""
    return _static_response(request, "widget.js", {"Cross-Origin-Resource-Policy": "cross-origin"})


@router.get("/chat/api/config")
async def public_config() -> dict[str, Any]:
    """What the page needs before the first request: is guest mode on?"""
    return {"guests": guest.CONFIG.enabled}


def _error(exc: Auth.exceptions.HTTPException) -> JSONResponse:
    return JSONResponse(
        {"detail": exc.detail}, status_code=exc.status_code, headers=dict(exc.headers or {})
    )


@router.get("/chat/api/whoami")
async def whoami(request: Request) -> Response:
    """The caller's identity as the server resolves it (401 for a bad token)."""
    try:
        user = await feedback.caller(request)
    except Auth.exceptions.HTTPException as exc:
        return _error(exc)
    permissions = list(user.get("permissions") or [])
    return JSONResponse(
        {
            "identity": user["identity"],
            "guest": guest.PERMISSION in permissions,
            "dev": "dev_mode" in permissions,
        }
    )


def same_origin(request: Request) -> bool:
    """True when a browser request comes from this server's own origin (or no browser at all)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True  # not a cross-site browser request (curl, a server): the limits still apply
    return urlparse(origin).netloc == request.headers.get("host", "")


@router.post("/chat/api/guest")
async def new_guest(request: Request) -> Response:
    """A short-lived guest token for this browser (guest mode only; limited per address)."""
    if not guest.CONFIG.enabled:
        return JSONResponse({"detail": "Guest mode is off"}, status_code=404)
    if not same_origin(request):
        # Another site's script must not mint guests for its visitors (the widget's iframe is
        # this server's own origin, so the page always passes).
        return JSONResponse(
            {"detail": "Guest tokens are issued to this server's page only"}, status_code=403
        )
    address = client_address.client_address(request.scope)  # never a header it cannot trust
    try:
        issued = guest.SERVICE.issue(address)
    except guest.GuestLimitError as exc:
        return JSONResponse(
            {"detail": str(exc)},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after_s)},
        )
    return JSONResponse(issued, headers={"Cache-Control": "no-store"})


@router.post("/chat/api/feedback")
async def post_feedback(request: Request) -> Response:
    """Record (or change) the caller's vote on one answer of their own thread."""
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"detail": "Body must be JSON"}, status_code=422)
    try:
        stored = await feedback.record_vote(request, body)
    except Auth.exceptions.HTTPException as exc:
        return _error(exc)
    return JSONResponse(stored)


app = FastAPI(title="docs-agent web", docs_url=None, redoc_url=None, openapi_url=None)
app.include_router(router)
