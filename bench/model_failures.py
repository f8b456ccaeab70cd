"""What a reader gets when the model fails: how long until they read why, and what the text names.

    .venv/bin/python -m bench.model_failures                         # this checkout
    .venv/bin/python -m bench.model_failures --checkout ../report-base   # another one (e.g. main)

One `langgraph dev` served from the checkout (its own `.venv`, its own graphs), with the shipped
retry settings (2 retries, backoff from 1 s) and a 1 s model timeout, talking to the scripted
OpenAI-compatible model (`testing/fake_openai.py`, a word every 50 ms). Two figures:

- `rate_limit_to_message_s`: a model that answers 429 with `Retry-After: 10`, timed from the SDK's
  `runs.stream` call to the first event carrying a non-empty AI message (median of `--n`);
- `leaks`: every fault of testing/model_failures.py (CASES, which the e2e test checks) run once; every text a
  reader can be shown (streamed AI tokens, AI messages, custom and error events, the final state)
  scanned for exception or class names, tracebacks and module paths (its LEAK_RE): the kinds that
  leaked and the distinct names.

The checkout's server imports its own package (its `.venv` was made for it); the fake model and
the scan are this checkout's, so both checkouts are measured the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from langgraph_sdk import get_client

from bench.harness import REPO_ROOT
from testing.fake_openai import FakeOpenAI, Step
from testing.model_failures import CASES, QUESTION, ask, leaks, reader_texts
from testing.servers import langgraph_dev


async def rate_limit_wait(url: str, fake: FakeOpenAI, retry_after: str) -> tuple[float, str]:
    """Seconds from the stream's start to the first non-empty AI message; that message."""
    model = f"bench-429-{uuid.uuid4().hex[:6]}"
    fake.script(model, [Step("status", status=429, retry_after=retry_after)] * 9)
    client = get_client(url=url)
    thread = (await client.threads.create())["thread_id"]
    start = time.perf_counter()
    async for part in client.runs.stream(
        thread,
        "docs_agent",
        input={"messages": [{"role": "user", "content": QUESTION}]},
        context={"model": f"openai:{model}"},
        stream_mode=["values", "messages-tuple"],
    ):
        for text in reader_texts(part.event, part.data):
            content = json.loads(text)[0]
            if isinstance(content, str) and content.strip():
                return time.perf_counter() - start, content
    raise RuntimeError("the run ended without an AI message")


async def leak_scan(url: str, fake: FakeOpenAI) -> dict[str, Any]:
    """Run every fault once; the kinds whose texts leaked names, and the names."""
    client = get_client(url=url)
    leaked: dict[str, list[str]] = {}
    for case in CASES:
        model = f"bench-{case.name}-{uuid.uuid4().hex[:6]}"
        fake.script(model, list(case.steps))
        thread = (await client.threads.create())["thread_id"]
        context = {"model": f"openai:{model}", **case.context}
        texts, errors = await ask(url, thread, QUESTION, context, fake if case.refusing else None)
        state = await client.threads.get_state(thread)
        texts.extend(
            json.dumps([m.get("content"), m.get("additional_kwargs")])
            for m in (state.get("values") or {}).get("messages") or []
            if m.get("type") == "ai"
        )
        texts.extend(json.dumps(e) for e in errors)
        names = leaks(texts)
        if names:
            leaked[case.name] = names
        fake.clear(model)
    return {
        "faults": len(CASES),
        "faults_leaking": len(leaked),
        "distinct_names": sorted({n for names in leaked.values() for n in names}),
        "by_fault": leaked,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--checkout", type=Path, default=REPO_ROOT)
    parser.add_argument("--n", type=int, default=3)
    parser.add_argument("--retry-after", default="10")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    with FakeOpenAI(token_delay=0.05) as fake, tempfile.TemporaryDirectory() as root:
        env = {
            "OPENAI_API_KEY": "test",
            "OPENAI_BASE_URL": fake.base_url,
            "DOCS_AGENT_MODEL": "openai:bench-default",
            "DOCS_AGENT_MODEL_TIMEOUT_S": "1.0",
            "DOCS_AGENT_CODE_ROOTS": "",
        }
        with langgraph_dev(Path(root), extra_env=env, checkout=checkout) as url:

            async def measure() -> dict[str, Any]:
                waits = [await rate_limit_wait(url, fake, args.retry_after) for _ in range(args.n)]
                return {
                    "checkout": str(checkout),
                    "rate_limit_retry_after": args.retry_after,
                    "rate_limit_to_message_s": round(statistics.median(w for w, _ in waits), 2),
                    "rate_limit_message": waits[0][1],
                    "leaks": await leak_scan(url, fake),
                }

            result = asyncio.run(measure())
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
