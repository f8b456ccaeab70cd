"""The offline model: real tool calls in order, token streaming, an honest extractive answer."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from graphs.offline.answer import compose_answer
from graphs.offline.model import MAX_WORDS_PER_CHUNK, OfflineChatModel, _line_pieces
from graphs.offline.passages import code_block, select_passages
from settings.sources import SourceSettings
from tools import create_all_tools, load_sources

ALL = [
    "search_docs",
    "get_doc_page",
    "search_support_articles",
    "get_article_content",
    "search_code",
    "list_directory",
    "read_code_file",
]


def _model(names: list[str] = ALL) -> OfflineChatModel:
    return OfflineChatModel().model_copy(update={"tool_names": tuple(names)})


def test_first_step_searches_docs_and_kb_with_the_question() -> None:
    msg = _model().invoke([HumanMessage("How do I configure the port?")])
    calls = {c["name"]: c["args"] for c in msg.tool_calls}
    assert set(calls) == {"search_docs", "search_support_articles"}
    assert calls["search_docs"]["query"] == "How do I configure the port?"
    assert calls["search_docs"]["feedback_to_user"]


@pytest.mark.parametrize(
    "question,ident",
    [
        ("Where is `compile` defined?", "compile"),
        ("What does StateGraph do?", "StateGraph"),
        ("what is stream_mode for", "stream_mode"),
        ("I get INVALID_CONCURRENT_GRAPH_UPDATE", "INVALID_CONCURRENT_GRAPH_UPDATE"),
    ],
)
def test_identifiers_trigger_a_code_search(question: str, ident: str) -> None:
    msg = _model().invoke([HumanMessage(question)])
    code = [c for c in msg.tool_calls if c["name"] == "search_code"]
    assert code and ident in code[0]["args"]["pattern"]


def test_a_product_name_alone_is_not_grepped_in_the_code_roots(
    tmp_path: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'LangGraph' names the product, not a definition: grepping it finds comments and data."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "app.py").write_text("# Built on LangGraph.\ndef main():\n    pass\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "studio.md").write_text("# Studio\n\nOpen Studio in the browser.\n")
    monkeypatch.setenv("DOCS_AGENT_DOCS_DIR", str(tmp_path / "docs"))
    monkeypatch.setenv("DOCS_AGENT_KB_DIR", "")
    monkeypatch.setenv("DOCS_AGENT_CODE_ROOTS", f"pkg={tmp_path / 'pkg'}")
    monkeypatch.setenv("DOCS_AGENT_INDEX_DIR", str(index_dir))
    msg = _model().invoke([HumanMessage("How do I debug my graph in LangGraph Studio?")])
    assert "search_code" not in [c["name"] for c in msg.tool_calls]


def test_only_bound_tools_are_called() -> None:
    msg = _model(["search_docs", "get_doc_page"]).invoke([HumanMessage("What does StateGraph do?")])
    assert [c["name"] for c in msg.tool_calls] == ["search_docs"]


def test_tool_call_ids_are_deterministic() -> None:
    a = _model().invoke([HumanMessage("How do I install it?")])
    b = _model().invoke([HumanMessage("How do I install it?")])
    assert [c["id"] for c in a.tool_calls] == [c["id"] for c in b.tool_calls]


def test_unbound_model_answers_without_tools() -> None:
    msg = OfflineChatModel().invoke([HumanMessage("hello there")])
    assert not msg.tool_calls
    assert "extractive" in msg.content


def test_second_step_reads_best_page_and_articles() -> None:
    search = AIMessage(
        "",
        tool_calls=[
            {"name": "search_docs", "args": {}, "id": "a"},
            {"name": "search_support_articles", "args": {}, "id": "b"},
        ],
    )
    turn = [
        HumanMessage("port in use"),
        search,
        ToolMessage(
            "...",
            tool_call_id="a",
            name="search_docs",
            artifact=[
                {"url": "docs/install.md", "title": "Install", "key": "install.md", "section": ""}
            ],
        ),
        ToolMessage(
            "...",
            tool_call_id="b",
            name="search_support_articles",
            artifact=[
                {
                    "id": "errors/port",
                    "title": "Port",
                    "url": "kb/errors/port.md",
                    "collection": "errors",
                },
                {"id": "faq/x", "title": "X", "url": "kb/faq/x.md", "collection": "faq"},
                {"id": "faq/y", "title": "Y", "url": "kb/faq/y.md", "collection": "faq"},
            ],
        ),
    ]
    msg = _model().invoke(turn)
    calls = {c["name"]: c["args"] for c in msg.tool_calls}
    assert calls["get_doc_page"]["url_or_path"] == "docs/install.md"
    assert calls["get_article_content"]["article_ids"] == ["errors/port", "faq/x"]


def test_answer_quotes_relevant_passages_with_citations() -> None:
    page = (
        "# Install\nSource: docs/install.md\n\n"
        "## Change the port\n\nThe server listens on port 8123; run make dev PORT=9000 to change the port.\n\n"
        "## Unrelated\n\nBananas are yellow and have nothing to do with servers at all, really."
    )
    sections = [
        {
            "heading": "Change the port",
            "level": 2,
            "anchor": "change-the-port",
            "text": "The server listens on port 8123; run make dev PORT=9000 to change the port.",
        },
        {
            "heading": "Unrelated",
            "level": 2,
            "anchor": "unrelated",
            "text": "Bananas are yellow and have nothing to do with servers at all, really.",
        },
    ]
    artifact = {"url": "docs/install.md", "title": "Install", "sections": sections}
    turn = [
        HumanMessage("how to change the port"),
        AIMessage("", tool_calls=[{"name": "get_doc_page", "args": {}, "id": "p"}]),
        ToolMessage(page, tool_call_id="p", name="get_doc_page", artifact=artifact),
    ]
    answer = compose_answer("how to change the port", turn[1:], "en")
    first, rest = answer.split("\n", 1)
    assert "extractive answer" in first and "no language model is configured" in first
    assert "PORT=9000" in rest and "docs/install.md#change-the-port" in rest
    assert "Bananas" not in rest
    # The passages come from the artifact, not the text: a rewording of the page changes nothing.
    reworded = [*turn[:2], turn[2].model_copy(update={"content": "(the page, worded otherwise)"})]
    assert compose_answer("how to change the port", reworded[1:], "en") == answer


def test_answer_in_the_users_language() -> None:
    answer = compose_answer("Как изменить порт?", [], "ru")
    assert answer.startswith("_Это извлечённый ответ")


def _searched(docs: list[dict], kb: list[dict]) -> list:
    """A turn's two searches, their hits carrying calibrated scores as the tools return them."""
    return [
        AIMessage(
            "",
            tool_calls=[
                {"name": "search_docs", "args": {"query": "q"}, "id": "sd"},
                {"name": "search_support_articles", "args": {"query": "q"}, "id": "sk"},
            ],
        ),
        ToolMessage("...", tool_call_id="sd", name="search_docs", artifact=docs),
        ToolMessage("...", tool_call_id="sk", name="search_support_articles", artifact=kb),
    ]


def _page(url: str, sections: list[tuple[str, str]]) -> ToolMessage:
    secs = [
        {"heading": h, "level": 2, "anchor": h.lower().replace(" ", "-"), "text": t}
        for h, t in sections
    ]
    art = {"url": url, "title": url, "sections": secs, "outline": [h for h, _ in sections]}
    return ToolMessage("(text)", tool_call_id=f"p{url}", name="get_doc_page", artifact=art)


def _articles(*arts: tuple[str, str]) -> ToolMessage:
    art = [
        {
            "id": i,
            "title": i,
            "url": f"kb/{i}.md",
            "sections": [{"heading": "Fix", "level": 2, "anchor": "fix", "text": t}],
        }
        for i, t in arts
    ]
    return ToolMessage("(text)", tool_call_id="a", name="get_article_content", artifact=art)


LONG = " and it goes on long enough to stand as a passage of its own."


def test_passages_follow_the_search_ranking_one_per_source() -> None:
    docs = [
        {"url": "d/a", "title": "A", "section": "Second", "anchor": "second", "score": 0.5},
        {"url": "d/b", "title": "B", "section": "", "anchor": "", "score": 0.2},
    ]
    kb = [{"id": "k/1", "title": "K", "url": "kb/k/1.md", "section": "Fix", "score": 0.7}]
    turn = [
        *_searched(docs, kb),
        _page("d/b", [("Only", "Page B text" + LONG)]),
        _page(
            "d/a", [("First", "Page A first section" + LONG), ("Second", "Page A matched" + LONG)]
        ),
        _articles(("k/1", "The article's fix" + LONG)),
    ]
    chosen = select_passages(turn)
    # Merged by calibrated score (0.7 > 0.5 > 0.2), not by read order; each source's matched
    # section, not its first one.
    assert [p.cite for p in chosen] == ["KB k/1 — kb/k/1.md", "d/a#second", "d/b#only"]
    assert chosen[1].text.startswith("Page A matched")


def test_passages_never_repeat_and_stop_at_five_plus_code() -> None:
    docs = [
        {"url": f"d/{i}", "title": str(i), "section": "", "score": 1 - i / 10} for i in range(6)
    ]
    same = "The same words on two pages" + LONG
    turn = [
        *_searched(docs, []),
        *(_page(f"d/{i}", [("S", same if i < 2 else f"Page {i}" + LONG)]) for i in range(8)),
        ToolMessage(
            "(code)",
            tool_call_id="c",
            name="read_code_file",
            artifact={
                "file": "pkg/m.py",
                "start": 1,
                "lines": ["from x import (", "    a,", "    b,", ")", "import os", *[""] * 10]
                + ["class Thing:", "    def run(self):", "        return 1"],
            },
        ),
    ]
    chosen = select_passages(turn)
    assert [p.cite for p in chosen] == [
        "d/0#s",
        "d/2#s",
        "d/3#s",
        "d/4#s",
        "d/5#s",
        "pkg/m.py:16-18",
    ]
    assert chosen[-1].text.startswith("class Thing:")  # the block of imports is not quoted


def _code_searched(*files: str) -> list:
    """A turn's docs search and a code search that matched these files, in this order."""
    return [
        *_searched([], []),
        ToolMessage(
            "...",
            tool_call_id="sc",
            name="search_code",
            artifact=[{"file": f, "lines": [3], "definitions": []} for f in files],
        ),
    ]


def test_the_code_read_skips_prose_and_data_files_in_a_code_root() -> None:
    """A code root's Markdown is documentation, searched and cited by the docs step already;
    a data file (an eval set) only quotes the question back."""
    turn = [HumanMessage("Why does LangGraph fail?"), *_code_searched("app/docs/x.md", "app/m.py")]
    reads = [c for c in _model().invoke(turn).tool_calls if c["name"] == "read_code_file"]
    assert [c["args"]["file_path"] for c in reads] == ["app/m.py"]
    turn = [
        HumanMessage("Why does LangGraph fail?"),
        *_code_searched("app/README.md", "app/eval/questions.jsonl"),
    ]
    assert not [c for c in _model().invoke(turn).tool_calls if c["name"] == "read_code_file"]


def test_code_blocks_take_the_file_language_and_a_fence_nothing_inside_closes() -> None:
    """A docstring's own ``` example must not end the quote; a TypeScript file is not Python."""
    assert code_block("x = 1", "pkg/m.py:3-3") == "```python\nx = 1\n```"
    code = 'def f():\n    """Example:\n\n    ```python\n    f()\n    ```\n    """'
    block = code_block(code, "pkg/m.py:1-7")
    assert block.startswith("````python\n") and block.endswith("\n````")
    assert code_block("let a = 1", "web/app.ts:1-1").startswith("```typescript\n")
    assert code_block("a", "pkg/Makefile:1-1").startswith("```\n")


def test_nothing_quotable_says_what_was_searched_and_the_closest_topics() -> None:
    docs = [{"url": "d/a", "title": "Streaming", "section": "", "score": 0.01}]
    answer = compose_answer("Jak przesyłać tokeny?", _searched(docs, []), "pl")
    assert "Nie znalazłem nic" in answer and "Szukałem: q" in answer
    assert "**Najbliższe tematy:** Streaming" in answer


def test_streams_a_line_at_a_time_and_long_lines_in_pieces() -> None:
    model = OfflineChatModel()
    question = [HumanMessage("hello there friend")]
    streamed = list(model.stream(question))
    chunks = [str(c.content) for c in streamed]
    assert len(chunks) >= 2
    # The last chunk says so itself: no empty closing chunk (one event fewer per model call).
    assert [c.chunk_position for c in streamed][-2:] == [None, "last"] and chunks[-1]
    assert "".join(chunks) == model.invoke(question).content  # nothing lost or added
    for chunk in chunks:
        assert "\n" not in chunk.lstrip()  # a chunk never ends one line and starts the next
        assert len(chunk.split()) <= MAX_WORDS_PER_CHUNK


async def test_async_stream_yields_the_same_chunks_as_the_sync_one() -> None:
    model = OfflineChatModel()
    question = [HumanMessage("hello there friend")]
    sync = [str(c.content) for c in model.stream(question)]
    assert [str(c.content) async for c in model.astream(question)] == sync
    assert (await model.ainvoke(question)).content == "".join(sync)


async def test_each_streamed_line_gives_the_event_loop_a_turn() -> None:
    # A stream reader (langgraph's `messages` mode, a server publishing each chunk) runs on the
    # same loop: it sees the first line while the rest are still to come, as with a provider.
    model = OfflineChatModel()
    turns = 0

    async def other_task() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    ticker = asyncio.create_task(other_task())
    seen = []
    async for _ in model.astream([HumanMessage("hello there friend")]):
        seen.append(turns)
    ticker.cancel()
    assert len(seen) >= 2
    assert all(later > earlier for earlier, later in zip(seen, seen[1:], strict=False))


class _ThreadRecordingModel(OfflineChatModel):
    """Records the thread each plan ran on."""

    threads: list[int] = []

    def plan(self, messages: Sequence[BaseMessage]) -> AIMessage:
        self.threads.append(threading.get_ident())
        return AIMessage(content="done")


@pytest.mark.parametrize(
    ("tools", "after_a_search", "on_the_loop"),
    [
        (ALL, False, False),  # the first step may run the code search (ripgrep): a worker thread
        (ALL, True, True),  # reading and answering are pure Python: on the loop
        (["search_docs", "get_doc_page"], False, True),  # no code search bound: on the loop
    ],
)
async def test_only_a_step_that_may_search_the_code_leaves_the_event_loop(
    tools: list[str], after_a_search: bool, on_the_loop: bool
) -> None:
    model = _ThreadRecordingModel(threads=[]).model_copy(update={"tool_names": tuple(tools)})
    messages: list[BaseMessage] = [HumanMessage("How do I stream with StateGraph?")]
    if after_a_search:
        call = {"name": "search_docs", "args": {"query": "q"}, "id": "c1", "type": "tool_call"}
        messages += [
            AIMessage(content="", tool_calls=[call]),
            ToolMessage("hits", tool_call_id="c1", name="search_docs"),
        ]
    loop_thread = threading.get_ident()
    async for _ in model.astream(messages):
        pass
    await model.ainvoke(messages)
    assert len(model.threads) == 2
    assert all((t == loop_thread) is on_the_loop for t in model.threads)


def test_long_line_is_cut_into_pieces_that_join_back() -> None:
    text = "> " + " ".join(f"w{i}" for i in range(60)) + "\n\nend  "
    pieces = list(_line_pieces(text))
    assert "".join(pieces) == text
    assert [len(p.split()) for p in pieces] == [24, 24, 13, 1]


def test_full_loop_over_the_projects_own_docs(index_dir: Path) -> None:
    settings = SourceSettings.from_env(
        {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_CODE_ROOTS": "docs-agent=."}
    )
    tools = {t.name: t for t in create_all_tools(load_sources(settings))}
    model = _model(list(tools))
    messages: list = [HumanMessage("Which port does make dev use?")]
    for _ in range(4):
        ai = model.invoke(messages)
        messages.append(ai)
        if not ai.tool_calls:
            break
        for call in ai.tool_calls:
            messages.append(tools[call["name"]].invoke({**call, "type": "tool_call"}))
    final = messages[-1]
    assert not final.tool_calls
    assert "8123" in final.content
    assert "docs/" in final.content or "kb/" in final.content


def test_a_ranked_source_not_read_is_quoted_by_its_search_snippet() -> None:
    docs = [
        {"url": "d/a", "title": "A", "section": "", "score": 0.9},
        {
            "url": "d/b",
            "title": "B",
            "section": "Limits",
            "anchor": "limits",
            "score": 0.5,
            "snippet": "The recursion limit caps the number of steps" + LONG,
        },
        {"url": "d/c", "title": "C", "section": "", "score": 0.4, "snippet": "short"},
    ]
    turn = [*_searched(docs, []), _page("d/a", [("S", "Page A" + LONG)])]
    chosen = select_passages(turn)
    assert [p.cite for p in chosen] == ["d/a#s", "d/b#limits"]
    assert chosen[1].text.startswith("The recursion limit") and chosen[1].heading == "Limits"


def test_deep_answer_leads_with_the_researcher_whose_search_matched_best() -> None:
    from graphs.offline.answer import compose_deep_answer

    def finding(name: str, text: str, cite: str, score: float | None) -> ToolMessage:
        art = {"researcher": name, "sources": [cite], "best_score": score}
        return ToolMessage(text, tool_call_id=name, name=f"ask_{name}", artifact=art)

    answer = compose_deep_answer(
        [
            finding("docs_researcher", "- **Docs**: weak match — docs/a.md", "docs/a.md", 0.2),
            finding("kb_researcher", "- **KB**: strong match — KB faq/x", "KB faq/x", 0.7),
            finding("code_researcher", "- m.py — `m.py:1-5`", "m.py:1-5", None),
        ],
        "en",
    )
    order = [answer.index(h) for h in ("### Known issues", "### Documentation", "### Code")]
    assert order == sorted(order)
    assert answer.split("**Sources:**")[1].split() == [
        "1.",
        "KB",
        "faq/x",
        "2.",
        "docs/a.md",
        "3.",
        "m.py:1-5",
    ]


def test_a_finding_keeps_the_first_line_of_the_block_its_sentence_introduces() -> None:
    """'One of these when running `make dev`:' says nothing without the error it introduces."""
    from graphs.offline.roles import OfflineResearcherModel

    kb = [{"id": "k/port", "title": "Port in use", "url": "kb/k/port.md", "section": "Fix"}]
    text = (
        "One of these when running `make dev` or `langgraph dev`:\n\n"
        "```text\nWARNING  Port 8123 is already in use, using port 54817 instead.\n```"
    )
    turn = [*_searched([], kb), _articles(("k/port", text))]
    findings = OfflineResearcherModel(kind="kb").findings("port in use", turn)
    assert "`langgraph dev`: `WARNING Port 8123 is already in use" in findings
