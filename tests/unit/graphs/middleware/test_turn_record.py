from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from graphs.middleware.turn_record import (
    TURNS_NAMESPACE,
    TurnRecordMiddleware,
    build_record,
    ttl_minutes,
)
from tests.fixtures.fake_chat import ScriptedChatModel

ANSWER = "Use `stream_mode`. See https://docs.example.com/streaming#tokens and `graphs/x.py:1-5`."


def _agent(store: InMemoryStore) -> object:
    model = ScriptedChatModel([AIMessage(ANSWER)])
    return create_agent(model=model, tools=[], middleware=[TurnRecordMiddleware()], store=store)


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_each_answered_turn_leaves_one_record(mode: str) -> None:
    store = InMemoryStore()
    agent = _agent(store)
    config = {
        "configurable": {"thread_id": "t1"},
        "metadata": {"user_id": "alice", "graph_id": "docs_agent"},
    }
    payload = {"messages": [HumanMessage("Wie streame ich Tokens?")]}
    if mode == "sync":
        out = agent.invoke(payload, config)  # type: ignore[attr-defined]
    else:
        out = await agent.ainvoke(payload, config)  # type: ignore[attr-defined]
    items = store.search(TURNS_NAMESPACE)
    assert len(items) == 1
    record = items[0].value
    assert items[0].key == out["messages"][-1].id == record["message_id"]
    assert record["question"] == "Wie streame ich Tokens?" and record["language"] == "de"
    assert (
        record["user"] == "alice"
        and record["graph"] == "docs_agent"
        and record["thread_id"] == "t1"
    )
    assert (
        record["found"] is True and "https://docs.example.com/streaming#tokens" in record["sources"]
    )
    assert "graphs/x.py:1-5" in record["sources"]
    assert isinstance(record["latency_s"], float) and record["removed"] == 0


async def test_no_store_no_record_and_no_error() -> None:
    agent = create_agent(
        model=ScriptedChatModel([AIMessage("hi")]), tools=[], middleware=[TurnRecordMiddleware()]
    )
    out = await agent.ainvoke({"messages": [HumanMessage("q")]})
    assert out["messages"][-1].content == "hi"


def test_a_turn_ending_in_tool_calls_or_nothing_leaves_no_record() -> None:
    calls = AIMessage("", tool_calls=[{"name": "x", "args": {}, "id": "c1"}], id="a1")
    assert build_record({"messages": [HumanMessage("q"), calls]}, {}, "offline", "auto") is None
    assert build_record({"messages": []}, {}, "offline", "auto") is None
    found_nothing = build_record(
        {
            "messages": [HumanMessage("q"), AIMessage("I found nothing.", id="a2")],
            "citation_check": {"removed": 2},
        },
        {"configurable": {"langgraph_auth_user_id": "bob", "run_id": "r1"}},
        "offline",
        "auto",
    )
    assert found_nothing and found_nothing["found"] is False and found_nothing["removed"] == 2
    assert found_nothing["user"] == "bob" and found_nothing["run_id"] == "r1"


def test_ttl_in_minutes() -> None:
    assert ttl_minutes({}) == 90 * 1440
    assert ttl_minutes({"DOCS_AGENT_REPORT_TTL_DAYS": "7"}) == 7 * 1440
    assert ttl_minutes({"DOCS_AGENT_REPORT_TTL_DAYS": "x"}) == 90 * 1440


def test_run_owner_prefers_the_authenticated_user_of_either_engine() -> None:
    from types import SimpleNamespace

    from graphs.middleware.turn_record import run_owner

    assert (
        run_owner({"langgraph_auth_user_id": "alice", "user_id": "x"}, {"user_id": "y"}) == "alice"
    )
    aegra_user = SimpleNamespace(identity="bob")
    assert (
        run_owner({"langgraph_auth_user": aegra_user, "user_id": "forged"}, {"user_id": "forged"})
        == "bob"
    )
    assert run_owner({"langgraph_auth_user": {"identity": "carol"}}, {}) == "carol"
    assert run_owner({}, {"user_id": "dev-user"}) == "dev-user"
    assert run_owner({}, {}) == ""
