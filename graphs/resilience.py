"""Retries, response checks, tool-error handling, loop limits and prompt caching for both graphs.

langchain's own middleware does most of the work (`ModelRetryMiddleware`, `ToolRetryMiddleware`,
`ToolErrorMiddleware`, Anthropic's `AnthropicPromptCachingMiddleware`); this module configures them
from the environment and adds what they lack, each marked where it is written by hand:

- `ModelRetryMiddleware` computes its delay from its own backoff only and ignores the provider's
  `Retry-After` header, so `RetryAfterModelRetryMiddleware` waits `max(backoff, Retry-After)`.
- A model can "succeed" with an unusable answer (tool-call arguments that are not JSON, an empty
  completion). `ResponseCheckMiddleware` turns those into a retryable error so the retry and the
  fallback chain handle them like a 5xx, instead of the agent ending with an empty message.
- `TurnLimitMiddleware` instead of `ModelCallLimitMiddleware`/`ToolCallLimitMiddleware`: those add
  three graph nodes per model ⇄ tools loop (before_model, 2× after_model), so under docs_agent's
  recursion limit of 25 a long loop hit `GraphRecursionError` after ~4 rounds, before their limit.
  Counting this turn's AI and tool messages inside the model call adds no node, and the last allowed
  call runs without tools, so the turn ends with an answer from what was found.

Provider SDK retries are switched off in `graphs.models.load_chat_model` (`max_retries=0`) so all
retrying happens here, once, with jitter and an honest final message.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import (
    AgentMiddleware,
    ModelCallResult,
    ModelRequest,
    ModelResponse,
    ModelRetryMiddleware,
    ToolErrorMiddleware,
    ToolRetryMiddleware,
)
from langchain.agents.middleware._retry import calculate_delay
from langchain_core.exceptions import ModelError
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.errors import GraphBubbleUp

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
MAX_RETRY_AFTER_S = 60.0


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


class InvalidModelOutput(Exception):
    """The provider answered 200 but the message is unusable (bad tool-call JSON, empty)."""


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
    """`ModelRetryMiddleware` that also honours the provider's Retry-After.

    Hand-written loop (same shape as the parent's) because the parent has no hook for the delay:
    it calls `calculate_delay` with its own backoff only.
    """

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


def _check(response: ModelResponse) -> ModelResponse:
    for message in response.result:
        if not isinstance(message, AIMessage):
            continue
        if message.invalid_tool_calls and not message.tool_calls:
            bad = message.invalid_tool_calls[0]
            raise InvalidModelOutput(
                f"tool call {bad.get('name')!r} had arguments that are not valid JSON"
            )
        text = message.text if isinstance(message.text, str) else str(message.content)
        refusal = message.additional_kwargs.get("refusal")
        if not message.tool_calls and not text.strip() and not refusal:
            raise InvalidModelOutput("empty completion")
        if refusal and not text.strip():
            # An explicit provider refusal is a final answer, not a fault: show it as text.
            message.content = str(refusal)
    return response


class ResponseCheckMiddleware(AgentMiddleware):
    """Raise `InvalidModelOutput` for answers nobody can use, so retry/fallback handle them.

    Hand-written: langchain's `ModelRefusalMiddleware` covers refusals only; invalid tool-call JSON
    and empty completions otherwise end the run with an empty AI message.
    """

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Check the completed response."""
        return _check(handler(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        return _check(await handler(request))


LIMIT_NOTE = (
    "The tool budget for this question is spent. Answer now from the material above; say plainly "
    "what you could not check."
)


def _turn_counts(messages: list[Any]) -> tuple[int, int]:
    """(model calls, tool calls) since the newest human message."""
    start = 0
    for i in range(len(messages) - 1, -1, -1):
        if getattr(messages[i], "type", "") == "human":
            start = i + 1
            break
    turn = messages[start:]
    return sum(1 for m in turn if getattr(m, "type", "") == "ai"), sum(
        1 for m in turn if getattr(m, "type", "") == "tool"
    )


class TurnLimitMiddleware(AgentMiddleware):
    """End a runaway model ⇄ tools loop with an answer, not `GraphRecursionError`.

    Hand-written (see the module docstring): no extra graph nodes. When this turn has used
    `max_model_calls - 1` model calls or `max_tool_calls` tool calls, the model is called once more
    without tools and told to answer; if it still asks for tools, the turn ends with an honest note.
    """

    def __init__(self, max_model_calls: int = 8, max_tool_calls: int = 16) -> None:
        """Limits per turn (one user question)."""
        super().__init__()
        self.max_model_calls = max(2, max_model_calls)
        self.max_tool_calls = max(1, max_tool_calls)

    def _limited(self, request: ModelRequest) -> ModelRequest | None:
        model_calls, tool_calls = _turn_counts(list(request.messages))
        if model_calls + 1 < self.max_model_calls and tool_calls < self.max_tool_calls:
            return None
        log.warning(
            "turn limit reached (%d model calls, %d tool calls): answering without tools",
            model_calls,
            tool_calls,
        )
        return request.override(
            tools=[], messages=[*request.messages, HumanMessage(content=LIMIT_NOTE)]
        )

    def _final(self, response: ModelResponse) -> ModelResponse:
        for message in response.result:
            if isinstance(message, AIMessage) and (
                message.tool_calls or message.invalid_tool_calls
            ):
                return ModelResponse(
                    result=[
                        AIMessage(
                            content=(
                                f"I stopped after {self.max_model_calls} steps without reaching a final answer. "
                                "Please ask a narrower question, or name the page, article or file to look at."
                            )
                        )
                    ]
                )
        return response

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Call the model, without tools once the turn's budget is spent."""
        limited = self._limited(request)
        if limited is None:
            return handler(request)
        return self._final(handler(limited))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        limited = self._limited(request)
        if limited is None:
            return await handler(request)
        return self._final(await handler(limited))


def _tool_error_text(exc: Exception, request: Any) -> str:
    name = request.tool_call.get("name", "tool") if hasattr(request, "tool_call") else "tool"
    return (
        f"Tool `{name}` failed ({type(exc).__name__}). Try other arguments or another tool; "
        "if nothing works, tell the user which source could not be read."
    )


def _tool_retry_failure(exc: Exception) -> str:
    return (
        f"The tool failed after retrying ({type(exc).__name__}); try another tool or tell the user."
    )


def _tool_transient(exc: BaseException) -> bool:
    return isinstance(exc, TimeoutError | ConnectionError) or is_transient(exc)


class AnthropicCachingMiddleware(AgentMiddleware):
    """Anthropic's prompt-cache middleware, loaded only when a run actually uses an Anthropic model.

    Why a wrapper: `langchain_anthropic` (and the `anthropic` SDK under it) costs seconds to import,
    which every server start would pay for a provider most deployments never call. The wrapped
    middleware tags the system prompt and tools with `cache_control`; OpenAI caches stable
    prefixes by itself, and the prompt keeps system prompt and tools first for both.
    """

    def __init__(self) -> None:
        """Nothing is imported until an Anthropic model is seen."""
        super().__init__()
        self._inner: AgentMiddleware[Any, Any] | None = None

    def _delegate(self, request: ModelRequest) -> AgentMiddleware[Any, Any] | None:
        if not type(request.model).__module__.startswith("langchain_anthropic"):
            return None
        if self._inner is None:
            from langchain_anthropic.middleware import AnthropicPromptCachingMiddleware

            self._inner = AnthropicPromptCachingMiddleware(unsupported_model_behavior="ignore")
        return self._inner

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelCallResult:
        """Add cache-control marks for Anthropic models; pass everything else through."""
        inner = self._delegate(request)
        return inner.wrap_model_call(request, handler) if inner else handler(request)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelCallResult:
        """Async twin of `wrap_model_call`."""
        inner = self._delegate(request)
        return await inner.awrap_model_call(request, handler) if inner else await handler(request)


def prompt_caching_middleware() -> list[AgentMiddleware[Any, Any]]:
    """Prompt caching for Anthropic models (a no-op for every other provider)."""
    return [AnthropicCachingMiddleware()]


class UsageLogMiddleware(AgentMiddleware):
    """Log input, output and cached input tokens of each model call (`input_token_details.cache_read`).

    Providers report cached tokens in `usage_metadata`; the message keeps them in the thread too.
    """

    @staticmethod
    def _log(response: ModelResponse) -> ModelResponse:
        for message in response.result:
            usage = getattr(message, "usage_metadata", None)
            if usage:
                cached = (usage.get("input_token_details") or {}).get("cache_read", 0)
                log.info(
                    "model usage: input=%s cached=%s output=%s",
                    usage.get("input_tokens"),
                    cached,
                    usage.get("output_tokens"),
                )
        return response

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Log the usage of the response."""
        return self._log(handler(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        return self._log(await handler(request))


def resilience_middleware() -> list[AgentMiddleware[Any, Any]]:
    """Limits, tool-error handling, retries and response checks, outermost first.

    Env: DOCS_AGENT_MODEL_RETRIES (2), DOCS_AGENT_RETRY_INITIAL_S (1.0), DOCS_AGENT_RETRY_MAX_S (20),
    DOCS_AGENT_MAX_MODEL_CALLS (8 per turn), DOCS_AGENT_MAX_TOOL_CALLS (16 per turn).
    """
    return [
        TurnLimitMiddleware(
            max_model_calls=_env_int("DOCS_AGENT_MAX_MODEL_CALLS", 8),
            max_tool_calls=_env_int("DOCS_AGENT_MAX_TOOL_CALLS", 16),
        ),
        ToolErrorMiddleware(on_error=_tool_error_text),
        ToolRetryMiddleware(
            max_retries=1,
            retry_on=_tool_transient,
            on_failure=_tool_retry_failure,
            initial_delay=0.2,
            max_delay=1.0,
        ),
        RetryAfterModelRetryMiddleware(
            max_retries=_env_int("DOCS_AGENT_MODEL_RETRIES", 2),
            retry_on=is_transient,
            on_failure=failure_message,
            initial_delay=_env_float("DOCS_AGENT_RETRY_INITIAL_S", 1.0),
            max_delay=_env_float("DOCS_AGENT_RETRY_MAX_S", 20.0),
            jitter=True,
        ),
        ResponseCheckMiddleware(),
        UsageLogMiddleware(),
    ]
