"""The answers report at 10,000 turns: time and peak memory of `python -m server.report`.

    .venv/bin/python -m bench.report_scale                 # 10,000 turns, 3,000 votes
    .venv/bin/python -m bench.report_scale --turns 20000

Starts a `langgraph dev` in dev mode (no auth, so the bench may write turn records through the
store API; in production only the graph writes them), fills the store with synthetic turn
records and votes spread over 30 days (questions drawn from a fixed vocabulary, a share that
found nothing, several languages), then runs the real command — reading every record through
the API, aggregating, writing the HTML page — as a child process and reports its wall time and
peak RSS. Side by side, in the same run: the same command on an empty store (interpreter,
imports and the two empty searches), the floor that does not grow with the data.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from server import report_access  # noqa: E402
from tests.e2e.conftest import langgraph_dev  # noqa: E402

WORDS = (
    "stream tokens auth webhook deploy index retry memory thread cron store schema model "
    "subgraph checkpoint ttl docker cache search citation language widget"
).split()
PAGES = [f"https://docs.example.com/guide/{w}" for w in WORDS]


def synthetic(n_turns: int, n_votes: int, now: float, seed: int = 7) -> tuple[list[Any], list[Any]]:
    """Turn records and votes shaped like the real ones (graphs/middleware/turn_record.py)."""
    rng = random.Random(seed)
    turns, votes = [], []
    for i in range(n_turns):
        found = rng.random() > 0.2
        user = f"user{rng.randrange(500)}"
        turns.append(
            {
                "question": "How do I " + " ".join(rng.sample(WORDS, 4)) + "?",
                "language": rng.choice(["en", "en", "en", "de", "pl", "es", "ru"]),
                "graph": rng.choice(["docs_agent", "docs_agent", "deep_agent"]),
                "user": user,
                "thread_id": f"thread-{i // 3}",
                "run_id": f"run-{i}",
                "message_id": f"msg-{i}",
                "sources": rng.sample(PAGES, 3) if found else [],
                "found": found,
                "removed": int(rng.random() < 0.05),
                "fixed": 0,
                "latency_s": round(rng.uniform(0.5, 4), 3),
                "model": "offline",
                "at": now - rng.uniform(0, 30 * 86400),
            }
        )
    for turn in rng.sample(turns, min(n_votes, n_turns)):
        vote = rng.choice(["up", "up", "down"])
        votes.append(
            {
                "voter": turn["user"],
                "message_id": turn["message_id"],
                "thread_id": turn["thread_id"],
                "run_id": turn["run_id"],
                "vote": vote,
                "comment": "missing an example" if vote == "down" else "",
                "at": turn["at"],
            }
        )
    return turns, votes


async def fill(url: str, turns: list[Any], votes: list[Any]) -> float:
    """Write the records through the store API (32 at a time); seconds taken."""
    from langgraph_sdk import get_client

    client = get_client(url=url)
    start = time.perf_counter()
    items = [(report_access.TURNS, t["message_id"], t) for t in turns] + [
        (report_access.FEEDBACK, report_access.feedback_key(v["voter"], v["message_id"]), v)
        for v in votes
    ]
    for i in range(0, len(items), 32):
        await asyncio.gather(
            *(
                client.store.put_item(list(ns), key, value, index=False)
                for ns, key, value in items[i : i + 32]
            )
        )
    return time.perf_counter() - start


def run_report(url: str, html: Path) -> dict[str, Any]:
    """The real command as a child process: wall seconds, peak RSS (MB), its first line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.report",
            "--since",
            "30d",
            "--url",
            url,
            "--html",
            str(html),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    wall = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return {
        "seconds": round(wall, 2),
        # ru_maxrss of children is the largest child so far: the empty run goes first.
        "peak_rss_mb": round(max(peak_kb, before) / 1024, 1),
        "first_line": done.stdout.splitlines()[0] if done.stdout else "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--votes", type=int, default=3_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        tmp = Path(root)
        env = {"DOCS_AGENT_INDEX_DIR": str(tmp / "index"), "DOCS_AGENT_WARM_UP": "false"}
        with langgraph_dev(tmp, env) as url:
            empty = run_report(url, tmp / "empty.html")
            turns, votes = synthetic(args.turns, args.votes, time.time())
            fill_s = asyncio.run(fill(url, turns, votes))
            full = run_report(url, tmp / "report.html")
            size_kb = (tmp / "report.html").stat().st_size / 1024
    print(
        json.dumps(
            {
                "turns": args.turns,
                "votes": args.votes,
                "fill_seconds": round(fill_s, 1),
                "empty_store": empty,
                "report": full,
                "report_over_empty_seconds": round(full["seconds"] / empty["seconds"], 2),
                "html_kb": round(size_kb, 1),
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
