"""A test-only graph for the auth e2e: the real memory tools and prompt middleware, driven by a
scripted model, so a real server can show what a model that *tries* to reach another user gets.

Commands (the last user message): `save: TEXT | TEXT ...` (parallel calls), `list`, `list as: USER` (passes a user_id argument
the tools do not have), `delete: ID`, `delete as: USER ID`, `prompt` (echo the memory block of the
system prompt). The final AI message carries the tool's answer verbatim.
"""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from graphs.middleware.memory_prompt import HEADER, MemoryPromptMiddleware
from tools.memory import create_memory_tools


class CommandModel(BaseChatModel):
    """Turns one command into one tool call, then echoes the tool result."""

    @property
    def _llm_type(self) -> str:
        return "memory-command"

    def bind_tools(self, tools: Any, **kwargs: Any) -> CommandModel:
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        if isinstance(messages[-1], ToolMessage):
            results: list[str] = []
            for m in reversed(messages):
                if not isinstance(m, ToolMessage):
                    break
                results.insert(0, str(m.content))
            return self._reply("\n".join(results))
        text = next(
            str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)
        ).strip()
        verb, _, rest = text.partition(":")
        rest = rest.strip()
        if text == "prompt":
            system = next((m.text for m in messages if isinstance(m, SystemMessage)), "")
            return self._reply(
                system[system.find(HEADER) :] if HEADER in system else "(no memories in prompt)"
            )
        if verb == "save":  # `save: a | b | c` → parallel tool calls in one turn
            return self._calls(
                [("save_memory", {"text": part.strip()}) for part in rest.split("|")]
            )
        if text == "list":
            return self._call("list_memories")
        if verb == "list as":
            return self._call("list_memories", user_id=rest)
        if verb == "delete":
            return self._call("delete_memory", memory_id=rest)
        if verb == "delete as":
            user, _, key = rest.partition(" ")
            return self._call("delete_memory", memory_id=key, user_id=user)
        return self._reply(f"unknown command {text!r}")

    @staticmethod
    def _reply(text: str) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text))])

    @classmethod
    def _call(cls, name: str, **args: Any) -> ChatResult:
        return cls._calls([(name, args)])

    @staticmethod
    def _calls(calls: list[tuple[str, dict[str, Any]]]) -> ChatResult:
        tool_calls = [
            {"name": n, "args": a, "id": f"call-{i}-{n}"} for i, (n, a) in enumerate(calls)
        ]
        return ChatResult(
            generations=[ChatGeneration(message=AIMessage("", tool_calls=tool_calls))]
        )


graph = create_agent(
    CommandModel(),
    create_memory_tools(),
    system_prompt="Memory test graph.",
    middleware=[MemoryPromptMiddleware()],
    name="memory_test",
)
