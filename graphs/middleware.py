"""The middleware stack both graphs share, outermost first — one place to add a production concern.

Order matters: guardrails and input checks run before any model call; the model choice and its
fallbacks wrap every model call; history pruning and suggestions run after the agent finishes.
"""

from __future__ import annotations

from typing import Any

from langchain.agents.middleware import AgentMiddleware

from graphs.guardrails import guardrail_middleware
from graphs.history import PruneHistoryMiddleware
from graphs.memory_prompt import MemoryPromptMiddleware
from graphs.models import ContextModelMiddleware
from graphs.resilience import prompt_caching_middleware, resilience_middleware
from graphs.suggests import SuggestionsMiddleware


def shared_middleware() -> list[AgentMiddleware[Any, Any]]:
    """Middleware for the user-facing agent of each graph (docs_agent, deep_agent's orchestrator)."""
    return [
        # Guardrails and the input cap first (no model call for a refused turn), then loop limits,
        # tool-error handling and retries (Retry-After aware) around the model choice + fallbacks.
        *guardrail_middleware(),
        *resilience_middleware(),
        ContextModelMiddleware(),
        # Inside the model choice (it must see the real model), before volatile prompt parts.
        *prompt_caching_middleware(),
        # The user's saved memories, appended after the stable system prompt on each model call.
        MemoryPromptMiddleware(),
        # after_agent hooks run last-to-first: suggestions see the finished turn, then pruning drops
        # its tool traffic from the thread.
        PruneHistoryMiddleware(),
        SuggestionsMiddleware(),
    ]
