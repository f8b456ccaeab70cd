"""graphs/models.py: chat models by provider:model string, the offline one built in."""

from __future__ import annotations

import pytest

from graphs.models import load_chat_model
from graphs.offline.model import OfflineChatModel


def test_offline_spec_loads_the_offline_model() -> None:
    assert isinstance(load_chat_model("offline"), OfflineChatModel)


# langchain-openai probes which socket options the OS supports by creating (never connecting) a
# socket when the model is built; pytest-socket blocks it and langchain-openai falls back.
@pytest.mark.filterwarnings("ignore:A test tried to use socket.socket:UserWarning")
def test_openai_base_url_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    model = load_chat_model("openai:unit-test-model")
    assert "127.0.0.1:9" in str(model.openai_api_base)
