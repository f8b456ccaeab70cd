"""The server's own HTTP app (`langgraph.json` → `http.app`): middleware over the platform's routes.

langgraph-api and Aegra merge this Starlette app into theirs: its routes come before the
platform's and its middleware wraps every route (langgraph-api `server.py`).
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware

from server.mcp_results import McpResultsMiddleware

app = Starlette(middleware=[Middleware(McpResultsMiddleware)])
