"""llms.txt sites that fail, change and grow: the cache is never lost, every fetch is conditional."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tools.docs import create_docs_tools
from tools.settings import LiveSourceSettings
from tools.sources.live import fetch as http_fetch
from tools.sources.live.llms_txt import LlmsTxtCorpus, split_full_text

BASE = "https://docs.example"


class FakeSite:
    """Pages by path with ETags; answers conditional GETs and logs every request."""

    def __init__(self, pages: int = 3) -> None:
        self.files: dict[str, tuple[bytes, str, str]] = {}  # path -> (body, etag, content type)
        self.requests: list[tuple[str, str]] = []  # (path, If-None-Match)
        self.override: dict[str, httpx.Response] = {}
        self.gate: threading.Event | None = None
        links = "\n".join(f"- [Page {i}](/docs/p{i}.md): page {i}" for i in range(pages))
        self.put("/llms.txt", f"# Site\n\n{links}\n")
        for i in range(pages):
            self.put(f"/docs/p{i}.md", f"# Page {i}\n\n## Topic\n\nWidget{i} configuration.\n")

    def put(self, path: str, body: str | bytes, ctype: str = "text/markdown") -> None:
        raw = body.encode() if isinstance(body, str) else body
        self.files[path] = (raw, f'"{hash(raw) & 0xFFFFFF:x}"', ctype)

    def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        inm = request.headers.get("if-none-match", "")
        self.requests.append((path, inm))
        if self.gate is not None and path == "/llms.txt":
            self.gate.wait(10)
        if path in self.override:
            return self.override[path]
        if path not in self.files:
            return httpx.Response(404, text="missing")
        body, etag, ctype = self.files[path]
        if inm == etag:
            return httpx.Response(304, headers={"ETag": etag})
        return httpx.Response(200, content=body, headers={"ETag": etag, "Content-Type": ctype})

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self.handler))


def corpus_for(
    site: FakeSite, index_dir: Path, url: str = f"{BASE}/llms.txt", **live: Any
) -> LlmsTxtCorpus:
    return LlmsTxtCorpus(url, index_dir, client=site.client(), live=LiveSourceSettings(**live))


def cached_pages(corpus: LlmsTxtCorpus) -> list[str]:
    return sorted(p.name for p in corpus.root.rglob("*.md"))


@pytest.mark.parametrize(
    ("body", "ctype", "reason"),
    [
        ("<!doctype html><html><body>Down for maintenance</body></html>", "text/html", "HTML"),
        ("", "text/plain", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "application/octet-stream", "binary"),
        ("# Site\n\nWe are moving, back soon.\n", "text/plain", "no page links"),
    ],
)
def test_a_maintenance_llms_txt_keeps_every_cached_page(
    index_dir: Path, body: str | bytes, ctype: str, reason: str
) -> None:
    site = FakeSite(pages=5)
    corpus = corpus_for(site, index_dir)
    corpus.sync()
    assert len(cached_pages(corpus)) == 5
    site.put("/llms.txt", body, ctype)
    counts = corpus.fetch()
    stats = corpus.sync()
    assert counts["removed"] == 0 and stats.removed == 0
    assert len(cached_pages(corpus)) == 5 and len(corpus.index) == 5
    assert reason in (corpus.problem or "")
    # The tool says it, beside the cached results.
    search, _ = create_docs_tools(corpus)
    out = search.invoke({"query": "Widget3 configuration", "feedback_to_user": ""})
    assert "Page 3" in out and "served from the cached copy" in out and reason in out
    # A new process on the same cache, the site back: the llms.txt validators were not replaced
    # by the maintenance page's, so everything comes back as 304.
    site.put("/llms.txt", _links(5))
    again = corpus_for(site, index_dir)
    site.requests.clear()
    again.sync()
    assert again.problem is None and len(again.index) == 5


def _links(n: int) -> str:
    return "# Site\n\n" + "\n".join(f"- [Page {i}](/docs/p{i}.md): page {i}" for i in range(n))


def test_a_page_that_404s_is_dropped_only_on_consecutive_refreshes(index_dir: Path) -> None:
    site = FakeSite(pages=4)
    corpus = corpus_for(site, index_dir)
    corpus.sync()
    del site.files["/docs/p2.md"]
    assert corpus.fetch()["removed"] == 0
    assert "p2.md" in cached_pages(corpus)
    site.put("/docs/p2.md", "# Page 2\n\nBack again.\n")  # a blip: the count starts over
    corpus.fetch()
    del site.files["/docs/p2.md"]
    assert corpus.fetch()["removed"] == 0
    assert corpus.fetch()["removed"] == 1
    corpus.sync()
    assert "p2.md" not in cached_pages(corpus) and len(corpus.index) == 3


def test_a_large_drop_in_pages_waits_for_confirmation(index_dir: Path) -> None:
    site = FakeSite(pages=10)
    corpus = corpus_for(site, index_dir)
    corpus.sync()
    site.put("/llms.txt", _links(2))
    corpus.sync()
    assert len(corpus.index) == 10 and "2 of the 10" in (corpus.problem or "")
    corpus.sync()  # seen again: the site really shrank
    assert len(corpus.index) == 2 and corpus.problem is None


def test_a_warm_restart_costs_one_conditional_get_per_page(index_dir: Path) -> None:
    site = FakeSite(pages=20)
    corpus_for(site, index_dir).sync()
    site.requests.clear()
    again = corpus_for(site, index_dir)
    stats = again.sync()
    assert len(site.requests) == 21 and all(inm for _, inm in site.requests)
    assert stats.added == stats.updated == stats.removed == 0


def test_a_question_during_the_first_fetch_does_not_start_a_second(index_dir: Path) -> None:
    site = FakeSite(pages=6)
    corpus = corpus_for(site, index_dir)
    site.gate = threading.Event()
    warm = threading.Thread(target=corpus.ensure_synced)
    warm.start()
    while not site.requests:  # the warm-up's fetch has begun
        threading.Event().wait(0.01)
    question = threading.Thread(target=lambda: corpus.search("Widget1", 3))
    question.start()
    site.gate.set()
    warm.join(20)
    question.join(20)
    assert [p for p, _ in site.requests].count("/llms.txt") == 1
    assert len(site.requests) == 7


def test_a_question_during_a_restart_fetch_is_answered_from_the_cache(index_dir: Path) -> None:
    site = FakeSite(pages=3)
    corpus_for(site, index_dir).sync()
    corpus = corpus_for(site, index_dir)
    site.gate = threading.Event()
    warm = threading.Thread(target=corpus.ensure_synced)
    warm.start()
    while not site.requests:
        threading.Event().wait(0.01)
    assert corpus.search("Widget1 configuration", 3)[0].title == "Page 1"  # not waiting
    site.gate.set()
    warm.join(20)


def test_caps_are_settings_and_are_announced(index_dir: Path) -> None:
    site = FakeSite(pages=5)
    site.put("/docs/p4.md", "# Page 4\n\n" + "big " * 400)
    corpus = corpus_for(site, index_dir, max_pages=4, max_page_bytes=1000)
    corpus.sync()
    problem, caps = corpus.status()
    assert any("lists 5 pages; only the first 4" in c for c in caps)
    site.put("/llms.txt", "- [Page 4](/docs/p4.md)\n" + _links(3))
    corpus = corpus_for(site, index_dir, max_pages=4, max_page_bytes=1000, max_drop=1.0)
    corpus.sync()
    assert any("larger than 1000 bytes" in c for c in corpus.status()[1])
    search, _ = create_docs_tools(corpus)
    out = search.invoke({"query": "Widget1", "feedback_to_user": ""})
    assert "partly indexed" in out


def test_llms_full_txt_is_read_as_the_pages_themselves(index_dir: Path) -> None:
    site = FakeSite(pages=0)
    site.put(
        "/llms-full.txt",
        "# Guide one\n\nSource: https://docs.example/guide/one.md\n\nAlpha setup. See [x](/x.md).\n\n"
        "```python\n# not a page\nprint(1)\n```\n\n"
        "# Guide two\n\nBeta tuning explained.\n",
    )
    corpus = corpus_for(site, index_dir, url=f"{BASE}/llms-full.txt")
    corpus.sync()
    assert [p for p, _ in site.requests] == ["/llms-full.txt"]  # its links are not followed
    one = corpus.search("alpha setup", 3)[0]
    assert one.title == "Guide one" and one.url == f"{BASE}/guide/one"
    two = corpus.search("beta tuning", 3)[0]
    assert two.title == "Guide two" and two.url == f"{BASE}/llms-full.txt#guide-two"
    assert len(split_full_text(site.files["/llms-full.txt"][0].decode(), f"{BASE}/x")) == 2


def test_an_html_page_is_read_as_text(index_dir: Path) -> None:
    site = FakeSite(pages=1)
    site.put(
        "/docs/p0.md",
        "<html><head><title>Setup guide</title><script>x()</script></head><body>"
        "<nav>Home Menu</nav><h2>Install</h2><p>Run <code>make dev</code> now.</p></body></html>",
        "text/html",
    )
    corpus = corpus_for(site, index_dir)
    corpus.sync()
    doc = corpus.find(f"{BASE}/docs/p0")
    assert doc is not None and doc.title == "Setup guide"
    text = "\n".join(s.text for s in doc.sections)
    assert "`make dev`" in text and "<" not in text and "Menu" not in text


def test_a_site_down_at_first_start_says_so_and_is_retried(
    index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(http_fetch, "sleep", lambda s: None)
    site = FakeSite(pages=2)
    site.override["/llms.txt"] = httpx.Response(503, text="down")
    corpus = corpus_for(site, index_dir, refresh_s=3600)
    search, _ = create_docs_tools(corpus)
    msg = search.invoke(
        {
            "type": "tool_call",
            "id": "1",
            "name": "search_docs",
            "args": {"query": "Widget1", "feedback_to_user": ""},
        }
    )
    assert msg.status == "error" and "The documentation could not be reached" in msg.text
    assert "503" in msg.text
    assert corpus.refresh_due(corpus.last_refresh + 61)  # a failed source is retried soon
    assert not corpus.refresh_due(corpus.last_refresh + 30)
    del site.override["/llms.txt"]
    corpus.refresh()
    assert corpus.problem is None and corpus.search("Widget1", 3)
