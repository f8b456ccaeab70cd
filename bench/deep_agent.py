"""deep_agent over an eval set through a real `langgraph dev`, offline: context economy, citations, time.

    python -m bench.deep_agent --corpus ../shared/corpus --questions ../shared/corpus/eval/dev.jsonl

Sources: docs and KB from the corpus, code roots = installed langgraph and langchain, a temp index.
For each question a fresh thread runs `deep_agent` to completion (`runs.wait`); from the final state:
- context economy (tokens ≈ chars/4, as the graph records it): the orchestrator's input per model call
  (system prompt + tool schemas + messages) against the total the researchers read (tool results);
- invalid citations in the final answer, counted by an *independent* CitationChecker built here in
  this process over the same sources (not the graph's own report);
- seconds per answer (wall clock of `runs.wait`, including the dev server's ~1 s queue polling).
Prints ONE JSON object. Warm-up: one untimed question first (the server syncs its index on first use).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from langgraph_sdk import get_client

from bench.corpora import resolve
from graphs.citations import CitationChecker
from settings.sources import SourceSettings
from testing.servers import langgraph_dev
from tools import load_sources


def source_env(corpus: Path, index_dir: Path) -> dict[str, str]:
    """The DOCS_AGENT_* variables for the corpus (its description, bench/corpora.py)."""
    return resolve(corpus).env(index_dir, embeddings="use")


async def run(url: str, questions: list[str]) -> list[tuple[float, dict[str, Any]]]:
    """(seconds, final state) per question, each on a new thread; one untimed warm-up first."""
    client = get_client(url=url)
    out = []
    for i, q in enumerate([questions[0], *questions]):
        thread = await client.threads.create(metadata={"user_id": "bench"})
        start = time.perf_counter()
        await client.runs.wait(
            thread["thread_id"], "deep_agent", input={"messages": [{"role": "user", "content": q}]}
        )
        seconds = time.perf_counter() - start
        # The run's output is the public schema (messages); the reports are internal state.
        state = (await client.threads.get_state(thread["thread_id"]))["values"]
        if i:
            out.append((seconds, state if isinstance(state, dict) else {}))
    return out


def main() -> int:
    """Run the bench and print its JSON summary."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    p.add_argument("--questions", type=Path, default=Path("../shared/corpus/eval/dev.jsonl"))
    p.add_argument("--limit", type=int, default=0, help="only the first N questions")
    args = p.parse_args()
    rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    questions = [r["question"] for r in rows][: args.limit or None]
    with tempfile.TemporaryDirectory() as tmp:
        env = source_env(args.corpus, Path(tmp) / "index")
        for k, v in env.items():
            os.environ[k] = v
        with langgraph_dev(Path(tmp), extra_env=env) as url:
            results = asyncio.run(run(url, questions))
        checker = CitationChecker(load_sources(SourceSettings.from_env(env)))
        per_q = []
        for (seconds, state), q in zip(results, questions, strict=True):
            messages = state.get("messages") or []
            answer = messages[-1].get("content", "") if messages else ""
            _, report = checker.check(answer if isinstance(answer, str) else "")
            eco = state.get("context_economy") or {}
            per_q.append(
                {
                    "question": q,
                    "seconds": round(seconds, 3),
                    "orchestrator_max_input_tokens": eco.get("orchestrator_max_input_tokens", 0),
                    "orchestrator_calls": len(eco.get("orchestrator_input_tokens_per_call", [])),
                    "subagent_read_tokens_total": eco.get("subagent_read_tokens_total", 0),
                    "citations_checked": report.checked,
                    "citations_invalid": report.invalid,
                    "graph_citation_check": state.get("citation_check"),
                }
            )
    orch = [r["orchestrator_max_input_tokens"] for r in per_q]
    reads = [r["subagent_read_tokens_total"] for r in per_q]
    ratios = [r / o for r, o in zip(reads, orch, strict=True) if o]
    summary = {
        "n": len(per_q),
        "token_estimate": "chars/4",
        "orchestrator_input_tokens_per_call_max": max(orch, default=0),
        "orchestrator_input_tokens_per_call_median_of_max": statistics.median(orch) if orch else 0,
        "subagent_read_tokens_total": sum(reads),
        "subagent_read_tokens_median_per_question": statistics.median(reads) if reads else 0,
        "ratio_total_reads_to_orchestrator_max_input": round(sum(reads) / sum(orch), 2)
        if sum(orch)
        else None,
        "ratio_per_question_min": round(min(ratios), 2) if ratios else None,
        "citations_checked": sum(r["citations_checked"] for r in per_q),
        "citations_invalid_independent": sum(r["citations_invalid"] for r in per_q),
        "seconds_median": round(statistics.median(r["seconds"] for r in per_q), 3)
        if per_q
        else None,
        "seconds_max": round(max((r["seconds"] for r in per_q), default=0), 3),
        "questions": per_q,
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
