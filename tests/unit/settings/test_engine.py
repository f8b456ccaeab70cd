"""settings/engine.py: which engine runs this process, decided one way for every rule."""

from __future__ import annotations

import sys

import pytest

from settings.engine import engine, in_server_process, is_local_dev_server


def test_only_langgraph_dev_is_the_local_dev_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "aegra_api", raising=False)
    assert is_local_dev_server({"LANGGRAPH_RUNTIME_EDITION": "inmem"})
    for env in ({}, {"LANGGRAPH_RUNTIME_EDITION": "postgres"}):
        assert not is_local_dev_server(env)
    assert engine({"LANGGRAPH_RUNTIME_EDITION": "inmem"}) == "inmem"
    assert engine({"LANGGRAPH_RUNTIME_EDITION": "postgres"}) == "platform"
    assert engine({}) == "none" and not in_server_process({})
    monkeypatch.setitem(sys.modules, "aegra_api", object())
    assert engine({}) == "aegra" and in_server_process({})
