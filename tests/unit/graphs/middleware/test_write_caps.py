"""Text written into a thread around the run input is capped like the input.

A user can write any messages into their own thread (`threads.update_state`, here
`graph.update_state` as the server does) and the run that follows starts at the tools, past
`before_agent`. The caps must hold there too: before each model step and before each tool call.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from graphs.middleware.guardrails import DEFAULT_MAX_INPUT_CHARS, OTHER_MESSAGE_FACTOR

BIG = "x " * 60_000  # 120,000 characters: over both caps
CONFIG: dict[str, Any] = {"configurable": {"thread_id": "t"}}


def _call(name: str, args: dict[str, Any], call_id: str = "inj-1") -> dict[str, Any]:
    return {
        "name": name,
        "args": {**args, "feedback_to_user": ""},
        "id": call_id,
        "type": "tool_call",
    }


def test_oversized_question_written_by_update_state_ends_the_turn(scripted_agent: Any) -> None:
    agent, script = scripted_agent([AIMessage("must not be called")])
    listing = _call("list_directory", {"path": "docs-agent", "max_depth": 1})
    agent.update_state(
        CONFIG,
        {"messages": [HumanMessage(BIG), AIMessage("", tool_calls=[listing])]},
        as_node="model",
    )
    messages = agent.invoke(None, CONFIG)["messages"]
    assert script.calls == 0
    question = next(m for m in messages if isinstance(m, HumanMessage))
    assert len(question.text) < 2200 and "message cut: 120,000 characters" in question.text
    assert "limit is 16,000" in messages[-1].text
    # The thread stays consistent: every tool call has its answer.
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    assert all(
        c["id"] in answered for m in messages if isinstance(m, AIMessage) for c in m.tool_calls
    )
    # The stored state holds the cut question, not the megabyte.
    stored = agent.get_state(CONFIG).values["messages"]
    assert max(len(m.text) for m in stored) < 2200


def test_tool_call_with_oversized_arguments_is_not_run(scripted_agent: Any) -> None:
    agent, script = scripted_agent([AIMessage("done")])
    search = _call("search_docs", {"query": BIG, "limit": 5})
    agent.update_state(
        CONFIG,
        {"messages": [HumanMessage("How do I install?"), AIMessage("", tool_calls=[search])]},
        as_node="model",
    )
    messages = agent.invoke(None, CONFIG)["messages"]
    # The model step that followed saw the call answered with an error and its arguments cut.
    assert script.calls == 1 and messages[-1].text == "done"
    seen = script.seen[0]
    result = next(m for m in seen if isinstance(m, ToolMessage))
    assert result.status == "error" and result.text.startswith("Not run: the arguments")
    assert f"{OTHER_MESSAGE_FACTOR * DEFAULT_MAX_INPUT_CHARS:,}" in result.text
    assert [c["args"] for m in seen if isinstance(m, AIMessage) for c in m.tool_calls] == [{}]
    assert sum(len(str(m.content)) for m in seen) < 20_000


def test_oversized_older_messages_are_cut_and_the_turn_runs(scripted_agent: Any) -> None:
    agent, script = scripted_agent([AIMessage("answer")])
    agent.update_state(CONFIG, {"messages": [HumanMessage(BIG), AIMessage(BIG)]}, as_node="model")
    messages = agent.invoke(
        {"messages": [{"role": "user", "content": "How do I install the server?"}]}, CONFIG
    )["messages"]
    assert script.calls == 1 and messages[-1].text == "answer"
    old_question, old_answer = messages[0], messages[1]
    assert len(old_question.text) < 2200
    assert len(old_answer.text) <= OTHER_MESSAGE_FACTOR * DEFAULT_MAX_INPUT_CHARS + 40
    assert old_answer.text.endswith("characters]")
