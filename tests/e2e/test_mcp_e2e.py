"""The server's MCP endpoint (`POST /mcp`) as an IDE agent meets it: described tools, narrow inputs,
one tool whose result is just the answer and its sources, and, with auth on, calls as often as
the agent likes: every refusal a JSON-RPC error with the server's words, never an HTTP 500.

Issue 31: with auth on and the default 2-run limit, 2 of 10 sequential MCP calls were answered
(the rest HTTP 500, plain text) and `runs.wait(None, ...)` got 429 while nothing ran, because
the run limit counted a deleted stateless run for 15 s. Aegra serves no `/mcp`; its stateless
runs are tested here too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from tests.conftest import REPO_ROOT
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _rpc(url: str, method: str, params: dict[str, Any], id_: int) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}
    response = httpx.post(f"{url}/mcp", json=body, headers=HEADERS, timeout=90)
    assert response.status_code == 200, response.text
    reply = response.json()
    assert reply.get("id") == id_ and "error" not in reply, reply
    return dict(reply["result"])


def test_mcp_initialize_list_and_call(server_url: str) -> None:
    init = _rpc(
        server_url,
        "initialize",
        {
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "clientInfo": {"name": "docs-agent-e2e", "version": "0"},
        },
        1,
    )
    assert "tools" in init["capabilities"] and init["protocolVersion"]

    tools = {t["name"]: t for t in _rpc(server_url, "tools/list", {}, 2)["tools"]}
    declared = json.loads((REPO_ROOT / "langgraph.json").read_text())["graphs"]
    assert set(declared) <= set(tools)
    for name, spec in declared.items():
        # Each graph is described by its langgraph.json description, not the server's filler.
        assert tools[name]["description"] == spec["description"], name
    for name in ("docs_agent", "deep_agent"):
        props = tools[name]["inputSchema"].get("properties", {})
        assert set(props) == {"messages"}, (name, set(props))  # internal state stays internal
    answer_schema = tools["docs_answer"]["inputSchema"]
    assert set(answer_schema["properties"]) == {"question"} and answer_schema["required"] == [
        "question"
    ]

    result = _rpc(
        server_url,
        "tools/call",
        {
            "name": "docs_answer",
            "arguments": {"question": "How do I change the port of langgraph dev?"},
        },
        3,
    )
    assert not result.get("isError"), result
    # The answer renders as Markdown; {answer, sources} comes as structured content.
    output = result["structuredContent"]
    assert set(output) == {"answer", "sources", "source_cards"}
    assert [c["ref"] for c in output["source_cards"]] == output["sources"]  # the same citations
    assert result["content"] == [{"type": "text", "text": output["answer"]}]
    assert output["answer"].startswith("_This is an extractive answer")
    assert "\n" in output["answer"] and "{'answer'" not in output["answer"]
    assert output["sources"] and all(s in output["answer"] for s in output["sources"])
    assert tools["docs_answer"]["outputSchema"]["required"] == ["answer", "sources"]


def test_mcp_docs_agent_returns_the_answer_not_the_state(server_url: str) -> None:
    result = _rpc(
        server_url,
        "tools/call",
        {
            "name": "docs_agent",
            "arguments": {"messages": [{"role": "user", "content": "How do I change the port?"}]},
        },
        4,
    )
    assert not result.get("isError"), result
    text = result["content"][0]["text"]
    assert text == result["structuredContent"]["answer"]
    assert text.startswith("_This is an extractive answer")
    assert "usage_metadata" not in text and "'messages'" not in text


# --- with auth on and the default run limit (2 per user) ----------------------------------------

TOKEN = "tok-ide-agent-mcp-5d2e8b71"
AUTH_ENV = {"AUTH_TOKENS": f"{TOKEN}:ide-agent"}  # DOCS_AGENT_MAX_RUNS_PER_USER left at 2
QUESTION = "How do I change the port of langgraph dev?"
LIMIT_VARIABLE = "DOCS_AGENT_MAX_RUNS_PER_USER"


@pytest.fixture(scope="module", params=["langgraph-dev", "aegra"])
def auth_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """(engine, URL) of a server with auth on, one per engine."""
    tmp = tmp_path_factory.mktemp(f"mcp-auth-{request.param}")
    if request.param == "aegra":
        stack = e2e.AegraStack(tmp, request.getfixturevalue("aegra_services"), AUTH_ENV)
        try:
            yield "aegra", stack.start().url
        finally:
            stack.stop()
    else:
        with e2e.langgraph_dev(tmp, extra_env=AUTH_ENV) as url:
            yield "dev", url


def _mcp_call(
    url: str, id_: int, question: str = QUESTION, token: str | None = TOKEN
) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": id_,
        "method": "tools/call",
        "params": {"name": "docs_answer", "arguments": {"question": question}},
    }
    headers = {**HEADERS, **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx.post(f"{url}/mcp", json=body, headers=headers, timeout=120)


def _answered(r: httpx.Response, id_: int) -> bool:
    if r.status_code != 200:
        return False
    reply = r.json()
    result = reply.get("result") or {}
    return bool(
        reply.get("id") == id_
        and not result.get("isError")
        and result.get("structuredContent", {}).get("answer", "").startswith("_This is an")
    )


def _refusal(r: httpx.Response, id_: int | None) -> dict[str, Any]:
    """The JSON-RPC error of a refused call; fails on anything else (a 500, plain text)."""
    assert r.headers.get("content-type", "").startswith("application/json"), (r.status_code, r.text)
    reply = r.json()
    assert reply.get("jsonrpc") == "2.0" and reply.get("id") == id_ and "result" not in reply, reply
    error = dict(reply["error"])
    assert isinstance(error["code"], int) and error["message"].strip(), error
    assert "Traceback" not in error["message"] and "Error:" not in error["message"], error
    return error


@pytest.mark.timeout(600)
def test_an_ide_agent_calls_docs_answer_as_often_as_it_likes(auth_server: tuple[str, str]) -> None:
    engine, url = auth_server
    if engine == "aegra":
        # Aegra 0.11 serves no MCP endpoint: a client is told so in a JSON-RPC error.
        r = _mcp_call(url, 1)
        assert r.status_code == 404
        assert "no MCP endpoint" in _refusal(r, 1)["message"]
        print("\naegra: POST /mcp -> 404, JSON-RPC error: no MCP endpoint")
        return
    sequential = [_mcp_call(url, i) for i in range(20)]
    answered = sum(_answered(r, i) for i, r in enumerate(sequential))
    print(f"\nMCP docs_answer, auth on, limit 2: {answered} of 20 sequential calls answered")
    assert answered == 20, [(r.status_code, r.text[:200]) for r in sequential][:3]

    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(lambda i: (i, _mcp_call(url, 100 + i)), range(8)))
    ok = refused = 0
    for i, r in parallel:
        if _answered(r, 100 + i):
            ok += 1
            continue
        error = _refusal(r, 100 + i)
        assert r.status_code == 200, (r.status_code, error)  # the call was refused, not HTTP
        assert LIMIT_VARIABLE in error["message"] and "Retry after 2 s" in error["message"]
        assert error["data"] == {"status": 429, "retryAfter": 2}, error
        refused += 1
    print(
        f"MCP docs_answer, 8 parallel: {ok} answered, {refused} JSON-RPC errors (run limit), 0 HTTP 500"
    )
    assert ok >= 1 and ok + refused == 8


def test_refusals_over_mcp_are_json_rpc_errors(auth_server: tuple[str, str]) -> None:
    engine, url = auth_server
    if engine == "aegra":
        pytest.skip("Aegra serves no MCP endpoint (checked in the test above)")
    # No token: 401 kept (an MCP client starts its sign-in from it), the words in a JSON-RPC error.
    no_token = _mcp_call(url, 1, token=None)
    assert no_token.status_code in (401, 403)
    assert _refusal(no_token, 1)["data"]["status"] == no_token.status_code
    # A question over the write cap: refused by the run's auth handler inside tools/call.
    long = _mcp_call(url, 2, question="why " * 17_000)
    error = _refusal(long, 2)
    assert long.status_code == 200 and error["data"]["status"] == 413, error
    assert "DOCS_AGENT_MAX_WRITE_CHARS" in error["message"]
    # A body over the request size limit: refused before anything reads it, still JSON-RPC.
    huge = _mcp_call(url, 3, question="x" * 600_000)
    error = _refusal(huge, None)  # a body over the limit is not read, so its id is unknown
    assert huge.status_code == 413 and "DOCS_AGENT_MAX_REQUEST_BYTES" in error["message"]
    print(
        f"\nMCP refusals: no token -> {no_token.status_code}, long question -> 200 + error 413, "
        f"huge body -> {huge.status_code}; all JSON-RPC errors"
    )


@pytest.mark.timeout(600)
def test_stateless_runs_wait_twenty_times_in_a_row(auth_server: tuple[str, str]) -> None:
    """`runs.wait(None, ...)` with langgraph-sdk, as the MCP handler and scripts call it."""
    engine, url = auth_server
    client = get_sync_client(url=url, api_key=None, headers={"Authorization": f"Bearer {TOKEN}"})
    answered = 0
    for _ in range(20):
        output = client.runs.wait(None, "docs_answer", input={"question": QUESTION})
        answered += isinstance(output, dict) and str(output.get("answer", "")).startswith(
            "_This is an"
        )
    print(f"\n{engine}: stateless runs.wait, auth on, limit 2: {answered} of 20 answered")
    assert answered == 20
