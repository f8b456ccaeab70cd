"""Live sources through a real `langgraph dev`: a docs site and a help center that fail, change and grow.

The site (89 pages published as llms.txt) and the help center run on loopback
(testing/live_site.py); the server answers with the offline model. Each figure of the
issue is checked here: failures named, never "nothing found"; a maintenance page keeps every
cached page; a site edit is seen without a restart; `make index` beside a running server costs
no search; `make index` reads `.env`.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client

from graphs.offline.language import phrase
from testing.live_site import TOKEN, LiveSite, page_text, serve
from testing.servers import langgraph_dev, offline_env
from tests.conftest import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

NOTHING = phrase("nothing", "en")
FAILURE_MODES = ("offhost", "down", "401", "403", "429", "5xx", "timeout", "malformed", "html")


def _live_env(base: str, **extra: str) -> dict[str, str]:
    return {
        "DOCS_AGENT_LLMS_TXT_URL": f"{base}/llms.txt",
        "DOCS_AGENT_KB_URL": base,
        "DOCS_AGENT_KB_TOKEN": TOKEN,
        "DOCS_AGENT_REFRESH_S": "2",
        "DOCS_AGENT_SOURCE_TIMEOUT_S": "1",
        "DOCS_AGENT_RETRY_AFTER_MAX_S": "5",
        "DOCS_AGENT_EMBEDDINGS": "off",
        "DOCS_AGENT_CODE_ROOTS": "",
        "DOCS_AGENT_NUM_SUGGESTIONS": "0",
        "DOCS_AGENT_ENV_FILE": "",
        **extra,
    }


async def ask(url: str, question: str, graph: str = "docs_agent") -> str:
    """The final answer of one stateless run."""
    client = get_client(url=url)
    out: Any = await client.runs.wait(
        None, graph, input={"messages": [{"role": "user", "content": question}]}
    )
    return str(out["messages"][-1]["content"])


def cached_pages(index_dir: Path) -> int:
    return sum(1 for _ in index_dir.glob("llms-*/pages/**/*.md"))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveSite, str, Path]]:
    """The site, its URL and a server's temp folder, with a server answering from both sources."""
    site = LiveSite(pages=89)
    tmp = tmp_path_factory.mktemp("live")
    with serve(site) as base, langgraph_dev(tmp, _live_env(base)) as url:
        yield site, url, tmp


async def test_every_help_center_failure_names_the_source(
    live: tuple[LiveSite, str, Path],
) -> None:
    site, url, _ = live
    answers: dict[str, str] = {}
    for mode in FAILURE_MODES:
        site.kb_mode = mode
        answers[mode] = await ask(url, "What does the recursion limit reached error mean?")
    site.kb_mode = "5xx"
    deep = await ask(url, "What does the recursion limit reached error mean?", "deep_agent")
    site.kb_mode = "ok"
    assert "The support articles could not be reached" in deep and NOTHING not in deep
    named = {
        mode: "The support articles" in text
        and ("could not be reached" in text or "sections did not load" in text)
        and NOTHING not in text
        for mode, text in answers.items()
    }
    assert all(named.values()), {m: answers[m] for m, ok in named.items() if not ok}
    assert "evil.example" in answers["offhost"]
    assert not any("evil.example" in path for path, _ in site.requests)


async def test_a_429_with_retry_after_is_retried_and_answered(
    live: tuple[LiveSite, str, Path],
) -> None:
    site, url, _ = live
    site.kb_mode = "429-once"
    answer = await ask(url, "What does the recursion limit reached error mean?")
    assert site.kb_mode == "ok"  # the 429 was answered, then the retry went through
    assert "KB 101" in answer and "could not be reached" not in answer


async def test_a_maintenance_page_keeps_every_cached_page(
    live: tuple[LiveSite, str, Path],
) -> None:
    site, url, tmp = live
    assert cached_pages(tmp / "index") == 89
    good = site.files["/llms.txt"]
    site.put(
        "/llms.txt", "<!doctype html><html><body>Down for maintenance</body></html>", "text/html"
    )
    try:
        seen = len(site.gets("/llms.txt"))
        deadline = time.monotonic() + 60
        while len(site.gets("/llms.txt")) < seen + 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.5)  # two scheduled refreshes have read the maintenance page
        answer = await ask(url, "How do I configure component7?")
        assert "/docs/topic7" in answer and "served from the cached copy" in answer
        assert cached_pages(tmp / "index") == 89
        assert "came back as an HTML page" in (tmp / "server" / "server.log").read_text()
    finally:
        site.files["/llms.txt"] = good


async def test_a_site_edit_is_seen_within_a_refresh_period(
    live: tuple[LiveSite, str, Path],
) -> None:
    site, url, _ = live
    site.put("/docs/topic5.md", page_text(5, "The zanzibar flag turns on tracing."))
    deadline = time.monotonic() + 60
    answer = ""
    while time.monotonic() < deadline:
        answer = await ask(url, "What does the zanzibar flag do?")
        if "turns on tracing" in answer:
            break
        await asyncio.sleep(1)
    assert "turns on tracing" in answer and "/docs/topic5" in answer


def _write_pages(root: Path, start: int, stop: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(start, stop):
        (root / f"topic{i}.md").write_text(page_text(i))


def _build(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.build_index", "--quiet"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


async def test_searches_while_make_index_rebuilds(tmp_path: Path) -> None:
    """Questions asked while the build runs: every one answered from the index as it was or is."""
    docs = tmp_path / "docs"
    _write_pages(docs, 0, 40)
    extra = {
        "DOCS_AGENT_DOCS_DIR": str(docs),
        "DOCS_AGENT_DOCS_BASE_URL": "https://docs.example",
        "DOCS_AGENT_KB_DIR": "",
        "DOCS_AGENT_EMBEDDINGS": "off",
        "DOCS_AGENT_CODE_ROOTS": "",
        "DOCS_AGENT_NUM_SUGGESTIONS": "0",
        "DOCS_AGENT_ENV_FILE": "",
    }
    with langgraph_dev(tmp_path, extra) as url:
        await ask(url, "How do I configure component3?")
        _write_pages(docs, 40, 1500)
        proc = subprocess.Popen(
            [sys.executable, "-m", "tools.build_index", "--quiet"],
            cwd=REPO_ROOT,
            env=offline_env(tmp_path, extra),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        answers: list[str] = []
        during = 0  # questions asked while the build was running
        try:
            while proc.poll() is None or len(answers) < 3:
                during += proc.poll() is None
                answers.append(await ask(url, f"How do I configure component{len(answers) % 40}?"))
        finally:
            _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        answers.append(await ask(url, "How do I configure component1234?"))
        log = (tmp_path / "server" / "server.log").read_text()
    failed = [a for a in answers if "docs.example/topic" not in a or "could not" in a]
    assert during >= 1 and not failed, failed
    assert "docs.example/topic1234" in answers[-1]
    assert "IndexError" not in log and "Traceback" not in log


def test_make_index_reads_dotenv(tmp_path: Path) -> None:
    site = LiveSite(pages=89)
    with serve(site) as base:
        env_file = tmp_path / ".env"
        env_file.write_text(
            f"DOCS_AGENT_LLMS_TXT_URL={base}/llms.txt\nDOCS_AGENT_KB_DIR=\n"
            f"DOCS_AGENT_INDEX_DIR={tmp_path / 'envindex'}\nDOCS_AGENT_EMBEDDINGS=off\n"
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("DOCS_AGENT_")}
        env["DOCS_AGENT_ENV_FILE"] = str(env_file)
        done = _build(env)
    assert done.returncode == 0, done.stderr
    assert "docs: 89 added" in done.stdout and "kb:" not in done.stdout
    assert cached_pages(tmp_path / "envindex") == 89
