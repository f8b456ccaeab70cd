"""settings/report.py: the turn records' lifetime and the report's operators."""

from __future__ import annotations

from settings.report import ReportSettings


def test_ttl_in_minutes() -> None:
    def ttl_minutes(env: dict[str, str]) -> float:
        return ReportSettings.from_env(env).ttl_minutes

    assert ttl_minutes({}) == 90 * 1440
    assert ttl_minutes({"DOCS_AGENT_REPORT_TTL_DAYS": "7"}) == 7 * 1440
    assert ttl_minutes({"DOCS_AGENT_REPORT_TTL_DAYS": "x"}) == 90 * 1440


def test_operators_from_env() -> None:
    def operators(env: dict[str, str]) -> frozenset[str]:
        return ReportSettings.from_env(env).operators

    assert operators({}) == frozenset()
    assert operators({"AUTH_OPERATORS": " ops , lead ,"}) == {"ops", "lead"}
