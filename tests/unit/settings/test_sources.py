"""settings/sources.py: the sources' closed choices, switches and paths."""

from __future__ import annotations

import pytest

from settings.dotenv import REPO_ROOT
from settings.sources import SourceSettings
from settings.values import SettingError
from tools.docs import docs_source


def test_defaults_answer_about_this_repository() -> None:
    s = SourceSettings.from_env({})
    assert s.docs_dir == REPO_ROOT / "docs" and s.kb_dir == REPO_ROOT / "kb"
    assert s.code_roots == ("docs-agent=.", "langgraph") and s.warm_up is True
    assert SourceSettings.from_env({"DOCS_AGENT_DOCS_DIR": ""}).docs_dir is None


def test_switches_and_embeddings_take_the_one_vocabulary() -> None:
    assert SourceSettings.from_env({"DOCS_AGENT_WARM_UP": "off"}).warm_up is False
    with pytest.raises(SettingError, match="DOCS_AGENT_WARM_UP"):
        SourceSettings.from_env({"DOCS_AGENT_WARM_UP": "later"})
    for word in ("use", "on", "true", "USE", "use-multilingual-v3"):
        assert SourceSettings.from_env({"DOCS_AGENT_EMBEDDINGS": word}).embeddings == "use"
    for word in ("off", "false", "0", "none"):
        assert SourceSettings.from_env({"DOCS_AGENT_EMBEDDINGS": word}).embeddings == "off"
    with pytest.raises(SettingError, match="DOCS_AGENT_EMBEDDINGS"):
        SourceSettings.from_env({"DOCS_AGENT_EMBEDDINGS": "bert"})


def test_a_generator_the_registry_does_not_know_is_refused_where_the_docs_open() -> None:
    settings = SourceSettings.from_env({"DOCS_AGENT_DOCS_GENERATOR": "Hugo-ish"})
    assert settings.docs_generator == "hugo-ish"
    with pytest.raises(SettingError, match="DOCS_AGENT_DOCS_GENERATOR='hugo-ish': use one of auto"):
        docs_source(settings)
    with pytest.raises(SettingError, match="DOCS_AGENT_DOCS_SLUG"):
        docs_source(SourceSettings.from_env({"DOCS_AGENT_DOCS_SLUG": "kebab"}))


def test_live_numbers_are_lenient_and_bounded() -> None:
    live = SourceSettings.from_env(
        {
            "DOCS_AGENT_REFRESH_S": "-5",
            "DOCS_AGENT_LLMS_MAX_DROP": "3",
            "DOCS_AGENT_SOURCE_RETRIES": "x",
        }
    ).live
    assert live.refresh_s == 0.0 and live.max_drop == 1.0 and live.retries == 1
