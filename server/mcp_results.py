"""MCP replies an IDE agent can use: answers as Markdown plus `{answer, sources}`, refusals as errors.

The server's MCP endpoint (`POST /mcp`) answers `tools/call` with one text block holding
`repr()` of the run's output (langgraph-api 0.16, `api/mcp/_handlers.py`): for `docs_answer`
a Python dict whose escaped newlines keep the Markdown from rendering, and for `docs_agent` the
whole state (every message with its ids and usage). The platform has no hook for the shape of a
tool result, so this ASGI middleware (in `http.app`, which both langgraph-api and Aegra apply to
every route) rewrites that one reply: the text becomes the answer itself and `structuredContent`
carries `{answer, sources}` (and `source_cards` when the answer has them); `tools/list` declares
that shape as each packaged graph's `outputSchema`. A refused call (run limit, size caps, auth, a
failed count) becomes a JSON-RPC error object with the server's message instead of an HTTP 500
(see `McpResultsMiddleware`). Anything it does not recognise passes through unchanged. Aegra
serves no MCP endpoint (0.11 has no `/mcp` route): there a POST to it gets a JSON-RPC error
saying so, with HTTP 404.
"""

from __future__ import annotations

import ast
import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from http import HTTPStatus
from typing import Any

import httpx

from graphs.citations import cited_sources
from server.limits import LIMITS

log = logging.getLogger(__name__)

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


def _rpc_request(body: bytes) -> tuple[str | None, Any]:
    """(method, id) of a JSON-RPC request body; (None, None) when it is not one."""
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, None
    if not isinstance(message, dict):
        return None, None
    method = message.get("method")
    id_ = message.get("id")
    return (method if isinstance(method, str) else None), (
        id_ if isinstance(id_, str | int) and not isinstance(id_, bool) else None
    )


# --- refusals as JSON-RPC errors ----------------------------------------------------------------

# JSON-RPC's range for errors a server defines: a refusal (the HTTP status and any Retry-After
# are in `data`), and its own "internal error" for a failure the server cannot describe.
REFUSED = -32000
INTERNAL_ERROR = -32603
UNEXPLAINED = "The server could not complete this call; try again shortly."
NO_MCP = (
    "This server has no MCP endpoint; LangGraph Server (`langgraph dev`, LangGraph Platform) "
    "serves one at /mcp."
)


def _detail(body: bytes) -> str | None:
    """The readable message of an error body: `{"detail"|"error"|"message": "..."}`."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if isinstance(value, dict):
        for key in ("detail", "error", "message"):
            if isinstance(value.get(key), str) and value[key].strip():
                return str(value[key])
    return None


def _retry_after(headers: Any) -> int | None:
    """Seconds of a `Retry-After` header (the delta form; an HTTP date is not sent here)."""
    value = headers.get("retry-after") if headers is not None else None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return int(value) if isinstance(value, str) and value.strip().isdigit() else None


def _phrase(status: int) -> str:
    try:
        return f"{HTTPStatus(status).phrase}."
    except ValueError:
        return f"Refused (HTTP {status})."


def refusal_reply(id_: Any, status: int, detail: str | None, retry_after: int | None) -> bytes:
    """A JSON-RPC error object for a refused call, readable by the agent that made it.

    The message is the server's own words (the run limit's "You have 2 runs pending or
    running ...", a size cap's 413, an auth 401/403); a 5xx without words says to try again.
    """
    internal = status >= 500 and status != 503  # 503 is the run limit's "try again shortly"
    if status == 404 and detail in (None, "Not Found"):
        detail = NO_MCP
    elif internal or not detail:
        detail = UNEXPLAINED if internal else _phrase(status)
    message = detail
    if retry_after is not None:
        message += f" (Retry after {retry_after} s.)"
    data: dict[str, Any] = {"status": status}
    if retry_after is not None:
        data["retryAfter"] = retry_after
    code = INTERNAL_ERROR if internal else REFUSED
    error = {"code": code, "message": message, "data": data}
    return json.dumps({"jsonrpc": "2.0", "id": id_, "error": error}, ensure_ascii=False).encode()


def _is_rpc_reply(body: bytes) -> bool:
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(value, dict) and value.get("jsonrpc") == "2.0"


class McpResultsMiddleware:
    """Pure ASGI middleware over `POST /mcp`: results reshaped, every refusal a JSON-RPC error.

    Why refusals need it: langgraph-api's `tools/call` runs the graph through an in-process
    SDK client (`runs.wait(None, ...)`, `raise_error=False` covers only the run's own errors),
    so a refused run — the run limit's 429, a size cap's 413, the count's 503 — is raised out of
    the route as `httpx.HTTPStatusError`, and Starlette's last resort answers it with a plain-text
    HTTP 500 "Internal Server Error" (measured on main: 18 of 20 sequential calls). Refusals made
    before the MCP handler (401/403 from auth, 413 from `RequestSizeLimit`) came as
    `{"detail": ...}`, which an MCP client cannot read as a reply either. Here the refused call is
    answered with a JSON-RPC error object carrying the server's message and retry hint: HTTP 200
    when the call was refused inside `tools/call`, the refusal's own status (with its headers,
    `WWW-Authenticate`, `Retry-After`) when the request itself was.

    It sits outside `RequestSizeLimit` so that 413 is reshaped too, and so it never buffers the
    request: it keeps a copy of what the route reads (at most `DOCS_AGENT_MAX_REQUEST_BYTES`,
    since `RequestSizeLimit` refuses more) to learn the call's method and id.
    """

    def __init__(self, app: ASGIApp, max_request_bytes: int | None = None) -> None:
        """Wrap the server's app; `max_request_bytes` defaults to the request size limit."""
        self.app = app
        self.max_request_bytes = (
            LIMITS.max_request_bytes if max_request_bytes is None else max_request_bytes
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass everything through but `POST /mcp`."""
        if (
            scope.get("type") != "http"
            or scope.get("method") != "POST"
            or scope.get("path", "").rstrip("/") != "/mcp"
        ):
            await self.app(scope, receive, send)
            return
        request = _RequestCopy(receive, self.max_request_bytes)
        reply = _ReplyRewriter(send, request)
        try:
            await self.app(scope, request.receive, reply)
        except Exception as exc:
            if reply.started:
                raise
            await reply.refuse_raised(exc)


class _RequestCopy:
    """A `receive` that keeps a copy of the body the route reads, up to a limit."""

    def __init__(self, receive: Receive, limit: int) -> None:
        self._receive = receive
        self.limit = limit
        self.chunks: list[bytes] = []
        self.size = 0
        self.complete = False

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.request" and not self.complete:
            chunk = message.get("body", b"")
            self.size += len(chunk)
            if self.size <= self.limit:
                self.chunks.append(chunk)
                self.complete = not message.get("more_body", False)
            else:
                self.chunks = []  # too large to be a call this server answers
        return message

    async def read_rest(self) -> None:
        """Read what the route left unread (a refusal before the body), up to the limit.

        So a request refused before anything read it (401 from auth) gets an error with its id.
        """
        while not self.complete and self.size <= self.limit:
            message = await self.receive()
            if message["type"] != "http.request":
                return

    def call(self) -> tuple[str | None, Any]:
        """(method, id) of the JSON-RPC request, once the route has read all of it."""
        return _rpc_request(b"".join(self.chunks)) if self.complete else (None, None)


def _reshaped_body(method: str, body: bytes) -> bytes:
    """The reply's bytes reshaped, or as they were when they are not the JSON they claim to be."""
    try:
        return json.dumps(reshape_reply(method, json.loads(body)), ensure_ascii=False).encode()
    except (ValueError, UnicodeDecodeError, TypeError, RecursionError):
        return body


class _ReplyRewriter:
    """A `send` that holds a reply it will rewrite until it is whole, then sends it rewritten.

    Held: a JSON result of `tools/call` or `tools/list` (reshaped), and any error reply that is
    not already JSON-RPC (turned into a JSON-RPC error). Everything else passes as it comes.
    """

    def __init__(self, send: Send, request: _RequestCopy) -> None:
        self.send = send
        self.request = request
        self.method: str | None = None
        self.start: Message | None = None
        self.chunks: list[bytes] = []
        self.size = 0
        self.passing = False
        self.started = False  # a response start has gone to the client

    async def __call__(self, message: Message) -> None:
        if self.passing:
            await self.send(message)
            return
        if message["type"] == "http.response.start":
            self.method, _ = self.request.call()
            status = int(message.get("status", 200))
            headers = dict(message.get("headers") or [])
            is_json = headers.get(b"content-type", b"").startswith(b"application/json")
            if status >= 400 or (is_json and self.method in ("tools/call", "tools/list")):
                self.start = message
                return
            self.passing = True
            self.started = True
            await self.send(message)
            return
        if message["type"] != "http.response.body" or self.start is None:
            await self.send(message)
            return
        self.chunks.append(message.get("body", b""))
        self.size += len(self.chunks[-1])
        if self.size > MAX_BODY_BYTES:
            await self._flush(
                self.start, b"".join(self.chunks), more=message.get("more_body", False)
            )
            return
        if message.get("more_body", False):
            return
        await self._finish(b"".join(self.chunks))

    async def _finish(self, body: bytes) -> None:
        assert self.start is not None
        status = int(self.start.get("status", 200))
        if status >= 400:
            if not _is_rpc_reply(body):
                await self.request.read_rest()
                _, id_ = self.request.call()
                headers = {k.lower(): v for k, v in self.start.get("headers") or []}
                body = refusal_reply(id_, status, _detail(body), _retry_after(headers))
                self.start = {**self.start, "headers": _json_headers(self.start)}
        elif len(body) > INLINE_BODY_BYTES:  # parsing a large reply would hold the event loop
            body = await asyncio.to_thread(_reshaped_body, self.method or "", body)
        else:
            body = _reshaped_body(self.method or "", body)
        await self._flush(self.start, body, more=False)

    async def refuse_raised(self, exc: Exception) -> None:
        """Answer a call whose route raised before replying, as a JSON-RPC error.

        A refusal of the in-process run request keeps its status and words; anything else is
        logged here (Starlette would have logged it) and answered without its name.
        """
        _, id_ = self.request.call()
        response = exc.response if isinstance(exc, httpx.HTTPStatusError) else None
        if response is not None:
            try:
                detail = _detail(response.content)
            except httpx.ResponseNotRead:
                detail = None
            body = refusal_reply(id_, response.status_code, detail, _retry_after(response.headers))
        else:
            log.exception("MCP call failed", exc_info=exc)
            body = refusal_reply(id_, 500, None, None)
        start = {"type": "http.response.start", "status": 200, "headers": []}
        await self._flush({**start, "headers": _json_headers(start)}, body, more=False)

    async def _flush(self, start: Message, body: bytes, more: bool) -> None:
        headers = [(k, v) for k, v in start.get("headers") or [] if k.lower() != b"content-length"]
        if not more:
            headers.append((b"content-length", str(len(body)).encode()))
        self.started = True
        await self.send({**start, "headers": headers})
        await self.send({"type": "http.response.body", "body": body, "more_body": more})
        self.passing = True


def _json_headers(start: Message) -> list[tuple[bytes, bytes]]:
    """The reply's headers with its content type made JSON."""
    headers = [(k, v) for k, v in start.get("headers") or [] if k.lower() != b"content-type"]
    return [*headers, (b"content-type", b"application/json")]
