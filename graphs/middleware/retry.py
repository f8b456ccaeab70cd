"""Model retries with backoff that honour the provider's `Retry-After`.

`ModelRetryMiddleware` computes its delay from its own backoff only and ignores the provider's
`Retry-After` header, so `RetryAfterModelRetryMiddleware` waits `max(backoff, Retry-After)`.
Hand-written loop (same shape as the parent's) because the parent has no hook for the delay: it
relies on langchain's private `calculate_delay` and the parent's `_handle_failure`, whose shape a
unit test pins. Provider SDK retries are off (`graphs.models.load_chat_model`, `max_retries=0`),
so all retrying happens here, once, with jitter and an honest final message.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import ModelRequest, ModelResponse, ModelRetryMiddleware
from langchain.agents.middleware._retry import calculate_delay
from langchain_core.exceptions import ModelError
from langgraph.errors import GraphBubbleUp

from graphs.middleware.response_check import InvalidModelOutput

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
MAX_RETRY_AFTER_S = 60.0


def status_code(exc: BaseException) -> int | None:
    """The HTTP status behind a provider exception, if any (openai, anthropic, httpx)."""
    code = getattr(exc, "status_code", None)
    if isinstance(code, int):
        return code
    response = getattr(exc, "response", None)
    code = getattr(response, "status_code", None)
    return code if isinstance(code, int) else None


def retry_after_seconds(exc: BaseException) -> float | None:
    """Seconds the provider asked us to wait (`retry-after-ms`, `Retry-After` seconds or date)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def is_transient(exc: BaseException) -> bool:
    """Worth retrying: rate limits, 5xx, timeouts, connection errors, unusable output."""
    if isinstance(exc, InvalidModelOutput | TimeoutError | ConnectionError):
        return True
    if isinstance(exc, ModelError):
        return bool(exc.is_retryable)
    code = status_code(exc)
    if code is not None:
        return code in RETRYABLE_STATUS
    name = type(exc).__name__
    module = type(exc).__module__
    # httpx/httpcore transport errors (a reset mid-stream surfaces as RemoteProtocolError/ReadError
    # from the stream iterator, not wrapped by the SDK).
    if module.startswith(("httpx", "httpcore", "openai", "anthropic")):
        return any(
            k in name for k in ("Timeout", "Connect", "Protocol", "Read", "Network", "Transport")
        )
    return False


def failure_message(exc: Exception) -> str:
    """What the user reads when every attempt and fallback failed: honest, short, no internals."""
    code = status_code(exc)
    if isinstance(exc, InvalidModelOutput):
        why = f"the model returned an unusable answer ({exc})"
    elif code == 429:
        why = "the model provider is rate-limiting requests (HTTP 429)"
    elif code is not None:
        why = f"the model provider returned an error (HTTP {code})"
    elif "Timeout" in type(exc).__name__:
        why = "the model provider did not answer in time"
    else:
        why = f"the model provider could not be reached ({type(exc).__name__})"
    return f"Sorry — I could not answer this time: {why}, even after retrying. Please try again in a minute."


class RetryAfterModelRetryMiddleware(ModelRetryMiddleware):
    """`ModelRetryMiddleware` that also honours the provider's Retry-After."""

    def _delay(self, attempt: int, exc: Exception) -> float:
        delay = calculate_delay(
            attempt,
            backoff_factor=self.backoff_factor,
            initial_delay=self.initial_delay,
            max_delay=self.max_delay,
            jitter=self.jitter,
        )
        asked = retry_after_seconds(exc)
        if asked is not None:
            delay = max(delay, min(asked, MAX_RETRY_AFTER_S))
        log.warning(
            "model call failed (%s: %s); retry %d in %.2fs",
            type(exc).__name__,
            exc,
            attempt + 1,
            delay,
        )
        return delay

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> Any:
        """Call the model, retrying transient failures with backoff and Retry-After."""
        for attempt in range(self.max_retries + 1):
            try:
                return handler(request)
            except GraphBubbleUp:
                raise
            except Exception as exc:
                if not is_transient(exc) and not self._matches(exc):
                    raise
                if attempt >= self.max_retries:
                    return self._handle_failure(exc, attempt + 1)
                time.sleep(self._delay(attempt, exc))
        raise RuntimeError("unreachable")

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> Any:
        """Async twin of `wrap_model_call`."""
        for attempt in range(self.max_retries + 1):
            try:
                return await handler(request)
            except GraphBubbleUp:
                raise
            except Exception as exc:
                if not is_transient(exc) and not self._matches(exc):
                    raise
                if attempt >= self.max_retries:
                    return self._handle_failure(exc, attempt + 1)
                await asyncio.sleep(self._delay(attempt, exc))
        raise RuntimeError("unreachable")

    def _matches(self, exc: Exception) -> bool:
        retry_on = self.retry_on
        return bool(retry_on(exc)) if callable(retry_on) else isinstance(exc, retry_on)


def model_retry_middleware(
    retries: int, initial_s: float, max_s: float
) -> RetryAfterModelRetryMiddleware:
    """Retries of transient model failures; the last failure becomes an honest AI message."""
    return RetryAfterModelRetryMiddleware(
        max_retries=retries,
        retry_on=is_transient,
        on_failure=failure_message,
        initial_delay=initial_s,
        max_delay=max_s,
        jitter=True,
    )
