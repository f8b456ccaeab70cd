"""MCP replies reshaped: the answer as text, `{answer, sources}` structured, others untouched."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from server.mcp_results import McpResultsMiddleware, reshape_call_result, structured_answer

ANSWER = "Set `--port`.\n\nSee docs/install.md and KB errors/port-already-in-use."


def _call_result(value: Any) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": repr(value)}]}


def test_docs_answer_output_becomes_text_and_structured_content() -> None:
    value = {"answer": ANSWER, "sources": ["docs/install.md"]}
    out = reshape_call_result(_call_result(value))
    assert out["content"] == [{"type": "text", "text": ANSWER}]
    assert out["structuredContent"] == value


def test_a_conversation_becomes_its_last_answer() -> None:
    state = {
        "messages": [
            {"type": "human", "content": "port?", "id": "1"},
            {"type": "ai", "content": "", "tool_calls": [{"name": "search_docs"}]},
            {"type": "tool", "content": "results"},
            {"type": "ai", "content": [{"type": "text", "text": ANSWER}], "usage_metadata": {}},
        ]
    }
    out = reshape_call_result(_call_result(state))
    assert out["content"][0]["text"] == ANSWER
    assert set(out["structuredContent"]["sources"]) == {
        "docs/install.md",
        "KB errors/port-already-in-use",
    }


@pytest.mark.parametrize(
    "result",
    [
        {"isError": True, "content": [{"type": "text", "text": "boom"}]},
        {"content": [{"type": "text", "text": "__import__('os').system('true')"}]},
        {"content": [{"type": "text", "text": "{'other': 1}"}]},
        {"content": [{"type": "text", "text": "[" * 10_000}]},
        {"content": []},
    ],
)
def test_anything_else_passes_unchanged(result: dict[str, Any]) -> None:
    assert reshape_call_result(json.loads(json.dumps(result))) == result
    assert structured_answer("text") is None


def _app() -> TestClient:
    async def mcp(request: Request) -> JSONResponse:
        try:
            message = json.loads(await request.body())
        except ValueError:
            return JSONResponse({"error": "Invalid JSON"}, status_code=400)
        if message["method"] == "tools/list":
            result: dict[str, Any] = {"tools": [{"name": "docs_answer"}, {"name": "mine"}]}
        else:
            result = _call_result({"answer": ANSWER, "sources": []})
        return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "result": result})

    async def other(request: Request) -> PlainTextResponse:
        return PlainTextResponse(repr({"answer": "x", "sources": []}))

    app = Starlette(
        routes=[Route("/mcp", mcp, methods=["POST"]), Route("/x", other, methods=["POST"])]
    )
    return TestClient(McpResultsMiddleware(app))


def test_middleware_reshapes_mcp_replies_only() -> None:
    client = _app()
    call = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call"}).json()
    assert call["result"]["content"][0]["text"] == ANSWER
    assert call["result"]["structuredContent"]["answer"] == ANSWER
    tools = client.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).json()
    by_name = {t["name"]: t for t in tools["result"]["tools"]}
    assert "outputSchema" in by_name["docs_answer"] and "outputSchema" not in by_name["mine"]
    assert client.post("/x", content=b"{}").text == repr({"answer": "x", "sources": []})
    broken = client.post("/mcp", content=b"not json")  # reaches the app as it was sent
    assert broken.status_code == 400 and broken.json() == {"error": "Invalid JSON"}


def test_a_large_reply_is_reshaped_too() -> None:
    big = ANSWER + "x" * 200_000  # past the size parsed on the event loop
    out = reshape_call_result(_call_result({"answer": big, "sources": []}))
    assert out["structuredContent"]["answer"] == big

    async def mcp(request: Request) -> JSONResponse:
        message = json.loads(await request.body())
        result = _call_result({"answer": big, "sources": []})
        return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "result": result})

    app = Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])
    client = TestClient(McpResultsMiddleware(app))
    call = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call"}).json()
    assert call["result"]["content"][0]["text"] == big


CARD = {
    "ref": "docs/install.md",
    "kind": "doc",
    "title": "Install",
    "section": [],
    "url": None,
}


def test_source_cards_ride_along_and_sources_stay_strings() -> None:
    value = {"answer": ANSWER, "sources": ["docs/install.md"], "source_cards": [CARD]}
    assert reshape_call_result(_call_result(value))["structuredContent"] == value
    # A conversation's answer carries its cards in additional_kwargs (graphs/source_cards.py):
    # `sources` are their refs.
    state = {
        "messages": [
            {"type": "ai", "content": ANSWER, "additional_kwargs": {"sources": [CARD, {"x": 1}]}}
        ]
    }
    out = reshape_call_result(_call_result(state))["structuredContent"]
    assert out == {"answer": ANSWER, "sources": ["docs/install.md"], "source_cards": [CARD]}
    from server.mcp_results import OUTPUT_SCHEMA

    assert OUTPUT_SCHEMA["required"] == ["answer", "sources"]  # cards are an optional extension
