"""Suggestions and lean history through a real `langgraph dev`, on the offline model."""

from __future__ import annotations

import json
import uuid

import pytest
from langgraph_sdk import get_client

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

QUESTIONS = [
    "How do I stream tokens from subgraphs?",
    "How do I enable authentication?",
    "Where is the checkpointer TTL configured?",
    "Как настроить fallback models для OpenAI?",
    "Come configurare il checkpointer TTL?",
]


def _suggestion_json_leaked(data: object, prompts: list[str]) -> bool:
    """True when a `messages` event carries the suggestion call's output as content/tokens."""
    for msg in data if isinstance(data, list) else [data]:
        if not isinstance(msg, dict):
            continue
        content = msg.get("content")
        text = content if isinstance(content, str) else json.dumps(content)
        # Tool results are retrieved pages (a page may mention "suggests"); only the exact
        # suggestion prompts count there. Model output must not carry the JSON key at all.
        if any(p in text for p in prompts) or (msg.get("type") != "tool" and '"suggests"' in text):
            return True
    return False


async def test_suggestions_never_stream_and_history_stays_lean(server_url: str) -> None:
    client = get_client(url=server_url)
    thread = await client.threads.create(metadata={"user_id": f"u-{uuid.uuid4().hex[:6]}"})
    for turn, question in enumerate(QUESTIONS, 1):
        message_events: list[tuple[str, object]] = []
        values = None
        feedback = 0
        async for part in client.runs.stream(
            thread["thread_id"],
            "docs_agent",
            input={"messages": [{"role": "user", "content": question}]},
            stream_mode=["messages", "values", "custom"],
        ):
            if part.event.startswith("messages"):
                message_events.append((part.event, part.data))
            elif part.event == "values":
                values = part.data
            elif part.event == "custom" and part.data.get("name") == "tool_feedback":
                feedback += 1
            elif part.event == "error":
                pytest.fail(f"run failed: {part.data}")
        assert values is not None and feedback >= 2
        last = values["messages"][-1]
        assert last["type"] == "ai"
        suggests = last.get("additional_kwargs", {}).get("suggests")
        assert suggests, (question, last["content"][:600])
        assert [s["position"] for s in suggests] == list(range(len(suggests))) and len(
            suggests
        ) <= 3
        prompts = [s["prompt"] for s in suggests]
        assert message_events, "no messages events at all"
        leaks = [e for e in message_events if _suggestion_json_leaked(e[1], prompts)]
        assert not leaks, leaks[:2]
        assert len(values["messages"]) == 2 * turn
    state = await client.threads.get_state(thread["thread_id"])
    msgs = state["values"]["messages"]
    assert len(msgs) == 10
    assert [m["type"] for m in msgs] == ["human", "ai"] * 5
    assert [m["content"] for m in msgs[::2]] == QUESTIONS
