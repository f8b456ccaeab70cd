"""graphs/middleware/usage_log.py: every model call's input, cached and output tokens reach the log."""

from __future__ import annotations

import logging

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage

from graphs.middleware.usage_log import UsageLogMiddleware
from tests.fixtures.fake_chat import ScriptedChatModel


def test_usage_with_cached_tokens_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    reply = AIMessage(
        "An answer.",
        usage_metadata={
            "input_tokens": 1200,
            "output_tokens": 40,
            "total_tokens": 1240,
            "input_token_details": {"cache_read": 1024},
        },
    )
    agent = create_agent(
        model=ScriptedChatModel([reply]), tools=[], middleware=[UsageLogMiddleware()]
    )
    with caplog.at_level(logging.INFO, logger="graphs.middleware.usage_log"):
        agent.invoke({"messages": [{"role": "user", "content": "hi"}]})
    assert "model usage: input=1200 cached=1024 output=40" in caplog.text


def test_a_reply_without_usage_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    agent = create_agent(
        model=ScriptedChatModel([AIMessage("x")]), tools=[], middleware=[UsageLogMiddleware()]
    )
    with caplog.at_level(logging.INFO, logger="graphs.middleware.usage_log"):
        agent.invoke({"messages": [{"role": "user", "content": "hi"}]})
    assert "model usage" not in caplog.text
