"""docs_answer: a question in, only the checked answer and its sources out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from graphs import docs_answer
from graphs.docs_agent import build_docs_agent
from settings.sources import SourceSettings
from tests.fixtures.fake_chat import ScriptedChatModel
from tools import load_sources


def test_schemas_are_a_question_in_and_answer_with_sources_out() -> None:
    schema_in = docs_answer.graph.get_input_jsonschema()
    schema_out = docs_answer.graph.get_output_jsonschema()
    assert set(schema_in["properties"]) == {"question"} and schema_in["required"] == ["question"]
    # `source_cards` extends the output; `answer` and `sources` keep their shape (MCP callers).
    assert set(schema_out["properties"]) == {"answer", "sources", "source_cards"}
    assert schema_out["properties"]["sources"]["items"] == {"type": "string"}


async def test_answer_is_checked_and_sources_are_its_citations(
    monkeypatch: pytest.MonkeyPatch,
    index_dir: Path,
    fake_model: Callable[..., ScriptedChatModel],
) -> None:
    monkeypatch.setenv("DOCS_AGENT_NUM_SUGGESTIONS", "3")  # the answer graph asks for none
    sources = load_sources(
        SourceSettings.from_env(
            {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_CODE_ROOTS": "docs-agent=."}
        )
    )
    model = fake_model(
        [AIMessage("Streaming: see docs/streaming.md and https://docs.example.invalid/made-up.")]
    )
    monkeypatch.setattr(docs_answer, "docs_agent", build_docs_agent(tools=[], sources=sources))
    out = await docs_answer.graph.ainvoke({"question": "How do I stream tokens?"})
    assert set(out) == {"answer", "sources", "source_cards"}
    assert "docs/streaming.md" in out["answer"] and "made-up" not in out["answer"]
    assert out["sources"] == ["docs/streaming.md"]
    # The same citation as a card: the page's title; no site configured, so no URL.
    [card] = out["source_cards"]
    assert card["ref"] == "docs/streaming.md" and card["kind"] == "doc" and card["url"] is None
    assert card["title"] == sources.docs.find("docs/streaming.md").title and card["section"] == []
    assert model.calls == 1  # one answer, no suggestion call
    empty = await docs_answer.graph.ainvoke({"question": "  "})
    assert empty == {
        "answer": "The question is empty: ask something about the product.",
        "sources": [],
        "source_cards": [],
    }


def test_invoke_works_like_ainvoke(
    monkeypatch: pytest.MonkeyPatch,
    index_dir: Path,
    fake_model: Callable[..., ScriptedChatModel],
) -> None:
    sources = load_sources(SourceSettings.from_env({"DOCS_AGENT_INDEX_DIR": str(index_dir)}))
    model = fake_model([AIMessage("See docs/streaming.md.")])
    monkeypatch.setattr(docs_answer, "docs_agent", build_docs_agent(tools=[], sources=sources))
    out = docs_answer.graph.invoke({"question": "How do I stream tokens?"})
    assert out["answer"] == "See docs/streaming.md." and out["sources"] == ["docs/streaming.md"]
    assert [c["ref"] for c in out["source_cards"]] == ["docs/streaming.md"]
    assert model.calls == 1
