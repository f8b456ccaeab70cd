"""Tool failures come back to the model as text, after one retry of a transient failure.

langchain's `ToolErrorMiddleware` and `ToolRetryMiddleware`, configured with our wording: the
model reads which tool failed and what to do next, never a traceback.
"""

from __future__ import annotations

from typing import Any

from langchain.agents.middleware import AgentMiddleware, ToolErrorMiddleware, ToolRetryMiddleware

from graphs.middleware.retry import is_transient


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


def tool_error_middleware() -> list[AgentMiddleware[Any, Any]]:
    """Errors as text (outer), one quick retry of transient failures (inner)."""
    return [
        ToolErrorMiddleware(on_error=_tool_error_text),
        ToolRetryMiddleware(
            max_retries=1,
            retry_on=_tool_transient,
            on_failure=_tool_retry_failure,
            initial_delay=0.2,
            max_delay=1.0,
        ),
    ]
