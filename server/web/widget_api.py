"""What the widget asks before it shows a button: `GET /chat/api/widget?origin=<the site's origin>`.

The chat page may be framed only by `DOCS_AGENT_WEB_ORIGINS` (CSP `frame-ancestors`): on any
other site the panel would open on an empty, refused frame. So the widget asks first and, when
the answer is no, shows no button at all and says why in the console (server/web/static/widget.js).

The answer is public (whether an origin is allowed, whether guests may ask) and the same for
every caller, so it carries `Access-Control-Allow-Origin: *` and may be cached for a few
minutes; it holds no list of the allowed origins.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from server import guest
from server.web.origins import may_embed

router = APIRouter()
CACHE_SECONDS = 300


@router.get("/chat/api/widget")
async def widget_check(request: Request) -> Response:
    """`{"allowed": bool, "guests": bool}` for the page origin in `?origin=`."""
    origin = (request.query_params.get("origin") or "").strip()[:300]
    allowed = may_embed(origin, request.headers.get("host", ""))
    return JSONResponse(
        {"allowed": allowed, "guests": guest.CONFIG.enabled},
        headers={
            "Access-Control-Allow-Origin": "*",
            "Cache-Control": f"public, max-age={CACHE_SECONDS}",
            "X-Content-Type-Options": "nosniff",
        },
    )
