"""The chat page, the docs-site widget and their few API routes, served by the LangGraph server.

`router` is included by the server's own HTTP app (`server/app.py`, `langgraph.json` →
`http.app`), so `langgraph dev`, LangGraph Platform and Aegra serve these routes next to their
API; `app` is the same routes alone (tests, or an `http.app` of their own).

Routes (all under `/chat`):
- `GET /chat` the page; `GET /chat/static/<file>` its script and style, and the vendored
  libraries under `static/vendor/` (markdown-it, DOMPurify, highlight.js; vendor/README.md);
  `GET /chat/widget.js` the one-tag widget. Static files go out gzip-compressed when the browser
  accepts it (compressed once, kept in memory; no GZip middleware, which the server would apply
  to its SSE streams too), each with a strong ETag (a 304 answers a matching If-None-Match). The
  page names its script and style with `?v=<content hash>`: those URLs are cached for a year as
  immutable (a new release is a new URL); every other URL is revalidated (`no-cache`), the
  widget's after 5 minutes (it is loaded by every page view of a docs site).
- `GET /chat/api/config` public settings the page needs (guest mode on? its first screen:
  welcome, example questions, disclaimer; server/web/first_screen.py).
- `GET /chat/api/whoami` the identity the caller's token resolves to.
- `POST /chat/api/guest` a new guest token (404 unless guest mode is on; server/guest.py).
- `POST /chat/api/feedback` one vote on one answer (server/web/feedback.py).

Everything else the page does goes to the server's own API (threads, runs/stream, state).
The page may be framed only by `DOCS_AGENT_WEB_ORIGINS` (CSP `frame-ancestors`; default: the
server's own origin): the widget on another site is an iframe of this page.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import logging
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from langgraph_sdk import Auth

from server import client_address, guest
from server.web import feedback, search, sources, widget_api
from server.web.first_screen import first_screen
from server.web.origins import FRAME_ORIGINS
from settings import current
from settings.web import WebSettings

log = logging.getLogger(__name__)
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
# Vendored libraries: every .js/.css under static/vendor/, by its path ("vendor/dompurify/purify.min.js").
VENDOR_FILES = frozenset(
    p.relative_to(STATIC).as_posix()
    for p in (STATIC / "vendor").rglob("*")
    if p.suffix in (".js", ".css") and p.is_file()
)
IMMUTABLE = "public, max-age=31536000, immutable"


def content_hash(raw: bytes) -> str:
    """The short content hash that names one version of a file (ETag and `?v=`)."""
    return hashlib.sha256(raw).hexdigest()[:16]


def _versioned_page(raw: bytes) -> bytes:
    """The page with its own script and style URLs stamped `?v=<hash>` (cacheable for a year)."""

    def stamp(match: re.Match[bytes]) -> bytes:
        name = match.group(2).decode()
        if name not in ASSET_FILES and name not in VENDOR_FILES:
            return match.group(0)
        version = content_hash(_asset(name)[0]).encode()
        return match.group(1) + match.group(2) + b"?v=" + version + match.group(3)

    return re.sub(rb'((?:src|href)="/chat/static/)([\w./-]+)(")', stamp, raw)


@lru_cache(maxsize=64)
def _asset(name: str) -> tuple[bytes, bytes]:
    """(plain, gzip) bytes of a shipped static file (the page with versioned asset URLs)."""
    raw = (STATIC / name).read_bytes()
    if name in PAGE_FILES:
        raw = _versioned_page(raw)
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


def _not_modified(request: Request, etag: str) -> bool:
    wanted = request.headers.get("if-none-match", "")
    tags = {t.strip().removeprefix("W/") for t in wanted.split(",")}
    return etag in tags or "*" in tags


def _static_response(
    request: Request,
    name: str,
    extra: dict[str, str] | None = None,
    cache: str = "no-cache",
) -> Response:
    raw, packed = _asset(name)
    version = content_hash(raw)
    if cache == "no-cache" and name not in PAGE_FILES and request.query_params.get("v") == version:
        cache = IMMUTABLE  # this URL names this content: it never changes
    zipped = "gzip" in request.headers.get("accept-encoding", "")
    # One tag per representation (RFC 9110: the gzip body is another representation).
    etag = f'"{version}-gz"' if zipped else f'"{version}"'
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding", "ETag": etag, **(extra or {})}
    if _not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    if zipped:
        headers["Content-Encoding"] = "gzip"
    media = _TYPES.get(Path(name).suffix, "application/octet-stream")
    return Response(packed if zipped else raw, media_type=media, headers=headers)


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


@router.get("/chat/static/{name:path}", include_in_schema=False)
async def asset(request: Request, name: str) -> Response:
    """The page's script, style and vendored libraries (only shipped files by name, never a path)."""
    if name not in ASSET_FILES and name not in VENDOR_FILES:
        return Response(status_code=404)
    return _static_response(request, name, {"X-Content-Type-Options": "nosniff"})


@router.get("/chat/widget.js", include_in_schema=False)
async def widget(request: Request) -> Response:
    """The one-tag widget a docs site loads (cross-origin by design; cached 5 min, then revalidated)."""
    return _static_response(
        request,
        "widget.js",
        {"Cross-Origin-Resource-Policy": "cross-origin"},
        cache="public, max-age=300, must-revalidate",
    )


@router.get("/chat/api/config")
async def public_config() -> dict[str, Any]:
    """What the page needs before the first request: guest mode on? its first screen."""
    screen = await asyncio.to_thread(first_screen)  # may open the docs source once: off the loop
    return {"guests": guest.CONFIG.enabled, **screen}


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


def page_address(web: WebSettings | None = None, argv: list[str] | None = None) -> str:
    """Where the page is served, as well as this process can tell at start.

    `langgraph dev` exports its own URL (`LANGGRAPH_API_URL`); Aegra's `serve` command and
    uvicorn take `--host`/`--port` on their command line (else `HOST`/`PORT`); else the path alone.
    """
    web = current().web if web is None else web
    argv = sys.argv if argv is None else argv
    base = web.api_url
    if not base:

        def flag(name: str) -> str | None:
            for i, arg in enumerate(argv):
                if arg == name and i + 1 < len(argv):
                    return argv[i + 1]
                if arg.startswith(name + "="):
                    return arg.split("=", 1)[1]
            return None

        port = flag("--port") or web.port
        if port:
            host = flag("--host") or web.host or "127.0.0.1"
            base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    return f"{base}/chat"


# The start banner's line for readers (issue 31): the server's own log names the API and Studio.
log.warning("docs-agent chat page: %s", page_address())

app = FastAPI(title="docs-agent web", docs_url=None, redoc_url=None, openapi_url=None)
app.include_router(router)
