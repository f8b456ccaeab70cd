"""Guardrails: rule classification, refused turns cost no model call, the optional classifier."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graphs.middleware import guardrails
from graphs.middleware.guardrails import classify_by_rules
from settings import current
from tests.fixtures.fake_chat import ScriptedChatModel, ask


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("How do I stream tokens from a subgraph?", "on_topic"),
        ("Why does `graph.invoke()` raise GraphRecursionError?", "on_topic"),
        ("what's the weather in Paris tomorrow", "off_topic"),
        ("tell me a joke", "off_topic"),
        ("какая погода в Москве", "off_topic"),
        ("you stupid bot", "abusive"),
        (
            "this fucking install fails with an error",
            "on_topic",
        ),  # frustration about the product is fine
        ("hello", None),
    ],
)
def test_rule_classification(text: str, verdict: str | None) -> None:
    assert classify_by_rules(text) == verdict


def test_allowlist_extends_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    assert classify_by_rules("recipe for a widgetron") == "off_topic"
    monkeypatch.setenv("DOCS_AGENT_GUARDRAILS_ALLOW", "widgetron")
    current.cache_clear()  # the environment is read once per process
    assert classify_by_rules("recipe for a widgetron") == "on_topic"
    assert classify_by_rules("recipe for a widgetron", allow=()) == "off_topic"
    assert classify_by_rules("recipe for a gizmo", allow=("gizmo",)) == "on_topic"


def test_off_topic_is_refused_without_model_or_tool_calls(scripted_agent: Any) -> None:
    agent, script = scripted_agent([AIMessage("must not be called")])
    messages = ask(agent, "What's the weather forecast for tomorrow?")
    assert script.calls == 0
    assert [m.type for m in messages] == ["human", "ai"]
    assert "only help with questions about this product" in messages[-1].content
    # Abusive: a calm redirect, also without a model call.
    messages = ask(agent, "you stupid bot", thread="t2")
    assert script.calls == 0 and "tell me what you tried" in messages[-1].content


def test_classifier_model_is_asked_only_when_rules_are_unsure_and_failure_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mw = guardrails.GuardrailsMiddleware(classifier=ScriptedChatModel([AIMessage("off_topic")]))
    state = {"messages": [HumanMessage("what is love", id="h1")]}
    out = mw.before_agent(state, None)  # type: ignore[arg-type]
    assert out is not None and out["jump_to"] == "end"
    broken = guardrails.GuardrailsMiddleware(classifier=ScriptedChatModel([RuntimeError("down")]))
    assert broken.before_agent(state, None) is None  # type: ignore[arg-type]
    # An allowlisted question never reaches the classifier.
    never = ScriptedChatModel([RuntimeError("must not be called")])
    state = {"messages": [HumanMessage("how do threads work?", id="h2")]}
    assert guardrails.GuardrailsMiddleware(classifier=never).before_agent(state, None) is None  # type: ignore[arg-type]
    assert never.calls == 0
