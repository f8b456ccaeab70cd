"""server/web/origins.py: which sites may embed the assistant (settings/web.py parses the list)."""

from __future__ import annotations

import pytest

from server.web import origins
from server.web.origins import frame_ancestors, may_embed

LISTED = ["https://docs.example.com"]


def test_the_server_itself_and_listed_sites_only() -> None:
    assert may_embed("https://docs.example.com", "assistant.test", LISTED)
    assert may_embed("https://docs.example.com/", "assistant.test", LISTED)
    assert may_embed("http://assistant.test", "assistant.test", [])  # its own pages
    for refused in (
        "https://evil.example",
        "https://docs.example.com/path",  # an origin has no path
        "ftp://docs.example.com",
        "",
        "null",
        "docs.example.com",
    ):
        assert not may_embed(refused, "assistant.test", LISTED), refused


def test_frame_ancestors_name_the_server_and_the_listed_sites(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(origins, "FRAME_ORIGINS", LISTED)
    assert frame_ancestors() == "'self' https://docs.example.com"
    assert may_embed("https://docs.example.com", "assistant.test")
