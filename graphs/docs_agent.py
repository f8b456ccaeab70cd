"""docs_agent — the fast path: one model ⇄ tools loop (`create_agent`), 3-6 tool calls per question.

The graph is compiled at import so `langgraph.json` can point at `graph`; `build_docs_agent`
takes tools and middleware so tests can swap in fakes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.tools import BaseTool

from graphs.context import Context
from graphs.middleware import shared_middleware
from graphs.models import announce_model, load_chat_model
from graphs.prompts import SYSTEM_PROMPT
from tools import create_all_tools

RECURSION_LIMIT = 25


def build_docs_agent(
    tools: Sequence[BaseTool] | None = None,
    middleware: Sequence[AgentMiddleware[Any, Any]] | None = None,
    checkpointer: Any = None,
) -> Any:
    """Compile docs_agent over `tools` (default: the configured catalog)."""
    agent = create_agent(
        # The model here is a placeholder: ContextModelMiddleware picks the run's model.
        model=load_chat_model("offline"),
        tools=list(create_all_tools() if tools is None else tools),
        system_prompt=SYSTEM_PROMPT,
        middleware=list(shared_middleware() if middleware is None else middleware),
        context_schema=Context,
        checkpointer=checkpointer,  # None on the platform: the server provides it
        name="docs_agent",
    )
    return agent.with_config({"recursion_limit": RECURSION_LIMIT})


announce_model()
graph = build_docs_agent()
