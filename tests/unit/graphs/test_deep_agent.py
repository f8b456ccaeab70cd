"""deep_agent with a scripted orchestrator and offline researchers over the repo's own sources."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from graphs.citations import CitationChecker
from graphs.deep_agent import build_deep_agent
from graphs.offline.roles import OfflineOrchestratorModel
from graphs.researchers import MAX_FINDINGS_WORDS, condense_findings
from settings.sources import SourceSettings
from tests.fixtures.fake_chat import ScriptedChatModel
from tools import load_sources

QUESTION = "How do I stream tokens from subgraphs?"


class Scripted(AgentMiddleware):
    """Replaces the orchestrator's model with a scripted fake (and records its inputs)."""

    def __init__(self, responses: list[AIMessage]) -> None:
        super().__init__()
        self.model = ScriptedChatModel(responses)
        self.inputs: list[list[Any]] = []

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        self.inputs.append(list(request.messages))
        return handler(request.override(model=self.model))


@pytest.fixture
def sources(index_dir: Path) -> Any:
    return load_sources(
        SourceSettings.from_env(
            {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_CODE_ROOTS": "docs-agent=."}
        )
    )


def _calls(*names: str, task: str = QUESTION) -> AIMessage:
    return AIMessage(
        "",
        tool_calls=[
            {"name": n, "args": {"task": task}, "id": f"c{i}", "type": "tool_call"}
            for i, n in enumerate(names)
        ],
    )


def _run(graph: Any, question: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(what the run returns, the thread's whole state): internal keys live only in the latter."""
    config = {"configurable": {"thread_id": "t"}}
    out = graph.invoke({"messages": [HumanMessage(question)]}, config)
    return out, graph.get_state(config).values


def test_dispatch_condensed_findings_and_citation_check(sources: Any) -> None:
    answer = (
        "Use stream_subgraphs. See docs/streaming.md.\n"
        "Code: `docs-agent/graphs/deep_agent.py:30-10`.\n"
        "- `docs-agent/graphs/invented.py:1-2`\n"
        "- https://docs.example.invalid/made-up\n"
    )
    scripted = Scripted(
        [
            _calls("ask_docs_researcher", "ask_kb_researcher", "ask_code_researcher"),
            AIMessage(answer),
        ]
    )
    graph = build_deep_agent(sources=sources, middleware=[scripted], checkpointer=InMemorySaver())
    out, state = _run(graph, QUESTION)
    # The output schema is the public surface: messages, never the internal reports.
    assert "citation_check" not in out and "context_economy" not in out

    findings = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert sorted(m.name for m in findings) == [
        "ask_code_researcher",
        "ask_docs_researcher",
        "ask_kb_researcher",
    ]
    for m in findings:
        assert len(str(m.content).split()) <= MAX_FINDINGS_WORDS + 10
        assert m.artifact["read_chars"] > 0, m.name  # the researcher searched and read on its own
    docs_findings = next(m for m in findings if m.name == "ask_docs_researcher")
    assert "docs/" in str(docs_findings.content)  # each fact carries its page citation
    # The orchestrator's second call saw findings, never raw tool output.
    seen = scripted.inputs[1]
    assert not any(
        isinstance(m, ToolMessage) and m.name in {"search_docs", "get_doc_page"} for m in seen
    )

    final = out["messages"][-1].content
    assert "docs-agent/graphs/deep_agent.py:10-30" in final
    assert "invented.py" not in final and "made-up" not in final
    check = state["citation_check"]
    assert (check["valid"], check["fixed"], check["removed"]) == (1, 1, 2)
    economy = state["context_economy"]
    assert len(economy["orchestrator_input_tokens_per_call"]) == 2
    assert set(economy["subagent_read_tokens"]) == {
        "docs_researcher",
        "kb_researcher",
        "code_researcher",
    }


def test_offline_orchestrator_dispatches_all_researchers_and_answer_verifies(sources: Any) -> None:
    graph = build_deep_agent(sources=sources, middleware=[], checkpointer=InMemorySaver())
    out, state = _run(graph, "Why does `build_deep_agent` fail with no model key?")
    first_ai = next(m for m in out["messages"] if isinstance(m, AIMessage))
    assert {c["name"] for c in first_ai.tool_calls} == {
        "ask_docs_researcher",
        "ask_kb_researcher",
        "ask_code_researcher",
    }
    final = out["messages"][-1].content
    assert final.startswith("_This is an extractive answer")
    assert state["citation_check"]["checked"] > 0 and state["citation_check"]["invalid"] == 0
    # An independent pass of the checker finds nothing left to fix.
    _, again = CitationChecker(sources).check(final)
    assert again.invalid == 0 and again.valid == state["citation_check"]["valid"]
    # Every source the answer lists is one a researcher handed up in its structured output.
    handed_up = {
        c for m in out["messages"] if isinstance(m, ToolMessage) for c in m.artifact["sources"]
    }
    listed = final.split("**Sources:**", 1)[1]
    assert handed_up and all(c in listed for c in handed_up)


def test_missing_source_drops_its_researcher(sources: Any) -> None:
    from tools import create_docs_group

    graph = build_deep_agent(
        sources=sources,
        tools={"docs": create_docs_group(sources), "kb": [], "code": []},
        middleware=[],
    )
    out = graph.invoke({"messages": [HumanMessage(QUESTION)]})
    first_ai = next(m for m in out["messages"] if isinstance(m, AIMessage))
    assert [c["name"] for c in first_ai.tool_calls] == ["ask_docs_researcher"]


def test_condense_caps_words_and_closes_fences() -> None:
    text = "```python\n" + "\n".join("x = 1 " * 10 for _ in range(100)) + "\n```"
    out = condense_findings(text, limit=50)
    assert len(out.split()) <= 60 and out.count("```") % 2 == 0 and "cut" in out


def test_offline_orchestrator_without_findings_says_nothing_found() -> None:
    model = OfflineOrchestratorModel()
    msg = model.plan(
        [
            HumanMessage("q"),
            AIMessage(
                "",
                tool_calls=[
                    {
                        "name": "ask_docs_researcher",
                        "args": {"task": "q"},
                        "id": "1",
                        "type": "tool_call",
                    }
                ],
            ),
            ToolMessage(
                "Nothing relevant found in the docs source (ran none).",
                tool_call_id="1",
                name="ask_docs_researcher",
            ),
        ]
    )
    assert "extractive" in msg.content and "Sources" not in msg.content
