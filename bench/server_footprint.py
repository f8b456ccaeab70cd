"""Server start time and resident memory with and without the embedding model, side by side.

    .venv/bin/python -m bench.server_footprint --corpus ../shared/corpus

Builds the docs + KB indexes (with vectors) of the corpus once into a temp folder, then starts
`langgraph dev` (offline model) on them twice, `DOCS_AGENT_EMBEDDINGS=off` (the baseline) and
`use`: seconds until `/ok` answers, then one English and one Polish question through
`docs_agent` (runs.wait), then the server's resident memory (its process tree, from /proc).
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.corpora import resolve
from testing.servers import langgraph_dev

QUESTIONS = [
    "How do I stream LLM tokens from a subgraph?",
    "Jak przesyłać strumieniowo tokeny z podgrafów?",
]


def _tree_rss_mb(port: int) -> float:
    """Resident memory of the process serving `port` and of its children, in MB."""
    procs: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        procs[int(entry.name)] = (int(stat[1]), cmd)
    roots = [pid for pid, (_, cmd) in procs.items() if f"--port {port} " in cmd + " "]
    tree = set(roots)
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _) in procs.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                changed = True
    total_kb = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
        except OSError:
            continue
    return round(total_kb / 1024, 1)


def serve(tmp: Path, env: dict[str, str]) -> dict[str, Any]:
    """Start, ask, measure; the server is stopped on return."""
    from langgraph_sdk import get_client

    port_holder: dict[str, Any] = {}
    t = time.perf_counter()
    with langgraph_dev(tmp, env) as url:
        start = time.perf_counter() - t
        port_holder["port"] = int(url.rsplit(":", 1)[1])
        rss_started = _tree_rss_mb(port_holder["port"])
        client = get_client(url=url)

        async def ask() -> list[float]:
            times = []
            for q in QUESTIONS:
                thread = await client.threads.create()
                t0 = time.perf_counter()
                await client.runs.wait(
                    thread["thread_id"], "docs_agent", input={"messages": [("user", q)]}
                )
                times.append(round(time.perf_counter() - t0, 2))
            return times

        import asyncio

        run_s = asyncio.run(ask())
        rss = _tree_rss_mb(port_holder["port"])
    return {
        "start_s": round(start, 2),
        "rss_started_mb": rss_started,
        "rss_after_mb": rss,
        "run_s": run_s,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", required=True, help="a name in bench/corpora.toml or a folder")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    corpus = resolve(args.corpus)
    with tempfile.TemporaryDirectory(prefix="bench-footprint-") as tmp_s:
        tmp = Path(tmp_s)
        env = corpus.env(tmp / "index", embeddings="use")
        del env["DOCS_AGENT_INDEX_DIR"]
        # One index (with vectors) built here and shared by both servers: they then measure
        # start and memory, not the build.
        from settings.sources import SourceSettings
        from tools import load_sources

        t = time.perf_counter()
        settings = SourceSettings.from_env({**env, "DOCS_AGENT_INDEX_DIR": str(tmp / "index")})
        sources = load_sources(settings)
        sources.docs.sync()
        sources.kb.sync()
        build = round(time.perf_counter() - t, 1)
        result: dict[str, Any] = {"index_build_s": build}
        for mode in ("off", "use"):
            run_env = {**env, "DOCS_AGENT_EMBEDDINGS": mode}
            workdir = tmp / mode
            (workdir / "index").parent.mkdir(parents=True, exist_ok=True)
            os.symlink(tmp / "index", workdir / "index")
            result[mode] = serve(workdir, run_env)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
