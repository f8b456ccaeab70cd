"""The chat page and the widget in a real headless Chromium against a real `langgraph dev`.

One server with static users, an operator and guest mode on; each page gets its own browser
context (its own localStorage), so two pages are two visitors.
"""

from __future__ import annotations

import http.server
import json
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client

from tests.e2e.browser import Browser, Page, chromium, chromium_path
from tests.e2e.conftest import REPO_ROOT, free_port, langgraph_dev

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        chromium_path() is None, reason="needs Debian's chromium (.ci/run installs it)"
    ),
]

ALICE = "alice-token-0123456789abcdef"
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
        "AUTH_TOKENS": f"{ALICE}:alice,{OPS}:ops",
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


def _open_chat(browser: Browser, url: str, token: str | None = None) -> Page:
    page = browser.new_page(url + "/chat?lang=en")
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
    page.screenshot(DOCS_IMG / "chat.png")
    page.screenshot(DOCS_IMG / "chat-phone.png", width=390, height=760)

    async def feedback_items() -> list[dict[str, object]]:
        ops = get_client(url=web_server, headers={"Authorization": f"Bearer {OPS}"})
        found = await ops.store.search_items(["answers_report", "team", "feedback"], limit=50)
        return [i["value"] for i in found["items"] if i["value"]["message_id"] == first["id"]]

    import asyncio

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
        allowed.shutdown()
        other.shutdown()


def test_page_assets_a_docs_site_loads_stay_small(web_server: str) -> None:
    total = 0
    for path in ("/chat/widget.js", "/chat", "/chat/static/chat.js", "/chat/static/chat.css"):
        r = httpx.get(web_server + path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip"
        total += int(r.headers["content-length"])
    assert total <= 60 * 1024, total
    assert (
        "frame-ancestors 'self' http://127.0.0.1:"
        in httpx.get(web_server + "/chat").headers["content-security-policy"]
    )


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
            "server.report",
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
    assert page.js("document.querySelector('#md pre code').innerText") == "print(1)"
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
