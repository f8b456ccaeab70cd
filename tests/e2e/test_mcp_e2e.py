"""The server's MCP endpoint (`POST /mcp`) as an IDE agent meets it: described tools, narrow inputs,
and one tool whose result is just the answer and its sources."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.conftest import REPO_ROOT

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
