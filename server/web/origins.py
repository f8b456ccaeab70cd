"""The docs sites allowed to embed the assistant (`DOCS_AGENT_WEB_ORIGINS`), read once at start.

One place for the list, because three things follow it: the page's CSP `frame-ancestors`
(server/web/app.py), the widget's question "may I show a button here?" (server/web/widget_api.py),
and the viewer page's CSP (server/web/sources.py). The variable is parsed in settings/web.py.
"""

from __future__ import annotations

from urllib.parse import urlparse

from settings import current

FRAME_ORIGINS = list(current().web.origins)


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
