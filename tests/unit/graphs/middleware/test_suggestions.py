"""Suggestions: robust parsing, attachment to the answer, failures that leave the answer intact, no leaks."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import (
    GenericFakeChatModel,
)
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.runtime import Runtime

from graphs.context import Context
from graphs.middleware.suggestions import SuggestionsMiddleware, parse_suggestions, transcript
from graphs.offline.language import detect_language
from graphs.offline.model import OfflineChatModel
from graphs.prompts import suggestions_prompt
from tests.fixtures.fake_chat import ScriptedChatModel

GOOD = {
    "suggests": [
        {"label": "Auth", "prompt": "How do I enable auth?", "position": 0},
        {"label": None, "prompt": "Where is the TTL set?", "position": 1},
    ]
}


def _runtime(**ctx: Any) -> Runtime[Context]:
    return Runtime(context=Context(**ctx))


@pytest.mark.parametrize(
    "text",
    [
        "```json\n" + json.dumps(GOOD) + "\n```",
        json.dumps(GOOD).replace("{", "{{").replace("}", "}}"),
        "Sure! Here are some ideas:\n" + json.dumps(GOOD) + "\nHope this helps.",
        '{"suggests": [{"label": "Auth", "prompt": "How do I enable auth?", "position": 0,},'
        ' {"prompt": "Where is the TTL set?", "position": 1,},],}',
        "Here you go ```\n" + json.dumps(GOOD) + "\n``` done",
    ],
    ids=["fenced", "doubled-braces", "prose", "trailing-commas", "fence-with-prose"],
)
def test_parse_tolerates_common_model_formatting(text: str) -> None:
    got = parse_suggestions(text, 3)
    assert [s["prompt"] for s in got] == ["How do I enable auth?", "Where is the TTL set?"]
    assert [s["position"] for s in got] == [0, 1]


def test_parse_limits_and_renumbers_by_given_position() -> None:
    items = [{"prompt": f"q{i}", "position": 10 - i} for i in range(5)] + [
        {"prompt": "  ", "position": 0}
    ]
    got = parse_suggestions(json.dumps({"suggests": items}), 3)
    assert [s["prompt"] for s in got] == ["q4", "q3", "q2"]
    assert [s["position"] for s in got] == [0, 1, 2]


@pytest.mark.parametrize(
    "text", ["no json here", '{"suggests": "nope"}', '{"suggests": [{"label": "x"}]}', "{broken"]
)
def test_parse_rejects_invalid(text: str) -> None:
    with pytest.raises(ValueError):
        parse_suggestions(text, 3)


def test_attaches_to_last_ai_message_with_same_id_and_one_call() -> None:
    model = ScriptedChatModel([AIMessage(content=json.dumps(GOOD))])
    answer = AIMessage(content="The answer.", id="answer-1")
    state = {"messages": [HumanMessage(content="q", id="h1"), answer]}
    update = SuggestionsMiddleware(model=model).after_agent(state, _runtime(num_suggestions=1))  # type: ignore[arg-type]
    assert model.calls == 1
    assert update is not None
    [msg] = update["messages"]
    assert msg.id == "answer-1" and msg.content == "The answer."
    assert msg.additional_kwargs["suggests"] == [
        {"label": "Auth", "prompt": "How do I enable auth?", "position": 0}
    ]


def test_chunk_is_an_ai_message_by_type() -> None:
    model = ScriptedChatModel([AIMessage(content=json.dumps(GOOD))])
    chunk = AIMessageChunk(content="Streamed answer.", id="answer-2")
    update = SuggestionsMiddleware(model=model).after_agent(
        {"messages": [HumanMessage(content="q"), chunk]}, _runtime()
    )  # type: ignore[arg-type]
    assert update is not None and update["messages"][0].id == "answer-2"
    assert len(update["messages"][0].additional_kwargs["suggests"]) == 2


def test_non_ai_last_message_is_left_alone(caplog: pytest.LogCaptureFixture) -> None:
    model = ScriptedChatModel([AIMessage(content=json.dumps(GOOD))])
    state = {"messages": [HumanMessage(content="q"), ToolMessage(content="x", tool_call_id="c1")]}
    with caplog.at_level(logging.WARNING, logger="graphs.middleware.suggestions"):
        assert SuggestionsMiddleware(model=model).after_agent(state, _runtime()) is None  # type: ignore[arg-type]
    assert model.calls == 0
    assert "not a final AI answer" in caplog.text


def test_switched_off_makes_no_call() -> None:
    model = ScriptedChatModel([AIMessage(content=json.dumps(GOOD))])
    state = {"messages": [HumanMessage(content="q"), AIMessage(content="a", id="a")]}
    assert (
        SuggestionsMiddleware(model=model).after_agent(state, _runtime(num_suggestions=0)) is None
    )  # type: ignore[arg-type]
    assert model.calls == 0


@pytest.mark.parametrize(
    "model",
    [
        ScriptedChatModel([AIMessage(content="I suggest asking about auth.")]),
        ScriptedChatModel([RuntimeError("provider down")]),
    ],
    ids=["invalid-json", "model-error"],
)
def test_failure_keeps_answer_intact(model: Any, caplog: pytest.LogCaptureFixture) -> None:
    agent = create_agent(
        ScriptedChatModel([AIMessage(content="Final answer.")]),
        tools=[],
        middleware=[SuggestionsMiddleware(model=model)],
        context_schema=Context,
    )
    with caplog.at_level(logging.WARNING, logger="graphs.middleware.suggestions"):
        out = agent.invoke({"messages": [HumanMessage(content="q")]}, context=Context())
    last = out["messages"][-1]
    assert last.content == "Final answer." and "suggests" not in last.additional_kwargs
    assert "suggestions skipped" in caplog.text


async def test_suggestion_output_never_streams() -> None:
    """A streaming-capable suggestion model: its JSON must not appear in any `messages` event."""
    payload = json.dumps({"suggests": [{"label": "LEAKCHECK", "prompt": "LEAKCHECK prompt"}]})
    suggester = GenericFakeChatModel(messages=iter([AIMessage(content=payload)]))
    agent = create_agent(
        ScriptedChatModel([AIMessage(content="Final answer here.")]),
        tools=[],
        middleware=[SuggestionsMiddleware(model=suggester)],
        context_schema=Context,
    )
    seen: list[str] = []
    async for chunk, _meta in agent.astream(
        {"messages": [HumanMessage(content="q")]}, context=Context(), stream_mode="messages"
    ):
        seen.append(str(chunk.content) + json.dumps(chunk.additional_kwargs))
    assert seen and not any("LEAKCHECK" in s for s in seen)
    state = await agent.ainvoke({"messages": [HumanMessage(content="q")]}, context=Context())
    assert (
        state["messages"][-1].additional_kwargs.get("suggests") is None
    )  # fake iterator spent: warning, intact


def _cited_answer() -> str:
    return (
        "_This is an extractive answer._\n\n**Streaming › Subgraph namespaces** — https://x/docs/streaming.md#subgraph-namespaces\n> text\n\n"
        "**Install** — https://x/docs/install.md\n> more\n\n**Sources:**\n1. https://x/docs/streaming.md"
    )


@pytest.mark.parametrize(
    ("question", "lang", "expected"),
    [
        (
            "How do I stream tokens?",
            "en",
            ["What are subgraph namespaces?", "How do I install?"],
        ),
        (
            "Как стримить токены?",
            "ru",
            [
                "Что в документации сказано о «Subgraph namespaces»?",
                "Что в документации сказано о «Install»?",
            ],
        ),
        (
            "Jak przesyłać tokeny strumieniowo?",
            "pl",
            ["Co dokumentacja mówi o „Subgraph namespaces”?", "Co dokumentacja mówi o „Install”?"],
        ),
        (
            "Come posso trasmettere i token?",
            "it",
            [
                "Cosa dice la documentazione su «Subgraph namespaces»?",
                "Cosa dice la documentazione su «Install»?",
            ],
        ),
    ],
)
def test_offline_suggestions_are_questions_about_the_cited_headings_in_users_language(
    question: str, lang: str, expected: list[str]
) -> None:
    assert detect_language(question) == lang
    conv = [HumanMessage(content=question), AIMessage(content=_cited_answer())]
    reply = OfflineChatModel().invoke(
        [SystemMessage(content=suggestions_prompt(3)), HumanMessage(content=transcript(conv))]
    )
    got = parse_suggestions(str(reply.content), 3)
    assert [s["prompt"] for s in got] == expected
    # The label is the question too (cut at a word when long), never a bare heading.
    assert all(s["label"].endswith(("?", "…")) for s in got)


def test_model_suggestions_keep_what_is_no_markup() -> None:
    reply = '{"suggests": [{"label": "List<int>", "prompt": "How do I validate a List<int>?"}]}'
    got = parse_suggestions(reply, 3)[0]
    assert (got["label"], got["prompt"]) == ("List<int>", "How do I validate a List<int>?")


def test_model_suggestions_lose_markup_they_copied_from_headings() -> None:
    reply = '{"suggests": [{"label": "Check it { #check-it }", "prompt": "How do I use [BaseModel][pydantic.BaseModel]?"}]}'
    assert parse_suggestions(reply, 3) == [
        {"label": "Check it", "prompt": "How do I use BaseModel?", "position": 0}
    ]


def _offline_suggestions_for(answer: str, question: str = "How do I stream tokens?") -> list[dict]:
    conv = [HumanMessage(content=question), AIMessage(content=answer)]
    reply = OfflineChatModel().invoke(
        [SystemMessage(content=suggestions_prompt(3)), HumanMessage(content=transcript(conv))]
    )
    return parse_suggestions(str(reply.content), 3)


def test_offline_suggestions_offer_the_unread_sections_first() -> None:
    answer = _cited_answer().replace(
        "**Sources:**", "**More on these pages:** Stream modes · Resume a stream\n\n**Sources:**"
    )
    got = _offline_suggestions_for(answer)
    assert [s["prompt"] for s in got] == [
        "What are stream modes?",
        "How do I resume a stream?",
        "What are subgraph namespaces?",
    ]


def test_nothing_found_still_gets_suggestions_the_closest_topics_or_starters() -> None:
    nothing = "_To odpowiedź ekstrakcyjna._\n\nNie znalazłem nic.\n\nSzukałem: x"
    closest = nothing + "\n\n**Najbliższe tematy:** Streaming · Subgraphs"
    question = "Jak przesyłać tokeny strumieniowo?"
    assert [s["prompt"] for s in _offline_suggestions_for(closest, question)] == [
        "Co dokumentacja mówi o „Streaming”?",
        "Co dokumentacja mówi o „Subgraphs”?",
    ]
    starters = _offline_suggestions_for(nothing, question)
    assert [s["prompt"] for s in starters] == [
        "Od czego zacząć?",
        "Jakie ustawienia mogę zmienić?",
        "W jakich źródłach szuka?",
    ]


def test_offline_suggestions_read_deep_agent_bullets_too() -> None:
    answer = (
        "_x_\n\n### Documentation\n- Streaming › Subgraph namespaces: events carry a namespace — docs/streaming.md#ns\n"
        "- Install › Ask your first question: In a second terminal — docs/install.md#ask\n"
    )
    conv = [HumanMessage(content="How do I stream?"), AIMessage(content=answer)]
    reply = OfflineChatModel().invoke(
        [SystemMessage(content=suggestions_prompt(1)), HumanMessage(content=transcript(conv))]
    )
    assert [s["prompt"] for s in parse_suggestions(str(reply.content), 1)] == [
        "What are subgraph namespaces?"
    ]
