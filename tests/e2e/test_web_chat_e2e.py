"""The chat page and the widget in a real headless Chromium against a real `langgraph dev`.

One server with static users, an operator and guest mode on; each page gets its own browser
context (its own localStorage), so two pages are two visitors.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import re
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client

from testing import model_answers
from testing.browser import Browser, Page, chromium, chromium_path
from testing.fake_openai import FakeOpenAI, Step
from testing.servers import REPO_ROOT, free_port, langgraph_dev

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        chromium_path() is None, reason="needs Debian's chromium (.ci/run installs it)"
    ),
]

ALICE = "alice-token-0123456789abcdef"
BOB = "bob-token-0123456789abcdefgh"  # only the rate-limit scenario asks as bob
OPS = "operator-token-0123456789abcdef"
GUEST_SECRET = "guest-secret-" + "x" * 40
DOCS_BASE = "https://docs.example.com/product"
# Screenshots go to docs/img only when asked (DOCS_AGENT_SCREENSHOTS=1): CI leaves the checkout alone.
DOCS_IMG = (
    REPO_ROOT / "docs" / "img"
    if os.environ.get("DOCS_AGENT_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "docs-agent-screenshots"
)


class _HostPage(http.server.BaseHTTPRequestHandler):
    """A stand-in docs site on its own loopback origin: one page with the widget's tag."""

    body = b""

    def do_GET(self) -> None:  # noqa: N802 — the stdlib's handler name
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture(scope="module")
def site_port() -> int:
    return free_port()


def web_env(site_port: int) -> dict[str, str]:
    """The web scenarios' server settings (both engines): users, an operator, guests, one origin."""
    return {
        "AUTH_TOKENS": f"{ALICE}:alice,{BOB}:bob,{OPS}:ops",
        "AUTH_OPERATORS": "ops",
        "DOCS_AGENT_GUESTS": "true",
        "DOCS_AGENT_GUEST_SECRET": GUEST_SECRET,
        "DOCS_AGENT_WEB_ORIGINS": f"http://127.0.0.1:{site_port}",
        # Published docs: citations are the pages' URLs, which the page renders as links (the
        # browser never opens them, and resolves nothing but loopback anyway).
        "DOCS_AGENT_DOCS_BASE_URL": DOCS_BASE,
    }


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory, site_port: int) -> Iterator[str]:
    env = web_env(site_port)
    with langgraph_dev(tmp_path_factory.mktemp("web"), extra_env=env) as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with chromium(tmp_path_factory.mktemp("chromium")) as b:
        yield b


def _open_chat(
    browser: Browser, url: str, token: str | None = None, size: tuple[int, int] | None = None
) -> Page:
    page = browser.new_page()
    if size:
        page.viewport(*size)
    page.goto(url + "/chat?lang=en")
    if token:
        page.js(f"localStorage.setItem('da-token', {json.dumps(token)})")
        page.goto(url + "/chat?lang=en")
    page.wait("window.docsAgentChat && window.docsAgentChat.ready", timeout=30)
    return page


# Records every length the answer's text had while streaming, to prove tokens arrived one by one.
WATCH = """
window.__lengths = [];
new MutationObserver(() => {
  const bots = document.querySelectorAll('.msg.bot .body');
  const last = bots[bots.length - 1];
  if (last) window.__lengths.push(last.textContent.length);
}).observe(document.getElementById('log'), {subtree: true, childList: true, characterData: true});
"""


def _ask(page: Page, question: str) -> dict[str, object]:
    before = page.js("document.querySelectorAll('.msg.bot[data-message-id]').length")
    page.js(WATCH)
    page.type_and_enter("#question", question)
    page.wait(
        f"document.querySelectorAll('.msg.bot[data-message-id]').length > {before}", timeout=120
    )
    return dict(
        page.js(
            """(() => { const b = [...document.querySelectorAll('.msg.bot')].pop();
            return {id: b.dataset.messageId, run: b.dataset.runId, chunks: +b.dataset.chunks,
                    text: b.querySelector('.body').innerText,
                    links: [...b.querySelectorAll('.body a')].map(a => a.href),
                    cites: b.querySelectorAll('.body .cite').length,
                    progress: b.querySelectorAll('.progress li').length,
                    suggests: [...document.querySelectorAll('.suggests button')].map(x => x.textContent),
                    lengths: [...new Set(window.__lengths)].length,
                    error: b.dataset.error || null, thread: window.docsAgentChat.threadId}; })()"""
        )
    )


def test_signed_in_user_asks_streams_follows_up_votes_and_reopens(
    web_server: str, browser: Browser
) -> None:
    page = _open_chat(browser, web_server, ALICE)
    first = _ask(page, "How do I stream tokens from a client?")
    assert first["error"] is None
    assert int(first["chunks"]) > 1 and int(first["lengths"]) > 2, (
        first
    )  # tokens arrived as they came
    assert int(first["progress"]) >= 1, first  # tool progress lines on the custom stream
    # Citations are links to the real pages.
    assert any(str(link).startswith(DOCS_BASE + "/") for link in first["links"]), first
    assert all(str(link).startswith("http") for link in first["links"])
    assert first["suggests"], first

    # A follow-up suggestion asks its prompt.
    page.js(WATCH)
    page.click(".suggests button")
    page.wait("document.querySelectorAll('.msg.bot[data-message-id]').length === 2", timeout=120)
    assert page.js("document.querySelectorAll('.msg.user').length") == 2

    # Thumbs down with a comment, then changed to thumbs up: one vote, the last one.
    page.click(".msg.bot .vote-down")
    page.wait("document.querySelector('.msg.bot').dataset.vote === 'down'")
    page.js("document.querySelector('.votes textarea').value = 'The page on tokens is missing'")
    page.click(".votes div:not([hidden]) button")
    page.wait("document.querySelector('.msg.bot').dataset.commented === 'true'")

    async def feedback_items() -> list[dict[str, object]]:
        ops = get_client(url=web_server, headers={"Authorization": f"Bearer {OPS}"})
        found = await ops.store.search_items(["answers_report", "team", "feedback"], limit=50)
        return [i["value"] for i in found["items"] if i["value"]["message_id"] == first["id"]]

    votes = asyncio.run(feedback_items())
    assert len(votes) == 1 and votes[0]["vote"] == "down", votes
    assert votes[0]["comment"] == "The page on tokens is missing"
    assert votes[0]["thread_id"] == first["thread"] and votes[0]["voter"] == "alice"
    page.click(".msg.bot .vote-up")
    page.wait("document.querySelector('.msg.bot').dataset.vote === 'up'")
    votes = asyncio.run(feedback_items())
    assert [v["vote"] for v in votes] == ["up"]

    # Reopen: a new conversation, then the old one from the list.
    page.click("#new-thread")
    page.wait("document.querySelectorAll('.msg').length === 0")
    page.wait(f"document.querySelector('#threads button[data-thread-id=\"{first['thread']}\"]')")
    page.click(f'#threads button[data-thread-id="{first["thread"]}"]')
    page.wait("document.querySelectorAll('.msg.bot[data-message-id]').length === 2")
    assert page.js("window.docsAgentChat.threadId") == first["thread"]
    assert first["text"][:40] in page.js("document.querySelector('.msg.bot').innerText")


def test_guests_get_their_own_identity_and_never_see_each_other(
    web_server: str, browser: Browser
) -> None:
    one = _open_chat(browser, web_server)
    assert one.js("document.getElementById('who').textContent") == "Guest"
    answer = _ask(one, "What is the offline model?")
    assert answer["error"] is None and answer["id"]
    one_thread = str(answer["thread"])
    # Keyboard only: from the question field, Shift+Tab reaches the last follow-up suggestion
    # and Enter asks it.
    one.js("document.getElementById('question').focus()")
    one.press("Tab", 9, shift=True)
    assert one.js("document.activeElement.parentElement.className") == "suggests"
    one.press("Enter", 13)
    one.wait("document.querySelectorAll('.msg.bot[data-message-id]').length === 2", timeout=120)
    one.click(".msg.bot .vote-up")  # on the first answer
    one.wait("document.querySelector('.msg.bot').dataset.vote === 'up'")

    two = _open_chat(browser, web_server)
    two.wait("document.querySelector('#threads .muted')")  # an empty list: not the first guest's
    assert (
        two.js(f"!!document.querySelector('#threads [data-thread-id=\"{one_thread}\"]')") is False
    )
    token_one = one.js("JSON.parse(localStorage.getItem('da-guest')).token")
    token_two = two.js("JSON.parse(localStorage.getItem('da-guest')).token")
    assert token_one != token_two

    # The attacks, as the second guest: read, run on, or vote on the first guest's thread; read
    # the report or the feedback; forge a vote in the first guest's name.
    headers = {"Authorization": f"Bearer {token_two}"}
    with httpx.Client(base_url=web_server, headers=headers, timeout=30) as c:
        assert c.get(f"/threads/{one_thread}").status_code == 404
        assert c.get(f"/threads/{one_thread}/state").status_code == 404
        run = c.post(
            f"/threads/{one_thread}/runs",
            json={"assistant_id": "docs_agent", "input": {"messages": []}},
        )
        assert run.status_code == 404
        vote = c.post(
            "/chat/api/feedback",
            json={"thread_id": one_thread, "message_id": answer["id"], "vote": "down"},
        )
        assert vote.status_code == 404
        for ns in (
            ["answers_report", "team", "turns"],
            ["answers_report", "team", "feedback"],
            ["answers_report"],
        ):
            search = c.post("/store/items/search", json={"namespace_prefix": ns, "limit": 10})
            assert search.status_code == 403, (ns, search.text)
        forged = c.put(
            "/store/items",
            json={
                "namespace": ["answers_report", "team", "feedback"],
                "key": "0" * 16 + "." + str(answer["id"]),
                "value": {"voter": "alice", "message_id": answer["id"], "vote": "down"},
            },
        )
        assert forged.status_code == 403
        threads = c.post("/threads/search", json={"limit": 100}).json()
        assert one_thread not in {t["thread_id"] for t in threads}
    # A forged guest token is refused outright.
    bad = httpx.get(
        f"{web_server}/threads/{one_thread}", headers={"Authorization": "Bearer guest.x.y.z"}
    )
    assert bad.status_code == 401


def test_widget_opens_the_chat_only_on_configured_origins(
    web_server: str, browser: Browser, site_port: int
) -> None:
    tag = f'<script src="{web_server}/chat/widget.js" data-server="{web_server}" data-graph="docs_agent" data-theme="dark"></script>'
    _HostPage.body = f"<!doctype html><title>Docs</title><h1>Product docs</h1>{tag}".encode()
    allowed = http.server.ThreadingHTTPServer(("127.0.0.1", site_port), _HostPage)
    other_port = free_port()
    other = http.server.ThreadingHTTPServer(("127.0.0.1", other_port), _HostPage)
    for srv in (allowed, other):
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:

        def open_widget(port: int) -> tuple[Page, str]:
            page = browser.new_page(f"http://127.0.0.1:{port}/")
            page.wait("document.getElementById('docs-agent-widget')")
            root = "document.getElementById('docs-agent-widget').shadowRoot"
            page.js(f"{root}.querySelector('.fab').click()")
            page.wait(f"{root}.querySelector('iframe')")
            assert page.js(f"{root}.querySelector('.fab').getAttribute('aria-expanded')") == "true"
            deadline = time.monotonic() + 20
            url = ""
            while time.monotonic() < deadline:
                frames = page.child_frames()
                url = str(frames[0].get("url", "")) if frames else ""
                if url.startswith(("http", "chrome-error")):
                    break
                time.sleep(0.1)
            return page, url

        page, url = open_widget(site_port)
        assert url.startswith(f"{web_server}/chat?embed=1&graph=docs_agent&theme=dark")
        # Ask inside the widget: the framed page streams its answer as the full page does.
        frame = page.child_frames()[0]["id"]
        deadline = time.monotonic() + 30
        while not page.frame_js(frame, "!!(window.docsAgentChat && window.docsAgentChat.ready)"):
            assert time.monotonic() < deadline, "the framed chat did not start"
            time.sleep(0.1)
        page.frame_js(
            frame,
            "document.getElementById('question').value = 'How do I configure auth tokens?';"
            " document.getElementById('ask').requestSubmit(); true",
        )
        deadline = time.monotonic() + 120
        while not page.frame_js(frame, "!!document.querySelector('.msg.bot[data-message-id]')"):
            assert time.monotonic() < deadline, "no answer in the widget"
            time.sleep(0.2)
        assert page.frame_js(frame, "document.documentElement.dataset.theme") == "dark"
        assert len(page.frame_js(frame, "document.querySelector('.msg.bot .body').innerText")) > 50
        page.screenshot(DOCS_IMG / "widget.png")
        # Another site gets no button at all: the widget asks the server first (and the page's
        # CSP frame-ancestors would refuse the frame anyway).
        refused = browser.new_page(f"http://127.0.0.1:{other_port}/")
        deadline = time.monotonic() + 20
        while not any("DOCS_AGENT_WEB_ORIGINS" in line for line in refused.console):
            assert time.monotonic() < deadline, refused.console
            refused.js("0")
            time.sleep(0.1)
        assert refused.js("document.getElementById('docs-agent-widget')") is None
    finally:
        for srv in (allowed, other):
            srv.shutdown()
            srv.server_close()


def page_assets(url: str) -> list[str]:
    """Every script and style the page loads before the first question (from its own HTML)."""
    html = httpx.get(url + "/chat").text
    return re.findall(r'(?:src|href)="(/chat/static/[^"]+)"', html)


def test_page_assets_a_docs_site_loads_stay_small(web_server: str) -> None:
    assets = page_assets(web_server)
    assert any("vendor/markdown-it" in a for a in assets) and any("chat.js" in a for a in assets)
    total = 0
    for path in ("/chat/widget.js", "/chat", *assets):
        r = httpx.get(web_server + path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip", path
        total += int(r.headers["content-length"])
    # The widget opened and ready (widget script, page, scripts, styles): the issue's budget.
    assert total <= 80 * 1024, total
    print(f"\npage + scripts + styles + widget.js, compressed: {total / 1024:.1f} KB")
    assert (
        "frame-ancestors 'self' http://127.0.0.1:"
        in httpx.get(web_server + "/chat").headers["content-security-policy"]
    )
    csp = httpx.get(web_server + "/chat").headers["content-security-policy"]
    assert "unsafe-inline" not in csp and "script-src 'self'" in csp


def test_assets_are_cached_by_content_and_revalidated(web_server: str) -> None:
    versioned = [a for a in page_assets(web_server) if "?v=" in a]
    assert len(versioned) == len(page_assets(web_server)) >= 4, page_assets(web_server)
    for path in versioned:
        r = httpx.get(web_server + path)
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable", path
    for path in (
        "/chat",
        "/chat/widget.js",
        "/chat/static/chat.js",
        "/chat/static/vendor/highlight/core.min.js",
    ):
        for encoding in ("gzip", "identity"):
            first = httpx.get(web_server + path, headers={"Accept-Encoding": encoding})
            etag = first.headers["etag"]
            assert (
                first.status_code == 200
                and etag
                and "immutable" not in first.headers["cache-control"]
            )
            again = httpx.get(
                web_server + path, headers={"Accept-Encoding": encoding, "If-None-Match": etag}
            )
            assert again.status_code == 304 and not again.content, (path, encoding)
    # A stale tag or an unknown version gets the content, never a year-long cache.
    stale = httpx.get(web_server + "/chat/static/chat.js?v=0", headers={"If-None-Match": '"0"'})
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
    # Only shipped files: no path escapes the static folder, no README or licence is served.
    for path in (
        "/chat/static/../app.py",
        "/chat/static/vendor/README.md",
        "/chat/static/vendor/update.sh",
        "/chat/static/vendor/%2e%2e/chat.js",
    ):
        refused = httpx.get(web_server + path)
        assert refused.status_code in (401, 404) and b"import" not in refused.content, path


def test_client_example_sends_a_vote_with_a_comment(web_server: str) -> None:
    import subprocess
    import sys

    cmd = [
        sys.executable,
        str(REPO_ROOT / "client_examples" / "send_feedback.py"),
        "--url",
        web_server,
        "--token",
        ALICE,
        "--vote",
        "down",
        "--comment",
        "Nothing on key rotation",
        "How do I rotate keys?",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    stored = json.loads(done.stdout[done.stdout.rindex("\n{") + 1 :])
    assert (
        stored["vote"] == "down"
        and stored["voter"] == "alice"
        and stored["comment"] == "Nothing on key rotation"
    )
    # The same vote on a thread that is not alice's is refused.
    cmd[cmd.index("How do I rotate keys?")] = "--thread"
    cmd += ["00000000-0000-0000-0000-000000000000", "--message", "m"]
    refused = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "404" in refused.stderr


def test_report_reads_every_turn_for_operators_only(
    web_server: str, browser: Browser, tmp_path: Path
) -> None:
    import subprocess
    import sys

    out = tmp_path / "report.html"

    def report(token: str) -> subprocess.CompletedProcess[str]:
        cmd = [
            sys.executable,
            "-m",
            "commands.report",
            "--since",
            "1d",
            "--url",
            web_server,
            "--token",
            token,
            "--html",
            str(out),
        ]
        return subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)

    denied = report(ALICE)
    assert denied.returncode == 1 and "operators only" in denied.stderr and not out.exists()
    done = report(OPS)
    assert done.returncode == 0, done.stderr
    # The earlier tests asked 6 questions (three by alice, two by a guest, one in the widget's
    # guest session): two up votes, one down.
    assert "6 questions" in done.stdout, done.stdout
    assert "feedback: 2 up, 1 down" in done.stdout, done.stdout
    assert "comment: Nothing on key rotation" in done.stdout
    page = out.read_text()
    assert "<svg" in page and "http://" not in page.split("</style>")[0] and "<script" not in page
    shot = browser.new_page(out.as_uri())
    shot.screenshot(DOCS_IMG / "report.png", width=1000, height=1400)


def test_page_speaks_the_browsers_language(web_server: str, browser: Browser) -> None:
    page = browser.new_page("about:blank")
    page.send(
        "Emulation.setUserAgentOverride",
        {"userAgent": "Mozilla/5.0 (X11; Linux x86_64) docs-agent-test", "acceptLanguage": "pl-PL"},
    )
    page.goto(web_server + "/chat")
    page.wait("window.docsAgentChat && window.docsAgentChat.ready", timeout=30)
    assert page.js("navigator.language").startswith("pl")
    assert page.js("document.getElementById('send').textContent") == "Wyślij"
    assert page.js("document.documentElement.lang") == "pl"
    page.goto(web_server + "/chat?lang=ru")
    assert page.js("document.getElementById('send').textContent") == "Отправить"


def test_answers_render_tables_code_and_links_not_raw_markup(
    web_server: str, browser: Browser
) -> None:
    page = browser.new_page(web_server + "/chat")
    page.wait("window.docsAgentChat && window.docsAgentChat.ready", timeout=30)
    page.js("window.docsAgentChat.loadRenderer(); true")  # loaded on the first keystroke otherwise
    page.wait("window.docsAgentChat.rendererReady", timeout=30)
    answer = (
        "| Script | Shows |\n|---|---|\n| `stream_run.py` | tokens |\n\n"
        "```python\nprint(1)\n```\nSee https://docs.example.com/x and <b>raw</b>."
    )
    page.js(
        "document.body.insertAdjacentHTML('beforeend', '<div id=md></div>');"
        f"document.getElementById('md').innerHTML = window.docsAgentChat.markdown({answer!r})"
    )
    cells = page.js("[...document.querySelectorAll('#md td, #md th')].map(c => c.innerText)")
    assert cells == ["Script", "Shows", "stream_run.py", "tokens"]
    assert page.js("document.querySelector('#md pre code').innerText") == "print(1)\n"  # CommonMark
    assert page.js("document.querySelector('#md a').href") == "https://docs.example.com/x"
    text = page.js("document.getElementById('md').innerText")
    assert "|" not in text and "```" not in text and "<b>raw</b>" in text  # escaped, not markup


def test_one_address_cannot_mint_guests_without_end(web_server: str) -> None:
    # Last in the module: it spends this address's allowance of new guests (10 per hour).
    statuses = [httpx.post(web_server + "/chat/api/guest").status_code for _ in range(11)]
    assert statuses[-1] == 429 and statuses.count(429) >= 1
    limited = httpx.post(web_server + "/chat/api/guest")
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
    foreign = httpx.post(web_server + "/chat/api/guest", headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403


# --- The page in front of readers with a real model (issue 31) ------------------------------------
# A scripted OpenAI-compatible model (testing/fake_openai.py, writer="markdown") streams a
# word every 50 ms: it searches, reads the best page, answers in a real model's Markdown and
# suggests follow-ups; scripts make it fail on demand.

MODEL = "gpt-scripted"
GOLDEN = json.loads((REPO_ROOT / "tests" / "fixtures" / "markdown_golden.json").read_text())


@pytest.fixture(scope="module")
def fake_model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(writer="markdown", token_delay=0.05) as fake:
        yield fake


def model_env(fake: FakeOpenAI, site_port: int) -> dict[str, str]:
    """web_env with the scripted model as the server's model (both engines)."""
    return {
        **web_env(site_port),
        "OPENAI_API_KEY": "test",
        "OPENAI_BASE_URL": fake.base_url,
        "DOCS_AGENT_MODEL": f"openai:{MODEL}",
        "DOCS_AGENT_RETRY_INITIAL_S": "0.05",
        "DOCS_AGENT_CODE_ROOTS": "",
        "DOCS_AGENT_MEMORY": "false",
    }


@pytest.fixture(scope="module")
def model_server(
    tmp_path_factory: pytest.TempPathFactory, site_port: int, fake_model: FakeOpenAI
) -> Iterator[str]:
    env = model_env(fake_model, site_port)
    with langgraph_dev(tmp_path_factory.mktemp("web-model"), extra_env=env) as url:
        yield url


def question_for(shape: str) -> str:
    """A question the scripted model answers with the answer shape `shape` (model_answers.pick)."""
    for n in range(500):
        q = f"How do I stream tokens from a client, case {n}?"
        if model_answers.pick(q) is model_answers.ANSWERS[shape]:
            return q
    raise AssertionError(shape)


# Records what the reader saw while the answer streamed: the working line's texts, and when.
SEEN = """
window.__seen = {working: [], firstText: null};
new MutationObserver(() => {
  const bots = document.querySelectorAll('.msg.bot');
  const b = bots[bots.length - 1];
  if (!b) return;
  const w = b.querySelector('.working');
  if (w && !window.__seen.firstText) window.__seen.working.push(w.textContent);
  if (!window.__seen.firstText && b.querySelector('.body').textContent.length) {
    window.__seen.firstText = b.querySelector('.body').textContent;
  }
}).observe(document.getElementById('log'), {subtree: true, childList: true, characterData: true});
"""
# The last answer bubble (an empty stand-in while there is none, so conditions can wait on it).
LAST_BOT = "([...document.querySelectorAll('.msg.bot')].pop() || document.createElement('div'))"


def _ask_and_wait(page: Page, question: str, timeout: float = 180) -> dict[str, object]:
    done = page.js("document.querySelectorAll('.msg.bot[data-state]').length")
    page.js(SEEN)
    page.type_and_enter("#question", question)
    page.wait(f"document.querySelectorAll('.msg.bot[data-state]').length > {done}", timeout=timeout)
    return dict(
        page.js(
            f"(() => {{ const b = {LAST_BOT}; return {{state: b.dataset.state, "
            "seen: window.__seen, text: b.querySelector('.body').innerText}; })()"
        )
    )


def _answer_in_view(page: Page, label: str) -> dict[str, int | None]:
    """Follow-ups and votes of the last answer: px below the fold (0 = visible without scrolling)."""
    page.wait(f"{LAST_BOT}.querySelector('.suggests') && {LAST_BOT}.querySelector('.votes')")
    fold = {
        "suggests": page.below_fold(".msg.bot .suggests"),
        "votes": page.below_fold(".msg.bot .votes"),
    }
    print(f"\n{label}: follow-ups / votes below the fold: {fold}")
    return fold


def _no_serious_axe(page: Page, label: str) -> None:
    found = page.axe()
    print(f"{label}: axe serious+critical = {len(found)}")
    assert not found, (label, found)


def test_real_model_answer_renders_streams_and_keeps_its_actions_in_view(
    model_server: str, browser: Browser
) -> None:
    page = _open_chat(browser, model_server, ALICE, size=(1200, 800))
    _no_serious_axe(page, "desktop light, empty")
    assert page.js("document.getElementById('welcome').hidden") is False
    assert page.js("document.getElementById('disclaimer').textContent")
    page.js("document.documentElement.dataset.theme = 'dark'")
    _no_serious_axe(page, "desktop dark, empty")
    page.js("document.documentElement.dataset.theme = 'light'")

    seen = _ask_and_wait(page, question_for("steps_with_code"))
    assert seen["state"] == "done", seen
    # A visible working state with the latest tool progress before the first words.
    working = seen["seen"]["working"]  # type: ignore[index]
    assert any("Searching the docs" in w for w in working), working
    b = LAST_BOT
    # Numbered steps stay numbered with their code inside the items; highlighted; copyable.
    assert page.js(f"{b}.querySelectorAll('.body > ol > li').length") == 3
    assert page.js(f"!!{b}.querySelector('.body ol li pre code.language-bash')")
    page.wait(f"{b}.querySelector('.code[data-highlighted=python] code .hljs-keyword')", timeout=30)
    assert page.js(f"{b}.querySelector('.code .copy').textContent") == "Copy"
    assert page.js(f"[...{b}.querySelectorAll('pre')].every(p => p.tabIndex === 0)")
    # The titled link keeps its title; citations are short links, never raw URLs; cards below.
    assert page.js(f"{b}.querySelector('.body a[title=\"Streaming guide\"]').href").startswith(
        DOCS_BASE
    )
    cites = page.js(f"[...{b}.querySelectorAll('.body a.cite')].map(a => [a.textContent, a.href])")
    assert cites and all(
        not text.startswith("http") and href.startswith(DOCS_BASE) for text, href in cites
    ), cites
    cards = page.js(f"[...{b}.querySelectorAll('.sources a.source-card')].map(a => a.href)")
    assert cards and all(c.startswith(DOCS_BASE) for c in cards), cards
    assert page.js(
        f"[...{b}.querySelectorAll('a[target=_blank]')].every(a => a.rel === 'noopener noreferrer')"
    )
    assert _answer_in_view(page, "desktop") == {"suggests": 0, "votes": 0}
    page.screenshot(DOCS_IMG / "chat.png")
    _no_serious_axe(page, "desktop light, after an answer")
    page.js("document.documentElement.dataset.theme = 'dark'")
    _no_serious_axe(page, "desktop dark, after an answer")

    phone = _open_chat(browser, model_server, ALICE, size=(390, 760))
    _no_serious_axe(phone, "phone light, empty")
    seen = _ask_and_wait(phone, question_for("table_and_headings"))
    assert seen["state"] == "done", seen
    assert phone.js(f"{LAST_BOT}.querySelector('th.align-right') !== null")  # `---:` column
    assert _answer_in_view(phone, "phone") == {"suggests": 0, "votes": 0}
    _no_serious_axe(phone, "phone light, after an answer")
    phone.js("document.documentElement.dataset.theme = 'dark'")
    _no_serious_axe(phone, "phone dark, after an answer")
    # The drawer: a backdrop and a close control; Escape closes it too.
    phone.click("#toggle-threads")
    phone.wait("!document.getElementById('backdrop').hidden")
    _no_serious_axe(phone, "phone dark, drawer open")
    phone.click("#backdrop")
    phone.wait("document.getElementById('backdrop').hidden")
    phone.click("#toggle-threads")
    phone.click("#close-threads")
    phone.wait("!document.getElementById('sidebar').classList.contains('open')")
    phone.js("document.documentElement.dataset.theme = 'light'")
    phone.screenshot(DOCS_IMG / "chat-phone.png", width=390, height=760)


GOLDEN_NORMALIZE = """
(root) => {
  const c = root.cloneNode(true);
  c.querySelectorAll('.code-bar').forEach(e => e.remove());
  c.querySelectorAll('.code, .table').forEach(w => w.replaceWith(...w.childNodes));
  c.querySelectorAll('a.code-cite').forEach(a => a.replaceWith(...a.childNodes));
  c.querySelectorAll('a.cite[data-raw]').forEach(a => { a.textContent = a.dataset.raw; a.removeAttribute('title'); });
  c.querySelectorAll('pre code').forEach(e => { e.textContent = e.textContent; });
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) { if (n.nodeValue.trim() || n.parentElement.closest('pre')) out.push(JSON.stringify(n.nodeValue)); return; }
    if (n.nodeType !== 1) return;
    const attrs = [];
    if (n.hasAttribute('href')) attrs.push('href=' + n.getAttribute('href'));
    if (n.hasAttribute('title')) attrs.push('title=' + n.getAttribute('title'));
    if (n.hasAttribute('start')) attrs.push('start=' + n.getAttribute('start'));
    const lang = /\\blanguage-[\\w+-]+/.exec(n.className || ''); if (lang) attrs.push(lang[0]);
    const align = /text-align:(\\w+)/.exec(n.getAttribute('style') || '') || /\\balign-(\\w+)/.exec(n.className || '');
    if (align) attrs.push('align=' + align[1]);
    out.push('<' + n.tagName.toLowerCase() + (attrs.length ? ' ' + attrs.join(' ') : '') + '>');
    n.childNodes.forEach(walk);
    out.push('</' + n.tagName.toLowerCase() + '>');
  };
  c.childNodes.forEach(walk);
  return out.join('');
}
"""


def test_golden_answers_render_as_markdown_it_says(model_server: str, browser: Browser) -> None:
    page = browser.new_page(model_server + "/chat?lang=en")
    page.wait("window.docsAgentChat && window.docsAgentChat.ready", timeout=30)
    page.js("window.docsAgentChat.loadRenderer(); true")  # loaded on the first keystroke otherwise
    page.wait("window.docsAgentChat.rendererReady", timeout=30)
    right = []
    for case in GOLDEN:
        el = f"window.docsAgentChat.showAnswer({{id: 'g-{case['name']}', content: {json.dumps(case['markdown'])}}})"
        page.js(f"window.__g = {el}; true")
        if "```" in case["markdown"]:
            page.wait(
                "[...window.__g.querySelectorAll('.code')].filter(c => /language-/.test(c.querySelector('code').className)).every(c => c.dataset.highlighted)",
                timeout=30,
            )
        shown = page.js(f"({GOLDEN_NORMALIZE})(window.__g.querySelector('.body'))")
        reference = page.js(
            f"({GOLDEN_NORMALIZE})(new DOMParser().parseFromString({json.dumps(case['html'])}, 'text/html').body)"
        )
        # Safe whatever the input: no handler attribute, no script URL, no raw HTML element.
        unsafe = page.js(
            "[...window.__g.querySelectorAll('*')].filter(e => [...e.attributes].some(a => /^on/i.test(a.name)"
            " || /^\\s*(javascript|vbscript|data):/i.test(a.value)) || /^(SCRIPT|IMG|IFRAME|B|STYLE)$/.test(e.tagName)).length"
        )
        assert unsafe == 0, case["name"]
        if shown == reference:
            right.append(case["name"])
        else:
            print(f"\n{case['name']}:\n page: {shown}\n  ref: {reference}")
    print(f"\ngolden answers rendered as markdown-it says: {len(right)} of {len(GOLDEN)}")
    assert len(right) == len(GOLDEN)
    assert set(model_answers.HOSTILE) <= {c["name"] for c in GOLDEN}
    # Soft-wrapped lines stay one paragraph.
    nested = next(c for c in GOLDEN if c["name"] == "nested_lists")
    page.js(
        f"window.__g = window.docsAgentChat.showAnswer({{id: 'n', content: {json.dumps(nested['markdown'])}}}); true"
    )
    assert (
        page.js(
            "[...window.__g.querySelectorAll('.body p')].filter(p => p.textContent.includes('soft-wrapped')).length"
        )
        == 1
    )
    # An image (which the CSP would not load from another site) is a link to it, by its alt text.
    page.js(
        "window.__g = window.docsAgentChat.showAnswer({id: 'i', content:"
        " '![A *diagram*](https://docs.example.com/d.png)'}); true"
    )
    assert page.js("window.__g.querySelector('.body img')") is None
    assert page.js("window.__g.querySelector('.body a').textContent") == "A diagram"


def test_stop_cancels_the_run_on_the_server_and_the_thread_goes_on(
    model_server: str, browser: Browser
) -> None:
    page = _open_chat(browser, model_server, ALICE)
    page.js(SEEN)
    page.type_and_enter("#question", question_for("nested_lists"))
    page.wait("window.__seen.firstText", timeout=120)
    assert page.js("!document.getElementById('stop').hidden")
    page.click("#stop")
    page.wait(f"{LAST_BOT}.dataset.state === 'stopped'", timeout=30)
    assert page.js(f"{LAST_BOT}.querySelector('.notice').textContent").startswith("Stopped.")
    assert page.js(f"{LAST_BOT}.querySelector('.body').classList.contains('cut')")
    assert page.js("document.getElementById('stop').hidden")
    thread, run = page.js("[window.docsAgentChat.threadId, window.docsAgentChat.lastRunId]")

    async def run_status() -> str:
        client = get_client(url=model_server, headers={"Authorization": f"Bearer {ALICE}"})
        for _ in range(100):
            status = (await client.runs.get(thread, run))["status"]
            if status not in ("pending", "running"):
                return str(status)
            await asyncio.sleep(0.2)
        return "still running"

    assert asyncio.run(run_status()) in ("interrupted", "error", "cancelled")
    # Retry asks the same question again in the same thread, and it is answered.
    page.click(".msg.bot[data-state=stopped] .retry")
    page.wait(f"{LAST_BOT}.dataset.state === 'done'", timeout=180)
    assert page.js("document.querySelectorAll('.msg.bot').length") == 1
    assert page.js("window.docsAgentChat.threadId") == thread


def test_question_typed_while_an_answer_streams_is_sent_after_it(
    model_server: str, browser: Browser
) -> None:
    page = _open_chat(browser, model_server, ALICE)
    page.js(SEEN)
    first, second = question_for("mixed_citations"), question_for("table_and_headings")
    page.type_and_enter("#question", first)
    page.wait("window.__seen.firstText", timeout=120)
    page.type_and_enter("#question", second)
    page.wait("document.querySelector('.msg.user.queued')")
    assert page.js("document.querySelector('.msg.user.queued .queued-note').textContent")
    page.wait("document.querySelectorAll('.msg.bot[data-state=done]').length === 2", timeout=240)
    order = page.js(
        "[...document.querySelectorAll('#log > .msg')].map(m => m.classList.contains('user') ? 'Q:' + m.firstChild.textContent : 'A')"
    )
    assert order == ["Q:" + first, "A", "Q:" + second, "A"], order
    assert not page.js("document.querySelector('.msg.user.queued')")


def test_a_model_stream_cut_mid_answer_is_retried_without_leftovers(
    model_server: str, browser: Browser, fake_model: FakeOpenAI
) -> None:
    page = _open_chat(browser, model_server, ALICE)
    question = question_for("table_and_headings")
    cut = model_answers.fill(model_answers.TABLE_AND_HEADINGS, DOCS_BASE + "/x")
    # search, read, then the answer's stream is reset half-way; the retry answers in full.
    fake_model.script(MODEL, [Step(), Step(), Step("reset", content=cut)])
    seen = _ask_and_wait(page, question)
    assert seen["state"] == "done", seen
    text = str(seen["text"])
    assert text.count("Limits per user") == 1 and "More in" in text, text
    assert "Error" not in text and "Exception" not in text


def test_failures_show_words_retry_and_a_countdown(model_server: str, browser: Browser) -> None:
    page = _open_chat(browser, model_server, ALICE)
    # The graph's failure metadata (contract C2), shown as the graph would store it.
    failure = {
        "kind": "rate_limited",
        "retry_after_s": 3,
        "message": "The language model is busy right now. Try again in a few seconds.",
    }
    page.js(
        "document.getElementById('log').insertAdjacentHTML('beforeend', '<div class=\"msg user\">How do I install it?</div>')"
    )
    page.js(
        f"window.__f = window.docsAgentChat.showAnswer({{id: 'f1', content: '', additional_kwargs: {{failure: {json.dumps(failure)}}}}}); true"
    )
    assert page.js("window.__f.querySelector('.notice span').textContent") == failure["message"]
    assert page.js("window.__f.querySelector('.retry').disabled") is True
    assert page.js("window.__f.querySelector('.retry').textContent").startswith("Retry (")
    assert not page.js("window.__f.querySelector('.votes')")  # not an answer to vote on
    page.wait("!window.__f.querySelector('.retry').disabled", timeout=10)
    page.click(".msg.bot[data-failure] .retry")
    page.wait(f"{LAST_BOT}.dataset.state === 'done'", timeout=180)
    assert page.js("document.querySelectorAll('.msg.user').length") == 1

    # Source cards from the graph's `sources` (C2): title, section path, the exact section; KB
    # and code citations become links too (to the server's viewer when they have no URL).
    sources = [
        {
            "ref": DOCS_BASE + "/streaming#tokens",
            "kind": "doc",
            "title": "Streaming",
            "section": ["Streaming", "Tokens"],
            "url": DOCS_BASE + "/streaming#tokens",
        },
        {"ref": "KB 1042", "kind": "kb", "title": "Expired threads", "section": [], "url": None},
        {
            "ref": "langgraph.json:1-20",
            "kind": "code",
            "title": "langgraph.json",
            "section": [],
            "url": None,
        },
    ]
    text = model_answers.fill(model_answers.MIXED_CITATIONS, DOCS_BASE + "/streaming#tokens")
    page.js(
        f"window.__s = window.docsAgentChat.showAnswer({{id: 's1', content: {json.dumps(text)}, additional_kwargs: {{sources: {json.dumps(sources)}}}}}); true"
    )
    cards = page.js(
        "[...window.__s.querySelectorAll('.source-card')].map(a => [a.querySelector('.source-title').textContent, a.querySelector('.source-where') ? a.querySelector('.source-where').textContent : '', a.getAttribute('href')])"
    )
    assert cards[0] == [
        "Streaming",
        "docs.example.com › Streaming › Tokens",
        DOCS_BASE + "/streaming#tokens",
    ]
    assert (
        cards[1][2] == "/chat/source?ref=KB%201042"
        and cards[2][2] == "/chat/source?ref=langgraph.json%3A1-20"
    )
    inline = page.js(
        "[...window.__s.querySelectorAll('.body a.cite')].map(a => [a.textContent, a.getAttribute('href')])"
    )
    assert ["Streaming", DOCS_BASE + "/streaming#tokens"] in inline
    assert ["KB 1042", "/chat/source?ref=KB%201042"] in inline
    assert ["langgraph.json:1-20", "/chat/source?ref=langgraph.json%3A1-20"] in inline


def test_rate_limit_is_counted_down_and_the_question_kept(
    model_server: str, browser: Browser, fake_model: FakeOpenAI
) -> None:
    # Two runs of bob's that stall in the model fill his run limit (2): the page's next question
    # is refused with HTTP 429 and Retry-After.
    # The server's own model stalls (a run's `context` model is not honoured on every engine).
    fake_model.script(MODEL, [Step("slow", delay=60)] * 2)
    headers = {"Authorization": f"Bearer {BOB}"}

    async def fill_limit() -> list[tuple[str, str]]:
        client = get_client(url=model_server, headers=headers)
        runs = []
        for _ in range(2):
            t = await client.threads.create()
            r = await client.runs.create(
                t["thread_id"],
                "docs_agent",
                input={"messages": [{"role": "user", "content": "stall"}]},
            )
            runs.append((t["thread_id"], r["run_id"]))
        return runs

    async def cancel(runs: list[tuple[str, str]]) -> None:
        client = get_client(url=model_server, headers=headers)
        for thread, run in runs:
            await client.runs.cancel(thread, run, wait=True)

    page = _open_chat(browser, model_server, BOB)
    runs = asyncio.run(fill_limit())
    question = "How do I install the server?"
    try:
        direct = httpx.post(
            f"{model_server}/threads/{runs[0][0]}/runs/stream",
            headers=headers,
            json={"assistant_id": "docs_agent", "input": {"messages": []}},
        )
        print(
            f"\nrun limit: HTTP {direct.status_code}, Retry-After {direct.headers.get('retry-after')}"
        )
        assert direct.status_code == 429
        page.type_and_enter("#question", question)
        page.wait("document.getElementById('status').dataset.countdown", timeout=30)
        assert "You can ask again in" in page.js("document.getElementById('status').textContent")
        assert page.js("document.getElementById('question').value") == question
        assert page.js("document.querySelectorAll('.msg').length") == 0  # no empty bubble
        assert page.js("document.getElementById('send').disabled") is True
    finally:
        asyncio.run(cancel(runs))
        fake_model.clear(MODEL)  # a step a pending run never took must not stall the next one
    # When the countdown ends the reader sends the kept question again (as often as the server
    # still says to wait: a finished run may count a few more seconds).
    deadline = time.monotonic() + 120
    while not page.js(f"{LAST_BOT}.dataset.state === 'done'"):
        assert time.monotonic() < deadline, page.js("document.getElementById('status').textContent")
        page.wait("!document.getElementById('send').disabled", timeout=60)
        assert page.js("document.getElementById('question').value") == question
        page.js("document.getElementById('ask').requestSubmit(); true")
        page.wait(
            f"{LAST_BOT}.dataset.state === 'done' || document.getElementById('send').disabled",
            timeout=180,
        )
    assert page.js("document.querySelectorAll('.msg.user').length") == 1


class _EmbedHost(http.server.BaseHTTPRequestHandler):
    """A docs page on its own origin that frames the chat as the widget does and logs messages."""

    frame_url = ""

    def do_GET(self) -> None:  # noqa: N802 — the stdlib's handler name
        body = (
            "<!doctype html><title>Docs</title><h1>Docs page</h1>"
            f'<iframe id="f" title="chat" src="{self.frame_url}" style="width:400px;height:600px"></iframe>'
            "<script>window.__msgs = []; addEventListener('message', (e) => __msgs.push([e.origin, e.data]));"
            "</script>"
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return


def test_embedded_page_talks_to_the_widget_and_keeps_the_conversation(
    model_server: str, browser: Browser, site_port: int
) -> None:
    site = f"http://127.0.0.1:{site_port}"
    query = f"embed=1&lang=en&theme=dark&origin={site}&welcome=Hallo%20docs&examples=First%20one|Second%20one"
    _EmbedHost.frame_url = f"{model_server}/chat?{query}"
    host = http.server.ThreadingHTTPServer(("127.0.0.1", site_port), _EmbedHost)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    try:
        page = browser.new_page(site + "/")
        page.wait("window.__msgs.some(m => m[1] && m[1].type === 'docs-agent:ready')", timeout=60)
        assert page.js("window.__msgs[0][0]") == model_server
        frame = page.child_frames()[0]["id"]

        def fjs(expr: str) -> object:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                value = page.frame_js(frame, expr)
                if value is not None:
                    return value
                time.sleep(0.1)
            raise AssertionError(expr)

        def fwait(expr: str, timeout: float = 120) -> None:
            deadline = time.monotonic() + timeout
            while not page.frame_js(frame, f"!!({expr})"):
                assert time.monotonic() < deadline, expr
                time.sleep(0.1)

        fwait("window.docsAgentChat && window.docsAgentChat.ready")
        assert fjs("document.getElementById('welcome-text').textContent") == "Hallo docs"
        assert fjs(
            "[...document.querySelectorAll('#examples button')].map(b => b.textContent)"
        ) == ["First one", "Second one"]
        assert fjs("document.getElementById('signin').hidden") is True  # no sign-in in the widget
        assert fjs("document.documentElement.dataset.theme") == "dark"
        # The widget says the panel opened, on which page: the cursor goes to the question box.
        page.js(
            "document.getElementById('f').contentWindow.postMessage({type: 'docs-agent:open', "
            f"page: {{url: '{site}/guide/streaming', title: 'Streaming', lang: 'en'}}}}, '{model_server}'); true"
        )
        fwait(
            "document.activeElement === document.getElementById('question') && window.docsAgentChat.askedOn"
        )
        # A message from another origin is ignored.
        assert fjs("window.docsAgentChat.askedOn") == f"{site}/guide/streaming"
        fjs(  # the run requests the page sends, as sent
            "window.__runBodies = []; const f = window.fetch; window.fetch = (u, o) => {"
            " if (String(u).includes('/runs/stream')) window.__runBodies.push(o.body);"
            " return f(u, o); }; true"
        )
        fjs(
            "document.getElementById('question').value = 'How do I configure auth tokens?';"
            " document.getElementById('ask').requestSubmit(); true"
        )
        fwait("document.querySelector('.msg.bot[data-state=done]')", timeout=180)
        thread = fjs("window.docsAgentChat.threadId")
        run = fjs("window.docsAgentChat.lastRunId")

        async def stored_run() -> dict[str, object]:
            token = str(fjs("JSON.parse(localStorage.getItem('da-guest')).token"))
            client = get_client(url=model_server, headers={"Authorization": f"Bearer {token}"})
            return dict(await client.runs.get(thread, run))

        sent = json.loads(str(fjs("window.__runBodies[0]")))["metadata"]
        assert sent["client"] == "widget" and sent["asked_on"] == f"{site}/guide/streaming", sent
        stored = asyncio.run(stored_run())
        if "metadata" in stored:  # langgraph dev returns it; Aegra keeps it for the graph only
            meta = dict(stored["metadata"])  # type: ignore[arg-type]
            assert meta.get("client") == "widget" and meta.get("asked_on") == sent["asked_on"]
        # Escape inside the page asks the widget to close.
        page.send("Runtime.evaluate", {"expression": "document.getElementById('f').focus()"})
        fjs("document.getElementById('question').focus(); true")
        page.press("Escape", 27)
        page.wait("window.__msgs.some(m => m[1] && m[1].type === 'docs-agent:close')", timeout=10)
        # Another docs page of the site: the conversation is still there.
        page.goto(site + "/other")
        page.wait("window.__msgs.some(m => m[1] && m[1].type === 'docs-agent:ready')", timeout=60)
        frame = page.child_frames()[0]["id"]
        fwait("window.docsAgentChat && window.docsAgentChat.ready")
        fwait(
            f"window.docsAgentChat.threadId === {json.dumps(thread)} && document.querySelector('.msg.bot[data-message-id]')"
        )
        assert fjs("document.getElementById('welcome').hidden") is True
        _ = page.frame_js(frame, "1")
    finally:
        host.shutdown()
        host.server_close()


def test_first_screen_examples_come_from_the_docs(model_server: str, browser: Browser) -> None:
    deadline = time.monotonic() + 120
    examples: list[str] = []
    while time.monotonic() < deadline and not examples:
        examples = httpx.get(model_server + "/chat/api/config").json()["examples"]
        time.sleep(0.5)
    assert 1 <= len(examples) <= 4, examples
    page = _open_chat(browser, model_server, ALICE)
    page.wait("document.querySelectorAll('#examples button').length")
    shown = page.js("[...document.querySelectorAll('#examples button')].map(b => b.textContent)")
    assert shown == examples
    page.screenshot(DOCS_IMG / "chat-welcome.png")
    page.js(SEEN)
    page.click("#examples button")
    page.wait(
        f"document.querySelector('.msg.bot') && {LAST_BOT}.dataset.state === 'done'", timeout=180
    )
    assert page.js("document.querySelector('.msg.user').textContent") == examples[0]
    assert page.js("document.getElementById('welcome').hidden") is True


def test_server_gone_mid_answer_leaves_an_interrupted_answer_with_retry(
    tmp_path: Path, browser: Browser, fake_model: FakeOpenAI, site_port: int
) -> None:
    env = model_env(fake_model, site_port)
    with langgraph_dev(tmp_path, extra_env=env) as url:
        page = _open_chat(browser, url, ALICE)
        page.js(SEEN)
        page.type_and_enter("#question", question_for("steps_with_code"))
        page.wait("window.__seen.firstText", timeout=120)
    # The server is gone (stopped mid-answer): the answer is marked, never looks complete.
    page.wait(f"{LAST_BOT}.dataset.state === 'interrupted'", timeout=60)
    notice = page.js(f"{LAST_BOT}.querySelector('.notice').textContent")
    assert "This answer is incomplete." in notice, notice
    assert page.js(f"!!{LAST_BOT}.querySelector('.notice .retry')")
    assert not page.js(f"{LAST_BOT}.querySelector('.votes')")
    assert page.js("document.getElementById('stop').hidden") and not page.js(
        "document.getElementById('send').disabled"
    )
