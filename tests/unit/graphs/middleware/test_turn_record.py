from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from graphs.middleware.turn_record import (
    TURNS_NAMESPACE,
    TurnRecordMiddleware,
    build_record,
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


async def test_a_failed_turn_is_recorded_as_a_failure_not_a_gap() -> None:
    store = InMemoryStore()
    failure = {"kind": "rate_limited", "retry_after_s": 30, "message": "busy, see http://x.io"}
    model = ScriptedChatModel(
        [AIMessage(failure["message"], additional_kwargs={"failure": failure})]
    )
    agent = create_agent(model=model, tools=[], middleware=[TurnRecordMiddleware()], store=store)
    await agent.ainvoke(  # type: ignore[attr-defined]
        {"messages": [HumanMessage("How do I stream?")]},
        {"configurable": {"thread_id": "t2"}, "metadata": {"user_id": "alice"}},
    )
    record = store.search(TURNS_NAMESPACE)[0].value
    assert record["failure"] == {"kind": "rate_limited", "retry_after_s": 30}
    assert record["sources"] == [] and record["found"] is False  # its words cite nothing
    assert record["answer"] == failure["message"]


def test_the_page_asked_on_and_the_client_come_from_the_run_metadata() -> None:
    state = {"messages": [HumanMessage("q"), AIMessage("a", id="a1")], "turn_started_at": 100.0}
    config = {
        "configurable": {"__request_start_time_ms__": 98_500},
        "metadata": {
            "asked_on": "https://docs.example.com/guide/x" + "y" * 5000,
            "client": "widget",
        },
    }
    record = build_record(state, config, "offline", "auto", now=104.0)
    assert record and record["asked_on"].startswith("https://docs.example.com/guide/x")
    assert len(record["asked_on"]) == 2000 and record["client"] == "widget"
    assert record["latency_s"] == 4.0 and record["wait_from"] == "run_created"
    forged = build_record(
        state, {"metadata": {"client": "<b>bot</b>", "asked_on": 42}}, "offline", "auto", now=101.0
    )
    assert forged and forged["client"] is None and forged["asked_on"] is None
    assert forged["wait_from"] == "turn_start"


def test_a_run_creation_time_is_believed_only_just_before_the_turn() -> None:
    from graphs.middleware.turn_record import run_created_at

    assert run_created_at({"__request_start_time_ms__": 99_000}, 100.0) == 99.0
    assert run_created_at({"__request_start_time_ms__": 1}, 100_000.0) is None  # hours earlier
    assert run_created_at({"__request_start_time_ms__": 500_000}, 100.0) is None  # after it
    assert run_created_at({"__request_start_time_ms__": "99000"}, 100.0) is None
    assert run_created_at({}, 100.0) is None


async def test_first_and_last_token_as_the_reader_saw_them() -> None:
    """Streamed: the first token is timed when it left the model, the last when the answer ended."""
    store = InMemoryStore()
    words = " ".join(f"word{i}" for i in range(30))
    model = ScriptedChatModel([AIMessage(words)])
    slow = _SlowStream(model)
    agent = create_agent(model=slow, tools=[], middleware=[TurnRecordMiddleware()], store=store)
    async for _ in agent.astream(  # type: ignore[attr-defined]
        {"messages": [HumanMessage("q")]},
        {"configurable": {"thread_id": "t3"}},
        stream_mode="messages",
    ):
        pass
    record = store.search(TURNS_NAMESPACE)[0].value
    first, last = record["first_token_s"], record["last_token_s"]
    assert first is not None and last is not None
    # 30 tokens 10 ms apart: the last token came ~0.3 s after the first.
    assert last - first >= 0.25 and record["latency_s"] >= last
    assert record["wait_from"] == "turn_start"


class _SlowStream(ScriptedChatModel):
    """The scripted model streaming its reply a word at a time, 10 ms apart."""

    def __init__(self, model: ScriptedChatModel) -> None:
        super().__init__(list(model.script))

    async def _astream(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Any:
        import asyncio

        from langchain_core.messages import AIMessageChunk
        from langchain_core.outputs import ChatGenerationChunk

        result = self._generate(messages)
        for i, word in enumerate(result.generations[0].message.text.split(" ")):
            await asyncio.sleep(0.01)
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=(" " if i else "") + word))
            if run_manager:
                await run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            yield chunk
