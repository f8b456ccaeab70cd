"""No step of an offline turn blocks the event loop, detected the way `langgraph dev` detects it.

`langgraph dev` activates `blockbuster` with its own allowances (`_enable_blockbuster` of
langgraph-runtime-inmem) and fails any run that makes a blocking call (SQLite, a subprocess, a
socket, a sleep) on the loop: on a server that loop serves every user's requests. These tests use
that very function, record every blocking call it catches (a tool-error middleware may swallow the
exception), and run whole turns of both graphs on the real sources: plain turns, and a turn whose
first results come from tool calls the user wrote into their own thread, so the model's plan that
searches comes on a later step.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from blockbuster.blockbuster import BlockingError
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_runtime_inmem.queue import _enable_blockbuster

from graphs.context import Context
from graphs.deep_agent import build_deep_agent
from graphs.docs_agent import build_docs_agent
from settings.sources import SourceSettings
from tools import load_sources

REPO_ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture
def blocking_calls() -> Iterator[list[str]]:
    """Activate langgraph dev's blocking-call detector; yield the list of calls it caught."""
    caught: list[str] = []
    original = BlockingError.__init__

    def record(self: BlockingError, func: str, *args: Any, **kwargs: Any) -> None:
        caught.append(func.split("\n", 1)[0])
        original(self, func, *args, **kwargs)

    BlockingError.__init__ = record  # type: ignore[method-assign]
    detector = _enable_blockbuster()  # wraps BlockingError.__init__ again, with its message
    try:
        yield caught
    finally:
        detector.deactivate()
        BlockingError.__init__ = original  # type: ignore[method-assign]


@pytest.fixture
def sources(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Docs, KB and this repository as code root; the model's code step reads the same ones.

    The code step opens the sources of the environment (`load_sources()`, cached per process):
    the cache is emptied around the test so no other test gets these.
    """
    env = {
        "DOCS_AGENT_INDEX_DIR": str(index_dir),
        "DOCS_AGENT_CODE_ROOTS": f"docs-agent={REPO_ROOT}",
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    load_sources.cache_clear()
    yield load_sources(SourceSettings.from_env(env))
    load_sources.cache_clear()


def _injected(question: str) -> dict[str, Any]:
    """A question and a tool call written into the thread, as a user can with update_state."""
    call = {
        "name": "list_directory",
        "args": {"path": "docs-agent", "max_depth": 1, "feedback_to_user": ""},
        "id": "injected-1",
        "type": "tool_call",
    }
    return {"messages": [HumanMessage(question), AIMessage("", tool_calls=[call])]}


async def _turns(graph: Any, *, inject: bool) -> list[str]:
    """A plain turn, then (with `inject`) one that starts with the injected tool call."""
    config: dict[str, Any] = {"configurable": {"thread_id": "t"}}
    context = Context(model="offline")
    answers = []
    out = await graph.ainvoke(
        {"messages": [{"role": "user", "content": "How do I stream tokens from subgraphs?"}]},
        config,
        context=context,
    )
    answers.append(str(out["messages"][-1].content))
    if inject:
        await graph.aupdate_state(
            config, _injected("Where is `build_docs_agent` defined?"), as_node="model"
        )
        out = await graph.ainvoke(None, config, context=context)
        answers.append(str(out["messages"][-1].content))
    return answers


def test_offline_turns_of_both_graphs_make_no_blocking_call(
    sources: Any, blocking_calls: list[str]
) -> None:
    docs = build_docs_agent(sources=sources, checkpointer=InMemorySaver())
    deep = build_deep_agent(sources=sources, checkpointer=InMemorySaver())
    docs_answers = asyncio.run(_turns(docs, inject=True))
    deep_answers = asyncio.run(_turns(deep, inject=False))
    assert blocking_calls == []
    # The turns really ran: searched, read and answered with citations.
    answers = docs_answers + deep_answers
    assert all(a.startswith("_This is an extractive answer") for a in answers), answers
    # The injected turn's plan searched the code too (its step that blocked): a code citation.
    assert re.search(r"docs-agent/\S+\.py:\d+-\d+", docs_answers[1]), docs_answers[1]
    assert "###" in deep_answers[0]  # the researchers' findings, by source


def test_the_detector_catches_a_blocking_call(blocking_calls: list[str]) -> None:
    """The control: the same detector sees a blocking call made on the loop."""

    async def blocks() -> None:
        import time

        time.sleep(0)

    with pytest.raises(BlockingError):
        asyncio.run(blocks())
    assert blocking_calls == ["time.sleep"]
