"""MCP results an IDE agent can render: the answer as Markdown text plus `{answer, sources}` as JSON.

The server's MCP endpoint (`POST /mcp`) answers `tools/call` with one text block holding
`repr()` of the run's output (langgraph-api 0.16, `api/mcp/_handlers.py`): for `docs_answer`
a Python dict whose escaped newlines keep the Markdown from rendering, and for `docs_agent` the
whole state (every message with its ids and usage). The platform has no hook for the shape of a
tool result, so this ASGI middleware (in `http.app`, which both langgraph-api and Aegra apply to
every route) rewrites that one reply: the text becomes the answer itself and `structuredContent`
carries `{answer, sources}` (and `source_cards` when the answer has them); `tools/list` declares that shape as each packaged graph's
`outputSchema`. Anything it does not recognise passes through unchanged.
"""

from __future__ import annotations

import ast
import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from graphs.citations import cited_sources

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The graphs of langgraph.json: their packaged assistants are named after them.
PACKAGED_TOOLS = frozenset({"docs_agent", "deep_agent", "docs_answer"})
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "description": "The answer, Markdown with checked citations."},
        "sources": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The citations in the answer: URLs, 'KB <id>', 'path:start-end'.",
        },
        "source_cards": {
            "type": "array",
            "description": "Each citation as a card: its page or article title, section path and "
            "where to open it (null when no site is configured).",
            "items": {
                "type": "object",
                "properties": {
                    "ref": {"type": "string"},
                    "kind": {"type": "string", "enum": ["doc", "kb", "code"]},
                    "title": {"type": "string"},
                    "section": {"type": "array", "items": {"type": "string"}},
                    "url": {"type": ["string", "null"]},
                },
                "required": ["ref", "kind", "title", "section", "url"],
            },
        },
    },
    "required": ["answer", "sources"],
}
MAX_BODY_BYTES = 16 * 1024 * 1024  # a reply larger than this passes through as it is
INLINE_BODY_BYTES = 64 * 1024  # larger replies are parsed in a worker thread


def _message_text(message: Any) -> str:
    """The text of a serialized message (content as a string or a list of blocks)."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text", "") for b in content if isinstance(b, dict)]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def structured_answer(output: Any) -> dict[str, Any] | None:
    """`{answer, sources}` from a run's output: docs_answer's own, or a conversation's last answer."""
    if not isinstance(output, dict):
        return None
    answer = output.get("answer")
    sources = output.get("sources")
    if isinstance(answer, str) and isinstance(sources, list):
        found = {"answer": answer, "sources": [s for s in sources if isinstance(s, str)]}
        return found | _cards(output.get("source_cards"))
    messages = output.get("messages")
    if isinstance(messages, list):
        for message in reversed(messages):
            if isinstance(message, dict) and message.get("type") in ("ai", "AIMessage"):
                text = _message_text(message)
                if text.strip():
                    cards = _cards((message.get("additional_kwargs") or {}).get("sources"))
                    refs = [c["ref"] for c in cards.get("source_cards", [])]
                    return {
                        "answer": text,
                        "sources": refs or cited_sources(text, doc_paths=True),
                    } | cards
    return None


def _cards(value: Any) -> dict[str, Any]:
    """`{"source_cards": [...]}` for a list of well-formed cards (graphs/source_cards.py), else {}."""
    if not isinstance(value, list):
        return {}
    keys = {"ref", "kind", "title", "section", "url"}
    cards = [c for c in value if isinstance(c, dict) and keys <= set(c)]
    return {"source_cards": cards} if cards else {}


def reshape_call_result(result: dict[str, Any]) -> dict[str, Any]:
    """A `tools/call` result with the answer as its text and `{answer, sources}` structured."""
    content = result.get("content")
    if result.get("isError") or not isinstance(content, list) or len(content) != 1:
        return result
    block = content[0]
    if not isinstance(block, dict) or not isinstance(block.get("text"), str):
        return result
    try:  # repr() of JSON values is a Python literal; literal_eval never runs code
        output = ast.literal_eval(block["text"])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return result
    structured = structured_answer(output)
    if structured is None:
        return result
    return {
        **result,
        "content": [{"type": "text", "text": structured["answer"]}],
        "structuredContent": structured,
    }


def reshape_tool_list(result: dict[str, Any]) -> dict[str, Any]:
    """Declare `{answer, sources}` as the output of each packaged graph's tool."""
    for tool in result.get("tools") or []:
        if isinstance(tool, dict) and tool.get("name") in PACKAGED_TOOLS:
            tool["outputSchema"] = OUTPUT_SCHEMA
    return result


def reshape_reply(method: str, reply: Any) -> Any:
    """The JSON-RPC reply with its result reshaped for `tools/call` and `tools/list`."""
    if not isinstance(reply, dict) or not isinstance(reply.get("result"), dict):
        return reply
    if method == "tools/call":
        reply["result"] = reshape_call_result(reply["result"])
    elif method == "tools/list":
        reply["result"] = reshape_tool_list(reply["result"])
    return reply


def _rpc_method(body: bytes) -> str | None:
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    method = message.get("method") if isinstance(message, dict) else None
    return method if method in ("tools/call", "tools/list") else None


class McpResultsMiddleware:
    """Pure ASGI middleware (no response streaming is buffered but the MCP JSON replies)."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap the server's app."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass everything through but `POST /mcp` replies to tools/call and tools/list."""
        if (
            scope.get("type") != "http"
            or scope.get("method") != "POST"
            or scope.get("path", "").rstrip("/") != "/mcp"
        ):
            await self.app(scope, receive, send)
            return
        body, replay = await _read_body(receive)
        method = _rpc_method(body)
        if method is None:
            await self.app(scope, replay, send)
            return
        await self.app(scope, replay, _ReplyRewriter(send, method))


async def _read_body(receive: Receive) -> tuple[bytes, Receive]:
    """The request body, and a `receive` that hands it to the app again."""
    chunks: list[bytes] = []
    messages: list[Message] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break

    async def replay() -> Message:
        if messages:
            return messages.pop(0)
        return await receive()

    return b"".join(chunks), replay


def _reshaped_body(method: str, body: bytes) -> bytes:
    """The reply's bytes reshaped, or as they were when they are not the JSON they claim to be."""
    try:
        return json.dumps(reshape_reply(method, json.loads(body)), ensure_ascii=False).encode()
    except (ValueError, UnicodeDecodeError, TypeError):
        return body


class _ReplyRewriter:
    """A `send` that holds a JSON reply until it is whole, then sends it reshaped."""

    def __init__(self, send: Send, method: str) -> None:
        self.send = send
        self.method = method
        self.start: Message | None = None
        self.chunks: list[bytes] = []
        self.size = 0
        self.passing = False

    async def __call__(self, message: Message) -> None:
        if self.passing:
            await self.send(message)
            return
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers") or [])
            if not headers.get(b"content-type", b"").startswith(b"application/json"):
                self.passing = True
                await self.send(message)
                return
            self.start = message
            return
        if message["type"] != "http.response.body" or self.start is None:
            await self.send(message)
            return
        self.chunks.append(message.get("body", b""))
        self.size += len(self.chunks[-1])
        if self.size > MAX_BODY_BYTES:
            await self._flush(b"".join(self.chunks), more=message.get("more_body", False))
            return
        if message.get("more_body", False):
            return
        body = b"".join(self.chunks)
        if len(body) > INLINE_BODY_BYTES:  # parsing a large reply would hold the event loop
            body = await asyncio.to_thread(_reshaped_body, self.method, body)
        else:
            body = _reshaped_body(self.method, body)
        await self._flush(body, more=False)

    async def _flush(self, body: bytes, more: bool) -> None:
        assert self.start is not None
        headers = [
            (k, v) for k, v in self.start.get("headers") or [] if k.lower() != b"content-length"
        ]
        if not more:
            headers.append((b"content-length", str(len(body)).encode()))
        await self.send({**self.start, "headers": headers})
        await self.send({"type": "http.response.body", "body": body, "more_body": more})
        self.passing = True
