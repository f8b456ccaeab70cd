"""Answer feedback: one vote (up/down, optional comment ≤ 2,000 chars) per user per answer.

The route authenticates the caller with the server's own hook (server/auth.py), then acts *as
the caller* on the server's own API over loopback, so every platform rule applies unchanged:
- `GET /threads/<id>/state` — 404 unless the thread is the caller's (the owner filter), and the
  voted message must be an answer in it: a user votes only on their own thread's answers;
- `PUT /store/items` under `report_access.FEEDBACK`, key = voter hash + message id, so a second
  vote replaces the first; the store handler checks the key, voter and comment again.
Why loopback HTTP rather than the engine's store object: the store object has no public API in
either engine, and going through the API keeps one authorization path for both.
"""

from __future__ import annotations

import asyncio
import importlib
import re
import time
from collections.abc import Mapping
from typing import Any

import httpx
from fastapi import Request
from langgraph_sdk import Auth

from server import report_access

_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,200}$")
LOOPBACK_TIMEOUT_S = 15.0


def _http_error(
    status: int, detail: str, headers: dict[str, str] | None = None
) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail, headers=headers)


async def caller(request: Request) -> dict[str, Any]:
    """The user the request's Authorization header resolves to (same hook as the server's).

    Imported here, not at module import: server/auth.py checks its configuration when imported,
    which belongs to the server's start, not to importing this module; the first import runs in
    a worker thread because it reads the environment and may write the dev-state marker.
    """
    server_auth = await asyncio.to_thread(importlib.import_module, "server.auth")
    return dict(await server_auth.authenticate(dict(request.headers)))


def loopback_url(request: Request) -> str:
    """This server's own address, on loopback (the server may listen on every interface)."""
    host, port = request.scope.get("server") or ("127.0.0.1", 80)
    if host in ("0.0.0.0", "::", "", None):
        host = "127.0.0.1"
    host = f"[{host}]" if ":" in str(host) else host
    return f"http://{host}:{port}"


def parse_vote(body: Any) -> dict[str, Any]:
    """The vote fields of a request body, or 422 naming what is wrong."""
    if not isinstance(body, Mapping):
        raise _http_error(422, "Body must be a JSON object")
    for name in ("thread_id", "message_id"):
        value = body.get(name)
        if not isinstance(value, str) or not _ID_RE.match(value):
            raise _http_error(422, f"{name} must be an id")
    run_id = body.get("run_id")
    if run_id is not None and (not isinstance(run_id, str) or not _ID_RE.match(run_id)):
        raise _http_error(422, "run_id must be an id or null")
    if body.get("vote") not in report_access.VOTES:
        raise _http_error(422, "vote must be 'up' or 'down'")
    comment = body.get("comment") or ""
    if not isinstance(comment, str):
        raise _http_error(422, "comment must be text")
    comment = comment.strip()
    if len(comment) > report_access.COMMENT_LIMIT:
        raise _http_error(
            422, f"comment is {len(comment)} characters; at most {report_access.COMMENT_LIMIT}"
        )
    return {
        "thread_id": body["thread_id"],
        "message_id": body["message_id"],
        "run_id": run_id,
        "vote": body["vote"],
        "comment": comment,
    }


def _is_answer(messages: Any, message_id: str) -> bool:
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, Mapping) and message.get("id") == message_id:
            return message.get("type") in ("ai", "AIMessageChunk") and not message.get("tool_calls")
    return False


async def record_vote(request: Request, body: Any) -> dict[str, Any]:
    """Check and store one vote; returns the stored value. Raises HTTPException (401/404/422)."""
    vote = parse_vote(body)
    user = await caller(request)
    identity = str(user["identity"])
    headers = {}
    if request.headers.get("authorization"):
        headers["Authorization"] = request.headers["authorization"]
    async with httpx.AsyncClient(
        base_url=loopback_url(request), headers=headers, timeout=LOOPBACK_TIMEOUT_S
    ) as client:
        state = await client.get(f"/threads/{vote['thread_id']}/state")
        if state.status_code in (403, 404, 422):
            raise _http_error(404, "No such thread")
        state.raise_for_status()
        messages = ((state.json() or {}).get("values") or {}).get("messages")
        if not _is_answer(messages, vote["message_id"]):
            raise _http_error(404, "No such answer in this thread")
        value = {**vote, "voter": identity, "at": time.time()}
        put = await client.put(
            "/store/items",
            json={
                "namespace": list(report_access.FEEDBACK),
                "key": report_access.feedback_key(identity, vote["message_id"]),
                "value": value,
                "index": False,
            },
        )
        if put.status_code >= 400:
            wait = put.headers.get("retry-after")  # past the vote cap (report_access): 429
            raise _http_error(
                put.status_code,
                f"Feedback not stored: {put.text[:200]}",
                {"Retry-After": wait} if wait else None,
            )
    return value
