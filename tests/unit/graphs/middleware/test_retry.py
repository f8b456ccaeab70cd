"""Model retries: Retry-After honoured, an honest message when retries run out, the private helper's shape."""

from __future__ import annotations

import inspect
import time
from typing import Any

import httpx
import openai
from langchain.agents.middleware import ModelRetryMiddleware
from langchain.agents.middleware._retry import calculate_delay
from langchain_core.messages import AIMessage

from graphs.middleware.retry import (
    RetryAfterModelRetryMiddleware,
    is_transient,
    retry_after_seconds,
)
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


def test_private_langchain_retry_helpers_keep_their_shape() -> None:
    """RetryAfterModelRetryMiddleware relies on `calculate_delay` and the parent's `_handle_failure`.

    Both are private to langchain; when either changes shape this fails before production does.
    """
    params = inspect.signature(calculate_delay).parameters
    assert list(params) == [
        "retry_number",
        "backoff_factor",
        "initial_delay",
        "max_delay",
        "jitter",
    ]
    assert all(params[p].kind is inspect.Parameter.KEYWORD_ONLY for p in list(params)[1:])
    assert (
        calculate_delay(2, backoff_factor=2.0, initial_delay=1.0, max_delay=60.0, jitter=False)
        == 4.0
    )
    assert (
        calculate_delay(9, backoff_factor=2.0, initial_delay=1.0, max_delay=5.0, jitter=False)
        == 5.0
    )
    handle = inspect.signature(ModelRetryMiddleware._handle_failure).parameters
    assert list(handle)[:3] == ["self", "exc", "attempts_made"]
    mw = RetryAfterModelRetryMiddleware(max_retries=0, on_failure=lambda exc: f"failed: {exc}")
    out = mw._handle_failure(ValueError("boom"), 1)
    assert isinstance(out.result[0], AIMessage) and out.result[0].content == "failed: boom"
    for name in (
        "max_retries",
        "retry_on",
        "backoff_factor",
        "initial_delay",
        "max_delay",
        "jitter",
    ):
        assert hasattr(mw, name), name


def test_retry_after_wins_over_a_shorter_backoff_and_is_capped() -> None:
    mw = RetryAfterModelRetryMiddleware(initial_delay=0.01, max_delay=0.02, jitter=False)
    assert mw._delay(0, _rate_limited("3")) == 3.0
    assert mw._delay(0, _rate_limited("3600")) == 60.0  # MAX_RETRY_AFTER_S
    assert mw._delay(0, ValueError("no header")) == 0.01
