"""Instant search speed: server time per keystroke query, beside `search_docs`, and paint in Chromium.

    .venv/bin/python -m bench.instant_search --corpus ../shared/corpus            # server side
    .venv/bin/python -m bench.instant_search --corpus ../shared/corpus --browser  # + Chromium

Queries are the corpus's eval questions typed a character at a time: every prefix of 2 to 60
characters is one keystroke query (`how do I stre`, `how do I strea`, …), as the widget sends them.

Server side, in one process over one index (the docs source the server would open, vectors off
unless `--embeddings use`), for every keystroke query, in alternating order:
- `route`: `GET /chat/api/search` through the ASGI app with a guest token — the server time the
  route itself reports (`took_ms`: guest check, limiter, search, trails, JSON), the figure the
  target (p95 ≤ 30 ms) is about;
- `instant`: the search alone (`server.web.search.instant_results`);
- `search_docs`: the agent's tool on the same query (lexical ranking fused with the section
  vectors when weak, snippets, link resolution) — the baseline of this same run.

`--browser` then starts `langgraph dev` on the same corpus and index, opens the chat page in
headless Chromium and types `--typed` questions at `--interval-ms` per character; the page's
instant.js records, for each result list it paints, the time from the keystroke that asked for it
to the next frame after the list is in the DOM (`window.docsAgentInstant.paints`). Target: p95
≤ 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import REPO_ROOT, p50_p95

MIN_PREFIX = 2
MAX_PREFIX = 60


def percentiles(samples: list[float]) -> dict[str, float]:
    """p50 / p95 / max of millisecond samples."""
    return {"n": len(samples), **p50_p95(samples, 1, 2), "max_ms": round(max(samples), 2)}


def keystrokes(questions: list[str]) -> list[str]:
    """Every prefix a reader types on the way to each question (2 to 60 characters)."""
    out: list[str] = []
    for q in questions:
        q = q[:MAX_PREFIX]
        out += [q[:n] for n in range(MIN_PREFIX, len(q) + 1) if not q[:n].endswith(" ")]
    return out


def open_corpus(corpus_dir: Path, index_dir: Path, embeddings: str) -> tuple[Any, Any]:
    """(description, Sources) of a corpus folder, its index built (or reused) in `index_dir`."""
    from bench import corpora
    from settings.sources import SourceSettings
    from tools import load_sources

    corpus = corpora.resolve(corpus_dir)
    sources = load_sources(SourceSettings.from_env(corpus.env(index_dir, embeddings)))
    started = time.perf_counter()
    sources.docs.ensure_synced()
    sources.docs.index.load()
    print(
        f"{corpus.name}: {len(sources.docs.index)} pages indexed/opened in "
        f"{time.perf_counter() - started:.1f} s (base URL {corpus.base_url or 'none'})",
        file=sys.stderr,
    )
    return corpus, sources


async def server_side(sources: Any, queries: list[str]) -> dict[str, Any]:
    """The three timings per keystroke query, interleaved (see the module docstring)."""
    import httpx

    from server import guest
    from server.web import app as web_app
    from server.web import search
    from tools.docs import create_docs_tools

    svc = guest.GuestService(guest.GuestConfig(enabled=True, secret="b" * 40))
    guest.CONFIG, guest.SERVICE = svc.config, svc
    # The bench is one very fast typist: no limit in the way.
    search.LIMITER = search.GuestSearchLimiter(search.SearchLimits(10**9, 10**9))
    search.load_sources = lambda: sources  # type: ignore[assignment]
    token = svc.issue("127.0.0.1")["token"]
    search_docs = create_docs_tools(sources.docs)[0]
    route: list[float] = []
    route_wall: list[float] = []
    alone: list[float] = []
    baseline: list[float] = []
    found = 0
    transport = httpx.ASGITransport(app=web_app.app)
    async with httpx.AsyncClient(
        transport=transport,
        base_url="http://bench.test",
        headers={"Authorization": f"Bearer {token}"},
    ) as client:

        async def via_route(q: str) -> None:
            nonlocal found
            t = time.perf_counter()
            r = await client.get("/chat/api/search", params={"q": q, "limit": 6})
            route_wall.append((time.perf_counter() - t) * 1000)
            body = r.json()
            route.append(float(body["took_ms"]))
            found += bool(body["results"])

        def direct(q: str) -> None:
            t = time.perf_counter()
            search.instant_results(sources.docs, q, 6)
            alone.append((time.perf_counter() - t) * 1000)

        def tool(q: str) -> None:
            t = time.perf_counter()
            search_docs.invoke({"query": q, "limit": 5, "feedback_to_user": ""})
            baseline.append((time.perf_counter() - t) * 1000)

        for q in queries[:20]:  # warm-up: caches, first reads
            await via_route(q)
            direct(q)
            tool(q)
        route.clear(), route_wall.clear(), alone.clear(), baseline.clear()
        found = 0
        for i, q in enumerate(queries):
            if i % 2:
                tool(q)
                direct(q)
                await via_route(q)
            else:
                await via_route(q)
                direct(q)
                tool(q)
    return {
        "keystroke_queries": len(queries),
        "with_results": found,
        "route_server_ms": percentiles(route),
        "route_wall_ms": percentiles(route_wall),
        "instant_search_ms": percentiles(alone),
        "search_docs_ms": percentiles(baseline),
        "p50_ratio_search_docs_over_route": round(
            statistics.median(baseline) / statistics.median(route), 2
        ),
    }


def browser_side(
    corpus: Any, index_dir: Path, questions: list[str], interval_ms: int
) -> dict[str, Any]:
    """Keystroke → painted results in headless Chromium against `langgraph dev` on the corpus."""
    from bench.first_question import server
    from testing.browser import chromium

    token = "bench-instant-token-0123456789"
    env = corpus.env(index_dir, "off") | {
        "AUTH_TOKENS": f"{token}:bench",
        "DOCS_AGENT_MODEL": "offline",
    }
    paints: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, server("dev", Path(tmp), env) as (url, _logs):
        with chromium(Path(tmp)) as browser:
            page = browser.new_page(url + "/chat?lang=en")
            page.js(f"localStorage.setItem('da-token', {json.dumps(token)})")
            page.goto(url + "/chat?lang=en")
            page.wait("window.docsAgentChat && window.docsAgentChat.ready", timeout=60)
            page.wait("window.docsAgentInstant", timeout=10)
            for q in questions:
                page.js(
                    "(() => { const q = document.getElementById('question'); q.value = '';"
                    " q.dispatchEvent(new Event('input')); q.focus();"
                    " window.docsAgentInstant.paints = []; return 0; })()"
                )
                for ch in q[:MAX_PREFIX]:
                    page.send("Input.insertText", {"text": ch})
                    time.sleep(interval_ms / 1000)
                time.sleep(0.5)
                paints += list(page.js("window.docsAgentInstant.paints"))
            page.close()
    return {
        "typed_questions": len(questions),
        "interval_ms": interval_ms,
        "painted_lists": len(paints),
        "keystroke_to_paint_ms": percentiles([p["ms"] for p in paints]),
        "server_ms_of_painted": percentiles([float(p["server_ms"]) for p in paints]),
    }


def main() -> None:
    """Run the bench and print its figures (JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=REPO_ROOT.parent / "shared" / "corpus")
    parser.add_argument(
        "--index-dir", type=Path, default=None, help="reuse an index (default: temp)"
    )
    parser.add_argument("--embeddings", default="off", choices=("off", "use"))
    parser.add_argument("--browser", action="store_true", help="also measure paint in Chromium")
    parser.add_argument("--typed", type=int, default=12, help="questions typed in the browser")
    parser.add_argument("--interval-ms", type=int, default=120, help="between typed characters")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import logging

    logging.disable(logging.WARNING)
    from bench import corpora

    index_dir = args.index_dir or Path(tempfile.mkdtemp(prefix="bench-instant-"))
    corpus, sources = open_corpus(args.corpus, index_dir, args.embeddings)
    if corpus.questions is None:
        raise SystemExit(f"{args.corpus} has no eval questions (eval/dev.jsonl)")
    questions = [q["question"] for q in corpora.load_questions(corpus.questions)]
    out: dict[str, Any] = {"corpus": corpus.name, "pages": len(sources.docs.index)}
    out["server"] = asyncio.run(server_side(sources, keystrokes(questions)))
    if args.browser:
        out["browser"] = browser_side(corpus, index_dir, questions[: args.typed], args.interval_ms)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    s = out["server"]
    print(f"{out['corpus']}: {out['pages']} pages, {s['keystroke_queries']} keystroke queries")
    for name in ("route_server_ms", "route_wall_ms", "instant_search_ms", "search_docs_ms"):
        p = s[name]
        print(
            f"  {name:<20} p50 {p['p50_ms']:>7.2f}  p95 {p['p95_ms']:>7.2f}  max {p['max_ms']:>7.2f}"
        )
    print(f"  search_docs / route (p50): {s['p50_ratio_search_docs_over_route']}x")
    if "browser" in out:
        b = out["browser"]["keystroke_to_paint_ms"]
        print(
            f"  Chromium keystroke → results painted: p50 {b['p50_ms']} ms, p95 {b['p95_ms']} ms "
            f"({out['browser']['painted_lists']} lists)"
        )


if __name__ == "__main__":
    main()
