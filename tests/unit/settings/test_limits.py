"""settings/limits.py: the per-user limits are lenient, a bad value keeps the default and is logged."""

from __future__ import annotations

import pytest

from settings.limits import Limits


def test_settings_parse_and_bad_values_keep_the_defaults(caplog: pytest.LogCaptureFixture) -> None:
    assert Limits.from_env({}) == Limits()
    assert Limits.from_env(
        {
            "DOCS_AGENT_MAX_RUNS_PER_USER": "0",
            "DOCS_AGENT_MAX_WRITE_CHARS": " 500 ",
            "DOCS_AGENT_MAX_STORE_VALUE_CHARS": "50",
        }
    ) == Limits(max_runs_per_user=0, max_write_chars=500, max_store_value_chars=50)
    bad = Limits.from_env(
        {"DOCS_AGENT_MAX_RUNS_PER_USER": "many", "DOCS_AGENT_MAX_WRITE_CHARS": "0"}
    )
    assert bad == Limits()  # the caps are never switched off by a bad value
    assert (
        "DOCS_AGENT_MAX_RUNS_PER_USER" in caplog.text
        and "DOCS_AGENT_MAX_WRITE_CHARS" in caplog.text
    )
