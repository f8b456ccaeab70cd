"""docs_agent with the offline model, end to end over this project's docs: every turn ends with
three follow-up questions, none repeating the question, each a clean question."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graphs.context import Context
from graphs.docs_agent import build_docs_agent
from settings.sources import SourceSettings
from tests.unit.graphs.offline.test_questions import problems
from tools import create_all_tools, load_sources


@pytest.fixture(scope="module")
def offline_docs_agent(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One graph over this project's docs and kb for every question (one index build)."""
    index = tmp_path_factory.mktemp("index")
    settings = SourceSettings.from_env({"DOCS_AGENT_INDEX_DIR": str(index)})
    return build_docs_agent(
        tools=create_all_tools(load_sources(settings)), checkpointer=InMemorySaver()
    )


@pytest.mark.parametrize(
    "question",
    [
        "How do I install it and ask my first question?",
        "How do I switch to a real model with my own key?",
        "How do I point it at my own documentation?",
    ],
)
def test_each_offline_turn_ends_with_three_clean_follow_ups(
    offline_docs_agent: Any, question: str
) -> None:
    out = offline_docs_agent.invoke(
        {"messages": [{"role": "user", "content": question}]},
        {"configurable": {"thread_id": question}},
        context=Context(model="offline", num_suggestions=3),
    )
    prompts = [s["prompt"] for s in out["messages"][-1].additional_kwargs.get("suggests") or []]
    assert len(prompts) == 3 and len(set(prompts)) == 3, prompts
    assert question.lower() not in {p.lower() for p in prompts}
    assert [p for p in prompts if problems(p)] == []
