"""Message helpers the graphs share: this turn's messages, AI messages by type.

A message's text is `BaseMessage.text` (string content or text blocks); nothing here re-implements it.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

# `.type` of AI messages: streamed answers may be `AIMessageChunk` ("AIMessageChunk"), not AIMessage.
AI_TYPES = frozenset({"ai", "AIMessageChunk"})


def is_ai(message: BaseMessage) -> bool:
    """An AI message or chunk, judged by its type field (a chunk is not an AIMessage instance)."""
    return message.type in AI_TYPES


def current_turn(messages: Sequence[BaseMessage]) -> tuple[str, list[BaseMessage]]:
    """The latest user question and the messages that followed it (this turn's tool traffic)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].type == "human":
            return messages[i].text, list(messages[i + 1 :])
    return "", list(messages)
