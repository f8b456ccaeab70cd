"""docs_agent over the repo's own sources with a scripted model: the stage for middleware tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graphs.docs_agent import build_docs_agent
from settings.sources import SourceSettings
from tests.fixtures.fake_chat import ScriptedChatModel
from tools import create_all_tools, load_sources


@pytest.fixture
def tools(index_dir: Path) -> list[Any]:
    settings = SourceSettings.from_env(
        {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_CODE_ROOTS": "docs-agent=."}
    )
    return create_all_tools(load_sources(settings))


@pytest.fixture
def scripted_agent(
    monkeypatch: pytest.MonkeyPatch,
    tools: list[Any],
    fake_model: Callable[..., ScriptedChatModel],
) -> Callable[[list[Any]], tuple[Any, ScriptedChatModel]]:
    """`scripted_agent(script)`: (docs_agent served by that script, the model), fast retries, no suggestions."""

    def make(script: list[Any]) -> tuple[Any, ScriptedChatModel]:
        model = fake_model(script)
        monkeypatch.setenv("DOCS_AGENT_RETRY_INITIAL_S", "0.01")
        monkeypatch.setenv("DOCS_AGENT_NUM_SUGGESTIONS", "0")
        return build_docs_agent(tools=tools, checkpointer=InMemorySaver()), model

    return make
