"""Model failures: retried while a reader would wait, then ended with words a reader can act on.

Every way a model call can fail gets one kind (`failure_kind`), the `failure.kind` of contract C2:
`rate_limited` (HTTP 429), `model_unavailable` (5xx, refused connection, any other provider error),
`stream_cut` (the connection broke mid-reply), `timeout`, `refused` (401/403/404 and other 4xx: the
settings need fixing, a retry cannot help), `bad_reply` (a reply cut off mid-JSON, an empty or
unusable completion) and `engine` (anything that is not the provider's: a bug, a model that cannot
be loaded — logged with its traceback for the operator, never shown to the reader).

Retries: what a retry can help is retried with exponential backoff (±25 % jitter) that honours
the provider's wait (`Retry-After`, `retry-after-ms`, the `x-ratelimit-reset-*` and Anthropic's
`*-ratelimit-*-reset` headers), but only while the waiting stays within the reader's budget
(`READER_WAIT_BUDGET_S`, 8 s per model call): a provider that asks for a longer wait gets no
retry; the turn ends at once, saying when to try again, and `failure.retry_after_s` lets the
page count down. The fallback chain (`ContextModelMiddleware`, inside this one) is tried on every
attempt, so a working fallback still answers first.

When the attempts are spent the turn ends with an AI message in the reader's language
(`graphs.messages.failure_text`) carrying `additional_kwargs["failure"] = {"kind",
"retry_after_s", "message"}`: the thread stays usable (the question answered by the message, the
next question works), the page shows a Retry button, and the answers report counts the turn as
an outage, not as a docs gap. No exception name, module path or provider error text reaches it.

Hand-written rather than langchain's `ModelRetryMiddleware`: that one computes its delay from its
own backoff only (no `Retry-After`, no budget), retries every kind alike, and its `on_failure`
returns only the message text (no metadata); the backoff formula is the same. Provider SDK
retries are off (`graphs.models.load_chat_model`, `max_retries=0`), so all retrying happens here.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import math
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.exceptions import (
    ContextOverflowError,
    ModelAuthenticationError,
    ModelError,
    ModelPermissionDeniedError,
    ModelRateLimitError,
    ModelTimeoutError,
)
from langchain_core.messages import AIMessage
from langgraph.errors import GraphBubbleUp

from graphs.context import context_of
from graphs.messages import FailureKind, current_turn, failure_text
from graphs.middleware.response_check import InvalidModelOutput
from graphs.offline.language import resolve_language

log = logging.getLogger(__name__)

# How long a reader waits for retries of one model call before being told when to come back.
# About 10 s is how long a person keeps their attention on a wait without feedback (the classic
# response-time limits); the engine's queue and the answer itself take a few seconds of that.
READER_WAIT_BUDGET_S = 8.0
MAX_RETRY_AFTER_S = 86_400  # a countdown longer than a day is a provider's mistake
MALFORMED_RETRIES = 1
RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
TIMEOUT_STATUS = frozenset({408, 504, 524})
REFUSED_STATUS = frozenset({401, 403, 404})
PROVIDER_MODULES = (
    "httpx",
    "httpcore",
    "openai",
    "anthropic",
    "langchain_openai",
    "langchain_anthropic",
    "google",
    "langchain_google",
    "botocore",
)
# Transport failures after the connection was made (the reply was cut) vs. before (no provider).
_CUT_NAMES = ("ReadError", "RemoteProtocolError", "ConnectionResetError", "BrokenResourceError",
              "IncompleteRead", "ProtocolError", "WriteError", "ClosedResourceError")  # fmt: skip
_UNREACHABLE_NAMES = ("ConnectError", "ConnectionRefusedError", "gaierror", "ConnectTimeout")
_DURATION_RE = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def status_code(exc: BaseException) -> int | None:
    """The HTTP status behind a provider exception, if any (openai, anthropic, httpx)."""
    code = getattr(exc, "status_code", None)
    if isinstance(code, int):
        return code
    response = getattr(exc, "response", None)
    code = getattr(response, "status_code", None)
    return code if isinstance(code, int) else None


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and the exceptions it was raised from (SDKs wrap the transport error twice or more)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < 12:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _seconds_until(value: str) -> float | None:
    """Seconds until an HTTP date or an ISO 8601 timestamp (Anthropic's reset headers)."""
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        try:
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    if when.tzinfo is None:
        return None
    return when.timestamp() - time.time()


def _duration(value: str) -> float | None:
    """OpenAI's reset durations: "1s", "6m0s", "20ms", "1h2m3.5s"; plain seconds too."""
    value = value.strip()
    try:
        return float(value)
    except ValueError:
        pass
    parts = _DURATION_RE.findall(value)
    if not parts or "".join(n + u for n, u in parts) != value:
        return None
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    return sum(float(n) * scale[u] for n, u in parts)


def _header(headers: Any, name: str) -> str | None:
    value = headers.get(name)
    return value if isinstance(value, str) and value.strip() else None


def retry_after_seconds(exc: BaseException) -> float | None:
    """Seconds the provider asked us to wait, from the response headers; None when it did not say.

    `retry-after-ms`, then `Retry-After` (seconds or an HTTP date), then the rate-limit reset of
    the exhausted limit (OpenAI `x-ratelimit-reset-{requests,tokens}` with
    `x-ratelimit-remaining-*` = 0; Anthropic `anthropic-ratelimit-*-reset`), the latest of them
    when the response does not say which limit ran out.
    """
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None or not hasattr(headers, "get"):
        return None
    try:
        if (ms := _header(headers, "retry-after-ms")) is not None:
            return max(0.0, float(ms) / 1000)
        if (value := _header(headers, "retry-after")) is not None:
            try:
                return max(0.0, float(value))
            except ValueError:
                until = _seconds_until(value)
                return None if until is None else max(0.0, until)
    except (TypeError, ValueError):
        return None
    resets: list[float] = []
    for limit in ("requests", "tokens", "input-tokens", "output-tokens"):
        openai_reset = _header(headers, f"x-ratelimit-reset-{limit}")
        anthropic_reset = _header(headers, f"anthropic-ratelimit-{limit}-reset")
        remaining = _header(headers, f"x-ratelimit-remaining-{limit}") or _header(
            headers, f"anthropic-ratelimit-{limit}-remaining"
        )
        seconds = None
        if openai_reset is not None:
            seconds = _duration(openai_reset)
        elif anthropic_reset is not None:
            seconds = _seconds_until(anthropic_reset)
        if seconds is None:
            continue
        if remaining is not None and remaining.strip() == "0":
            return max(0.0, seconds)  # this limit is the one that ran out
        resets.append(seconds)
    return max(0.0, max(resets)) if resets and status_code(exc) == 429 else None


def is_provider_failure(exc: BaseException) -> bool:
    """Whether `exc` comes from the model provider or its transport (not from our own code)."""
    if isinstance(exc, ModelError | InvalidModelOutput | TimeoutError | ConnectionError):
        return True
    if isinstance(exc, json.JSONDecodeError) or status_code(exc) is not None:
        return True
    return type(exc).__module__.startswith(PROVIDER_MODULES)


def _transport(exc: BaseException) -> Literal["cut", "unreachable", "timeout"] | None:
    """How the connection failed, judged from the whole chain of wrapped exceptions."""
    for link in _causes(exc):
        name = type(link).__name__
        if "Timeout" in name or isinstance(link, TimeoutError):
            return "timeout"
        if name in _UNREACHABLE_NAMES:
            return "unreachable"
        if name in _CUT_NAMES:
            return "cut"
    return None


def failure_kind(exc: BaseException) -> FailureKind:
    """The contract C2 kind of a failed model call (`engine` for anything not the provider's)."""
    if not is_provider_failure(exc):
        return "engine"
    code = status_code(exc)
    if isinstance(
        exc, ModelAuthenticationError | ModelPermissionDeniedError | ContextOverflowError
    ):
        return "refused"
    if isinstance(exc, ModelRateLimitError) or code == 429:
        return "rate_limited"
    if isinstance(exc, InvalidModelOutput | json.JSONDecodeError):
        return "bad_reply"
    if type(exc).__name__ == "APIResponseValidationError":
        return "bad_reply"
    if code is not None:
        if code in TIMEOUT_STATUS:
            return "timeout"
        if code in REFUSED_STATUS or (400 <= code < 500 and code not in RETRYABLE_STATUS):
            return "refused"
        return "model_unavailable"
    if isinstance(exc, ModelTimeoutError):
        return "timeout"
    transport = _transport(exc)
    if transport == "timeout":
        return "timeout"
    if transport == "cut":
        return "stream_cut"
    return "model_unavailable"


def is_transient(exc: BaseException) -> bool:
    """Worth retrying: rate limits, 5xx, timeouts, broken connections, unusable output."""
    kind = failure_kind(exc)
    if kind in ("refused", "engine"):
        return False
    if kind == "model_unavailable":
        code = status_code(exc)
        if code is not None:
            return code in RETRYABLE_STATUS
        if isinstance(exc, ModelError):
            return bool(exc.is_retryable)
        return _transport(exc) is not None or isinstance(exc, ConnectionError)
    return True


def _text_key(exc: BaseException, kind: FailureKind) -> str:
    """Which reader text fits: the kind's own, or a narrower one (a conversation too long)."""
    if isinstance(exc, ContextOverflowError) or "context_length_exceeded" in str(exc):
        return "too_long"
    return kind


def backoff_delay(
    attempt: int, initial_s: float, max_s: float, factor: float = 2.0, jitter: bool = True
) -> float:
    """Seconds before retry `attempt` (0-based): exponential from `initial_s`, capped, ±25 % jitter."""
    delay = min(initial_s * factor**attempt, max_s)
    if jitter and delay > 0:
        delay += random.uniform(-0.25 * delay, 0.25 * delay)  # noqa: S311 — not cryptographic
    return max(0.0, delay)


@dataclass(frozen=True)
class ModelFailure:
    """How a turn's model call failed for good: its kind, the provider's wait, the reader text key."""

    kind: FailureKind
    retry_after_s: int | None = None
    status: int | None = None
    text_key: str = ""

    @classmethod
    def of(cls, exc: BaseException, asked_s: float | None = None) -> ModelFailure:
        """The failure `exc` stands for; `asked_s` is the provider's wait (read from `exc` if None)."""
        kind = failure_kind(exc)
        asked = retry_after_seconds(exc) if asked_s is None else asked_s
        wait = min(math.ceil(asked), MAX_RETRY_AFTER_S) if asked and asked > 0 else None
        status = status_code(exc) if kind != "engine" else None
        return cls(kind, wait, status, _text_key(exc, kind))

    def message(self, lang: str) -> str:
        """What the reader reads, in `lang`."""
        return failure_text(
            self.text_key or self.kind, lang, retry_after_s=self.retry_after_s, status=self.status
        )

    def metadata(self, lang: str) -> dict[str, Any]:
        """`additional_kwargs["failure"]` of the turn's final message (contract C2)."""
        return {
            "kind": self.kind,
            "retry_after_s": self.retry_after_s,
            "message": self.message(lang),
        }

    def as_message(self, lang: str) -> AIMessage:
        """The AI message that ends the turn."""
        meta = self.metadata(lang)
        return AIMessage(content=meta["message"], additional_kwargs={"failure": meta})


def failure_message(exc: BaseException, lang: str = "en") -> str:
    """What the reader reads when every attempt and fallback failed with `exc`."""
    return ModelFailure.of(exc).message(lang)


def reader_language(request: ModelRequest) -> str:
    """The language of the turn's reader: the run's setting, else detected from the question."""
    try:
        question, _ = current_turn(list(request.messages))
        return resolve_language(context_of(request.runtime).language, question)
    except Exception:  # noqa: BLE001 — a failure message must never fail itself
        return "en"


class RetryAfterModelRetryMiddleware(AgentMiddleware):
    """Retry what a retry can help within the reader's wait budget; end every failure in words."""

    def __init__(
        self,
        max_retries: int = 2,
        initial_delay: float = 1.0,
        max_delay: float = 20.0,
        backoff_factor: float = 2.0,
        jitter: bool = True,
        wait_budget_s: float = READER_WAIT_BUDGET_S,
    ) -> None:
        """`max_retries` for transient failures; a malformed reply gets at most `MALFORMED_RETRIES`.

        `wait_budget_s`: the most seconds one model call spends waiting between attempts; a
        provider asking for more ends the turn at once with its wait as the countdown.
        """
        super().__init__()
        if min(max_retries, initial_delay, max_delay, backoff_factor, wait_budget_s) < 0:
            raise ValueError("retry settings must not be negative")
        self.max_retries = max_retries
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.backoff_factor = backoff_factor
        self.jitter = jitter
        self.wait_budget_s = wait_budget_s

    def _retries(self, exc: BaseException) -> int:
        if not is_transient(exc):
            return 0
        if (
            isinstance(exc, json.JSONDecodeError)
            or type(exc).__name__ == "APIResponseValidationError"
        ):
            return min(MALFORMED_RETRIES, self.max_retries)
        return self.max_retries

    def _next(self, attempt: int, waited: float, exc: Exception) -> float | ModelFailure:
        """After failed attempt `attempt` (having waited `waited` s): the next delay, or the end."""
        asked = retry_after_seconds(exc)
        name = type(exc).__name__
        if attempt < self._retries(exc):
            delay = backoff_delay(
                attempt, self.initial_delay, self.max_delay, self.backoff_factor, self.jitter
            )
            if asked is not None:
                delay = max(delay, asked)
            if waited + delay <= self.wait_budget_s:
                log.warning(
                    "model call failed (%s: %s); retry %d in %.2fs", name, exc, attempt + 1, delay
                )
                return delay
            log.warning(
                "model call failed (%s: %s); the provider asks to wait %.1fs, past the reader's "
                "budget of %.0fs: ending the turn with a countdown",
                name,
                exc,
                delay,
                self.wait_budget_s,
            )
        failure = ModelFailure.of(exc, asked)
        if failure.kind == "engine":
            log.error("model call failed inside the engine; the reader is told so", exc_info=exc)
        else:
            log.warning("model call failed for good (%s, %s: %s)", failure.kind, name, exc)
        return failure

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> Any:
        """Call the model, retrying what can be retried; a failure becomes a message."""
        attempt, waited = 0, 0.0
        while True:
            try:
                return handler(request)
            except GraphBubbleUp:
                raise
            except Exception as exc:  # noqa: BLE001 — every failure ends in words (`failure_kind`)
                step = self._next(attempt, waited, exc)
                if isinstance(step, ModelFailure):
                    return ModelResponse(result=[step.as_message(reader_language(request))])
                time.sleep(step)
                attempt, waited = attempt + 1, waited + step

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> Any:
        """Async twin of `wrap_model_call`."""
        attempt, waited = 0, 0.0
        while True:
            try:
                return await handler(request)
            except GraphBubbleUp:
                raise
            except Exception as exc:  # noqa: BLE001 — every failure ends in words (`failure_kind`)
                step = self._next(attempt, waited, exc)
                if isinstance(step, ModelFailure):
                    return ModelResponse(result=[step.as_message(reader_language(request))])
                await asyncio.sleep(step)
                attempt, waited = attempt + 1, waited + step


def model_retry_middleware(
    retries: int, initial_s: float, max_s: float
) -> RetryAfterModelRetryMiddleware:
    """Retries of model failures that a retry can help; every failure ends in words for the reader."""
    return RetryAfterModelRetryMiddleware(
        max_retries=retries, initial_delay=initial_s, max_delay=max_s, jitter=True
    )
