"""Load, restart and overhead bench: langgraph-sdk clients against `langgraph dev` and/or Aegra, and the fake OpenAI server.

Loopback only, bounded counts and time. Run from the repository root:

    .venv/bin/python -m bench.load --clients 50 --jobs 10          # load + overhead + restart
    .venv/bin/python -m bench.load --clients 5 --skip-restart       # quick
    .venv/bin/python -m bench.load --engines dev,aegra --skip-restart   # `make bench-aegra`

`--engines dev,aegra` runs the load and overhead phases on both engines in the same run: `langgraph
dev` (one process, in memory) and Aegra with `--aegra-processes` processes (default 2) on one
throw-away PostgreSQL + Redis (needs `make aegra-install`), the conversations spread over the
processes; the report gives TTFT p50/p95 side by side and their ratio.

Load: N concurrent clients, each a 3-turn conversation on its own thread (runs.stream, mode
messages-tuple + values); throughput, time to first answer token (TTFT) and run latency p50/p95,
errors; then every thread's history is checked message by message (questions in order, one final
answer per question, every tool call answered, no duplicated ids).
Overhead: TTFT of docs_agent minus that of bench/trivial_graph.py (one node streaming the same fake
model) through the same server, p50, runs one at a time.
Restart: a run is cut by stopping the server; after a start on the same state folder the finished
turn is intact, the cut run is not reported as successful, and the thread accepts a new run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from langgraph_sdk import get_client

from bench.harness import REPO_ROOT, pct_ms
from commands.local_stack import local_postgres, local_redis
from testing.fake_openai import FakeOpenAI, Step
from testing.servers import AegraServices, AegraStack, free_port, langgraph_dev

# How a final answer starts: the fake OpenAI server's agent, or the offline extractive model.
ANSWER = ("According to the documentation:", "_This is an extractive answer")
QUESTIONS = [
    "How do I install the server?",
    "How do I stream tokens from subgraphs?",
    "How do I open Studio?",
]


@dataclass
class Stats:
    """Measurements of one phase."""

    ttft: list[float] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def dev_server(
    tmp: Path, env: dict[str, str], jobs: int, port: int | None = None
) -> AbstractContextManager[str]:
    """`langgraph dev` with docs_agent and the trivial baseline graph, state kept under `tmp`."""
    return langgraph_dev(
        tmp,
        env,
        ["--n-jobs-per-worker", str(jobs)],
        port=port,
        graphs={"trivial": str(REPO_ROOT / "bench" / "trivial_graph.py") + ":graph"},
    )


async def one_run(
    client: Any,
    thread_id: str,
    graph: str,
    question: str,
    stats: Stats,
    context: dict[str, Any] | None = None,
) -> None:
    """Stream one run; record TTFT (first non-empty AI text token) and latency."""
    start = time.monotonic()
    first: float | None = None
    try:
        async for part in client.runs.stream(
            thread_id,
            graph,
            input={"messages": [{"role": "user", "content": question}]},
            stream_mode=["messages-tuple", "values"],
            context=context,
        ):
            if part.event == "error":
                stats.errors.append(str(part.data)[:200])
            elif part.event.startswith("messages") and first is None:
                chunk = part.data[0] if isinstance(part.data, list) and part.data else {}
                if (
                    isinstance(chunk, dict)
                    and chunk.get("type", "").startswith("AI")
                    or chunk.get("type") == "ai"
                ):
                    if isinstance(chunk.get("content"), str) and chunk["content"].strip():
                        first = time.monotonic() - start
    except Exception as exc:  # noqa: BLE001 — a bench counts errors, it does not stop on them
        stats.errors.append(f"{type(exc).__name__}: {exc}"[:200])
        return
    stats.latency.append(time.monotonic() - start)
    if first is None:
        stats.errors.append(f"no answer token on {graph}")
    else:
        stats.ttft.append(first)


def verify_thread(messages: list[dict[str, Any]], questions: list[str]) -> list[str]:
    """Problems in one thread's history: lost, duplicated or unanswered messages."""
    problems = []
    humans = [m["content"] for m in messages if m["type"] == "human"]
    if humans != questions:
        problems.append(f"questions {humans!r} != {questions!r}")
    finals = [m for m in messages if m["type"] == "ai" and not m.get("tool_calls")]
    if len(finals) != len(questions) or not all(
        str(m["content"]).startswith(ANSWER) for m in finals
    ):
        problems.append(f"{len(finals)} final answers for {len(questions)} questions")
    if len({m["id"] for m in messages}) != len(messages):
        problems.append("duplicated message ids")
    answered = {m.get("tool_call_id") for m in messages if m["type"] == "tool"}
    if any(
        {c["id"] for c in m.get("tool_calls") or []} - answered
        for m in messages
        if m["type"] == "ai"
    ):
        problems.append("tool call without its tool message")
    return problems


async def load_phase(urls: str | list[str], clients: int) -> dict[str, Any]:
    """N concurrent 3-turn conversations spread over the servers, then history verification.

    With several server processes, conversation i runs on process i mod n and its history is read
    back from the next process, so a message lost between processes shows up.
    """
    urls = [urls] if isinstance(urls, str) else urls
    pool = [get_client(url=u, timeout=httpx.Timeout(120)) for u in urls]
    stats = Stats()
    threads = [
        await pool[i % len(pool)].threads.create(metadata={"bench": "load"}) for i in range(clients)
    ]

    async def conversation(i: int, thread_id: str) -> None:
        for q in QUESTIONS:
            await one_run(pool[i % len(pool)], thread_id, "docs_agent", q, stats)

    start = time.monotonic()
    await asyncio.gather(*(conversation(i, t["thread_id"]) for i, t in enumerate(threads)))
    wall = time.monotonic() - start
    bad = 0
    problems: list[str] = []
    for i, t in enumerate(threads):
        state = await pool[(i + 1) % len(pool)].threads.get_state(t["thread_id"])
        found = verify_thread(state["values"].get("messages", []), QUESTIONS)
        bad += bool(found)
        problems += found[:1]
    runs = clients * len(QUESTIONS)
    return {
        "processes": len(urls),
        "clients": clients,
        "runs": runs,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:3],
        "inconsistent_threads": bad,
        "problem_samples": problems[:3],
        "wall_s": round(wall, 2),
        "throughput_runs_per_s": round(runs / wall, 2),
        "ttft_p50_ms": round(pct_ms(stats.ttft, 0.5)),
        "ttft_p95_ms": round(pct_ms(stats.ttft, 0.95)),
        "latency_p50_ms": round(pct_ms(stats.latency, 0.5)),
        "latency_p95_ms": round(pct_ms(stats.latency, 0.95)),
    }


async def overhead_phase(url: str, runs: int) -> dict[str, Any]:
    """TTFT p50 of docs_agent minus the trivial graph, alternating, one run at a time."""
    client = get_client(url=url, timeout=httpx.Timeout(120))
    ours, base = Stats(), Stats()
    for i in range(runs):
        for graph, stats in (
            (("docs_agent", ours), ("trivial", base))
            if i % 2 == 0
            else (("trivial", base), ("docs_agent", ours))
        ):
            thread = await client.threads.create()
            await one_run(client, thread["thread_id"], graph, QUESTIONS[i % 3], stats)
    return {
        "runs_each": runs,
        "errors": len(ours.errors) + len(base.errors),
        "docs_agent_ttft_p50_ms": round(pct_ms(ours.ttft, 0.5)),
        "trivial_ttft_p50_ms": round(pct_ms(base.ttft, 0.5)),
        "overhead_p50_ms": round(pct_ms(ours.ttft, 0.5) - pct_ms(base.ttft, 0.5)),
        "paired_overhead_p50_ms": round(
            1000 * statistics.median(a - b for a, b in zip(ours.ttft, base.ttft, strict=False))
        )
        if ours.ttft and base.ttft
        else None,
    }


async def restart_phase(
    tmp: Path, env: dict[str, str], fake: FakeOpenAI, jobs: int
) -> dict[str, Any]:
    """Stop the server during a run, start it again on the same state, check the thread.

    Reports what the dev server does with the cut run (its in-memory queue may re-run it after the
    restart) and checks the invariants that must hold either way.
    """
    port = free_port()
    with dev_server(tmp, env, jobs, port) as url:
        client = get_client(url=url, timeout=httpx.Timeout(60))
        thread = await client.threads.create(metadata={"bench": "restart"})
        tid = thread["thread_id"]
        done = Stats()
        await one_run(client, tid, "docs_agent", QUESTIONS[0], done)
        turn1 = [
            (m["id"], m["content"])
            for m in (await client.threads.get_state(tid))["values"]["messages"]
        ]
        fake.script("bench-stall", [Step("slow", delay=30)])
        cut = await client.runs.create(
            tid,
            "docs_agent",
            input={"messages": [{"role": "user", "content": QUESTIONS[1]}]},
            context={"model": "openai:bench-stall"},
        )
        await asyncio.sleep(3)  # the run is inside the stalled model call
        status_before = (await client.runs.get(tid, cut["run_id"]))["status"]
    stop_started = time.monotonic()
    with dev_server(tmp, env, jobs, port) as url:
        client = get_client(url=url, timeout=httpx.Timeout(90))
        cut_after = (await client.runs.get(tid, cut["run_id"]))["status"]
        try:
            await asyncio.wait_for(client.runs.join(tid, cut["run_id"]), 60)
        except Exception as exc:  # noqa: BLE001 — reported, not fatal
            cut_after += f" (join: {type(exc).__name__})"
        cut_final = (await client.runs.get(tid, cut["run_id"]))["status"]
        after = Stats()
        await one_run(client, tid, "docs_agent", QUESTIONS[2], after)
        final = (await client.threads.get_state(tid))["values"]["messages"]
        humans = [m["content"] for m in final if m["type"] == "human"]
        return {
            "first_turn_errors": done.errors,
            "cut_run_status_before_stop": status_before,
            "cut_run_status_right_after_restart": cut_after,
            "cut_run_final_status": cut_final,
            "first_turn_intact": [(m["id"], m["content"]) for m in final[: len(turn1)]] == turn1,
            "questions_after": humans,
            "thread_problems": verify_thread(final, humans),
            "new_run_errors": after.errors,
            "new_run_answered": bool(final)
            and str(final[-1].get("content", "")).startswith(ANSWER),
            "restart_to_done_s": round(time.monotonic() - stop_started, 1),
        }


@contextmanager
def engine(
    name: str, tmp: Path, env: dict[str, str], jobs: int, processes: int
) -> Iterator[list[str]]:
    """The URLs of one engine's server processes, with docs_agent and the trivial baseline graph."""
    trivial = {"trivial": str(REPO_ROOT / "bench" / "trivial_graph.py") + ":graph"}
    if name == "dev":
        with dev_server(tmp / "dev", env, jobs) as url:
            yield [url]
        return
    if name != "aegra":
        raise SystemExit(f"unknown engine {name!r}: dev or aegra")
    with local_postgres() as db, local_redis() as redis:
        stack = AegraStack(
            tmp / "aegra",
            AegraServices(db, redis),
            {**env, "N_JOBS_PER_WORKER": str(jobs), "LOG_LEVEL": "WARNING"},
            trivial,
        )
        try:
            yield [stack.start().url for _ in range(processes)]
        finally:
            stack.stop()


async def main() -> None:
    """Run the phases and print one JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=10, help="--n-jobs-per-worker")
    parser.add_argument("--overhead-runs", type=int, default=20)
    parser.add_argument(
        "--token-delay", type=float, default=0.002, help="fake server seconds between SSE chunks"
    )
    parser.add_argument("--engines", default="dev", help="comma-separated: dev, aegra")
    parser.add_argument("--aegra-processes", type=int, default=2)
    parser.add_argument(
        "--model",
        choices=["fake", "offline"],
        default="fake",
        help="fake: the fake OpenAI server (token delay); offline: the built-in extractive model",
    )
    parser.add_argument("--skip-restart", action="store_true")
    args = parser.parse_args()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    report: dict[str, Any] = {}
    with FakeOpenAI(token_delay=args.token_delay) as fake, tempfile.TemporaryDirectory() as tmp:
        env = {
            "OPENAI_API_KEY": "test",
            "OPENAI_BASE_URL": fake.base_url,
            "DOCS_AGENT_MODEL": "openai:bench",
            "DOCS_AGENT_NUM_SUGGESTIONS": "0",
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_MEMORY": "false",
            "DOCS_AGENT_INDEX_DIR": str(Path(tmp) / "index"),
        }
        if args.model == "offline":
            for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
                env.pop(key)
            env["DOCS_AGENT_MODEL"] = "offline"
        report["model"] = args.model
        for name in engines:
            with engine(name, Path(tmp), env, args.jobs, args.aegra_processes) as urls:
                await overhead_phase(urls[0], 2)  # warm-up: index build, imports, model clients
                part = {
                    "load": await load_phase(urls, args.clients),
                    "overhead": await overhead_phase(urls[0], args.overhead_runs),
                }
            if engines == ["dev"]:
                report.update(part)  # the single-engine report keeps its original shape
            else:
                report[name] = part
        if {"dev", "aegra"} <= set(engines):
            dev, aegra = report["dev"]["load"], report["aegra"]["load"]
            report["ttft_side_by_side"] = {
                "dev_p50_ms": dev["ttft_p50_ms"],
                "aegra_p50_ms": aegra["ttft_p50_ms"],
                "dev_p95_ms": dev["ttft_p95_ms"],
                "aegra_p95_ms": aegra["ttft_p95_ms"],
                "p50_ratio_dev_over_aegra": round(
                    dev["ttft_p50_ms"] / max(aegra["ttft_p50_ms"], 1), 1
                ),
            }
        if not args.skip_restart:
            report["restart"] = await restart_phase(Path(tmp) / "restart", env, fake, args.jobs)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
