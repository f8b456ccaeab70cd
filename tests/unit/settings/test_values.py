"""settings/values.py: one flag vocabulary everywhere; a bad value names its variable."""

from __future__ import annotations

import logging

import pytest

from settings.values import Reader, SettingError, parse_flag, split_list


def test_one_flag_vocabulary() -> None:
    for word in ("true", "1", "yes", "on", "TRUE", " On "):
        assert parse_flag("X", word) is True
    for word in ("false", "0", "no", "off", "FALSE", " Off "):
        assert parse_flag("X", word) is False
    for word in ("enabled", "disabled", "y", "n", "2", "truthy", ""):
        with pytest.raises(SettingError, match="DOCS_AGENT_X"):
            parse_flag("DOCS_AGENT_X", word)


def test_unset_or_blank_keeps_the_default() -> None:
    reader = Reader({"B": "  ", "W": ""})
    assert reader.flag("A", True) is True and reader.flag("B", False) is False
    assert reader.whole("W", 7) == 7 and reader.number("A", 1.5) == 1.5
    assert reader.text("B", "d") == "d" and reader.words("A") == ()
    assert reader.names_read == {"A", "B", "W"}


def test_numbers_strict_by_default_lenient_when_asked(caplog: pytest.LogCaptureFixture) -> None:
    reader = Reader({"N": "many", "LOW": "0", "F": "1e3", "NAN": "nan"})
    with pytest.raises(SettingError, match="N='many'"):
        reader.whole("N", 3)
    with pytest.raises(SettingError, match="LOW='0': give a whole number >= 1"):
        reader.whole("LOW", 3, minimum=1)
    assert reader.number("F", 1.0) == 1000.0
    with pytest.raises(SettingError, match="NAN"):
        reader.number("NAN", 1.0)
    with caplog.at_level(logging.ERROR):
        assert reader.whole("N", 3, lenient=True) == 3
    assert "N='many' is not a whole number; using 3" in caplog.text


def test_choices_and_lists() -> None:
    reader = Reader({"C": " HTML ", "BAD": "slashes"})
    assert reader.choice("C", ("auto", "html")) == "html"
    assert reader.choice("UNSET", ("auto", "html")) == "auto"
    with pytest.raises(SettingError, match="BAD='slashes': use one of auto, html"):
        reader.choice("BAD", ("auto", "html"))
    assert split_list(" a, b,,c ,") == ("a", "b", "c")
