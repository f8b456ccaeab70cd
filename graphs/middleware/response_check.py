"""Turn unusable model answers into a retryable error, so retry and fallback handle them.

A model can "succeed" with an answer nobody can use (tool-call arguments that are not JSON, an
empty completion). Hand-written: langchain's `ModelRefusalMiddleware` covers refusals only;
these otherwise end the run with an empty AI message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, BaseMessage


class InvalidModelOutput(Exception):
    """The provider answered 200 but the message is unusable (bad tool-call JSON, empty)."""


def _checked(message: BaseMessage) -> BaseMessage:
    """The message itself, or a copy showing an explicit refusal as text; raises when unusable."""
    if not isinstance(message, AIMessage):
        return message
    if message.invalid_tool_calls and not message.tool_calls:
        bad = message.invalid_tool_calls[0]
        raise InvalidModelOutput(
            f"tool call {bad.get('name')!r} had arguments that are not valid JSON"
        )
    text = message.text
    refusal = message.additional_kwargs.get("refusal")
    if not message.tool_calls and not text.strip() and not refusal:
        raise InvalidModelOutput("empty completion")
    if refusal and not text.strip():
        # An explicit provider refusal is a final answer, not a fault: show it as text.
        return message.model_copy(update={"content": str(refusal)})
    return message


def check_response(response: ModelResponse) -> ModelResponse:
    """The response with refusals shown as text (a new response; the input is not changed)."""
    result = [_checked(m) for m in response.result]
    if all(a is b for a, b in zip(result, response.result, strict=True)):
        return response
    return ModelResponse(result=result, structured_response=response.structured_response)


class ResponseCheckMiddleware(AgentMiddleware):
    """Raise `InvalidModelOutput` for answers nobody can use."""

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Check the completed response."""
        return check_response(handler(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """Async twin of `wrap_model_call`."""
        return check_response(await handler(request))
