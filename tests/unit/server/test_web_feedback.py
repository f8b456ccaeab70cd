from __future__ import annotations

import pytest
from langgraph_sdk import Auth

from server.web import app as web_app
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


def test_framing_origins_are_explicit_never_a_wildcard() -> None:
    assert web_app.allowed_origins({}) == []
    assert web_app.allowed_origins(
        {"DOCS_AGENT_WEB_ORIGINS": "https://docs.example.com/, http://127.0.0.1:9"}
    ) == [
        "https://docs.example.com",
        "http://127.0.0.1:9",
    ]
    for bad in ("*", "https://*.example.com", "docs.example.com"):
        with pytest.raises(ValueError):
            web_app.allowed_origins({"DOCS_AGENT_WEB_ORIGINS": bad})


def test_static_files_are_the_shipped_ones_and_compress() -> None:
    raw, packed = web_app._asset("chat.js")
    assert raw.startswith(b"// docs-agent chat page") and len(packed) < len(raw)
    assert set(web_app.ASSET_FILES) == {"chat.js", "chat.css"}
