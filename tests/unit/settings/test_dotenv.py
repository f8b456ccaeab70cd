"""settings/dotenv.py: one `.env` reader, with each engine's precedence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from settings import dotenv
from settings.dotenv import configured_env, effective_env, env_file, read_env_file


def test_the_file_wins_as_under_langgraph_dev_and_the_environment_as_under_aegra(
    tmp_path: Path,
) -> None:
    path = tmp_path / ".env"
    path.write_text("A=file\nB=file\n# comment\nlower_case=kept as written\n")
    assert read_env_file(path) == {"A": "file", "B": "file", "lower_case": "kept as written"}
    base = {"A": "env", "C": "env"}
    assert effective_env(base, path, file_wins=True) == {
        "A": "file",
        "B": "file",
        "C": "env",
        "lower_case": "kept as written",
    }
    assert effective_env(base, path, file_wins=False)["A"] == "env"
    assert effective_env(base, tmp_path / "missing", file_wins=True) == base
    assert effective_env(base, None, file_wins=True) == base


def test_a_command_reads_the_file_a_server_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "other.env"
    path.write_text("DOCS_AGENT_LANGUAGE=German\n")
    monkeypatch.setenv("DOCS_AGENT_ENV_FILE", str(path))
    monkeypatch.setenv("DOCS_AGENT_LANGUAGE", "French")
    for name in dotenv.SERVER_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert env_file() == path
    assert configured_env()["DOCS_AGENT_LANGUAGE"] == "German"  # as `langgraph dev` would
    monkeypatch.setitem(sys.modules, "aegra_api", object())  # a server loaded it already
    assert configured_env()["DOCS_AGENT_LANGUAGE"] == "French"
    monkeypatch.setenv("DOCS_AGENT_ENV_FILE", "")
    assert env_file() is None
