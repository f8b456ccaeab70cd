"""Help centers that fail: every failure named by the tool and by the offline answer, never "nothing found"."""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import ToolMessage

from graphs.offline.answer import compose_answer, compose_deep_answer
from graphs.offline.language import phrase
from tools import Sources
from tools.build_index import refresh_due_sources
from tools.kb import create_kb_tools, kb_backend
from tools.settings import LiveSourceSettings, SourceSettings
from tools.sources.live import fetch as http_fetch
from tools.sources.live.help_center import HelpCenterKnowledgeBase, auth_header

BASE = "https://help.example"
ARTICLE = {
    "id": 101,
    "section_id": 1,
    "title": "Recursion limit reached",
    "body": "<p>Raise it.</p>",
}
SECTIONS = {"sections": [{"id": 1, "name": "Errors"}], "next_page": None}

Handler = Callable[[httpx.Request], httpx.Response]


def ok(request: httpx.Request) -> httpx.Response:
    path = request.url.path
    if path.endswith("/sections.json"):
        return httpx.Response(200, json=SECTIONS)
    if path.endswith("/search.json"):
        return httpx.Response(200, json={"results": [ARTICLE]})
    return httpx.Response(200, json={"article": ARTICLE})


def kb_with(handler: Handler, **live: Any) -> HelpCenterKnowledgeBase:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    return HelpCenterKnowledgeBase(BASE, "tok", client=client, live=LiveSourceSettings(**live))


def call(tool: Any, **args: Any) -> ToolMessage:
    msg = tool.invoke(
        {
            "type": "tool_call",
            "id": "c1",
            "name": tool.name,
            "args": {**args, "feedback_to_user": ""},
        }
    )
    assert isinstance(msg, ToolMessage)
    return msg


@pytest.fixture(autouse=True)
def _no_waiting(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    waits: list[float] = []
    monkeypatch.setattr(http_fetch, "sleep", waits.append)
    return waits


def _raise(exc: Exception) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    return handler


def _status(
    code: int, body: bytes = b"{}", ctype: str = "application/json", **headers: str
) -> Handler:
    return lambda request: httpx.Response(
        code, content=body, headers={"Content-Type": ctype, **headers}
    )


FAILURES: dict[str, tuple[Handler, str]] = {
    "down": (_raise(httpx.ConnectError("refused")), "unreachable (ConnectError)"),
    "401": (_status(401), "refused the credentials (401"),
    "403": (_status(403), "denied access (403"),
    "429": (_status(429, **{"Retry-After": "120"}), "limiting requests (429"),
    "5xx": (_status(503), "answered 503"),
    "timeout": (_raise(httpx.ReadTimeout("slow")), "did not answer within"),
    "malformed": (_status(200, b'{"results": '), "malformed JSON"),
    "html 200": (_status(200, b"<html><body>Sign in</body></html>", "text/html"), "HTML page"),
}


@pytest.mark.parametrize("mode", sorted(FAILURES))
def test_each_failure_is_named_by_the_tool_and_the_answer(mode: str) -> None:
    handler, reason = FAILURES[mode]
    search, read = create_kb_tools(kb_with(handler))
    msg = call(search, query="recursion limit")
    assert msg.status == "error"
    assert msg.text.startswith("The support articles could not be reached") and reason in msg.text
    answer = compose_answer("recursion limit?", [msg], "en")
    assert "The support articles could not be reached" in answer and reason in answer
    assert phrase("nothing", "en") not in answer
    read_msg = call(read, article_ids=["101"])
    assert read_msg.status == "error" and "Unknown article" not in read_msg.text


def test_an_off_host_next_page_is_refused_and_named() -> None:
    asked: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        if request.url.path.endswith("/sections.json"):
            return httpx.Response(
                200, json={**SECTIONS, "next_page": "https://evil.example/s.json"}
            )
        return ok(request)

    kb = kb_with(handler)
    search, _ = create_kb_tools(kb)
    msg = call(search, query="recursion")
    assert msg.status != "error" and "101" in msg.text
    assert "evil.example" in msg.text and "sections did not load" in msg.text
    assert not any("evil.example" in u for u in asked)
    answer = compose_answer("recursion?", [msg], "en")
    assert "The support articles" in answer and "evil.example" in answer


def test_a_429_with_retry_after_is_retried_once_and_answered(_no_waiting: list[float]) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path.endswith("/search.json") and seen.count(request.url.path) == 1:
            return httpx.Response(429, headers={"Retry-After": "2"})
        return ok(request)

    search, _ = create_kb_tools(kb_with(handler))
    msg = call(search, query="recursion")
    assert msg.status != "error" and "101 — Recursion limit reached" in msg.text
    assert _no_waiting == [2.0]


def test_a_503_on_the_article_is_not_an_unknown_id() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503) if "/articles/101" in request.url.path else ok(request)

    _, read = create_kb_tools(kb_with(handler))
    msg = call(read, article_ids=["101"])
    assert msg.status == "error" and "503" in msg.text and "Unknown article" not in msg.text


def test_a_malformed_first_sections_call_is_not_kept() -> None:
    calls = {"n": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/sections.json"):
            calls["n"] += 1
            if calls["n"] == 1:
                return httpx.Response(
                    200, content=b"{oops", headers={"Content-Type": "application/json"}
                )
        return ok(request)

    kb = kb_with(handler)
    assert kb.list_collections() == [] and kb.sections_problem
    assert kb.refresh_due(kb._sections_at + 61)  # a failed load is retried soon
    assert kb.list_collections() == ["Errors"] and kb.sections_problem is None
    assert kb.search("recursion", 5)[0].collection == "Errors"


def test_zendesk_api_tokens_and_oauth_tokens() -> None:
    basic = auth_header("abc", "agent@example.com")
    assert basic == "Basic " + base64.b64encode(b"agent@example.com/token:abc").decode()
    assert auth_header("agent@example.com/token:abc") == basic
    assert auth_header("oauth-xyz") == "Bearer oauth-xyz"
    sent: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request.headers.get("authorization", ""))
        return ok(request)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    live = LiveSourceSettings(kb_email="agent@example.com")
    HelpCenterKnowledgeBase(BASE, "abc", client=client, live=live).search("x", 3)
    assert sent and all(h == basic for h in sent)


def test_the_users_language_is_the_locale_with_a_fallback() -> None:
    asked: list[dict[str, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/search.json"):
            params = dict(request.url.params)
            asked.append(params)
            results = [ARTICLE] if params.get("locale") in (None, "en-us") else []
            return httpx.Response(200, json={"results": results})
        return ok(request)

    search, _ = create_kb_tools(kb_with(handler, kb_locale="en-us"))
    msg = call(search, query="Jak zwiększyć limit rekurencji dla grafu?")
    assert [a.get("locale") for a in asked] == ["pl", "en-us"]
    assert "101" in msg.text
    asked.clear()
    call(search, query="How do I raise the recursion limit?")
    assert [a.get("locale") for a in asked] == ["en-us"]


def test_an_empty_kb_folder_offers_no_kb_tools(tmp_path: Path) -> None:
    (tmp_path / "kb" / "errors").mkdir(parents=True)
    settings = SourceSettings.from_env({"DOCS_AGENT_KB_DIR": str(tmp_path / "kb")})
    assert kb_backend(settings) is None
    (tmp_path / "kb" / "errors" / "a.md").write_text("# A\n\nText.\n")
    assert kb_backend(settings) is not None


def test_dotenv_settings_reach_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / ".env"
    env.write_text(
        f"DOCS_AGENT_KB_URL={BASE}\nDOCS_AGENT_REFRESH_S=120\nDOCS_AGENT_KB_EMAIL=a@b.c\n"
    )
    monkeypatch.setenv("DOCS_AGENT_ENV_FILE", str(env))
    monkeypatch.delenv("DOCS_AGENT_KB_URL", raising=False)
    for name in ("langgraph_api", "aegra_api"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    settings = SourceSettings.from_env()
    assert settings.kb_url == BASE and settings.live.refresh_s == 120
    assert settings.live.kb_email == "a@b.c"
    # Inside a server the file was loaded by the server already (from its own config).
    monkeypatch.setitem(sys.modules, "langgraph_api", object())
    assert SourceSettings.from_env().kb_url == ""


def test_the_schedule_refreshes_what_is_due() -> None:
    class Live:
        def __init__(self, due: bool) -> None:
            self.due, self.refreshed = due, 0

        def refresh_due(self, now: float | None = None) -> bool:
            return self.due

        def refresh(self) -> None:
            self.refreshed += 1
            raise RuntimeError("site down")  # a failure never stops the schedule

    docs, kb = Live(True), Live(False)
    sources = Sources(SourceSettings.from_env({}), docs, kb)
    assert refresh_due_sources(sources) == ["docs"]
    assert docs.refreshed == 1 and kb.refreshed == 0


def test_a_researcher_reports_a_failed_source_and_the_deep_answer_names_it() -> None:
    from graphs.offline.roles import OfflineResearcherModel

    failed = ToolMessage(
        content=json.dumps("x"), name="search_support_articles", tool_call_id="1", status="error"
    )
    failed.content = (
        "The support articles could not be reached: the help center answered 503. This is a "
        "failure of the source, not an empty result."
    )
    findings = OfflineResearcherModel(kind="kb").findings("why?", [failed])
    assert "could not be reached" in findings
    deep = ToolMessage(content=findings, name="ask_kb_researcher", tool_call_id="2")
    answer = compose_deep_answer([deep], "en")
    assert "The support articles could not be reached" in answer
    assert phrase("nothing", "en") not in answer


def test_pagination_is_bounded_and_stays_on_the_host() -> None:
    pages: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/sections.json"):
            n = int(request.url.params.get("page", "1"))
            pages.append(str(request.url))
            nxt = f"{BASE}/api/v2/help_center/sections.json?page={n + 1}"  # never ends
            return httpx.Response(
                200, json={"sections": [{"id": n, "name": f"S{n}"}], "next_page": nxt}
            )
        return ok(request)

    kb = kb_with(handler)
    assert len(kb.list_collections()) == 20 and len(pages) == 20
    assert all(p.startswith(BASE + "/") for p in pages)


def test_a_sections_refresh_is_conditional() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/sections.json"):
            inm = request.headers.get("if-none-match", "")
            seen.append(inm)
            if inm == '"s1"':
                return httpx.Response(304)
            return httpx.Response(200, json=SECTIONS, headers={"ETag": '"s1"'})
        return ok(request)

    kb = kb_with(handler)
    assert kb.list_collections() == ["Errors"]
    kb.refresh()
    assert seen == ["", '"s1"'] and kb.list_collections() == ["Errors"]


def test_retry_after_forms_and_off_host_redirects() -> None:
    assert http_fetch.retry_after_s(httpx.Response(429, headers={"Retry-After": "3"})) == 3.0
    date = "Wed, 21 Oct 2015 07:28:00 GMT"  # long past: no wait
    assert http_fetch.retry_after_s(httpx.Response(429, headers={"Retry-After": date})) == 0.0
    assert http_fetch.retry_after_s(httpx.Response(429)) is None

    hosts: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        hosts.append(request.url.host)
        if request.url.path == "/moved/api/v2/help_center/articles/search.json":
            return httpx.Response(302, headers={"Location": "https://evil.example/steal"})
        if request.url.host == "help.example" and "moved" not in request.url.path:
            return httpx.Response(301, headers={"Location": f"{BASE}/moved{request.url.path}"})
        return httpx.Response(200, json={"results": [ARTICLE]})

    for follow in (False, True):  # our own client, and an injected one that follows itself
        hosts.clear()
        client = httpx.Client(transport=httpx.MockTransport(handler), follow_redirects=follow)
        kb = HelpCenterKnowledgeBase(BASE, "tok", client=client)
        with pytest.raises(http_fetch.SourceUnavailable, match="redirected to another host"):
            kb.search("x", 3)
        assert hosts[:2] == ["help.example", "help.example"]
        assert "evil.example" not in hosts or follow
