"""server/web/app.py: the chat page's assets (ETag, 304, immutable versions), guest tokens, its address."""

from __future__ import annotations

import re

import httpx
import pytest

from server.web import app as web_app
from settings.web import WebSettings


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=web_app.app), base_url="http://assistant.test"
    )


def test_vendored_libraries_are_served_by_name_with_their_licences_beside() -> None:
    assert {
        "vendor/markdown-it/markdown-it.min.js",
        "vendor/dompurify/purify.min.js",
        "vendor/highlight/core.min.js",
        "vendor/highlight/languages/python.min.js",
    } <= web_app.VENDOR_FILES
    assert all(n.endswith((".js", ".css")) for n in web_app.VENDOR_FILES)
    for lib in ("markdown-it", "dompurify", "highlight"):
        assert (web_app.STATIC / "vendor" / lib / "LICENSE").is_file()
    readme = (web_app.STATIC / "vendor" / "README.md").read_text()
    assert "15.0.3" in readme and "3.4.18" in readme and "11.12.0" in readme


def test_the_page_names_its_assets_by_content_hash() -> None:
    raw, _ = web_app._asset("index.html")
    urls = re.findall(rb'(?:src|href)="(/chat/static/[^"]+)"', raw)
    assert len(urls) == 5  # style, markdown-it, DOMPurify, the page script, instant search
    for url in urls:
        name, version = url.decode().removeprefix("/chat/static/").split("?v=")
        assert version == web_app.content_hash(web_app._asset(name)[0])


async def test_etag_304_and_immutable_only_for_the_current_version() -> None:
    async with _client() as c:
        first = await c.get("/chat/static/chat.js", headers={"Accept-Encoding": "gzip"})
        assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
        etag = first.headers["etag"]
        assert etag.endswith('-gz"')
        again = await c.get(
            "/chat/static/chat.js", headers={"Accept-Encoding": "gzip", "If-None-Match": etag}
        )
        assert again.status_code == 304 and again.content == b""
        # The identity body is another representation: the gzip tag does not validate it.
        plain = await c.get(
            "/chat/static/chat.js", headers={"Accept-Encoding": "identity", "If-None-Match": etag}
        )
        assert plain.status_code == 200 and plain.headers["etag"] != etag
        version = web_app.content_hash(web_app._asset("chat.js")[0])
        current = await c.get(f"/chat/static/chat.js?v={version}")
        assert current.headers["cache-control"] == web_app.IMMUTABLE
        old = await c.get("/chat/static/chat.js?v=0123456789abcdef")
        assert old.headers["cache-control"] == "no-cache"
        page = await c.get("/chat")
        assert page.headers["cache-control"] == "no-cache" and page.headers["etag"]
        widget = await c.get("/chat/widget.js")
        assert widget.headers["cache-control"] == "public, max-age=300, must-revalidate"
        for path in (
            "/chat/static/vendor/README.md",
            "/chat/static/vendor/update.sh",
            "/chat/static/vendor/markdown-it/LICENSE",
            "/chat/static/vendor/../app.py",
            "/chat/static/index.html",
        ):
            assert (await c.get(path)).status_code == 404, path


@pytest.mark.parametrize(
    ("env", "argv", "expected"),
    [
        ({"LANGGRAPH_API_URL": "http://127.0.0.1:8123"}, [], "http://127.0.0.1:8123/chat"),
        (
            {},
            ["aegra", "serve", "--host", "0.0.0.0", "--port", "9000"],
            "http://127.0.0.1:9000/chat",
        ),
        ({}, ["uvicorn", "--port=8080"], "http://127.0.0.1:8080/chat"),
        ({}, ["python"], "/chat"),
    ],
)
def test_the_start_log_names_the_page(env: dict[str, str], argv: list[str], expected: str) -> None:
    assert web_app.page_address(WebSettings.from_env(env), argv) == expected


def test_static_files_are_the_shipped_ones_and_compress() -> None:
    raw, packed = web_app._asset("chat.js")
    assert raw.startswith(b"// docs-agent chat page") and len(packed) < len(raw)
    assert {"chat.js", "chat.css", "instant.js", "source.js"} <= set(web_app.ASSET_FILES)


async def test_guest_tokens_only_for_this_servers_own_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    from server import guest
    from server.guest import GuestService
    from settings.guests import GuestConfig

    svc = GuestService(GuestConfig(enabled=True, secret="q" * 40))
    monkeypatch.setattr(guest, "CONFIG", svc.config)
    monkeypatch.setattr(guest, "SERVICE", svc)
    transport = httpx.ASGITransport(app=web_app.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://assistant.test") as c:
        own = await c.post("/chat/api/guest", headers={"Origin": "http://assistant.test"})
        assert own.status_code == 200 and own.json()["token"].startswith("guest.")
        foreign = await c.post("/chat/api/guest", headers={"Origin": "https://evil.example"})
        assert foreign.status_code == 403
        assert (await c.get("/chat/static/../app.py")).status_code == 404
        page = await c.get("/chat")
        assert "frame-ancestors 'self'" in page.headers["content-security-policy"]
    monkeypatch.setattr(guest, "CONFIG", GuestConfig())
    async with httpx.AsyncClient(transport=transport, base_url="http://assistant.test") as c:
        assert (await c.post("/chat/api/guest")).status_code == 404
