"""graphs/middleware/tool_errors.py: a failing tool comes back as text; a transient one is retried once."""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from graphs.middleware.tool_errors import tool_error_middleware
from tests.fixtures.fake_chat import ScriptedChatModel, ask


def _call(name: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": {}, "id": "c1", "type": "tool_call"}])


def _agent(tools: list[Any], script: list[Any]) -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel(script)
    agent = create_agent(
        model=model, tools=tools, middleware=tool_error_middleware(), checkpointer=InMemorySaver()
    )
    return agent, model


def test_a_failing_tool_is_told_to_the_model_without_a_traceback() -> None:
    @tool
    def broken() -> str:
        """Always fails."""
        raise ValueError("secret internal detail")

    agent, model = _agent([broken], [_call("broken"), AIMessage("Could not read it.")])
    messages = ask(agent, "Read it")
    told = [m for m in messages if m.type == "tool"][0].content
    assert "Tool `broken` failed (ValueError)" in told and "another tool" in told
    assert "secret internal detail" not in told and "Traceback" not in told
    assert messages[-1].content == "Could not read it." and model.calls == 2


def test_a_transient_failure_is_retried_once() -> None:
    attempts: list[int] = []

    @tool
    def flaky() -> str:
        """Times out once, then answers."""
        attempts.append(1)
        if len(attempts) == 1:
            raise TimeoutError("slow upstream")
        return "the page"

    agent, _ = _agent([flaky], [_call("flaky"), AIMessage("Done.")])
    messages = ask(agent, "Read it")
    assert len(attempts) == 2
    assert [m for m in messages if m.type == "tool"][0].content == "the page"
