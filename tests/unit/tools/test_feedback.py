"""Tool progress messages: emitted before the tool's result, in order, cut at 100 + "...", localized."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage

from graphs.context import Context
from graphs.offline.language import phrase
from graphs.offline.model import OfflineChatModel
from tests.fixtures.fake_chat import ScriptedChatModel
from tools import create_all_tools
from tools.feedback import emit_feedback


@pytest.fixture
def tools(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    monkeypatch.setenv("DOCS_AGENT_INDEX_DIR", str(index_dir))
    monkeypatch.setenv("DOCS_AGENT_CODE_ROOTS", "docs-agent=.")
    return create_all_tools()


def _events(agent: Any, question: str) -> list[tuple[str, Any]]:
    return list(
        agent.stream(
            {"messages": [HumanMessage(content=question)]},
            context=Context(),
            stream_mode=["custom", "updates"],
        )
    )


def test_feedback_precedes_each_tool_result_in_order(tools: list[Any]) -> None:
    agent = create_agent(OfflineChatModel(), tools=tools, context_schema=Context)
    events = _events(agent, "How do I stream tokens from subgraphs?")
    feedback = [
        (i, d["data"]["feedback"])
        for i, (mode, d) in enumerate(events)
        if mode == "custom" and d.get("name") == "tool_feedback"
    ]
    calls = [
        c
        for mode, d in events
        if mode == "updates"
        for upd in d.values()
        if upd
        for m in upd.get("messages", [])
        for c in getattr(m, "tool_calls", [])
    ]
    results = {
        m.tool_call_id: i
        for i, (mode, d) in enumerate(events)
        if mode == "updates"
        for upd in d.values()
        if upd
        for m in upd.get("messages", [])
        if m.type == "tool"
    }
    assert len(calls) >= 3 and len(feedback) == len(calls)
    texts = [text for _, text in feedback]
    for call in calls:
        at = next(i for i, text in feedback if text == call["args"]["feedback_to_user"])
        assert at < results[call["id"]], f"feedback for {call['name']} came after its result"
    # In call order: the searches' messages come before the reads'.
    assert texts.index(phrase("search_docs", "en")) < next(
        i for i, t in enumerate(texts) if t.startswith(phrase("read_page", "en"))
    )


def test_long_feedback_is_cut_at_100_plus_ellipsis(tools: list[Any]) -> None:
    long = "Searching the documentation for every mention of streaming tokens from nested subgraphs and namespaces in detail"
    assert len(long) > 100
    call = {
        "name": "search_docs",
        "args": {"query": "stream", "limit": 3, "feedback_to_user": long},
        "id": "c1",
        "type": "tool_call",
    }
    agent = create_agent(
        ScriptedChatModel([AIMessage(content="", tool_calls=[call]), AIMessage(content="done")]),
        tools=tools,
        context_schema=Context,
    )
    [sent] = [d["data"]["feedback"] for mode, d in _events(agent, "q") if mode == "custom"]
    assert sent == long[:100] + "..." and len(sent) == 103


def test_emit_outside_a_run_is_a_no_op() -> None:
    emit_feedback("nothing listens")  # must not raise


@pytest.mark.parametrize(
    ("lang", "question"),
    [
        ("en", "How do I stream tokens from subgraphs?"),
        ("ru", "Как стримить токены из подграфов?"),
        ("pl", "Jak przesyłać tokeny z podgrafów?"),
        ("it", "Come posso trasmettere i token dai sottografi?"),
        ("de", "Wie kann ich Tokens aus Subgraphen streamen?"),
        ("es", "¿Cómo puedo transmitir tokens desde subgrafos?"),
        ("fr", "Comment diffuser les tokens des sous-graphes ?"),
    ],
)
def test_offline_feedback_is_in_the_users_language(lang: str, question: str) -> None:
    model = OfflineChatModel().bind_tools(
        [{"name": "search_docs"}, {"name": "search_support_articles"}]
    )
    msg = model.plan([HumanMessage(content=question)])
    assert [c["args"]["feedback_to_user"] for c in msg.tool_calls] == [
        phrase("search_docs", lang),
        phrase("search_kb", lang),
    ]
