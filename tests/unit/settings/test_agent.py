"""settings/agent.py: one table of the agent's variables; tuning numbers lenient, flags not."""

from __future__ import annotations

import pytest

from settings.values import SettingError


def test_settings_table_covers_every_field_and_keeps_defaults_on_bad_values() -> None:
    import dataclasses

    from settings.agent import ENV, AgentSettings

    assert [f.name for f in dataclasses.fields(AgentSettings)] == list(ENV)
    defaults = AgentSettings()
    assert AgentSettings.from_env({}) == defaults
    bad = AgentSettings.from_env({"DOCS_AGENT_MAX_MODEL_CALLS": "many", "DOCS_AGENT_LANGUAGE": " "})
    assert bad.max_model_calls == 8 and bad.language == "auto"
    parsed = AgentSettings.from_env(
        {
            "DOCS_AGENT_GUARDRAILS": "off",
            "DOCS_AGENT_GUARDRAILS_ALLOW": "Foo, bar",
            "OPENAI_API_KEY": "k",
        }
    )
    assert parsed.guardrails is False and parsed.guardrails_allow == ("foo", "bar")
    assert parsed.default_model == "openai:gpt-4.1-mini"


def test_the_agents_switches_take_the_one_vocabulary() -> None:
    from settings.agent import AgentSettings

    assert AgentSettings.from_env({"DOCS_AGENT_PRUNE_HISTORY": "no"}).prune_history is False
    assert AgentSettings.from_env({"DOCS_AGENT_GUARDRAILS": "ON"}).guardrails is True
    # "enabled" was read as on here (anything not a "false" word): now it names the variable.
    with pytest.raises(SettingError, match="DOCS_AGENT_GUARDRAILS"):
        AgentSettings.from_env({"DOCS_AGENT_GUARDRAILS": "enabled"})
