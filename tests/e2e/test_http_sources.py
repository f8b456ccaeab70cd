"""HTTP sources against local fixture servers on 127.0.0.1: an llms.txt site and a help-center API."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from testing.live_site import serve_handler
from tools.kb import create_kb_tools
from tools.sources.live.help_center import HelpCenterKnowledgeBase
from tools.sources.live.llms_txt import LlmsTxtCorpus

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


class Site:
    """Mutable content served by the fixture server, plus a request log."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[str, str]] = {}  # path -> (body, etag)
        self.requests: list[tuple[str, str, int]] = []  # (path, if-none-match, status)


def _serve(site: Site) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            inm = self.headers.get("If-None-Match", "")
            if parts.path.startswith("/api/v2/help_center/"):
                return self._api(parts.path, parse_qs(parts.query))
            if parts.path not in site.files:
                return self._send(404, b"missing", "text/plain", parts.path, inm)
            body, etag = site.files[parts.path]
            if inm == etag:
                return self._send(304, b"", "text/markdown", parts.path, inm, etag)
            return self._send(200, body.encode(), "text/markdown", parts.path, inm, etag)

        def _api(self, path: str, query: dict[str, list[str]]) -> None:
            if self.headers.get("Authorization") != "Bearer secret":
                return self._send(401, b"{}", "application/json", path, "")
            if path.endswith("/sections.json"):
                data: Any = {
                    "sections": [{"id": 1, "name": "Errors"}, {"id": 2, "name": "Studio"}],
                    "next_page": None,
                }
            elif path.endswith("/articles/search.json"):
                q = query.get("query", [""])[0].lower()
                results = [
                    a for a in ARTICLES.values() if any(w in a["title"].lower() for w in q.split())
                ]
                data = {"results": results[: int(query.get("per_page", ["25"])[0])]}
            else:
                art_id = path.rsplit("/", 1)[-1].removesuffix(".json")
                if art_id not in ARTICLES:
                    return self._send(
                        404, b'{"error":"RecordNotFound"}', "application/json", path, ""
                    )
                data = {"article": ARTICLES[art_id]}
            return self._send(200, json.dumps(data).encode(), "application/json", path, "")

        def _send(
            self, status: int, body: bytes, ctype: str, path: str, inm: str, etag: str = ""
        ) -> None:
            site.requests.append((path, inm, status))
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            if etag:
                self.send_header("ETag", etag)
            self.end_headers()
            self.wfile.write(body)

    with serve_handler(Handler) as url:
        yield url


ARTICLES: dict[str, dict[str, Any]] = {
    "101": {
        "id": 101,
        "section_id": 1,
        "title": "Recursion limit reached",
        "html_url": "https://help.example.com/hc/articles/101",
        "body": "<h2>Cause</h2><p>The graph ran more than <code>recursion_limit</code> steps.</p>"
        "<ul><li>Raise it in <a href='/docs/config'>config</a></li><li>Check loops</li></ul>"
        '<pre>graph.invoke(x, {"recursion_limit": 50})</pre><script>alert(1)</script>',
    },
    "102": {
        "id": 102,
        "section_id": 2,
        "title": "Studio cannot connect in Safari",
        "html_url": "https://help.example.com/hc/articles/102",
        "body": "<p>Use <b>--tunnel</b>.</p>",
    },
}


@pytest.fixture
def site() -> Iterator[tuple[Site, str]]:
    s = Site()
    gen = _serve(s)
    url = next(gen)
    yield s, url
    next(gen, None)


def test_llms_txt_fetch_index_and_conditional_refetch(
    site: tuple[Site, str], tmp_path: Path
) -> None:
    s, base = site
    s.files["/llms.txt"] = (
        "# Example\n\n- [Streaming](/docs/streaming.md): stream tokens\n"
        f"- [Persistence]({base}/docs/persistence.md)\n- [Elsewhere](https://other.example/x.md)\n",
        '"idx1"',
    )
    s.files["/docs/streaming.md"] = (
        "---\ntitle: Streaming\n---\n\n## Stream tokens\n\nUse stream_mode='messages'.\n",
        '"s1"',
    )
    s.files["/docs/persistence.md"] = (
        "# Persistence\n\n## Checkpointers\n\nSqliteSaver stores checkpoints.\n",
        '"p1"',
    )

    corpus = LlmsTxtCorpus(f"{base}/llms.txt", tmp_path / "index")
    hits = corpus.search("stream mode messages", 5)
    assert hits and hits[0].title == "Streaming"
    assert hits[0].url == f"{base}/docs/streaming"
    assert hits[0].section == "Stream tokens"
    doc = corpus.find(f"{base}/docs/persistence")
    assert doc is not None and doc.title == "Persistence"
    assert not any("other.example" in p for p, _, _ in s.requests)

    # Second sync: every page is unchanged -> conditional GETs answered 304, nothing re-indexed.
    s.requests.clear()
    s.files["/docs/persistence.md"] = (
        "# Persistence\n\n## Checkpointers\n\nPostgresSaver too.\n",
        '"p2"',
    )
    counts = corpus.fetch()
    assert counts == {"fetched": 1, "unchanged": 1, "failed": 0, "removed": 0}
    assert ("/docs/streaming.md", '"s1"', 304) in s.requests
    stats = corpus.sync()
    assert stats.updated == 1 and stats.added == 0
    assert corpus.search("PostgresSaver", 3)[0].title == "Persistence"

    # A page dropped from llms.txt is dropped from the cache and the index.
    s.files["/llms.txt"] = ("- [Streaming](/docs/streaming.md)\n", '"idx2"')
    stats = corpus.sync()
    assert stats.removed == 1
    assert corpus.find(f"{base}/docs/persistence") is None


def test_llms_txt_unreachable_site_keeps_cache(site: tuple[Site, str], tmp_path: Path) -> None:
    s, base = site
    s.files["/llms.txt"] = ("- [Only](/only.md)\n", '"a"')
    s.files["/only.md"] = ("# Only page\n\nInterruptible graphs.\n", '"o"')
    LlmsTxtCorpus(f"{base}/llms.txt", tmp_path / "index").sync()
    dead = LlmsTxtCorpus("http://127.0.0.1:9/llms.txt", tmp_path / "index")
    assert dead.fetch()["failed"] == 1
    # The live corpus's cache still answers after the site is gone.
    s.files.clear()
    again = LlmsTxtCorpus(f"{base}/llms.txt", tmp_path / "index")
    assert again.search("interruptible", 3)[0].title == "Only page"


def test_help_center_backend_through_kb_tools(site: tuple[Site, str]) -> None:
    _, base = site
    kb = HelpCenterKnowledgeBase(base, "secret")
    assert kb.list_collections() == ["Errors", "Studio"]
    hits = kb.search("recursion", 10)
    assert [(h.key, h.collection) for h in hits] == [("101", "Errors")]
    assert kb.search("recursion safari", 10, ["Studio"])[0].key == "102"

    doc = kb.get("101")
    assert doc is not None and doc.collection == "Errors"
    text = "\n".join(f"{s.heading}\n{s.text}" for s in doc.sections)
    assert "`recursion_limit`" in text and "- Raise it in [config](/docs/config)" in text
    assert '```\ngraph.invoke(x, {"recursion_limit": 50})\n```' in text
    assert "alert" not in text
    assert kb.get("999") is None and kb.get("../etc") is None

    search, read = create_kb_tools(kb)
    out = search.invoke({"query": "recursion", "collections": "Nope", "feedback_to_user": ""})
    assert "Unknown collection(s): Nope" in out
    out = read.invoke({"article_ids": ["101", "999"], "feedback_to_user": ""})
    assert "## Article 101" in out and "Unknown article id(s): 999" in out


def test_help_center_bad_token_and_dead_server_are_named_not_crashes(
    site: tuple[Site, str],
) -> None:
    _, base = site
    for kb, reason in (
        (HelpCenterKnowledgeBase(base, "wrong"), "refused the credentials (401"),
        (HelpCenterKnowledgeBase("http://127.0.0.1:9", "secret"), "unreachable"),
    ):
        search, read = create_kb_tools(kb)
        for tool, args in ((search, {"query": "recursion"}), (read, {"article_ids": ["101"]})):
            msg = tool.invoke(
                {
                    "type": "tool_call",
                    "id": "1",
                    "name": tool.name,
                    "args": {**args, "feedback_to_user": ""},
                }
            )
            assert msg.status == "error" and reason in msg.text
            assert msg.text.startswith("The support articles could not be reached")
        assert kb.list_collections() == [] and reason in (kb.sections_problem or "")
