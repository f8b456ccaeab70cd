"""commands/check_auth.py: the settings check a start makes, with each engine's `.env` precedence."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from commands.check_auth import main
from tests.unit.server.auth_cases import (
    TA,
)


def test_operator_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"auth_tokens={TA}:alice\n")
    monkeypatch.setattr(os, "environ", {"AUTH_TOKENS": f"{TA}:alice"})
    assert main(["--check"]) == 0
    assert "1 static token(s)" in capsys.readouterr().out
    assert main(["--check", "--env-file", str(env_file)]) == 2
    assert "auth_tokens" in capsys.readouterr().err
    # Aegra: the environment wins over .env; `langgraph dev`: .env wins.
    env_file.write_text("AUTH_TOKENS=short:alice\n")
    assert main(["--check", "--env-file", str(env_file)]) == 0
    assert main(["--check", "--dev", "--env-file", str(env_file)]) == 2
    monkeypatch.setattr(os, "environ", {})
    assert main(["--check"]) == 2 and "No auth configured" in capsys.readouterr().err
    assert main(["--check", "--dev"]) == 0 and "dev mode" in capsys.readouterr().out
