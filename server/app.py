"""The server's own HTTP app (`langgraph.json` → `http.app`): middleware over the platform's routes.

langgraph-api and Aegra merge this app into theirs: its routes come before the platform's and
its middleware wraps every route (langgraph-api `server.py`, Aegra `aegra_api/main.py`). Aegra
takes only a FastAPI app (it adds its own routers to it), so this is one.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware import Middleware

from server.limits import RequestSizeLimit, RunAdmissionScope
from server.mcp_results import McpResultsMiddleware
from server.route_guard import EngineRouteGuard
from server.web.app import router as web_router

app = FastAPI(
    title="docs-agent",
    # Outermost: a route the project does not serve (the engine's debug, truncate and deploy
    # routes) answers nothing with auth on (server/route_guard.py); then MCP replies are reshaped
    # and every refusal of an MCP call becomes a JSON-RPC error, the 413 below included
    # (server/mcp_results.py); then an oversized body is refused before anything reads it, and
    # each request is marked so the run limit counts a run it admits while the request is in
    # flight (server/limits.py).
    middleware=[
        Middleware(EngineRouteGuard),
        Middleware(McpResultsMiddleware),
        Middleware(RequestSizeLimit),
        Middleware(RunAdmissionScope),
    ],
    docs_url=None,
    redoc_url=None,
    openapi_url=None,
)
app.include_router(web_router)  # the chat page, widget and their API (server/web/app.py)
