"""The docs sites allowed to embed the assistant (`DOCS_AGENT_WEB_ORIGINS`), read once at start.

One place for the list, because three things follow it: the page's CSP `frame-ancestors`
(server/web/app.py), the widget's question "may I show a button here?" (server/web/widget_api.py),
and the viewer page's CSP (server/web/sources.py).
"""

from __future__ import annotations

import os
from urllib.parse import urlparse


def allowed_origins(env: dict[str, str] | None = None) -> list[str]:
    """Origins allowed to frame the page (`DOCS_AGENT_WEB_ORIGINS`, comma-separated; never `*`)."""
    raw = (env if env is not None else os.environ).get("DOCS_AGENT_WEB_ORIGINS", "")
    origins = [o.strip().rstrip("/") for o in raw.split(",") if o.strip()]
    bad = [o for o in origins if "*" in o or not o.startswith(("https://", "http://"))]
    if bad:
        raise ValueError(
            f"DOCS_AGENT_WEB_ORIGINS: {', '.join(bad)} is not an origin like https://docs.example.com"
        )
    return origins


FRAME_ORIGINS = allowed_origins()


def frame_ancestors() -> str:
    """The CSP `frame-ancestors` value: the server itself and the allowed docs sites."""
    return " ".join(["'self'", *FRAME_ORIGINS])


def may_embed(origin: str, host: str, origins: list[str] | None = None) -> bool:
    """Whether a page of `origin` may show the widget of the server answering as `host`."""
    origin = origin.strip().rstrip("/")
    parsed = urlparse(origin)
    if parsed.scheme not in ("http", "https") or not parsed.netloc or parsed.path:
        return False
    return parsed.netloc == host or origin in (FRAME_ORIGINS if origins is None else origins)
