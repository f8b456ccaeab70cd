"""Lean history: after each answer the thread keeps only questions and final answers."""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime

from graphs.context import Context
from graphs.middleware.history import PruneHistoryMiddleware
from tests.fixtures.fake_chat import ScriptedChatModel


@tool
def search_docs(query: str) -> str:
    """Search the docs."""
    return "BIG TOOL DUMP " * 50 + query


def _script(turns: int) -> list[AIMessage]:
    out: list[AIMessage] = []
    for t in range(turns):
        out.append(
            AIMessage(
                content="",
                tool_calls=[
                    {
                        "name": "search_docs",
                        "args": {"query": f"q{t}"},
                        "id": f"c{t}",
                        "type": "tool_call",
                    }
                ],
            )
        )
        out.append(AIMessage(content=f"Answer {t}."))
    return out


def _agent(turns: int) -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel(_script(turns))
    return create_agent(
        model,
        tools=[search_docs],
        middleware=[PruneHistoryMiddleware()],
        context_schema=Context,
        checkpointer=InMemorySaver(),
    ), model


def test_five_turns_leave_exactly_ten_messages() -> None:
    agent, model = _agent(5)
    cfg = {"configurable": {"thread_id": "t"}}
    for t in range(5):
        agent.invoke(
            {"messages": [HumanMessage(content=f"Question {t}?")]},
            cfg,
            context=Context(prune_history=True),
        )
    msgs = agent.get_state(cfg).values["messages"]
    assert len(msgs) == 10
    assert [m.type for m in msgs] == ["human", "ai"] * 5
    assert [m.content for m in msgs[1::2]] == [f"Answer {t}." for t in range(5)]
    # The next turn's model saw the conversation, never an earlier turn's tool dump.
    first_call_of_last_turn = model.seen[-2]
    assert not any("BIG TOOL DUMP" in str(m.content) for m in first_call_of_last_turn)
    # ...while within a turn the tool result was there for the model to answer from.
    assert any(isinstance(m, ToolMessage) for m in model.seen[-1])


def test_switched_off_keeps_tool_traffic() -> None:
    agent, model = _agent(2)
    cfg = {"configurable": {"thread_id": "t"}}
    for t in range(2):
        agent.invoke(
            {"messages": [HumanMessage(content=f"Question {t}?")]},
            cfg,
            context=Context(prune_history=False),
        )
    assert len(agent.get_state(cfg).values["messages"]) == 8


def test_no_final_answer_keeps_the_trail() -> None:
    dangling = AIMessage(
        content="", id="a1", tool_calls=[{"name": "x", "args": {}, "id": "c", "type": "tool_call"}]
    )
    state = {"messages": [HumanMessage(content="q", id="h"), dangling]}
    assert PruneHistoryMiddleware().after_agent(state, Runtime(context=Context())) is None  # type: ignore[arg-type]
    state = {
        "messages": [
            HumanMessage(content="q", id="h"),
            dangling,
            ToolMessage(content="r", tool_call_id="c", id="t1"),
        ]
    }
    assert PruneHistoryMiddleware().after_agent(state, Runtime(context=Context())) is None  # type: ignore[arg-type]


def test_leftovers_of_a_cancelled_turn_are_cleaned_too() -> None:
    old_call = AIMessage(
        content="", id="a0", tool_calls=[{"name": "x", "args": {}, "id": "c0", "type": "tool_call"}]
    )
    state = {
        "messages": [
            HumanMessage(content="q0", id="h0"),
            old_call,
            HumanMessage(content="q1", id="h1"),
            AIMessage(content="answer", id="a1"),
        ]
    }
    update = PruneHistoryMiddleware().after_agent(state, Runtime(context=Context()))  # type: ignore[arg-type]
    assert update is not None and [m.id for m in update["messages"]] == ["a0"]
