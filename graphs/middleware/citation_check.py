"""No answer leaves a graph with an invented citation: each is verified, fixed or removed.

After the agent finishes, the final answer's citations are checked (`graphs.citations`) against
what this turn's tools returned (their artifacts) and then the sources' own backends; the answer
is replaced by the checked text when anything changed, the counts go to state (`citation_check`)
and to the `custom` stream. Each citation that stayed becomes a source card on the answer's
`additional_kwargs["sources"]` (`graphs/source_cards.py`): what the page, the widget and MCP
show and open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, NotRequired

from langchain.agents import AgentState
from langchain.agents.middleware import AgentMiddleware
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.messages import AIMessage
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from graphs.citations import CitationChecker, read_sources
from graphs.messages import current_turn
from graphs.source_cards import source_cards


class CitationCheckState(AgentState[Any]):
    """The agent's state plus the last turn's citation report (internal: not in the output schema)."""

    citation_check: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]


class CitationCheckMiddleware(AgentMiddleware[CitationCheckState, Any]):
    """Verify every citation of the final answer; store and stream the report."""

    state_schema = CitationCheckState

    def __init__(self, checker: Callable[[], CitationChecker | None]) -> None:
        """`checker` gives the checker for the configured sources (None: nothing to check against)."""
        super().__init__()
        self.checker = checker

    async def aafter_agent(
        self, state: CitationCheckState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async runs check in a worker thread: the checks read files and SQLite (blocking I/O)."""
        return await asyncio.to_thread(self.after_agent, state, runtime)

    def after_agent(
        self, state: CitationCheckState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Verify, fix or remove every citation in the final answer."""
        messages = state["messages"]
        last = messages[-1] if messages else None
        checker = self.checker()
        if not isinstance(last, AIMessage) or last.tool_calls or checker is None:
            return None
        _, turn = current_turn(messages)
        text, report = checker.check(last.text, read_sources(turn))
        cards = source_cards(text, checker.sources, turn)
        changes: dict[str, Any] = {
            "additional_kwargs": {**last.additional_kwargs, "sources": cards}
        }
        if text != last.text:
            changes["content"] = text
        update: dict[str, Any] = {
            "citation_check": report.as_dict(),
            "messages": [last.model_copy(update=changes)],
        }
        try:
            get_stream_writer()({"name": "citation_check", "data": report.as_dict()})
        except RuntimeError:  # outside a graph run
            pass
        return update
