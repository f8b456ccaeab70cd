"""server/web/feedback.py: one vote per user per answer, only on answers of the caller's threads."""

from __future__ import annotations

import pytest
from langgraph_sdk import Auth

from server.web.feedback import _is_answer, parse_vote


def test_parse_vote_accepts_a_vote_and_refuses_bad_fields() -> None:
    ok = parse_vote(
        {"thread_id": "t-1", "message_id": "lc_run--1", "vote": "up", "comment": "  fine  "}
    )
    assert ok == {
        "thread_id": "t-1",
        "message_id": "lc_run--1",
        "run_id": None,
        "vote": "up",
        "comment": "fine",
    }
    bad = [
        [],
        {"thread_id": "../x", "message_id": "m", "vote": "up"},
        {"thread_id": "t", "message_id": "m", "vote": "meh"},
        {"thread_id": "t", "message_id": "m", "vote": "up", "comment": "x" * 2001},
        {"thread_id": "t", "message_id": "m", "vote": "up", "comment": 5},
        {"thread_id": "t", "message_id": "m", "vote": "up", "run_id": {"a": 1}},
    ]
    for body in bad:
        with pytest.raises(Auth.exceptions.HTTPException) as exc:
            parse_vote(body)
        assert exc.value.status_code == 422


def test_only_an_answer_of_the_thread_can_be_voted_on() -> None:
    messages = [
        {"id": "h", "type": "human"},
        {"id": "c", "type": "ai", "tool_calls": [{"name": "x"}]},
        {"id": "a", "type": "ai", "tool_calls": []},
    ]
    assert _is_answer(messages, "a")
    assert (
        not _is_answer(messages, "h")
        and not _is_answer(messages, "c")
        and not _is_answer(messages, "zz")
    )
    assert not _is_answer(None, "a")


async def test_a_vote_past_the_cap_is_a_429_with_the_stores_retry_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The route passes the store's refusal on: the page can tell the reader when to vote again."""
    import httpx
    from starlette.requests import Request

    from server.web import feedback

    def server(request: httpx.Request) -> httpx.Response:
        if request.method == "GET":
            return httpx.Response(200, json={"values": {"messages": [{"id": "a", "type": "ai"}]}})
        return httpx.Response(
            429, json={"detail": "Too many votes"}, headers={"Retry-After": "3500"}
        )

    class Loopback(httpx.AsyncClient):
        def __init__(self, **kwargs: object) -> None:
            super().__init__(transport=httpx.MockTransport(server), **kwargs)  # type: ignore[arg-type]

    async def alice(request: object) -> dict[str, str]:
        return {"identity": "alice"}

    monkeypatch.setattr(feedback, "caller", alice)
    monkeypatch.setattr(feedback.httpx, "AsyncClient", Loopback)
    request = Request({"type": "http", "headers": [], "server": ("127.0.0.1", 8123)})
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        await feedback.record_vote(request, {"thread_id": "t", "message_id": "a", "vote": "up"})
    assert refused.value.status_code == 429 and refused.value.headers == {"Retry-After": "3500"}
