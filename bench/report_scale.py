"""The answers report at 10,000 turns: time and peak memory, this checkout against a baseline.

    .venv/bin/python -m bench.report_scale                                # this checkout alone
    .venv/bin/python -m bench.report_scale --baseline ../../main          # and main, same run
    .venv/bin/python -m bench.report_scale --turns 20000 --gaps 10000

Starts a `langgraph dev` in dev mode (no auth, so the bench may write turn records through the
store API; in production only the graph writes them), fills the store with synthetic turn
records and votes spread over 30 days, then runs the real command — reading every record through
the API, aggregating, writing the HTML page with its topics and transcripts — as a child process
per checkout (the child imports the checkout's own `server` package) and reports its wall time
and its own peak RSS. Side by side: the same command on an empty store (interpreter, imports and
two empty searches), the floor that does not grow with the data.

The records look like the graph's (graphs/middleware/turn_record.py): questions drawn from a
3,000-word vocabulary with a Zipf law (a few words in many questions, most in few — so grouping
questions finds hundreds of topics, as real questions do), a fifth that found nothing, 3 % model
failures, answers of ~1,000 characters, the page asked on, reader-side token times.

Also, in-process: grouping `--gaps` unanswered questions (10,000 by default) into topics with
this checkout's `group_by_shared_word`, Zipf-drawn questions and the worst case (questions that
share no word: one topic each); the same at `--baseline-gaps` (default 2,000) with the
baseline's `gap_topics` too (the earlier grouping is quadratic: 10,000 would take hours).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import REPO_ROOT, first_existing, load_module_file, module_name
from server import report_access
from testing.servers import langgraph_dev

_SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
VOCABULARY = sorted({"".join(p) for p in itertools.product(_SYLLABLES, repeat=2)})[:3000]
PAGES = [f"https://docs.example.com/guide/{w}" for w in VOCABULARY[:300]]
KINDS = ["rate_limited", "model_unavailable", "stream_cut", "timeout", "refused", "bad_reply"]
# The child reports its own peak RSS (ru_maxrss of the children is the largest child so far).
CHILD = (
    "import resource, runpy, sys\n"
    "sys.argv = ['{module}', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('{module}', run_name='__main__')\n"
    "finally:\n"
    "    print('peak_rss_kb', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
)
# Where a checkout keeps the report: commands/ since the layout change, server/ before it.
REPORT_PATHS = ("commands/report.py", "server/report.py")


def question(rng: random.Random, weights: list[float]) -> str:
    """A question of 4-7 content words drawn with a Zipf law over the vocabulary."""
    words = rng.choices(VOCABULARY, weights=weights, k=rng.randint(4, 7))
    return "How do I " + " ".join(words) + "?"


def zipf_weights() -> list[float]:
    """Weight 1/rank: the vocabulary's word frequencies, as in any natural text."""
    return [1 / (rank + 1) for rank in range(len(VOCABULARY))]


def synthetic(n_turns: int, n_votes: int, now: float, seed: int = 7) -> tuple[list[Any], list[Any]]:
    """Turn records and votes shaped like the real ones (graphs/middleware/turn_record.py)."""
    rng = random.Random(seed)
    weights = zipf_weights()
    turns, votes = [], []
    for i in range(n_turns):
        failed = rng.random() < 0.03
        found = not failed and rng.random() > 0.2
        user = f"user{rng.randrange(500)}"
        sources = rng.sample(PAGES, 3) if found else []
        first = round(rng.uniform(0.8, 2.5), 3)
        turns.append(
            {
                "question": question(rng, weights),
                "answer": (
                    "The AI model is busy right now. Please try again in 30 seconds."
                    if failed
                    else " ".join(rng.choices(VOCABULARY, k=140)) + " " + " ".join(sources)
                ),
                "language": rng.choice(["en", "en", "en", "de", "pl", "es", "ru"]),
                "graph": rng.choice(["docs_agent", "docs_agent", "deep_agent"]),
                "user": user,
                "thread_id": f"thread-{i // 3}",
                "run_id": f"run-{i}",
                "message_id": f"msg-{i}",
                "sources": sources,
                "found": found,
                "removed": int(rng.random() < 0.05),
                "fixed": 0,
                "failure": {"kind": rng.choice(KINDS), "retry_after_s": None} if failed else None,
                "asked_on": rng.choice(PAGES[:40]) if rng.random() < 0.6 else None,
                "client": rng.choice(["widget", "page", None]),
                "latency_s": round(rng.uniform(0.3, 4), 3),
                "first_token_s": first,
                "last_token_s": round(first + rng.uniform(0.5, 6), 3),
                "wait_from": "run_created",
                "model": "openai:gpt-4.1-mini",
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


def run_report(checkout: Path, url: str, html: Path) -> dict[str, Any]:
    """The checkout's real command as a child process: wall seconds, its peak RSS (MB), first line."""
    module = module_name(str(first_existing(checkout, *REPORT_PATHS).relative_to(checkout)))
    child = CHILD.replace("{module}", module)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", child, "--since", "30d", "--url", url, "--html", str(html)],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    peak_kb = int(done.stderr.rsplit("peak_rss_kb", 1)[1].split()[0])
    return {
        "seconds": round(wall, 2),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "first_line": done.stdout.splitlines()[0] if done.stdout else "",
        "html_kb": round(html.stat().st_size / 1024, 1),
    }


def gap_questions(n: int, shape: str, seed: int = 11) -> list[str]:
    """`n` unanswered questions: `zipf` (as above), or `distinct` (words no other question has,
    the worst case: one topic per question, as one user typing ~3,400 random questions an hour)."""
    rng = random.Random(seed)
    if shape == "distinct":
        letters = "abcdefghijklmnopqrstuvwxyz"
        return [
            "How do I " + " ".join("".join(rng.choices(letters, k=9)) for _ in range(5)) + "?"
            for _ in range(n)
        ]
    weights = zipf_weights()
    return [question(rng, weights) for _ in range(n)]


def grouping_seconds(n: int, group: Any, shape: str) -> dict[str, Any]:
    """Seconds `group` takes on `n` unanswered questions of `shape`; the topics it found."""
    questions = gap_questions(n, shape)
    start = time.perf_counter()
    groups = group(questions)
    return {"questions": n, "seconds": round(time.perf_counter() - start, 3), "topics": len(groups)}


def baseline_gap_topics(checkout: Path) -> Any:
    """The baseline checkout's `gap_topics`, loaded from its file under another module name."""
    path = first_existing(checkout, *REPORT_PATHS)
    return load_module_file(path, "baseline_report").gap_topics


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--votes", type=int, default=3_000)
    parser.add_argument("--gaps", type=int, default=10_000)
    parser.add_argument("--baseline", type=Path, help="another checkout to run the same way")
    parser.add_argument("--baseline-gaps", type=int, default=2_000)
    args = parser.parse_args()
    from commands.report import _stopwords, group_by_shared_word

    _stopwords()  # the stopword lists' import (~1.5 s) is not the grouping's time
    result: dict[str, Any] = {"turns": args.turns, "votes": args.votes}
    baseline = baseline_gap_topics(args.baseline.resolve()) if args.baseline else None
    for shape in ("zipf", "distinct"):
        result[f"gaps_grouping_{shape}"] = grouping_seconds(args.gaps, group_by_shared_word, shape)
        if baseline is not None:
            result[f"gaps_grouping_{shape}_same_size"] = {
                "this": grouping_seconds(args.baseline_gaps, group_by_shared_word, shape),
                "baseline": grouping_seconds(args.baseline_gaps, baseline, shape),
            }
    with tempfile.TemporaryDirectory() as root:
        tmp = Path(root)
        env = {"DOCS_AGENT_INDEX_DIR": str(tmp / "index"), "DOCS_AGENT_WARM_UP": "false"}
        with langgraph_dev(tmp, env) as url:
            result["empty_store"] = run_report(REPO_ROOT, url, tmp / "empty.html")
            turns, votes = synthetic(args.turns, args.votes, time.time())
            result["fill_seconds"] = round(asyncio.run(fill(url, turns, votes)), 1)
            del turns, votes
            result["report"] = run_report(REPO_ROOT, url, tmp / "report.html")
            if args.baseline:
                result["baseline_report"] = run_report(
                    args.baseline.resolve(), url, tmp / "baseline.html"
                )
    result["report_over_empty_seconds"] = round(
        result["report"]["seconds"] / result["empty_store"]["seconds"], 2
    )
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
