"""tools/memory.py and graphs/middleware/memory_prompt.py through a real create_agent loop with a scripted model."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langgraph.store.memory import InMemoryStore

from graphs.middleware.memory_prompt import HEADER, MemoryPromptMiddleware
from tests.fixtures.fake_chat import ScriptedChatModel
from tools.memory import (
    ANONYMOUS,
    DEV_PERMISSION,
    MAX_CHARS,
    MAX_RECORDS,
    create_memory_tools,
    user_id_from_config,
)

SYSTEM = "You are the docs assistant. Stable rules."


def call(name: str, i: int = 0, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"c{i}-{name}"}])


def as_user(user: str) -> dict[str, Any]:
    """The config the server builds for an authenticated run (reserved keys, not client input)."""
    return {
        "configurable": {
            "langgraph_auth_user_id": user,
            "langgraph_auth_permissions": ["authenticated"],
        }
    }


def run(
    store: InMemoryStore | None,
    config: dict[str, Any],
    *calls: AIMessage,
    middleware: list[Any] | None = None,
) -> tuple[list[str], ScriptedChatModel]:
    model = ScriptedChatModel([*calls, AIMessage("done")])
    agent = create_agent(
        model, create_memory_tools(), system_prompt=SYSTEM, store=store, middleware=middleware or []
    )
    out = agent.invoke({"messages": [{"role": "user", "content": "hi"}]}, config)
    return [m.content for m in out["messages"] if isinstance(m, ToolMessage)], model


def test_user_comes_from_auth_not_from_model_arguments() -> None:
    store = InMemoryStore()
    store.put(("memories", "bob"), "bobkey1", {"text": "Bob's secret plan"})
    results, _ = run(
        store,
        as_user("alice"),
        call("save_memory", 1, text="I use the JS SDK", user_id="bob"),
        call("list_memories", 2, user_id="bob"),
        call("delete_memory", 3, memory_id="bobkey1", user_id="bob"),
    )
    saved, listed, deleted = results
    assert saved.startswith("Saved memory")
    assert "I use the JS SDK" in listed and "Bob" not in listed and "bobkey1" not in listed
    assert "No memory with id 'bobkey1'" in deleted
    # Bob's record is untouched; Alice's went to her own namespace only.
    assert [i.value["text"] for i in store.search(("memories", "bob"))] == ["Bob's secret plan"]
    assert [i.value["text"] for i in store.search(("memories", "alice"))] == ["I use the JS SDK"]


def test_limits_refuse_without_overwriting() -> None:
    store = InMemoryStore()
    calls = [call("save_memory", i, text=f"fact number {i}") for i in range(MAX_RECORDS + 1)]
    results, _ = run(store, as_user("alice"), *calls)
    assert all(r.startswith("Saved memory") for r in results[:MAX_RECORDS])
    assert "Memory is full (20 of 20 records)" in results[-1] and "Nothing was saved" in results[-1]
    assert len(store.search(("memories", "alice"), limit=100)) == MAX_RECORDS

    store = InMemoryStore()
    big = "x" * 990
    calls = [call("save_memory", i, text=f"{i}{big}") for i in range(7)]
    calls += [
        call("save_memory", 99, text="y" * 1001),
        call("save_memory", 98, text="0" + big),
        call("save_memory", 97, text="  "),
    ]
    results, _ = run(store, as_user("carol"), *calls)
    assert [r.startswith("Saved") for r in results[:6]] == [True] * 6
    assert "characters used" in results[6] and str(MAX_CHARS) in results[6]
    assert "too long" in results[7]
    assert "Already saved" in results[8]
    assert "empty" in results[9]
    assert (
        sum(len(i.value["text"]) for i in store.search(("memories", "carol"), limit=100))
        <= MAX_CHARS
    )


def test_delete_and_list_own_memories() -> None:
    store = InMemoryStore()
    store.put(("memories", "alice"), "k1", {"text": "old fact"})
    results, _ = run(
        store,
        as_user("alice"),
        call("delete_memory", 1, memory_id="[k1]"),
        call("list_memories", 2),
    )
    assert results == ["Deleted memory [k1].", "No memories saved for this user."]


def test_without_store_returns_clear_message() -> None:
    results, _ = run(
        None, as_user("alice"), call("save_memory", 1, text="x"), call("list_memories", 2)
    )
    assert all("Memory is not available here" in r for r in results)


def test_dev_mode_uses_declared_user() -> None:
    dev = {
        "configurable": {
            "langgraph_auth_user_id": "dev-anonymous",
            "langgraph_auth_permissions": [DEV_PERMISSION],
        },
        "metadata": {"user_id": "dana"},
    }
    assert user_id_from_config(dev) == "dana"
    assert user_id_from_config({}) == ANONYMOUS
    # An authenticated id wins over any metadata a client might have set.
    assert user_id_from_config({**as_user("alice"), "metadata": {"user_id": "bob"}}) == "alice"


def test_prompt_gets_own_memories_after_stable_prompt_capped() -> None:
    store = InMemoryStore()
    for i in range(MAX_RECORDS):
        store.put(("memories", "alice"), f"a{i:02d}", {"text": f"alice fact {i} " + "z" * 200})
    store.put(("memories", "bob"), "b1", {"text": "bob fact"})
    _, model = run(store, as_user("alice"), middleware=[MemoryPromptMiddleware(limit_chars=1000)])
    system = model.seen[0][0]
    assert isinstance(system, SystemMessage)
    text = system.text
    assert text.startswith(SYSTEM + "\n\n" + HEADER)  # stable prefix first, then the block
    assert "alice fact 0" in text and "bob fact" not in text
    assert "more not shown" in text and len(text) < len(SYSTEM) + len(HEADER) + 1100

    # No memories: the system prompt is left byte-identical.
    _, model = run(InMemoryStore(), as_user("erin"), middleware=[MemoryPromptMiddleware()])
    assert model.seen[0][0].text == SYSTEM


class YieldingStore(InMemoryStore):
    """Yields to the event loop on every async op, like the server's real (async) store does."""

    async def abatch(self, ops: Any) -> Any:
        await asyncio.sleep(0.001)
        return await super().abatch(ops)


async def test_parallel_saves_in_one_turn_respect_the_limit() -> None:
    store = YieldingStore()
    calls = [
        {"name": "save_memory", "args": {"text": f"parallel fact {i}"}, "id": f"p{i}"}
        for i in range(MAX_RECORDS + 3)
    ]
    model = ScriptedChatModel([AIMessage("", tool_calls=calls), AIMessage("done")])
    agent = create_agent(model, create_memory_tools(), store=store)
    out = await agent.ainvoke({"messages": [{"role": "user", "content": "hi"}]}, as_user("alice"))
    results = [m.content for m in out["messages"] if isinstance(m, ToolMessage)]
    assert sum(r.startswith("Saved memory") for r in results) == MAX_RECORDS
    assert sum("Memory is full" in r for r in results) == 3
    assert len(store.search(("memories", "alice"), limit=100)) == MAX_RECORDS
