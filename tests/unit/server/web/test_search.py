"""Instant search (`GET /chat/api/search`): keystroke queries, sections with trails, guest limits."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from unittest import mock

import httpx
import pytest

from server import guest
from server.guest import GuestService
from server.web import app as web_app
from server.web import search
from settings.auth import AuthConfig
from settings.guests import GuestConfig
from settings.sources import SourceSettings
from tools import Sources, load_sources

with mock.patch.dict(os.environ, {"AUTH_DEV_MODE": "true"}):
    from server import auth as A

TOKEN = "tok-alice-0123456789"


def _sources(index_dir: Path, **env: str) -> Sources:
    found = load_sources(
        SourceSettings.from_env(
            {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_EMBEDDINGS": "off", **env}
        )
    )
    found.docs.ensure_synced()
    return found


@pytest.fixture
def docs(index_dir: Path) -> Sources:
    return _sources(index_dir)


def test_the_word_being_typed_is_completed_from_the_index(docs: Sources) -> None:
    index = docs.docs.index
    assert "stream" in search.keystroke_terms(index, "how do I stre")
    assert "stream" in search.keystroke_terms(index, "streami")  # an inflection being typed
    assert search.keystroke_terms(index, "guest to") == ["guest"]  # two letters: not yet
    assert "to" not in search.keystroke_terms(index, "guest to ")  # finished words as written
    assert search.keystroke_terms(index, "  ") == []
    assert search.keystroke_terms(index, "zzqx") == []  # nothing in the index begins so
    # A cut is an inflection only where an ending starts: `checkp` is on its way to a longer word.
    assert all(t.startswith("checkp") for t in search.keystroke_terms(index, "checkp"))
    assert search.keystroke_terms(index, "streame tokens") == ["stream", "token"]


def test_results_are_sections_with_their_trail_and_the_viewer_ref(docs: Sources) -> None:
    results = search.instant_results(docs.docs, "guest tok", 5)
    assert results, "nothing found for a word the docs use"
    first = results[0]
    assert set(first) == {"ref", "kind", "title", "section", "snippet", "url"}
    assert first["kind"] == "doc" and first["url"] is None  # no site: the viewer opens it
    page, _, anchor = first["ref"].partition("#")
    doc = docs.docs.find(page)
    assert doc is not None and first["title"] == doc.title
    if anchor:
        assert any(anchor in s.anchors for s in doc.sections)
        assert first["section"] and first["section"][-1] in [s.heading for s in doc.sections]
    assert "](" not in first["snippet"] and "`" not in first["snippet"]


def test_with_a_site_results_link_to_the_section(index_dir: Path) -> None:
    found = _sources(index_dir, DOCS_AGENT_DOCS_BASE_URL="https://docs.example.com/p")
    results = search.instant_results(found.docs, "guest tok", 5)
    assert results and all(r["url"].startswith("https://docs.example.com/p") for r in results)
    with_anchor = [r for r in results if "#" in r["ref"]]
    assert with_anchor and all(r["url"] == r["ref"] for r in with_anchor)


@pytest.fixture
async def client(
    docs: Sources, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[httpx.AsyncClient]:
    monkeypatch.setattr(search, "load_sources", lambda: docs)
    monkeypatch.setattr(
        A, "CONFIG", AuthConfig.from_env({"AUTH_TOKENS": f"{TOKEN}:alice"}, local_dev=True)
    )
    svc = GuestService(GuestConfig(enabled=True, secret="q" * 40, requests_per_minute=2))
    monkeypatch.setattr(guest, "CONFIG", svc.config)
    monkeypatch.setattr(guest, "SERVICE", svc)
    monkeypatch.setattr(search, "LIMITER", search.GuestSearchLimiter(search.SearchLimits(5, 8)))
    transport = httpx.ASGITransport(app=web_app.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://assistant.test") as c:
        yield c


async def test_the_route_answers_signed_in_users_and_refuses_the_rest(
    client: httpx.AsyncClient,
) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    r = await client.get("/chat/api/search", params={"q": "guest tok", "limit": 3}, headers=auth)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    assert 1 <= len(body["results"]) <= 3 and body["took_ms"] >= 0
    assert r.headers["server-timing"].startswith("search;dur=")
    empty = await client.get("/chat/api/search", params={"q": " "}, headers=auth)
    assert empty.json()["results"] == []
    many = await client.get("/chat/api/search", params={"q": "guest", "limit": 99}, headers=auth)
    assert len(many.json()["results"]) <= search.MAX_LIMIT
    bad = await client.get("/chat/api/search", params={"q": "x", "limit": "ten"}, headers=auth)
    assert bad.status_code == 422 and "limit" in bad.json()["detail"]
    assert (await client.get("/chat/api/search", params={"q": "guest"})).status_code == 401


async def test_guests_have_a_search_allowance_of_their_own(client: httpx.AsyncClient) -> None:
    one = guest.SERVICE.issue("10.0.0.1")
    two = guest.SERVICE.issue("10.0.0.1")  # the same address
    ask = {"q": "guest tok"}

    async def status(token: str) -> httpx.Response:
        return await client.get(
            "/chat/api/search", params=ask, headers={"Authorization": f"Bearer {token}"}
        )

    # Five per guest a minute (the guest's API allowance is 2 a minute: typing does not spend it).
    codes = [(await status(one["token"])).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    limited = await status(one["token"])
    assert int(limited.headers["retry-after"]) > 0 and "per minute" in limited.json()["detail"]
    # Eight per address: the second guest of that address gets the three left.
    codes = [(await status(two["token"])).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    forged = await status("guest.a.b.c")
    assert forged.status_code == 401
