"""First question after a fresh server start on a real corpus: is an index build inside it?

    .venv/bin/python -m bench.first_question --corpus ../shared/corpus              # dev and Aegra
    .venv/bin/python -m bench.first_question --corpus ../shared/corpus --engines dev
    .venv/bin/python -m bench.first_question --corpus ../shared/corpus --engines aegra \
        --scenarios prebuilt --starts 6          # six fresh starts on one prebuilt index: median

The corpus's docs/ and kb/ are the sources (DOCS_AGENT_DOCS_DIR / DOCS_AGENT_KB_DIR), the model is
the offline extractive one. Per engine, each scenario starts a fresh server and asks one question
(thread create + a streamed run, end to end, as a chat UI asks) as soon as the server answers its
health check; then a second question the same way, and a third through `runs/wait` (see `ask`):

- prebuilt: `python -m tools.build_index` ran before the start (deploy time: `make index`, the
  compose setup); the server only checks the index.
- warm-up: no prebuilt index; the server's background build (tools/build_index.warm_up) started
  at process start; the question arrives right away and waits for what is left of that build.
- warm-up-built: the same, asked once the server logged "search indexes ready".
- lazy: DOCS_AGENT_WARM_UP=false and no prebuilt index, the behaviour before warm-up existed:
  the first question builds the index.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from bench.harness import REPO_ROOT
from commands.local_stack import local_postgres, local_redis
from testing.servers import (
    AegraServices,
    AegraStack,
    langgraph_dev,
    offline_env,
)

QUESTION = "How do I add persistence (a checkpointer) to a LangGraph graph?"
READY_LINE = "search indexes ready"
SCENARIOS = ("prebuilt", "warm-up", "warm-up-built", "lazy")


def ask(url: str, endpoint: str = "stream") -> dict[str, Any]:
    """One question on a new thread, end to end; seconds and the answer's first characters.

    `stream` (what a chat UI does): POST /runs/stream, timed until the stream closes with the
    finished run's last state. `wait`: POST /runs/wait. Aegra's `wait` with its Redis broker
    learns that a run ended by polling every 2 s (aegra_api WorkerExecutor.wait_for_completion),
    so it answers a 0.3 s run after about 2 s; both are reported.
    """
    start = time.monotonic()
    body = {
        "assistant_id": "docs_agent",
        "input": {"messages": [{"role": "user", "content": QUESTION}]},
    }
    with httpx.Client(base_url=url, timeout=300) as c:
        tid = c.post("/threads", json={}).raise_for_status().json()["thread_id"]
        if endpoint == "wait":
            state = c.post(f"/threads/{tid}/runs/wait", json=body).raise_for_status().json()
        else:
            state = last_values(c, f"/threads/{tid}/runs/stream", {**body, "stream_mode": "values"})
    answer = str(state["messages"][-1]["content"])
    return {"first_question_s": round(time.monotonic() - start, 2), "answer": answer[:70]}


def last_values(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The last `values` event of a streamed run (the stream closes when the run ends)."""
    state: dict[str, Any] = {}
    event = ""
    with client.stream("POST", path, json=body) as r:
        r.raise_for_status()
        for line in r.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "values":
                state = json.loads(line.split(":", 1)[1])
            elif line.startswith("data:") and event == "error":
                raise RuntimeError(line)
    return state


def wait_for_line(logs: list[Path], line: str, timeout: float = 300) -> float:
    """Seconds until `line` appears in one of the server logs."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if any(p.exists() and line in p.read_text(errors="replace") for p in logs):
            return time.monotonic() - start
        time.sleep(0.1)
    raise TimeoutError(f"{line!r} not logged within {timeout}s")


@contextmanager
def server(engine: str, tmp: Path, env: dict[str, str]) -> Iterator[tuple[str, list[Path]]]:
    """A fresh server of `engine` (dev or aegra); its URL and log files."""
    if engine == "dev":
        with langgraph_dev(tmp, env) as url:
            yield url, [tmp / "server" / "server.log"]
        return
    with local_postgres() as db, local_redis() as redis:
        stack = AegraStack(tmp, AegraServices(db, redis), env)
        try:
            yield stack.start().url, [stack.workdir / "server0.log"]
        finally:
            stack.stop()


def scenario(engine: str, name: str, corpus: Path, root: Path, starts: int = 1) -> dict[str, Any]:
    """One scenario on one engine; with `starts` > 1, as many fresh servers one after another.

    A prebuilt index is built once and opened by every start, as replicas open one built at
    deploy time; the other scenarios start each server on an empty index folder.
    """
    tmp = root / f"{engine}-{name}"
    tmp.mkdir()
    env = {
        "DOCS_AGENT_DOCS_DIR": str(corpus / "docs"),
        "DOCS_AGENT_KB_DIR": str(corpus / "kb"),
        "DOCS_AGENT_INDEX_DIR": str(tmp / "index"),
        "DOCS_AGENT_MODEL": "offline",
    }
    out: dict[str, Any] = {"engine": engine, "scenario": name}
    if name == "prebuilt":
        start = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "tools.build_index", "--quiet"],
            cwd=REPO_ROOT,
            env=offline_env(tmp, env),
            check=True,
            capture_output=True,
        )
        out["make_index_s"] = round(time.monotonic() - start, 1)
    if name == "lazy":
        env["DOCS_AGENT_WARM_UP"] = "false"
    runs = []
    for i in range(starts):
        if name != "prebuilt" and i:
            env["DOCS_AGENT_INDEX_DIR"] = str(tmp / f"index-{i}")
        runs.append(one_start(engine, name, tmp / f"start-{i}", env))
    if starts == 1:
        return {**out, **runs[0]}
    firsts = [r["first_question_s"] for r in runs]
    return {
        **out,
        "starts": runs,
        "first_question_median_s": round(statistics.median(firsts), 2),
        "first_question_range_s": [min(firsts), max(firsts)],
    }


def one_start(engine: str, name: str, tmp: Path, env: dict[str, str]) -> dict[str, Any]:
    """A fresh server: seconds until it is ready, then the first, second and `wait` questions."""
    tmp.mkdir()
    out: dict[str, Any] = {}
    start = time.monotonic()
    with server(engine, tmp, env) as (url, logs):
        out["server_ready_s"] = round(time.monotonic() - start, 1)
        if name == "warm-up-built":
            out["index_ready_after_start_s"] = round(wait_for_line(logs, READY_LINE), 1)
        out.update(ask(url))
        out["second_question_s"] = ask(url)["first_question_s"]
        out["wait_endpoint_s"] = ask(url, "wait")["first_question_s"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--engines", default="dev,aegra")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="a comma-separated subset")
    parser.add_argument(
        "--starts", type=int, default=1, help="fresh servers per scenario; reports their median"
    )
    args = parser.parse_args()
    if not (args.corpus / "docs").is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    names = [s.strip() for s in args.scenarios.split(",") if s.strip() in SCENARIOS]
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-first-") as tmp:
        for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
            for name in names:
                results.append(
                    scenario(engine, name, args.corpus.resolve(), Path(tmp), args.starts)
                )
                print(json.dumps(results[-1]), file=sys.stderr)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
