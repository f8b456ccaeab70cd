"""The chat page's asset serving (ETag, 304, immutable versions), its first screen and its address."""

from __future__ import annotations

import re
from types import SimpleNamespace

import httpx
import pytest

from server.web import app as web_app
from server.web import first_screen
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


def test_first_screen_settings_are_trimmed_and_capped() -> None:
    screen = first_screen.configured(
        WebSettings.from_env(
            {
                "DOCS_AGENT_WEB_WELCOME": "  Hi  ",
                "DOCS_AGENT_WEB_EXAMPLES": "a| b ||c|d|e",
                "DOCS_AGENT_WEB_DISCLAIMER": "",
            }
        )
    )
    assert screen == {"welcome": "Hi", "examples": ["a", "b", "c", "d"], "disclaimer": None}


class _Index:
    def __init__(self, titles: dict[str, str]) -> None:
        self.titles = titles

    def keys(self) -> list[str]:
        return list(self.titles)

    def get(self, key: str) -> SimpleNamespace | None:
        return SimpleNamespace(title=self.titles[key]) if key in self.titles else None


def _docs(
    nav: tuple[str, ...] | None, titles: dict[str, str], nav_titles: dict[str, str]
) -> SimpleNamespace:
    site = SimpleNamespace(nav=nav, title_for=nav_titles.get)
    return SimpleNamespace(site=site, index=_Index(titles), _synced=True)


def test_example_topics_follow_the_navigation_without_the_home_page() -> None:
    docs = _docs(
        ("index.md", "start.md", "guide/stream.md", "guide/auth.md", "api.md", "faq.md"),
        {"start.md": "Get started", "guide/stream.md": "Streaming", "api.md": "API"},
        {"guide/auth.md": "Auth (nav title)"},
    )
    assert first_screen.titles_in_reading_order(docs) == [
        "Get started",
        "Streaming",
        "Auth (nav title)",
        "API",
    ]


def test_example_topics_without_navigation_are_the_shallowest_pages() -> None:
    docs = _docs(
        None,
        {
            "index.md": "Home",
            "b.md": "Bravo",
            "a.md": "Alpha",
            "deep/x.md": "Deep",
            "README.md": "R",
        },
        {},
    )
    assert first_screen.titles_in_reading_order(docs) == ["Alpha", "Bravo", "Deep"]
    docs._synced = False  # an index still building is never waited for
    assert first_screen.titles_in_reading_order(docs) == []


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
