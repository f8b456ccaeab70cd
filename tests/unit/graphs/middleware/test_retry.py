"""Model failures: Retry-After honoured, each kind retried as it deserves, always a clear message."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import openai
import pytest
from langchain_core.messages import AIMessage

from graphs import models
from graphs.context import Context
from graphs.middleware.retry import (
    RetryAfterModelRetryMiddleware,
    backoff_delay,
    failure_kind,
    failure_message,
    is_transient,
    retry_after_seconds,
)
from graphs.offline.model import OfflineChatModel
from tests.fixtures.fake_chat import ask


def _rate_limited(retry_after: str) -> openai.RateLimitError:
    request = httpx.Request("POST", "http://fake/v1/chat/completions")
    response = httpx.Response(429, headers={"retry-after": retry_after}, request=request)
    return openai.RateLimitError("rate limited", response=response, body=None)


def test_retry_honours_retry_after_and_answers(scripted_agent: Any) -> None:
    agent, script = scripted_agent(
        [_rate_limited("0.5"), AIMessage("Answer after the rate limit.")]
    )
    start = time.monotonic()
    messages = ask(agent, "How do I deploy the server?")
    assert time.monotonic() - start >= 0.5  # backoff alone would be ~0.01 s
    assert messages[-1].content == "Answer after the rate limit." and script.calls == 2


def test_exhausted_retries_end_with_a_clear_message(scripted_agent: Any) -> None:
    agent, script = scripted_agent([_rate_limited("0")] * 5)
    messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 3  # 1 + DOCS_AGENT_MODEL_RETRIES (2)
    assert "rate-limiting requests (HTTP 429)" in messages[-1].content
    assert [m.type for m in messages] == ["human", "ai"]


def test_non_transient_errors_are_not_retried() -> None:
    assert not is_transient(ValueError("bug"))
    assert is_transient(TimeoutError())
    assert is_transient(_rate_limited("3")) and retry_after_seconds(_rate_limited("3")) == 3.0


def test_backoff_grows_is_capped_and_jitters_within_a_quarter() -> None:
    assert backoff_delay(0, 1.0, 60.0, jitter=False) == 1.0
    assert backoff_delay(2, 1.0, 60.0, jitter=False) == 4.0
    assert backoff_delay(9, 1.0, 5.0, jitter=False) == 5.0
    assert all(0.75 <= backoff_delay(0, 1.0, 60.0) <= 1.25 for _ in range(50))
    assert backoff_delay(3, 0.0, 5.0) == 0.0


def _status_error(cls: type[openai.APIStatusError], code: int) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://fake/v1/chat/completions")
    return cls("refused", response=httpx.Response(code, request=request), body=None)


def _decode_error() -> json.JSONDecodeError:
    try:
        json.loads('{"choices": [{"content": "Unterminated')
    except json.JSONDecodeError as exc:
        return exc
    raise AssertionError("unreachable")


def test_every_model_failure_has_a_kind_and_a_clear_message() -> None:
    cases: dict[str, list[Exception]] = {
        "refused": [
            _status_error(openai.AuthenticationError, 401),
            _status_error(openai.PermissionDeniedError, 403),
        ],
        "malformed": [_decode_error()],
        "transient": [_rate_limited("1"), TimeoutError(), ConnectionError()],
        "failed": [_status_error(openai.NotFoundError, 404)],
    }
    for kind, errors in cases.items():
        for exc in errors:
            assert failure_kind(exc) == kind, exc
            message = failure_message(exc)
            assert message.startswith("Sorry — I could not answer this time"), message
            assert "Traceback" not in message and "Unterminated" not in message
    assert "refused the key (HTTP 401)" in failure_message(cases["refused"][0])
    assert "refused the key (HTTP 403)" in failure_message(cases["refused"][1])
    assert "could not be read (JSONDecodeError), even after retrying" in failure_message(
        _decode_error()
    )
    assert failure_kind(ValueError("a bug in our code")) is None


def test_a_refused_key_is_not_retried_and_answers(scripted_agent: Any) -> None:
    agent, script = scripted_agent([_status_error(openai.AuthenticationError, 401)] * 5)
    messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 1
    assert "the model provider refused the key (HTTP 401)" in messages[-1].content
    assert [m.type for m in messages] == ["human", "ai"]


def test_a_malformed_reply_is_retried_once(scripted_agent: Any) -> None:
    agent, script = scripted_agent([_decode_error()] * 5)
    messages = ask(agent, "How do I deploy the server?")
    assert script.calls == 2  # one retry, not DOCS_AGENT_MODEL_RETRIES
    assert "could not be read" in messages[-1].content
    agent, script = scripted_agent([_decode_error(), AIMessage("Deploy it with make aegra.")])
    assert ask(agent, "How do I deploy the server?")[-1].content == "Deploy it with make aegra."


def test_a_bug_is_raised_not_hidden(scripted_agent: Any) -> None:
    agent, _ = scripted_agent([ValueError("a bug in our code")])
    with pytest.raises(ValueError, match="a bug"):
        ask(agent, "How do I deploy the server?")


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


def test_retry_after_wins_over_a_shorter_backoff_and_is_capped() -> None:
    mw = RetryAfterModelRetryMiddleware(initial_delay=0.01, max_delay=0.02, jitter=False)
    assert mw._delay(0, _rate_limited("3")) == 3.0
    assert mw._delay(0, _rate_limited("3600")) == 60.0  # MAX_RETRY_AFTER_S
    assert mw._delay(0, ValueError("no header")) == 0.01
