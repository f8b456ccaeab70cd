"""Unit tests run with sockets disabled (pytest-socket): no network, no servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pytest_socket import disable_socket

from graphs import models
from tests.fixtures.fake_chat import ScriptedChatModel


@pytest.fixture(autouse=True)
def _no_sockets() -> None:
    disable_socket(allow_unix_socket=True)


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> Callable[..., ScriptedChatModel]:
    """`fake_model(script, serve=True)`: a scripted model; with `serve` every run uses it.

    Serving patches `graphs.models.load_chat_model`, the one seam through which both graphs,
    the suggestions and the guardrails classifier get their models.
    """

    def make(script: list[Any] | None = None, *, serve: bool = True) -> ScriptedChatModel:
        model = ScriptedChatModel(script)
        if serve:
            monkeypatch.setattr(models, "load_chat_model", lambda spec, streaming=True: model)
        return model

    return make
