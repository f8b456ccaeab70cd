"""Model failures: retried when a retry can help, always ended with a message the user can read.

Every way a model call can fail gets one kind (`failure_kind`): transient (rate limits, 5xx,
timeouts, refused or reset connections, an unusable reply) is retried with backoff that honours
the provider's `Retry-After`; a malformed reply (JSON cut off mid-string) is retried once; a
refused key (HTTP 401/403) and any other provider error are not retried. When the attempts are
spent — the fallback chain (`ContextModelMiddleware`, inside this one) included — the turn ends
with an honest AI message (`failure_message`), so the thread stays usable: the question answered
by the message, the next question works. Only exceptions that are not model failures (a bug in
our code) are raised.

Hand-written rather than `ModelRetryMiddleware`: that one computes its delay from its own backoff
only (no `Retry-After`), retries every kind alike and has no public hook for either; the backoff
itself (exponential, capped, ±25 % jitter) is `backoff_delay` below. Provider SDK retries are off
(`graphs.models.load_chat_model`, `max_retries=0`), so all retrying happens here, once.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.exceptions import (
    ModelAuthenticationError,
    ModelError,
    ModelPermissionDeniedError,
)
from langchain_core.messages import AIMessage
from langgraph.errors import GraphBubbleUp

from graphs.middleware.response_check import InvalidModelOutput

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
REFUSED_STATUS = frozenset({401, 403})
MAX_RETRY_AFTER_S = 60.0
MALFORMED_RETRIES = 1
PROVIDER_MODULES = (
    "httpx",
    "httpcore",
    "openai",
    "anthropic",
    "langchain_openai",
    "langchain_anthropic",
)

FailureKind = Literal["transient", "malformed", "refused", "failed"]


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


def failure_kind(exc: BaseException) -> FailureKind | None:
    """What kind of model failure `exc` is; None when it is not one (a bug: raised, not hidden)."""
    if isinstance(exc, ModelAuthenticationError | ModelPermissionDeniedError):
        return "refused"
    code = status_code(exc)
    if code in REFUSED_STATUS:
        return "refused"
    if isinstance(exc, json.JSONDecodeError) or type(exc).__name__ == "APIResponseValidationError":
        return "malformed"
    if is_transient(exc):
        return "transient"
    if isinstance(exc, ModelError) or code is not None:
        return "failed"
    return "failed" if type(exc).__module__.startswith(PROVIDER_MODULES) else None


def backoff_delay(
    attempt: int, initial_s: float, max_s: float, factor: float = 2.0, jitter: bool = True
) -> float:
    """Seconds before retry `attempt` (0-based): exponential from `initial_s`, capped, ±25 % jitter."""
    delay = min(initial_s * factor**attempt, max_s)
    if jitter and delay > 0:
        delay += random.uniform(-0.25 * delay, 0.25 * delay)  # noqa: S311 — not cryptographic
    return max(0.0, delay)


def failure_message(exc: Exception) -> str:
    """What the user reads when every attempt and fallback failed: honest, short, no internals."""
    code = status_code(exc)
    kind = failure_kind(exc)
    if kind == "refused":
        return (
            "Sorry — I could not answer this time: the model provider refused the key"
            f"{f' (HTTP {code})' if code else ''}. Retrying will not help: the model settings "
            "(API key, model name or access) need fixing — please tell whoever runs this assistant."
        )
    retried = kind in ("transient", "malformed")
    if isinstance(exc, InvalidModelOutput):
        why = f"the model returned an unusable answer ({exc})"
    elif kind == "malformed":
        why = f"the model provider sent a reply that could not be read ({type(exc).__name__})"
    elif code == 429:
        why = "the model provider is rate-limiting requests (HTTP 429)"
    elif code is not None:
        why = f"the model provider returned an error (HTTP {code})"
    elif "Timeout" in type(exc).__name__:
        why = "the model provider did not answer in time"
    elif retried:
        why = f"the model provider could not be reached ({type(exc).__name__})"
    else:
        why = f"the model provider returned an error ({type(exc).__name__})"
    if retried:
        return f"Sorry — I could not answer this time: {why}, even after retrying. Please try again in a minute."
    return f"Sorry — I could not answer this time: {why}. Please try again later."


class RetryAfterModelRetryMiddleware(AgentMiddleware):
    """Retry what a retry can help (honouring Retry-After); end every model failure with a message."""

    def __init__(
        self,
        max_retries: int = 2,
        initial_delay: float = 1.0,
        max_delay: float = 20.0,
        backoff_factor: float = 2.0,
        jitter: bool = True,
        on_failure: Callable[[Exception], str] = failure_message,
    ) -> None:
        """`max_retries` for transient failures; a malformed reply gets at most `MALFORMED_RETRIES`."""
        super().__init__()
        if min(max_retries, initial_delay, max_delay, backoff_factor) < 0:
            raise ValueError("retry settings must not be negative")
        self.max_retries = max_retries
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.backoff_factor = backoff_factor
        self.jitter = jitter
        self.on_failure = on_failure

    def _retries(self, kind: FailureKind) -> int:
        if kind == "transient":
            return self.max_retries
        if kind == "malformed":
            return min(MALFORMED_RETRIES, self.max_retries)
        return 0

    def _delay(self, attempt: int, exc: Exception) -> float:
        delay = backoff_delay(
            attempt, self.initial_delay, self.max_delay, self.backoff_factor, self.jitter
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

    def _next(self, attempt: int, exc: Exception) -> ModelResponse | float:
        """After a failed attempt: the delay before the next one, or the final response."""
        kind = failure_kind(exc)
        if kind is None:
            raise exc
        if attempt >= self._retries(kind):
            log.warning("model call failed for good (%s, %s: %s)", kind, type(exc).__name__, exc)
            return ModelResponse(result=[AIMessage(content=self.on_failure(exc))])
        return self._delay(attempt, exc)

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> Any:
        """Call the model, retrying what can be retried; a failure becomes a message."""
        attempt = 0
        while True:
            try:
                return handler(request)
            except GraphBubbleUp:
                raise
            except Exception as exc:  # noqa: BLE001 — classified by `failure_kind`
                step = self._next(attempt, exc)
                if isinstance(step, ModelResponse):
                    return step
                time.sleep(step)
                attempt += 1

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> Any:
        """Async twin of `wrap_model_call`."""
        attempt = 0
        while True:
            try:
                return await handler(request)
            except GraphBubbleUp:
                raise
            except Exception as exc:  # noqa: BLE001 — classified by `failure_kind`
                step = self._next(attempt, exc)
                if isinstance(step, ModelResponse):
                    return step
                await asyncio.sleep(step)
                attempt += 1


def model_retry_middleware(
    retries: int, initial_s: float, max_s: float
) -> RetryAfterModelRetryMiddleware:
    """Retries of model failures that a retry can help; every failure ends in an honest message."""
    return RetryAfterModelRetryMiddleware(
        max_retries=retries, initial_delay=initial_s, max_delay=max_s, jitter=True
    )
