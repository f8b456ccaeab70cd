"""settings/web.py: embedding sites, the first screen's texts and the proxies trusted."""

from __future__ import annotations

import pytest

from settings.values import SettingError
from settings.web import WebSettings, parse_trusted_proxies


def test_framing_origins_are_explicit_never_a_wildcard() -> None:
    assert WebSettings.from_env({}).origins == ()
    assert WebSettings.from_env(
        {"DOCS_AGENT_WEB_ORIGINS": "https://docs.example.com/, http://127.0.0.1:9"}
    ).origins == ("https://docs.example.com", "http://127.0.0.1:9")
    for bad in ("*", "https://*.example.com", "docs.example.com"):
        with pytest.raises(SettingError, match="DOCS_AGENT_WEB_ORIGINS"):
            WebSettings.from_env({"DOCS_AGENT_WEB_ORIGINS": bad})


def test_settings_take_addresses_and_networks_and_refuse_the_rest() -> None:
    assert [str(n) for n in parse_trusted_proxies(" 10.0.0.5 ,10.1.0.0/16,,::1 ")] == [
        "10.0.0.5/32",
        "10.1.0.0/16",
        "::1/128",
    ]
    assert WebSettings.from_env({}).trusted_proxies == ()  # trust none by default
    for bad in ("*", "10.0.0.*", "proxy.internal", "10.0.0.0/33", "127.0.0.1 ; rm"):
        with pytest.raises(ValueError, match="DOCS_AGENT_TRUSTED_PROXIES"):
            parse_trusted_proxies(bad)
