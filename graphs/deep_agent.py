"""deep_agent — the thorough path: an orchestrator that delegates to three researcher subagents.

Hand-built on `langchain.agents.create_agent` rather than `deepagents.create_deep_agent`, on merit:
deepagents adds filesystem tools, a todo list and a general-purpose subagent by default — context
and tools a focused orchestrator should not carry. The orchestrator's only tools are the
`ask_<researcher>` tools (`graphs.researchers`); several called in one step run in parallel.

Streaming: a researcher runs inside the orchestrator's `tools` task, so its events carry a namespace
`tools:<id>|<researcher name>:<id>|…`; the answer's tokens come from the root `model` node. Before
the answer leaves, the citation check verifies it; the context economy is recorded beside it.
Offline, `graphs.offline.roles` plays the orchestrator and the researchers by rules.
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
from graphs.middleware.context_economy import ContextEconomyMiddleware
from graphs.middleware.offline_role import OfflineRole
from graphs.models import announce_model, load_chat_model
from graphs.offline.roles import OfflineOrchestratorModel
from graphs.prompts import ORCHESTRATOR_PROMPT
from graphs.researchers import ask_tools
from graphs.trace_setup import keep_untraced_setup_inline
from tools import Sources, create_code_group, create_docs_group, create_kb_group, load_sources

RECURSION_LIMIT = 40


def build_deep_agent(
    sources: Sources | None = None,
    tools: dict[str, Sequence[BaseTool]] | None = None,
    middleware: Sequence[AgentMiddleware[Any, Any]] | None = None,
    checker: CitationChecker | None = None,
    checkpointer: Any = None,
) -> Any:
    """Compile deep_agent; `tools` (by researcher kind) and `middleware` let tests swap in fakes.

    A researcher whose source is not configured is left out, so the orchestrator is never offered
    a specialist that cannot search.
    """
    if tools is None:
        sources = sources or load_sources()
        tools = {
            "docs": create_docs_group(sources),
            "kb": create_kb_group(sources),
            "code": create_code_group(sources),
        }
    asks = ask_tools(tools)
    stack = shared_middleware() if middleware is None else middleware
    agent = create_agent(
        # A placeholder: ContextModelMiddleware picks the run's model.
        model=load_chat_model("offline"),
        tools=asks,
        system_prompt=ORCHESTRATOR_PROMPT,
        middleware=[
            *stack,
            OfflineRole(lambda m: OfflineOrchestratorModel(language=m.language)),
            CitationCheckMiddleware(lazy_checker(sources, checker)),
            ContextEconomyMiddleware.for_prompt(ORCHESTRATOR_PROMPT, asks),
        ],
        context_schema=Context,
        checkpointer=checkpointer,  # None on the platform: the server provides it
        name="deep_agent",
    )
    return agent.with_config({"recursion_limit": RECURSION_LIMIT})


announce_model()
keep_untraced_setup_inline()
graph = build_deep_agent()
