"""MCP replies reshaped: the answer as text, `{answer, sources}` structured, others untouched."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route, Router
from starlette.testclient import TestClient

from server.limits import RequestSizeLimit
from server.mcp_results import (
    INTERNAL_ERROR,
    NO_MCP,
    REFUSED,
    McpResultsMiddleware,
    reshape_call_result,
    structured_answer,
)

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
    assert broken.status_code == 400
    assert broken.json() == {
        "jsonrpc": "2.0",
        "id": None,  # JSON-RPC's id when the request's own cannot be read
        "error": {"code": -32000, "message": "Invalid JSON", "data": {"status": 400}},
    }


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


# --- refusals as JSON-RPC errors ---------------------------------------------------------------

RUN_LIMIT = (
    "You have 2 runs pending or running; the limit is 2 per user (DOCS_AGENT_MAX_RUNS_PER_USER). "
    "Wait for one to finish, or cancel one, then send this again."
)
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "docs_answer"}}


def _refusing(raise_: Callable[[], None], **client: Any) -> TestClient:
    """An MCP route that reads the call, then raises as langgraph-api's does on a refused run."""

    async def mcp(request: Request) -> JSONResponse:
        await request.body()
        raise_()
        return JSONResponse({})

    # A bare router: in both engines Starlette's last-resort 500 handler is outside http.app's
    # middleware, so the exception reaches the middleware before any reply does.
    app = Router(routes=[Route("/mcp", mcp, methods=["POST"])])
    return TestClient(McpResultsMiddleware(app), **client)


def _refused_run(status: int, body: dict[str, Any], **headers: str) -> None:
    """What the in-process SDK client raises when its `POST /runs/wait` is refused."""
    request = httpx.Request("POST", "http://api/runs/wait")
    response = httpx.Response(status, json=body, headers=headers, request=request)
    raise httpx.HTTPStatusError(f"Client error '{status}'", request=request, response=response)


def test_a_run_refused_inside_tools_call_is_a_json_rpc_error_not_a_500() -> None:
    client = _refusing(lambda: _refused_run(429, {"detail": RUN_LIMIT}, **{"Retry-After": "2"}))
    reply = client.post("/mcp", json=CALL)
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/json"
    assert reply.json() == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {
            "code": REFUSED,
            "message": RUN_LIMIT + " (Retry after 2 s.)",
            "data": {"status": 429, "retryAfter": 2},
        },
    }
    over = _refusing(lambda: _refused_run(413, {"detail": "This request's text is over ..."}))
    error = over.post("/mcp", json={**CALL, "id": "a"}).json()
    assert error["id"] == "a" and error["error"]["message"] == "This request's text is over ..."
    busy = _refusing(lambda: _refused_run(503, {"detail": "The run limit could not be checked"}))
    assert busy.post("/mcp", json=CALL).json()["error"]["data"] == {"status": 503}


@pytest.mark.parametrize(
    "raise_",
    [
        lambda: _refused_run(500, {"detail": "KeyError: 'secret' at ops.py:12"}),
        lambda: (_ for _ in ()).throw(RuntimeError("KeyError deep in the engine")),
    ],
)
def test_an_unexplained_failure_is_an_internal_error_without_its_name(
    raise_: Callable[[], None],
) -> None:
    reply = _refusing(raise_).post("/mcp", json=CALL)
    assert reply.status_code == 200
    error = reply.json()["error"]
    assert error["code"] == INTERNAL_ERROR and "try again" in error["message"]
    assert "Error" not in reply.text and "ops.py" not in reply.text


def test_a_failure_after_the_reply_started_is_not_hidden() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise RuntimeError("cut mid-reply")

    client = TestClient(McpResultsMiddleware(app))
    with pytest.raises(RuntimeError):
        client.post("/mcp", json={**CALL, "method": "ping"})


def test_refusals_before_the_mcp_handler_keep_their_status_and_headers() -> None:
    async def auth_refuses(request: Request) -> JSONResponse:  # before reading the body
        return JSONResponse(
            {"detail": "Invalid or missing token"},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )

    app = Starlette(routes=[Route("/mcp", auth_refuses, methods=["POST"])])
    reply = TestClient(McpResultsMiddleware(app)).post("/mcp", json=CALL)
    assert reply.status_code == 401 and reply.headers["www-authenticate"] == "Bearer"
    assert reply.json()["id"] == 7 and reply.json()["error"] == {
        "code": REFUSED,
        "message": "Invalid or missing token",
        "data": {"status": 401},
    }
    # No route at all (Aegra serves no /mcp): said in words, not "Not Found".
    empty = TestClient(McpResultsMiddleware(Starlette(routes=[])))
    missing = empty.post("/mcp", json=CALL)
    assert missing.status_code == 404 and missing.json()["error"]["message"] == NO_MCP


def test_an_oversized_call_is_refused_as_a_json_rpc_error_before_anything_reads_it() -> None:
    read: list[bytes] = []

    async def mcp(request: Request) -> JSONResponse:
        read.append(await request.body())
        return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": {}})

    app = Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])
    client = TestClient(McpResultsMiddleware(RequestSizeLimit(app, max_bytes=1000)))
    big = {**CALL, "params": {"name": "docs_answer", "arguments": {"question": "x" * 5000}}}
    reply = client.post("/mcp", json=big)
    assert reply.status_code == 413 and read == []
    error = reply.json()["error"]
    assert error["code"] == REFUSED and "DOCS_AGENT_MAX_REQUEST_BYTES" in error["message"]
    assert reply.json()["id"] == 7  # the refused body was drained past the copy: its id is known
    ok = client.post("/mcp", json=CALL)
    assert ok.status_code == 200 and json.loads(read[0]) == CALL  # the route reads it whole


def test_json_rpc_errors_of_the_handler_pass_unchanged() -> None:
    unknown = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Unknown tool: x"}}

    async def mcp(request: Request) -> JSONResponse:
        await request.body()
        return JSONResponse(unknown)

    app = Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])
    assert TestClient(McpResultsMiddleware(app)).post("/mcp", json=CALL).json() == unknown


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
