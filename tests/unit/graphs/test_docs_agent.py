"""docs_agent in-process: the create_agent loop with scripted fakes and with the offline model."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from graphs import models
from graphs.context import Context
from graphs.docs_agent import RECURSION_LIMIT, build_docs_agent
from settings.sources import SourceSettings
from tests.fixtures.fake_chat import ScriptedChatModel
from tools import create_all_tools, load_sources


def _tools(index_dir: Path) -> list:
    settings = SourceSettings.from_env(
        {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_CODE_ROOTS": "docs-agent=."}
    )
    return create_all_tools(load_sources(settings))


def test_catalog_groups_follow_configured_sources(index_dir: Path, tmp_path: Path) -> None:
    names = {t.name for t in _tools(index_dir)}
    assert {
        "search_docs",
        "get_doc_page",
        "search_support_articles",
        "get_article_content",
        "search_code",
        "list_directory",
        "read_code_file",
    } <= names
    only_docs = SourceSettings.from_env(
        {
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
            "DOCS_AGENT_KB_DIR": "",
            "DOCS_AGENT_CODE_ROOTS": str(tmp_path / "missing"),
        }
    )
    names = {t.name for t in create_all_tools(load_sources(only_docs))}
    assert (
        "search_docs" in names
        and "search_support_articles" not in names
        and "search_code" not in names
    )


def test_scripted_model_drives_real_tools(index_dir: Path, monkeypatch) -> None:
    script = ScriptedChatModel(
        [
            AIMessage(
                "",
                tool_calls=[
                    {
                        "name": "search_docs",
                        "args": {"query": "studio", "feedback_to_user": "Searching"},
                        "id": "c1",
                    }
                ],
            ),
            AIMessage("Open Studio with the baseUrl of your server [docs/studio.md]."),
        ]
    )
    monkeypatch.setattr(models, "load_chat_model", lambda spec, streaming=True: script)
    graph = build_docs_agent(tools=_tools(index_dir))
    tool_msgs, final = [], None
    for update in graph.stream(
        {"messages": [{"role": "user", "content": "How do I open Studio?"}]}, stream_mode="updates"
    ):
        for node in update.values():
            for m in (node or {}).get("messages", []) if isinstance(node, dict) else []:
                tool_msgs += [m] if m.type == "tool" else []
                final = m if m.type == "ai" and not m.tool_calls else final
    assert tool_msgs and "docs/studio.md" in tool_msgs[0].content
    assert final is not None and final.content.startswith("Open Studio")


def test_offline_graph_answers_with_citations_and_keeps_turns(index_dir: Path) -> None:
    graph = build_docs_agent(tools=_tools(index_dir), checkpointer=InMemorySaver())
    assert graph.config["recursion_limit"] == RECURSION_LIMIT
    cfg = {"configurable": {"thread_id": "t1"}}
    out = graph.invoke(
        {"messages": [{"role": "user", "content": "How do I switch to a real model?"}]},
        cfg,
        context=Context(model="offline"),
    )
    answer = out["messages"][-1]
    assert answer.type == "ai" and "extractive answer" in answer.content
    out2 = graph.invoke(
        {"messages": [{"role": "user", "content": "And the fallback models?"}]}, cfg
    )
    humans = [m.content for m in out2["messages"] if m.type == "human"]
    assert humans[0] == "How do I switch to a real model?"


def test_model_fallback_chain_is_used_when_the_model_fails(index_dir: Path, monkeypatch) -> None:
    good = ScriptedChatModel([AIMessage("fallback answer")])
    bad = ScriptedChatModel([RuntimeError("provider down")])
    monkeypatch.setattr(
        models, "load_chat_model", lambda spec, streaming=True: bad if spec == "m:bad" else good
    )
    graph = build_docs_agent(tools=[])
    out = graph.invoke(
        {"messages": [{"role": "user", "content": "hi"}]},
        context=Context(model="m:bad", fallback_models="m:good"),
    )
    assert out["messages"][-1].content == "fallback answer"
