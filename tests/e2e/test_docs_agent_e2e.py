"""docs_agent through a real `langgraph dev`, driven by langgraph-sdk, on the offline model."""

from __future__ import annotations

import re
import uuid

import pytest
from langgraph_sdk import get_client

from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

QUESTION = "How do I stream tokens from subgraphs?"


async def _stream(client, thread_id: str, question: str) -> dict:
    events: dict = {"partial": [], "updates": [], "custom": [], "values": None, "order": []}
    async for part in client.runs.stream(
        thread_id,
        "docs_agent",
        input={"messages": [{"role": "user", "content": question}]},
        stream_mode=["values", "updates", "messages", "custom"],
        stream_subgraphs=True,
    ):
        events["order"].append(part.event)
        if part.event.startswith("messages/partial"):
            events["partial"].append(part.data)
        elif part.event.startswith("updates"):
            events["updates"].append(part.data)
        elif part.event.startswith("custom"):
            events["custom"].append(part.data)
        elif part.event == "values":
            events["values"] = part.data
        elif part.event == "error":
            pytest.fail(f"run failed: {part.data}")
    return events


async def test_streamed_answer_cites_existing_page_and_threads_are_per_user(
    server_url: str,
) -> None:
    client = get_client(url=server_url)
    alice = f"alice-{uuid.uuid4().hex[:6]}"
    bob = f"bob-{uuid.uuid4().hex[:6]}"
    thread = await client.threads.create(metadata={"user_id": alice})
    other = await client.threads.create(metadata={"user_id": bob})
    assert thread["metadata"]["user_id"] == alice

    events = await _stream(client, thread["thread_id"], QUESTION)

    # Tokens arrive in several events before the run ends.
    texts = [
        m["content"]
        for batch in events["partial"]
        for m in batch
        if m.get("type") == "ai" and isinstance(m.get("content"), str) and m["content"]
    ]
    assert len(texts) > 10, "answer did not stream in pieces"
    assert len(set(texts)) > 10
    # Tool calls are visible in `updates`.
    calls = [
        c["name"]
        for upd in events["updates"]
        for node in upd.values()
        if isinstance(node, dict)
        for m in node.get("messages", [])
        for c in (m.get("tool_calls") or [])
    ]
    assert "search_docs" in calls and "get_doc_page" in calls
    assert 3 <= len(calls) <= 6
    # Progress messages from tools arrive on `custom`.
    assert any(e.get("name") == "tool_feedback" for e in events["custom"])
    # The final answer cites a page that exists in docs/.
    answer = events["values"]["messages"][-1]
    assert answer["type"] == "ai"
    assert answer["content"].startswith("_This is an extractive answer")
    cited = set(re.findall(r"\b(docs/[\w./-]+\.md)", answer["content"]))
    assert cited, answer["content"]
    assert all((REPO_ROOT / path).is_file() for path in cited)

    # threads.search by user finds the thread, and not another user's.
    found = await client.threads.search(metadata={"user_id": alice}, limit=10)
    ids = {t["thread_id"] for t in found}
    assert thread["thread_id"] in ids and other["thread_id"] not in ids

    # A second question on the same thread sees the first turn.
    await _stream(client, thread["thread_id"], "What does the first README command do?")
    state = await client.threads.get_state(thread["thread_id"])
    humans = [m["content"] for m in state["values"]["messages"] if m["type"] == "human"]
    assert humans == [QUESTION, "What does the first README command do?"]
