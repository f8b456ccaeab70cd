"""Fairness bench: another user's answer time while one user attacks, on `langgraph dev` and Aegra.

Loopback only, bounded counts and time; each engine gets its own server (offline model, auth on
with two users, the shipped limits). Run from the repository root (Aegra needs `make
aegra-install`, PostgreSQL and Redis; `--engines dev` runs without them):

    .venv/bin/python -m bench.fairness                     # both engines
    .venv/bin/python -m bench.fairness --engines dev --samples 8
    .venv/bin/python -m bench.fairness --engines aegra --max-runs 1   # a stricter run limit

The victim asks docs_agent one question at a time (`runs/wait`, a new thread each) and the answer
time is measured per question, p50/p95 over `--samples` questions. Phases, the victim measured in
each while the attacker keeps at it until the victim is done:
- idle: nobody else;
- (a) injected turn: the attacker writes a 1 MB question plus a `list_memories` tool call into
  their thread through `threads.update_state` and runs it; where the door refuses that (413), the
  largest write it lets through (just under DOCS_AGENT_MAX_WRITE_CHARS) instead, again and again;
- (b) queued runs: 40 deep_agent runs at once, then a new one whenever one is refused or ends;
- (c) store: 20 MB `PUT /store/items` values, one after another (each must be refused).
Reported per engine and phase: victim p50/p95, p95 / idle p95, the attacker's requests by status,
and the longest `/ok` answer seen meanwhile; for dev, the "Blocking call" errors its log holds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.harness import pct_ms
from commands.local_stack import local_postgres, local_redis
from settings.limits import DEFAULT_MAX_RUNS_PER_USER, DEFAULT_MAX_WRITE_CHARS
from testing.servers import AegraServices, AegraStack, langgraph_dev

ATTACKER, VICTIM = "tok-mallory-bench-51c3e0a9d2", "tok-alice-bench-8f07b4c6e1"
QUESTIONS = [
    "How do I install the server?",
    "How do I stream tokens from subgraphs?",
    "How do I open Studio?",
    "Which graph should I use?",
]
DEEP_QUESTIONS = [
    "Why does build_deep_agent fail with no model key?",
    "How are threads kept and pruned?",
    "What happens when the port is already in use?",
    "How does auth decide who owns a thread?",
]
MB = 1_000_000
MAX_ATTACK_REQUESTS = 2000  # a bound on every attack loop, whatever the victim's pace


@dataclass
class Attack:
    """What the attacker's requests got, and the longest `/ok` answer during the phase."""

    statuses: Counter[str] = field(default_factory=Counter)
    ok_max_s: float = 0.0


def client(url: str, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=httpx.Timeout(300)
    )


async def new_thread(c: httpx.AsyncClient) -> str:
    r = await c.post("/threads", json={})
    r.raise_for_status()
    return str(r.json()["thread_id"])


async def victim_answers(url: str, samples: int) -> tuple[list[float], list[str]]:
    """The victim's answer times (s) for `samples` questions asked one at a time, and errors."""
    times: list[float] = []
    errors: list[str] = []
    async with client(url, VICTIM) as c:
        for i in range(samples):
            try:
                tid = await new_thread(c)
            except httpx.HTTPError as exc:  # the victim refused service is a finding, not a crash
                errors.append(f"thread: {exc}"[:160])
                continue
            body = {
                "assistant_id": "docs_agent",
                "input": {"messages": [{"role": "user", "content": QUESTIONS[i % len(QUESTIONS)]}]},
            }
            start = time.monotonic()
            r = await c.post(f"/threads/{tid}/runs/wait", json=body)
            elapsed = time.monotonic() - start
            answer = (
                str((r.json().get("messages") or [{}])[-1].get("content", ""))
                if r.is_success
                else ""
            )
            if not answer.startswith("_This is an extractive answer"):
                errors.append(f"{r.status_code}: {r.text[:120]}")
            times.append(elapsed)
    return times, errors


async def watch_ok(url: str, done: asyncio.Event, attack: Attack) -> None:
    """The longest `/ok` answer while the phase runs (a stalled event loop shows here first)."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:
        for _ in range(100_000):
            if done.is_set():
                return
            start = time.monotonic()
            await c.get("/ok")
            attack.ok_max_s = max(attack.ok_max_s, time.monotonic() - start)
            await asyncio.sleep(0.2)


def _injected_values(text: str) -> dict[str, Any]:
    call = {
        "name": "list_memories",
        "args": {"feedback_to_user": ""},
        "id": "inj",
        "type": "tool_call",
    }
    return {
        "values": {
            "messages": [
                {"type": "human", "content": text},
                {"type": "ai", "content": "", "tool_calls": [call]},
            ]
        },
        "as_node": "model",
    }


async def attack_injected_turn(url: str, done: asyncio.Event, attack: Attack) -> None:
    """(a) 1 MB question + injected tool call via update_state, run; the largest allowed if refused."""
    huge = json.dumps(_injected_values("x " * (MB // 2)))
    allowed = json.dumps(_injected_values("x " * (DEFAULT_MAX_WRITE_CHARS // 2 - 200)))
    headers = {"Content-Type": "application/json"}
    async with client(url, ATTACKER) as c:
        tid = await new_thread(c)
        r = await c.post(
            f"/threads/{tid}/runs/wait",
            json={
                "assistant_id": "docs_agent",
                "input": {"messages": [{"role": "user", "content": "hi"}]},
            },
        )
        for _ in range(MAX_ATTACK_REQUESTS):
            if done.is_set():
                return
            r = await c.post(f"/threads/{tid}/state", content=huge, headers=headers)
            attack.statuses[f"update_state 1 MB: {r.status_code}"] += 1
            if r.status_code != 200:
                r = await c.post(f"/threads/{tid}/state", content=allowed, headers=headers)
                attack.statuses[f"update_state under the cap: {r.status_code}"] += 1
            state = (await c.get(f"/threads/{tid}/state")).json()
            r = await c.post(
                f"/threads/{tid}/runs/wait",
                json={
                    "assistant_id": "docs_agent",
                    "input": None,
                    "checkpoint_id": state["checkpoint"]["checkpoint_id"],
                },
            )
            attack.statuses[f"run: {r.status_code}"] += 1


async def attack_queued_runs(url: str, done: asyncio.Event, attack: Attack) -> None:
    """(b) 40 deep_agent runs at once, then one more whenever a place frees."""
    async with client(url, ATTACKER) as c:
        threads = [await new_thread(c) for _ in range(40)]

        async def submit(i: int) -> None:
            body = {
                "assistant_id": "deep_agent",
                "input": {"messages": [{"role": "user", "content": DEEP_QUESTIONS[i % 4]}]},
                "multitask_strategy": "enqueue",
            }
            r = await c.post(f"/threads/{threads[i % len(threads)]}/runs", json=body)
            attack.statuses[f"deep_agent run: {r.status_code}"] += 1

        await asyncio.gather(*(submit(i) for i in range(40)))
        for i in range(MAX_ATTACK_REQUESTS):
            if done.is_set():
                break
            await submit(i)
            await asyncio.sleep(0.25)
        # Leave the server clean for the next phase: cancel what is still pending or running.
        for tid in threads:
            runs = (await c.get(f"/threads/{tid}/runs", params={"limit": 100})).json()
            for run in runs if isinstance(runs, list) else []:
                if run.get("status") in ("pending", "running"):
                    await c.post(f"/threads/{tid}/runs/{run['run_id']}/cancel")


async def attack_store(url: str, done: asyncio.Event, attack: Attack) -> None:
    """(c) 20 MB store values, one after another."""
    body = json.dumps(
        {"namespace": ["memories", "mallory"], "key": "big", "value": {"text": "x" * (20 * MB)}}
    )
    async with client(url, ATTACKER) as c:
        for _ in range(MAX_ATTACK_REQUESTS):
            if done.is_set():
                return
            try:
                r = await c.put(
                    "/store/items", content=body, headers={"Content-Type": "application/json"}
                )
                attack.statuses[f"store 20 MB: {r.status_code}"] += 1
            except httpx.TransportError as exc:  # refused mid-upload: count it, keep attacking
                attack.statuses[f"store 20 MB: {type(exc).__name__}"] += 1


AttackFn = Callable[[str, asyncio.Event, Attack], Awaitable[None]]
PHASES: dict[str, AttackFn | None] = {
    "idle": None,
    "a_injected_1mb_turn": attack_injected_turn,
    "b_40_queued_deep_runs": attack_queued_runs,
    "c_20mb_store_write": attack_store,
}


async def phase(url: str, attack_fn: AttackFn | None, samples: int) -> dict[str, Any]:
    """The victim's answer times while `attack_fn` runs (it starts a second ahead)."""
    done = asyncio.Event()
    attack = Attack()
    tasks = [asyncio.create_task(watch_ok(url, done, attack))]
    if attack_fn is not None:
        tasks.append(asyncio.create_task(attack_fn(url, done, attack)))
        await asyncio.sleep(1.0)
    times, errors = await victim_answers(url, samples)
    done.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "victim_p50_ms": round(pct_ms(times, 0.5)),
        "victim_p95_ms": round(pct_ms(times, 0.95)),
        "victim_errors": errors[:3],
        "attacker_requests": dict(attack.statuses),
        "attacker_failure": next(
            (repr(r)[:200] for r in results if isinstance(r, Exception)), None
        ),
        "ok_max_ms": round(1000 * attack.ok_max_s),
    }


@contextmanager
def engine(name: str, tmp: Path, env: dict[str, str], jobs: int) -> Iterator[tuple[str, Path]]:
    """(URL, log) of one engine's server."""
    if name == "dev":
        with langgraph_dev(tmp / "dev", env, ["--n-jobs-per-worker", str(jobs)]) as url:
            yield url, tmp / "dev" / "server" / "server.log"
        return
    if name != "aegra":
        raise SystemExit(f"unknown engine {name!r}: dev or aegra")
    with local_postgres() as db, local_redis() as redis:
        stack = AegraStack(
            tmp / "aegra",
            AegraServices(db, redis),
            {**env, "N_JOBS_PER_WORKER": str(jobs), "LOG_LEVEL": "WARNING"},
        )
        try:
            server = stack.start()
            yield server.url, server.log
        finally:
            stack.stop()


async def run_engine(
    name: str, tmp: Path, env: dict[str, str], args: argparse.Namespace
) -> dict[str, Any]:
    with engine(name, tmp, env, args.jobs) as (url, log):
        await victim_answers(url, 2)  # warm-up: index build, imports
        report: dict[str, Any] = {}
        for phase_name, attack_fn in PHASES.items():
            report[phase_name] = await phase(url, attack_fn, args.samples)
            await asyncio.sleep(2)  # what the attack left queued drains or is cancelled
        idle = report["idle"]["victim_p95_ms"]
        report["p95_ratio_to_idle"] = {
            p: round(report[p]["victim_p95_ms"] / max(idle, 1), 2) for p in PHASES if p != "idle"
        }
        if name == "dev":
            report["blocking_call_errors_in_log"] = log.read_text(errors="replace").count(
                "Blocking call"
            )
        return report


async def main() -> None:
    """Run every phase on each engine and print one JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="dev,aegra", help="comma-separated: dev, aegra")
    parser.add_argument("--samples", type=int, default=12, help="victim questions per phase")
    parser.add_argument("--jobs", type=int, default=10, help="concurrent runs per server process")
    parser.add_argument(
        "--max-runs",
        type=int,
        default=DEFAULT_MAX_RUNS_PER_USER,
        help="DOCS_AGENT_MAX_RUNS_PER_USER of the servers (default: the shipped one)",
    )
    args = parser.parse_args()
    report: dict[str, Any] = {
        "samples_per_phase": args.samples,
        "jobs_per_worker": args.jobs,
        "max_runs_per_user": args.max_runs,
    }
    # Kept when the run fails, so the servers' logs can be read; removed after a clean run.
    tmp = Path(tempfile.mkdtemp(prefix="bench-fairness-"))
    print(f"server state and logs under {tmp}", file=sys.stderr)
    env = {
        "AUTH_TOKENS": f"{ATTACKER}:mallory,{VICTIM}:alice",
        "DOCS_AGENT_MODEL": "offline",
        "DOCS_AGENT_INDEX_DIR": str(tmp / "index"),
        "DOCS_AGENT_MAX_RUNS_PER_USER": str(args.max_runs),
    }
    for name in [e.strip() for e in args.engines.split(",") if e.strip()]:
        report[name] = await run_engine(name, tmp, env, args)
        print(json.dumps({name: report[name]}), file=sys.stderr, flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(report, indent=2))
    ratios = [
        r for e in ("dev", "aegra") if e in report for r in report[e]["p95_ratio_to_idle"].values()
    ]
    if ratios:
        print(f"worst p95 ratio to idle: {max(ratios)}; median {statistics.median(ratios)}")


if __name__ == "__main__":
    asyncio.run(main())
