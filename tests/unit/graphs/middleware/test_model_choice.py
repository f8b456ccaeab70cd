"""The run's model and its fallbacks: a failure falls back, an interrupt is not a failure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain.agents.middleware import ModelRequest, ModelResponse
from langchain_core.messages import AIMessage
from langgraph.errors import GraphInterrupt
from langgraph.runtime import Runtime

from graphs import models
from graphs.context import Context
from graphs.middleware.model_choice import ContextModelMiddleware
from tests.fixtures.fake_chat import ScriptedChatModel


def _request(monkeypatch: pytest.MonkeyPatch) -> tuple[ModelRequest, dict[str, Any]]:
    chain = {"m:first": ScriptedChatModel(), "m:second": ScriptedChatModel()}
    monkeypatch.setattr(models, "load_chat_model", lambda spec, streaming=True: chain[spec])
    request = ModelRequest(
        model=chain["m:first"],
        messages=[],
        runtime=Runtime(context=Context(model="m:first", fallback_models="m:second")),  # type: ignore[arg-type]
    )
    return request, chain


def _handler(fail: BaseException, used: list[Any]) -> Callable[[ModelRequest], ModelResponse]:
    def handler(request: ModelRequest) -> ModelResponse:
        used.append(request.model)
        if len(used) == 1:
            raise fail
        return ModelResponse(result=[AIMessage("from the fallback")])

    return handler


def test_a_failure_falls_back_to_the_next_model(monkeypatch: pytest.MonkeyPatch) -> None:
    request, chain = _request(monkeypatch)
    used: list[Any] = []
    out = ContextModelMiddleware().wrap_model_call(request, _handler(RuntimeError("down"), used))
    assert used == [chain["m:first"], chain["m:second"]]
    assert out.result[0].content == "from the fallback"


def test_an_interrupt_passes_through_without_a_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    request, chain = _request(monkeypatch)
    used: list[Any] = []
    with pytest.raises(GraphInterrupt):
        ContextModelMiddleware().wrap_model_call(request, _handler(GraphInterrupt(), used))
    assert used == [chain["m:first"]]


async def test_an_interrupt_passes_through_async_too(monkeypatch: pytest.MonkeyPatch) -> None:
    request, chain = _request(monkeypatch)
    used: list[Any] = []

    async def handler(req: ModelRequest) -> ModelResponse:
        used.append(req.model)
        raise GraphInterrupt()

    with pytest.raises(GraphInterrupt):
        await ContextModelMiddleware().awrap_model_call(request, handler)
    assert used == [chain["m:first"]]
