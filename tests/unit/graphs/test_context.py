"""graphs/context.py: per-run settings take the deployment's defaults; Studio's form shows them."""

from __future__ import annotations

import pytest

from graphs.context import Context, context_of
from settings import current


def test_defaults_without_key_are_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "OPENAI_API_KEY",
        "DOCS_AGENT_MODEL",
        "DOCS_AGENT_NUM_SUGGESTIONS",
        "DOCS_AGENT_LANGUAGE",
    ):
        monkeypatch.delenv(var, raising=False)
    ctx = Context()
    assert ctx.model == "offline" and ctx.language == "auto" and ctx.num_suggestions == 3
    assert ctx.prune_history is True


def test_openai_key_selects_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCS_AGENT_MODEL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert Context().model.startswith("openai:")


def test_env_overrides_and_explicit_fields_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCS_AGENT_MODEL", "anthropic:claude-x")
    monkeypatch.setenv("DOCS_AGENT_FALLBACK_MODELS", "openai:a, openai:b")
    monkeypatch.setenv("DOCS_AGENT_NUM_SUGGESTIONS", "5")
    monkeypatch.setenv("DOCS_AGENT_PRUNE_HISTORY", "false")
    ctx = Context()
    assert ctx.model == "anthropic:claude-x" and ctx.fallback_chain == ["openai:a", "openai:b"]
    assert ctx.num_suggestions == 5 and ctx.prune_history is False
    assert Context(model="offline", num_suggestions=0).num_suggestions == 0


def test_context_fields_carry_descriptions_for_studio() -> None:
    from dataclasses import fields

    assert all(f.metadata.get("description") for f in fields(Context))


def test_context_of_accepts_dicts_and_ignores_unknown_keys() -> None:
    class R:
        context = {"model": "offline", "language": "Polish", "bogus": 1}

    ctx = context_of(R())
    assert ctx.language == "Polish" and ctx.model == "offline"


def test_model_field_is_marked_for_studios_model_picker() -> None:
    import typing

    hint = typing.get_type_hints(Context, include_extras=True)["model"]
    assert typing.get_origin(hint) is typing.Annotated
    assert typing.get_args(hint) == (str, {"__template_metadata__": {"kind": "llm"}})


def test_studios_form_shows_the_deployments_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphs.deep_agent import graph as deep_agent
    from graphs.docs_agent import graph as docs_agent

    monkeypatch.setenv("DOCS_AGENT_NUM_SUGGESTIONS", "5")
    monkeypatch.setenv("DOCS_AGENT_LANGUAGE", "German")
    current.cache_clear()  # the deployment's settings are read once per process
    for graph in (docs_agent, deep_agent):
        props = graph.get_context_jsonschema()["properties"]
        defaults = {name: prop["default"] for name, prop in props.items()}
        assert defaults == {
            "model": "offline",
            "fallback_models": "",
            "language": "German",
            "num_suggestions": 5,
            "prune_history": True,
        }
        assert all(prop.get("description") for prop in props.values())
