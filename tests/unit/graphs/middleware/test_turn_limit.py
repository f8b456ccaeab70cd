"""A runaway model ⇄ tools loop ends with an answer, not GraphRecursionError."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from tests.fixtures.fake_chat import ask


def test_runaway_tool_loop_ends_with_an_answer_not_recursion_error(scripted_agent: Any) -> None:
    loop = AIMessage(
        "",
        tool_calls=[
            {"name": "search_docs", "args": {"query": "studio"}, "id": "c", "type": "tool_call"}
        ],
    )
    agent, script = scripted_agent([loop])  # always asks for the tool again
    messages = ask(agent, "How do I open Studio?")
    assert messages[-1].type == "ai" and not messages[-1].tool_calls
    assert "I stopped after" in messages[-1].content
    # The last call ran without tools and was told why.
    assert "tool budget" in script.seen[-1][-1].content
    # Every tool call has its tool message; the next turn works.
    ids = {c["id"] for m in messages if m.type == "ai" for c in m.tool_calls}
    assert ids <= {m.tool_call_id for m in messages if m.type == "tool"}
    script.script = [AIMessage("Second answer.")]
    script.seen.clear()
    assert ask(agent, "And the CLI?")[-1].content == "Second answer."
