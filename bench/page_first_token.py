"""First answer text painted on the chat page after pressing Enter, in headless Chromium.

    .venv/bin/python -m bench.page_first_token                   # dev and Aegra, 20 questions each
    .venv/bin/python -m bench.page_first_token --engines dev --n 30
    .venv/bin/python -m bench.page_first_token --model offline   # the built-in extractive model

Per engine: one fresh server (this checkout's docs and KB, index built before the first
question), one browser page. The model is the scripted OpenAI-compatible one by default
(testing/fake_openai.py, writer="markdown": it searches, reads a page, then streams a
Markdown answer a word every 50 ms, as a hosted model does), or the offline model. For each question the page records `performance.now()` at the
Enter keydown and when the answer's text first appears in the DOM; the difference is the figure.
Side by side, on the same server and the same questions, the baseline: the same run started
through the SDK (`runs.stream`, mode `messages`) and timed to its first `messages/partial` — the
engine's own floor. The ratio page/baseline is what the page adds (thread creation on the first
question, the fetch, SSE parsing, rendering).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.first_question import server
from testing.browser import chromium
from testing.fake_openai import FakeOpenAI

QUESTIONS = [
    "How do I stream tokens from a client?",
    "How do I configure auth tokens?",
    "Where is the checkpointer TTL set?",
    "How do I run the server on Aegra?",
    "What does the offline model do?",
]

PROBE = """
window.__t = {};
document.getElementById('question').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    window.__t = {enter: performance.now(), bots: document.querySelectorAll('.msg.bot').length};
  }
}, true);
// The answer's first words: text in a bubble that was not there when Enter was pressed.
new MutationObserver(() => {
  const bots = document.querySelectorAll('.msg.bot .body');
  const last = bots[bots.length - 1];
  if (window.__t.enter && !window.__t.first && bots.length > window.__t.bots
      && last.textContent.length) {
    window.__t.first = performance.now();
  }
}).observe(document.getElementById('log'), {subtree: true, childList: true, characterData: true});
"""


async def sdk_first_token(url: str, question: str) -> float:
    """Seconds from starting a streamed run (existing thread) to its first answer text."""
    from langgraph_sdk import get_client

    client = get_client(url=url)
    thread = await client.threads.create()
    start = time.perf_counter()
    first = float("nan")
    # Read the stream to its end: the run must be over before the page asks (dev runs one job).
    async for part in client.runs.stream(
        thread["thread_id"],
        "docs_agent",
        input={"messages": [{"role": "user", "content": question}]},
        stream_mode=["messages"],
    ):
        if first != first and part.event.startswith("messages/partial"):
            if any(
                m.get("type") in ("ai", "AIMessageChunk") and m.get("content")
                for m in part.data or []
            ):
                first = time.perf_counter() - start
    return first


def measure(engine: str, n: int, root: Path, fake: FakeOpenAI | None) -> dict[str, Any]:
    """Page and SDK first-token times on one fresh server of `engine`."""
    tmp = root / engine
    tmp.mkdir()
    env = {"DOCS_AGENT_MODEL": "offline", "DOCS_AGENT_INDEX_DIR": str(tmp / "index")}
    if fake is not None:
        env.update(
            OPENAI_API_KEY="test",
            OPENAI_BASE_URL=fake.base_url,
            DOCS_AGENT_MODEL="openai:gpt-scripted",
            DOCS_AGENT_MEMORY="false",
        )
    with server(engine, tmp, env) as (url, _logs), chromium(tmp) as browser:
        asyncio.run(sdk_first_token(url, "warm up the index and the model"))
        page = browser.new_page(url + "/chat?lang=en")
        page.wait("window.docsAgentChat && window.docsAgentChat.ready", timeout=60)
        page.js(PROBE)
        page_s: list[float] = []
        sdk_s: list[float] = []
        for i in range(n):
            question = QUESTIONS[i % len(QUESTIONS)] + f" ({i})"
            if i % 5 == 0:
                page.click("#new-thread")  # every fifth question on a new thread, as users do
            done = page.js("document.querySelectorAll('.msg.bot[data-message-id]').length")
            page.type_and_enter("#question", question)
            page.wait("window.__t.first", timeout=120)
            page_s.append(float(page.js("(window.__t.first - window.__t.enter) / 1000")))
            page.wait(
                f"document.querySelectorAll('.msg.bot[data-message-id]').length > {done}",
                timeout=120,
            )
            sdk_s.append(asyncio.run(sdk_first_token(url, question)))
        page_med, sdk_med = statistics.median(page_s), statistics.median(sdk_s)
        return {
            "engine": engine,
            "model": "scripted" if fake is not None else "offline",
            "n": n,
            "page_first_token_median_s": round(page_med, 3),
            "page_p90_s": round(sorted(page_s)[int(0.9 * (n - 1))], 3),
            "sdk_first_token_median_s": round(sdk_med, 3),
            "page_over_sdk": round(page_med / sdk_med, 2) if sdk_med else None,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--engines", default="dev,aegra")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--model", choices=("scripted", "offline"), default="scripted")
    parser.add_argument("--word-delay", type=float, default=0.05, help="scripted model: s per word")
    args = parser.parse_args()
    results = []
    fake = FakeOpenAI(writer="markdown", token_delay=args.word_delay).start()
    with tempfile.TemporaryDirectory() as root:
        for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
            try:
                model = fake if args.model == "scripted" else None
                results.append(measure(engine, max(args.n, 1), Path(root), model))
            except Exception as exc:  # noqa: BLE001 — report an engine that cannot run, go on
                results.append({"engine": engine, "error": str(exc)[:500]})
            print(json.dumps(results[-1]), flush=True)
    fake.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
