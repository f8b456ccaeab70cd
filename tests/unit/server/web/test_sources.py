"""The cited-source viewer (`/chat/source`, `/chat/api/source`) and the widget's origin check."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from unittest import mock

import httpx
import pytest

from server import guest
from server.guest import GuestService
from server.web import app as web_app
from server.web import origins, sources, widget_api
from settings.auth import AuthConfig
from settings.guests import GuestConfig
from settings.sources import SourceSettings
from tools import Sources, load_sources

with mock.patch.dict(os.environ, {"AUTH_DEV_MODE": "true"}):
    from server import auth as A

TOKEN = "tok-alice-0123456789"
BASE = "http://assistant.test"


def _repo_sources(index_dir: Path, **env: str) -> Sources:
    return load_sources(
        SourceSettings.from_env(
            {
                "DOCS_AGENT_INDEX_DIR": str(index_dir),
                "DOCS_AGENT_CODE_ROOTS": "docs-agent=.",
                "DOCS_AGENT_EMBEDDINGS": "off",
                **env,
            }
        )
    )


@pytest.fixture
def corpus(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sources]:
    """The repo's own sources behind the viewer; users: alice (token), guests on."""
    found = _repo_sources(index_dir)
    monkeypatch.setattr(sources, "load_sources", lambda: found)
    monkeypatch.setattr(
        A, "CONFIG", AuthConfig.from_env({"AUTH_TOKENS": f"{TOKEN}:alice"}, local_dev=True)
    )
    svc = GuestService(GuestConfig(enabled=True, secret="q" * 40))
    monkeypatch.setattr(guest, "CONFIG", svc.config)
    monkeypatch.setattr(guest, "SERVICE", svc)
    yield found


@pytest.fixture
async def client(corpus: Sources) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=web_app.app)
    async with httpx.AsyncClient(
        transport=transport, base_url=BASE, headers={"Authorization": f"Bearer {TOKEN}"}
    ) as c:
        yield c


def _section(found: Sources) -> tuple[str, str, str]:
    """(page URL, anchor, heading) of a level-2 section followed by one of its subsections."""
    found.docs.ensure_synced()
    for key in sorted(found.docs.index.keys()):
        doc = found.docs.get(key)
        for i, sec in enumerate(doc.sections[:-1]):
            if sec.level == 2 and sec.anchor and doc.sections[i + 1].level == 3:
                return doc.url, sec.anchor, sec.heading
    raise AssertionError("no nested section in docs/")


async def test_a_cited_section_shows_with_its_subsections_only(
    client: httpx.AsyncClient, corpus: Sources
) -> None:
    url, anchor, heading = _section(corpus)
    r = await client.get("/chat/api/source", params={"ref": f"{url}#{anchor}"})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    assert body["kind"] == "doc" and body["url"] is None and body["section"] == [heading]
    assert body["section_only"] is True and f">{heading}</h" in body["html"]
    doc = corpus.docs.find(url)
    others = [s.heading for s in doc.sections if s.level == 2 and s.heading != heading]
    assert others and not any(f">{h}</h" in body["html"] for h in others)
    whole = (await client.get("/chat/api/source", params={"ref": url})).json()
    assert whole["section_only"] is False and all(f">{h}</h" in whole["html"] for h in others)


async def test_articles_and_code_lines_open(client: httpx.AsyncClient) -> None:
    kb = (await client.get("/chat/api/source", params={"ref": "KB errors/401-unauthorized"})).json()
    assert kb["kind"] == "kb" and "401" in kb["title"] and "Authorization" in kb["html"]
    r = await client.get("/chat/api/source", params={"ref": "docs-agent/server/guest.py:10-12"})
    code = r.json()
    assert code["kind"] == "code" and code["language"] == "python"
    assert (code["start"], code["end"]) == (10, 12)
    numbers = [line["n"] for line in code["lines"]]
    assert numbers == list(range(5, 18))  # five lines of context either side
    lines = Path("server/guest.py").read_text().splitlines()
    assert [line["text"] for line in code["lines"]] == lines[4:17]


@pytest.mark.parametrize(
    "ref",
    [
        "docs/no-such-page.md",
        "KB errors/no-such-article",
        "docs-agent/.env.example:1-2",
        "docs-agent/../../../etc/passwd.txt:1-2",
        "docs-agent/server/guest.py:100000-100002",
        "javascript:alert(1)",
        "just words",
        "https://elsewhere.example.com/page",
    ],
)
async def test_anything_that_is_no_citation_of_a_held_source_is_404(
    client: httpx.AsyncClient, ref: str
) -> None:
    r = await client.get("/chat/api/source", params={"ref": ref})
    assert r.status_code == 404, (ref, r.text)
    assert "Traceback" not in r.text and "Error" not in r.json()["detail"]


async def test_callers_must_be_signed_in_users_or_guests(client: httpx.AsyncClient) -> None:
    ref = {"ref": "KB errors/401-unauthorized"}
    anonymous = await client.get("/chat/api/source", params=ref, headers={"Authorization": ""})
    assert anonymous.status_code == 401
    bad = await client.get("/chat/api/source", params=ref, headers={"Authorization": "Bearer x"})
    assert bad.status_code == 401
    issued = guest.SERVICE.issue("127.0.0.1")
    as_guest = await client.get(
        "/chat/api/source", params=ref, headers={"Authorization": f"Bearer {issued['token']}"}
    )
    assert as_guest.status_code == 200
    assert (await client.get("/chat/api/source")).status_code == 400


async def test_page_markup_is_escaped_and_unsafe_links_dropped(
    tmp_path: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch, corpus: Sources
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "evil.md").write_text(
        "# Evil\n\n## Part\n\n<script>alert(1)</script> <img src=x onerror=alert(2)>\n\n"
        "[click](javascript:alert(3)) and [ok](https://example.com/ok)\n"
    )
    found = _repo_sources(index_dir, DOCS_AGENT_DOCS_DIR=str(docs))
    monkeypatch.setattr(sources, "load_sources", lambda: found)
    ref = found.docs.get("evil.md").url
    transport = httpx.ASGITransport(app=web_app.app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        r = await c.get(
            "/chat/api/source",
            params={"ref": ref},
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
    html = r.json()["html"]
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html
    assert '<a href="https://example.com/ok" rel="noopener noreferrer" target="_blank">' in html
    # Whatever markup a reader lets through is escaped by the renderer itself.
    rendered = sources._markdown().render("<script>alert(1)</script> [x](javascript:alert(1))")
    assert "&lt;script&gt;" in rendered and "<script" not in rendered and "href" not in rendered


async def test_the_viewer_shell_is_static_with_a_strict_csp(client: httpx.AsyncClient) -> None:
    r = await client.get("/chat/source", params={"ref": "<script>"}, headers={"Authorization": ""})
    assert r.status_code == 200 and "<script>" not in r.text.replace(
        '<script src="/chat/static/source.js" defer></script>', ""
    )
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors" in csp
    js = await client.get("/chat/static/source.js")
    assert js.status_code == 200 and js.text.startswith("// docs-agent source viewer")


async def test_the_widget_asks_whether_its_site_may_show_it(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(origins, "FRAME_ORIGINS", ["https://docs.example.com"])

    async def check(origin: str) -> bool:
        r = await client.get("/chat/api/widget", params={"origin": origin}, headers={})
        assert r.headers["access-control-allow-origin"] == "*"
        assert set(r.json()) == {"allowed", "guests"}  # never the list of allowed origins
        return bool(r.json()["allowed"])

    assert await check("https://docs.example.com")
    assert await check(BASE)  # the server's own pages
    for refused in ("https://evil.example", "", "null", "https://docs.example.com/path", "x" * 500):
        assert not await check(refused), refused
    assert widget_api.CACHE_SECONDS > 0


async def test_the_widget_check_passes_the_servers_cors_layer_from_any_site(
    corpus: Sources,
) -> None:
    """langgraph.json's CORS (Studio and loopback only) must not hide the answer from a docs site."""
    import json

    from starlette.middleware.cors import CORSMiddleware

    cors = json.loads((Path(__file__).parents[4] / "langgraph.json").read_text())["http"]["cors"]
    app = CORSMiddleware(
        web_app.app,
        allow_origins=cors["allow_origins"],
        allow_origin_regex=cors["allow_origin_regex"],
        allow_methods=cors["allow_methods"],
        allow_headers=cors["allow_headers"],
        allow_credentials=cors["allow_credentials"],
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        r = await c.get(
            "/chat/api/widget",
            params={"origin": "https://docs.example.com"},
            headers={"Origin": "https://docs.example.com"},
        )
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"
