"""docs_agent — the fast path: one model ⇄ tools loop (`create_agent`), 3-6 tool calls per question.

The graph is compiled at import so `langgraph.json` can point at `graph`; `build_docs_agent`
takes tools and middleware so tests can swap in fakes. Its answers leave through the same
citation check as deep_agent's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.tools import BaseTool

from graphs.citations import CitationChecker, lazy_checker
from graphs.context import Context
from graphs.middleware import shared_middleware
from graphs.middleware.citation_check import CitationCheckMiddleware
from graphs.models import announce_model, load_chat_model
from graphs.prompts import SYSTEM_PROMPT
from graphs.trace_setup import keep_untraced_setup_inline
from tools import Sources, create_all_tools, load_sources

RECURSION_LIMIT = 25


def build_docs_agent(
    tools: Sequence[BaseTool] | None = None,
    middleware: Sequence[AgentMiddleware[Any, Any]] | None = None,
    checkpointer: Any = None,
    sources: Sources | None = None,
    checker: CitationChecker | None = None,
) -> Any:
    """Compile docs_agent over `tools` (default: the catalog of the configured sources).

    Citations are checked against `sources` (default: the configured ones when `tools` is None).
    """
    if tools is None:
        sources = sources or load_sources()
        tools = create_all_tools(sources)
    stack = shared_middleware() if middleware is None else middleware
    agent = create_agent(
        # A placeholder: ContextModelMiddleware picks the run's model.
        model=load_chat_model("offline"),
        tools=list(tools),
        system_prompt=SYSTEM_PROMPT,
        middleware=[*stack, CitationCheckMiddleware(lazy_checker(sources, checker))],
        context_schema=Context,
        checkpointer=checkpointer,  # None on the platform: the server provides it
        name="docs_agent",
    )
    return agent.with_config({"recursion_limit": RECURSION_LIMIT})


announce_model()
keep_untraced_setup_inline()
graph = build_docs_agent()
