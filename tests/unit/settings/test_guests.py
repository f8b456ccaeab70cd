"""settings/guests.py: guest mode is off unless switched on safely; the guests' search budget."""

from __future__ import annotations

import pytest

from settings.guests import GuestConfig, GuestConfigError, SearchLimits
from settings.values import SettingError

SECRET = "s" * 40


def test_guest_mode_is_off_unless_switched_on_with_a_strong_secret() -> None:
    assert GuestConfig.from_env({}).enabled is False
    assert GuestConfig.from_env({"DOCS_AGENT_GUEST_SECRET": SECRET}).enabled is False
    with pytest.raises(GuestConfigError):
        GuestConfig.from_env({"DOCS_AGENT_GUESTS": "true"})
    with pytest.raises(GuestConfigError):
        GuestConfig.from_env({"DOCS_AGENT_GUESTS": "true", "DOCS_AGENT_GUEST_SECRET": "short"})
    with pytest.raises(GuestConfigError):
        GuestConfig.from_env(
            {
                "DOCS_AGENT_GUESTS": "true",
                "DOCS_AGENT_GUEST_SECRET": SECRET,
                "AUTH_JWT_SECRET": SECRET,
            }
        )
    with pytest.raises(GuestConfigError):
        GuestConfig.from_env(
            {
                "DOCS_AGENT_GUESTS": "true",
                "DOCS_AGENT_GUEST_SECRET": SECRET,
                "DOCS_AGENT_GUEST_RUNS_PER_HOUR": "0",
            }
        )
    on = GuestConfig.from_env(
        {
            "DOCS_AGENT_GUESTS": "on",
            "DOCS_AGENT_GUEST_SECRET": SECRET,
            "DOCS_AGENT_GUEST_TTL_S": "600",
        }
    )
    assert on.enabled and on.ttl_s == 600


def test_the_guest_switch_takes_the_one_flag_vocabulary_and_nothing_else() -> None:
    on = {"DOCS_AGENT_GUEST_SECRET": "x1y2" * 10}
    for word in ("true", "1", "yes", "on", " ON "):
        assert GuestConfig.from_env({**on, "DOCS_AGENT_GUESTS": word}).enabled
    for word in ("false", "0", "no", "off", ""):
        assert not GuestConfig.from_env({**on, "DOCS_AGENT_GUESTS": word}).enabled
    # "enabled" used to mean off here (and on elsewhere): now it is an error naming the variable.
    for word in ("enabled", "y", "2"):
        with pytest.raises(SettingError, match="DOCS_AGENT_GUESTS"):
            GuestConfig.from_env({**on, "DOCS_AGENT_GUESTS": word})


def test_the_guests_search_budget_is_positive_whole_numbers() -> None:
    assert SearchLimits.from_env({}) == SearchLimits(180, 600)
    assert SearchLimits.from_env(
        {
            "DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE": " 30 ",
            "DOCS_AGENT_GUEST_ADDRESS_SEARCHES_PER_MINUTE": "90",
        }
    ) == SearchLimits(30, 90)
    for bad in ("0", "-1", "many", "1.5"):
        with pytest.raises(SettingError, match="DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE"):
            SearchLimits.from_env({"DOCS_AGENT_GUEST_SEARCHES_PER_MINUTE": bad})
