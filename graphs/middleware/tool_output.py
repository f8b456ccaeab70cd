"""The last gate before the model reads a tool result: sanitized and capped.

Hand-written: the tools already clean their output, this single last gate also covers tools added
later and backends that return raw text. Structural page headings stay (citations use their
anchors); a heading that reads like an instruction to the model is demoted to quoted page text.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware
from langchain.tools.tool_node import ToolCallRequest
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from tools.text import strip_bold, strip_controls

DEFAULT_MAX_TOOL_CHARS = 16_000

_INJECTION_RE = re.compile(
    r"ignore (all |any )?(the )?(previous|prior|above|earlier) (instructions|prompts?)|disregard (all |the )?"
    r"(previous|prior|above)|you are now|new instructions|system prompt|игнорируй",
    re.IGNORECASE,
)
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$", re.MULTILINE)


def sanitize_tool_output(text: str, limit: int) -> str:
    """Retrieved text as the model may see it: no bold, no controls, injection headings demoted, capped.

    Structural page headings stay (citations use their anchors); a heading that reads like an
    instruction to the model loses its `#` and is marked as quoted page text.
    """
    text = strip_controls(text)
    text = strip_bold(text)
    text = _HEADING_RE.sub(
        lambda m: f"(page text) {m.group(1)}" if _INJECTION_RE.search(m.group(1)) else m.group(0),
        text,
    )
    if len(text) > limit:
        text = text[:limit].rsplit("\n", 1)[0] + f"\n[… cut at {limit:,} characters]"
    return text


class ToolOutputSanitizerMiddleware(AgentMiddleware):
    """Sanitize every tool result before the model reads it (DOCS_AGENT_MAX_TOOL_CHARS, 16000)."""

    def __init__(self, limit: int = DEFAULT_MAX_TOOL_CHARS) -> None:
        """`limit`: the most characters of one tool result."""
        super().__init__()
        self.limit = limit

    def _clean(self, result: ToolMessage | Command[Any]) -> ToolMessage | Command[Any]:
        if isinstance(result, ToolMessage) and isinstance(result.content, str):
            cleaned = sanitize_tool_output(result.content, self.limit)
            if cleaned != result.content:
                return result.model_copy(update={"content": cleaned})
        return result

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool, then sanitize its text."""
        return self._clean(handler(request))

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async twin of `wrap_tool_call`."""
        return self._clean(await handler(request))
