"""The shared middleware stack: every concern present, in order."""

from __future__ import annotations

import httpx
import openai

from graphs.middleware import retry


def _rate_limited(retry_after: str) -> openai.RateLimitError:
    request = httpx.Request("POST", "http://fake/v1/chat/completions")
    response = httpx.Response(429, headers={"retry-after": retry_after}, request=request)
    return openai.RateLimitError("rate limited", response=response, body=None)


def test_resilience_stack_is_in_shared_middleware() -> None:
    from graphs.middleware import shared_middleware

    names = [type(m).__name__ for m in shared_middleware()]
    assert names == [
        "TurnRecordMiddleware",
        "GuardrailsMiddleware",
        "ToolOutputSanitizerMiddleware",
        "TurnLimitMiddleware",
        "ToolErrorMiddleware",
        "ToolRetryMiddleware",
        "RetryAfterModelRetryMiddleware",
        "ResponseCheckMiddleware",
        "UsageLogMiddleware",
        "ContextModelMiddleware",
        "HistoryBudgetMiddleware",
        "AnthropicCachingMiddleware",
        "MemoryPromptMiddleware",
        "PruneHistoryMiddleware",
        "SuggestionsMiddleware",
    ]
    message = retry.failure_message(_rate_limited("1"))
    assert message.startswith("The AI model is busy right now")
    assert "limiting requests (HTTP 429)" in message and "Traceback" not in message


def test_stack_takes_its_limits_from_the_settings() -> None:
    from graphs.middleware import shared_middleware
    from settings.agent import AgentSettings

    settings = AgentSettings.from_env(
        {
            "DOCS_AGENT_MAX_MODEL_CALLS": "3",
            "DOCS_AGENT_MODEL_RETRIES": "5",
            "DOCS_AGENT_MAX_INPUT_CHARS": "99",
        }
    )
    stack = {type(m).__name__: m for m in shared_middleware(settings)}
    assert stack["TurnLimitMiddleware"].max_model_calls == 3  # type: ignore[attr-defined]
    assert stack["RetryAfterModelRetryMiddleware"].max_retries == 5  # type: ignore[attr-defined]
    assert stack["GuardrailsMiddleware"].max_input_chars == 99  # type: ignore[attr-defined]
