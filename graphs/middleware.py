"""The middleware stack both graphs share, outermost first — one place to add a production concern.

Order matters: guardrails and input checks run before any model call; the model choice and its
fallbacks wrap every model call; history pruning and suggestions run after the agent finishes.
"""

from __future__ import annotations

from typing import Any

from langchain.agents.middleware import AgentMiddleware

from graphs.models import ContextModelMiddleware


def shared_middleware() -> list[AgentMiddleware[Any, Any]]:
    """Middleware for the user-facing agent of each graph (docs_agent, deep_agent's orchestrator)."""
    return [ContextModelMiddleware()]
