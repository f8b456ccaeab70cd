"""Unusable model answers (empty, invalid tool JSON) are retried; a refusal becomes text without mutation."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from tests.fixtures.fake_chat import ask


def test_empty_and_invalid_tool_json_are_retried(scripted_agent: Any) -> None:
    bad = AIMessage(
        "",
        invalid_tool_calls=[
            {
                "name": "search_docs",
                "args": "{oops",
                "id": "x",
                "error": "bad",
                "type": "invalid_tool_call",
            }
        ],
    )
    agent, script = scripted_agent([AIMessage(""), bad, AIMessage("Final answer.")])
    messages = ask(agent, "How do I deploy the server?")
    assert messages[-1].content == "Final answer." and script.calls == 3


def test_a_refusal_becomes_text_in_a_new_message_without_mutating_the_original() -> None:
    from langchain.agents.middleware import ModelResponse

    from graphs.middleware.response_check import InvalidModelOutput, check_response

    refusal = AIMessage("", additional_kwargs={"refusal": "I can't help with that."})
    response = ModelResponse(result=[refusal])
    checked = check_response(response)
    assert checked.result[0].content == "I can't help with that."
    assert refusal.content == "" and response.result[0] is refusal  # the input is untouched
    fine = ModelResponse(result=[AIMessage("An answer.")])
    assert check_response(fine) is fine
    try:
        check_response(ModelResponse(result=[AIMessage("")]))
    except InvalidModelOutput as exc:
        assert "empty completion" in str(exc)
    else:
        raise AssertionError("an empty completion must raise")
