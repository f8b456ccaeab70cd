"""Model failures: retried within the reader's wait budget, then ended in words a reader can act on."""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import openai
import pytest
from langchain_core.exceptions import ContextOverflowError
from langchain_core.messages import AIMessage

from graphs import models
from graphs.context import Context
from graphs.messages import FAILURE_KINDS, FAILURE_TEXTS, failure_of, failure_text, wait_phrase
from graphs.middleware.response_check import InvalidModelOutput
from graphs.middleware.retry import (
    READER_WAIT_BUDGET_S,
    ModelFailure,
    RetryAfterModelRetryMiddleware,
    backoff_delay,
    failure_kind,
    failure_message,
    is_transient,
    retry_after_seconds,
)
from graphs.offline.language import LANGUAGE_NAMES
from graphs.offline.model import OfflineChatModel
from tests.fixtures.fake_chat import ScriptedChatModel, ask

REQUEST = httpx.Request("POST", "http://fake/v1/chat/completions")
# What must never reach a reader: exception or class names, tracebacks, module paths.
LEAK_RE = re.compile(
    r"\b\w*(Error|Exception)\b|Traceback|\b(openai|httpx\w*|httpcore\w*|langchain\w*|graphs)\.\w"
)


def _response(code: int, **headers: str) -> httpx.Response:
    return httpx.Response(code, headers=headers, request=REQUEST)


def _rate_limited(retry_after: str | None = None, **headers: str) -> openai.RateLimitError:
    if retry_after is not None:
        headers["retry-after"] = retry_after
    return openai.RateLimitError("rate limited", response=_response(429, **headers), body=None)


def _status_error(cls: type[openai.APIStatusError], code: int) -> openai.APIStatusError:
    return cls("refused", response=_response(code), body=None)


def _decode_error() -> json.JSONDecodeError:
    try:
        json.loads('{"choices": [{"content": "Unterminated')
    except json.JSONDecodeError as exc:
        return exc
    raise AssertionError("unreachable")


def _connection_error(cause: BaseException) -> openai.APIConnectionError:
    """What the SDK raises for a broken transport: the httpx error as its cause."""
    exc = openai.APIConnectionError(request=REQUEST)
    exc.__cause__ = cause
    return exc


def test_retry_honours_retry_after_and_answers(scripted_agent: Any) -> None:
    agent, script = scripted_agent(
        [_rate_limited("0.5"), AIMessage("Answer after the rate limit.")]
    )
    start = time.monotonic()
    messages = ask(agent, "How do I deploy the server?")
    assert time.monotonic() - start >= 0.5  # backoff alone would be ~0.01 s
    assert messages[-1].content == "Answer after the rate limit." and script.calls == 2
    assert failure_of(messages[-1]) is None


def test_exhausted_retries_end_with_failure_metadata(scripted_agent: Any) -> None:
    agent, script = scripted_agent([_rate_limited("0")] * 5)
    messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 3  # 1 + DOCS_AGENT_MODEL_RETRIES (2)
    failure = failure_of(messages[-1])
    assert failure == {
        "kind": "rate_limited",
        "retry_after_s": None,
        "message": messages[-1].content,
    }
    assert "provider is limiting requests (HTTP 429). Please try again." in messages[-1].content
    assert [m.type for m in messages] == ["human", "ai"]


def test_a_wait_past_the_readers_budget_fails_at_once_with_a_countdown(
    scripted_agent: Any,
) -> None:
    agent, script = scripted_agent([_rate_limited("30"), AIMessage("never reached")])
    start = time.monotonic()
    messages = ask(agent, "How do I deploy the server?")
    assert time.monotonic() - start < READER_WAIT_BUDGET_S  # not 30 s, not even the budget
    assert script.calls == 1
    assert failure_of(messages[-1]) == {
        "kind": "rate_limited",
        "retry_after_s": 30,
        "message": messages[-1].content,
    }
    assert messages[-1].content.endswith("Please try again in 30 seconds.")


def test_the_budget_counts_every_wait_of_the_call() -> None:
    mw = RetryAfterModelRetryMiddleware(initial_delay=0.01, jitter=False, wait_budget_s=8)
    assert mw._next(0, 0.0, _rate_limited("5")) == 5.0
    # A second wait of 5 s would bring the call to 10 s: the reader is told instead.
    step = mw._next(1, 5.0, _rate_limited("5"))
    assert isinstance(step, ModelFailure) and step.retry_after_s == 5
    assert mw._next(0, 0.0, ValueError("no header")) == ModelFailure("engine", None, None, "engine")


def test_the_fallback_is_tried_before_a_countdown(
    scripted_agent: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, primary = scripted_agent([_rate_limited("30")] * 5)
    fallback = ScriptedChatModel([AIMessage("The fallback answers.")])
    chain = {"openai:primary": primary, "openai:fallback": fallback}
    monkeypatch.setattr(models, "load_chat_model", lambda spec, streaming=True: chain[spec])
    messages = agent.invoke(
        {"messages": [{"role": "user", "content": "How do I deploy the server?"}]},
        {"configurable": {"thread_id": "fb-first"}},
        context=Context(
            model="openai:primary", fallback_models="openai:fallback", num_suggestions=0
        ),
    )["messages"]
    assert messages[-1].content == "The fallback answers." and primary.calls == 1


def test_the_message_is_in_the_readers_language(scripted_agent: Any) -> None:
    agent, _ = scripted_agent([_rate_limited("45")] * 3)
    messages = ask(agent, "Wie kann ich den Server mit Docker starten?")
    assert messages[-1].content == failure_text("rate_limited", "de", retry_after_s=45, status=429)
    assert "Bitte versuchen Sie es in 45 s erneut." in messages[-1].content


def test_retry_after_headers_of_every_shape() -> None:
    assert retry_after_seconds(_rate_limited("3")) == 3.0
    assert retry_after_seconds(_rate_limited(**{"retry-after-ms": "1500"})) == 1.5
    in_20s = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    assert 17 <= (retry_after_seconds(_rate_limited(in_20s)) or 0) <= 20
    # OpenAI: the limit that ran out says when it resets ("6m0s"); the other one does not count.
    openai_headers = {
        "x-ratelimit-remaining-requests": "12",
        "x-ratelimit-reset-requests": "2s",
        "x-ratelimit-remaining-tokens": "0",
        "x-ratelimit-reset-tokens": "6m0s",
    }
    assert retry_after_seconds(_rate_limited(**openai_headers)) == 360.0
    assert retry_after_seconds(_rate_limited(**{"x-ratelimit-reset-requests": "850ms"})) == 0.85
    reset = (datetime.now(UTC) + timedelta(seconds=40)).isoformat().replace("+00:00", "Z")
    anthropic_headers = {
        "anthropic-ratelimit-requests-remaining": "0",
        "anthropic-ratelimit-requests-reset": reset,
    }
    assert 37 <= (retry_after_seconds(_rate_limited(**anthropic_headers)) or 0) <= 40
    assert retry_after_seconds(_rate_limited()) is None
    assert retry_after_seconds(_rate_limited("soon")) is None
    assert retry_after_seconds(ValueError("no response")) is None


def test_every_failure_has_its_contract_kind() -> None:
    cases: dict[str, list[BaseException]] = {
        "rate_limited": [_rate_limited("1")],
        "model_unavailable": [
            _status_error(openai.InternalServerError, 503),
            _connection_error(httpx.ConnectError("All connection attempts failed")),
            ConnectionRefusedError(),
        ],
        "stream_cut": [
            _connection_error(httpx.ReadError("")),
            _connection_error(httpx.RemoteProtocolError("peer closed connection")),
            ConnectionResetError(),
        ],
        "timeout": [
            openai.APITimeoutError(request=REQUEST),
            TimeoutError(),
            _status_error(openai.APIStatusError, 504),
        ],
        "refused": [
            _status_error(openai.AuthenticationError, 401),
            _status_error(openai.PermissionDeniedError, 403),
            _status_error(openai.NotFoundError, 404),
            _status_error(openai.BadRequestError, 400),
            ContextOverflowError("too long"),
        ],
        "bad_reply": [_decode_error(), InvalidModelOutput("empty completion")],
        "engine": [ValueError("a bug in our code"), KeyError("x")],
    }
    assert set(cases) == set(FAILURE_KINDS)
    for kind, errors in cases.items():
        for exc in errors:
            assert failure_kind(exc) == kind, exc
            assert is_transient(exc) == (kind not in ("refused", "engine")), exc
            message = failure_message(exc)
            assert not LEAK_RE.search(message), message
            assert "Unterminated" not in message and "a bug" not in message
    assert "(HTTP 401)" in failure_message(cases["refused"][0])
    assert "start a new conversation" in failure_message(ContextOverflowError("too long"))


def test_no_text_names_an_exception_in_any_language() -> None:
    for key in FAILURE_TEXTS:
        for lang in LANGUAGE_NAMES:
            for wait in (None, 1, 75, 600, 7200):
                text = failure_text(key, lang, retry_after_s=wait, status=503)
                assert text and "{" not in text and not LEAK_RE.search(text), (key, lang, text)
    assert wait_phrase(1, "en") == "1 second" and wait_phrase(600, "en") == "10 minutes"
    assert wait_phrase(600, "ru") == "10 мин" and wait_phrase(30, "pl") == "30 s"


def test_a_refused_key_is_not_retried_and_answers(scripted_agent: Any) -> None:
    agent, script = scripted_agent([_status_error(openai.AuthenticationError, 401)] * 5)
    messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 1
    assert (failure_of(messages[-1]) or {}).get("kind") == "refused"
    assert "refused this assistant's request (HTTP 401)" in messages[-1].content
    assert "Please try again" not in messages[-1].content  # it would not help
    assert [m.type for m in messages] == ["human", "ai"]


def test_a_malformed_reply_is_retried_once(scripted_agent: Any) -> None:
    agent, script = scripted_agent([_decode_error()] * 5)
    messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 2  # one retry, not DOCS_AGENT_MODEL_RETRIES
    assert (failure_of(messages[-1]) or {}).get("kind") == "bad_reply"
    agent, script = scripted_agent([_decode_error(), AIMessage("Deploy it with make aegra.")])
    assert ask(agent, "How do I deploy the server?")[-1].content == "Deploy it with make aegra."


def test_a_bug_ends_the_turn_as_an_engine_failure_logged_for_the_operator(
    scripted_agent: Any, caplog: pytest.LogCaptureFixture
) -> None:
    agent, script = scripted_agent([ValueError("a bug in our code")] * 3)
    with caplog.at_level(logging.ERROR, logger="graphs.middleware.retry"):
        messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 1  # a bug is not retried
    assert (failure_of(messages[-1]) or {}).get("kind") == "engine"
    assert "a bug" not in messages[-1].content and not LEAK_RE.search(messages[-1].content)
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert logged and logged[0].exc_info and "a bug in our code" in caplog.text  # traceback kept


def test_an_offline_fallback_says_the_configured_model_failed(
    scripted_agent: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, failing = scripted_agent([_status_error(openai.AuthenticationError, 401)] * 20)
    offline = OfflineChatModel()
    monkeypatch.setattr(
        models,
        "load_chat_model",
        lambda spec, streaming=True: offline if spec == "offline" else failing,
    )
    messages = agent.invoke(
        {"messages": [{"role": "user", "content": "How do I switch to a real model?"}]},
        {"configurable": {"thread_id": "fb"}},
        context=Context(model="openai:gpt-test", fallback_models="offline", num_suggestions=0),
    )["messages"]
    first = messages[-1].content.splitlines()[0]
    assert "the configured language model (openai:gpt-test) failed" in first, first
    assert "no language model is configured" not in messages[-1].content
    assert failure_of(messages[-1]) is None  # the fallback answered


def test_backoff_grows_is_capped_and_jitters_within_a_quarter() -> None:
    assert backoff_delay(0, 1.0, 60.0, jitter=False) == 1.0
    assert backoff_delay(2, 1.0, 60.0, jitter=False) == 4.0
    assert backoff_delay(9, 1.0, 5.0, jitter=False) == 5.0
    assert all(0.75 <= backoff_delay(0, 1.0, 60.0) <= 1.25 for _ in range(50))
    assert backoff_delay(3, 0.0, 5.0) == 0.0


def test_retry_after_wins_over_a_shorter_backoff() -> None:
    mw = RetryAfterModelRetryMiddleware(initial_delay=0.01, max_delay=0.02, jitter=False)
    assert mw._next(0, 0.0, _rate_limited("3")) == 3.0
    assert mw._next(0, 0.0, _status_error(openai.InternalServerError, 503)) == 0.01
    countdown = mw._next(0, 0.0, _rate_limited("3600"))
    assert isinstance(countdown, ModelFailure) and countdown.retry_after_s == 3600
