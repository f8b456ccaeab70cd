"""Index and search speed of the docs+KB index beside rank-bm25, on one corpus.

    python -m bench.search_speed --corpus ../shared/corpus [--questions FILE] [--json]

Each side runs in its own child process so peak RSS is its own. Ours: cold build (fresh temp
index), warm open (new process-level objects over the built index, change check included),
re-index after one page changes (on a private copy of the corpus), search latency per eval
question (docs search + KB search, as the agent's two search tools do). rank-bm25: build of a
BM25Okapi over the same pages (tokenised whole pages), and `get_scores` + top-10 per question.

The speed-up is measured a third time, paired: one process holds both engines and times them
question by question, alternating which goes first. On a shared VM whose speed drifts by tens
of percent over a minute, two runs minutes apart compare the machine as much as the engines;
the paired run compares them under the same conditions. Both ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.harness import REPO_ROOT, p50_p95, peak_rss_mb

BASE_URL = "https://docs.langchain.com/oss/python"
STRIP = ("src/oss/python/", "src/oss/")
REPEATS = 5


def _questions(path: Path) -> list[str]:
    return [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]


def ours(corpus: Path, questions: list[str]) -> dict[str, Any]:
    """Build, open, re-index and search with tools.sources.corpus on a private copy of the corpus."""
    import logging

    logging.disable(logging.WARNING)
    from tools.kb import FolderKnowledgeBase
    from tools.sources.corpus import FolderCorpus, UrlRule

    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        copy = Path(tmp) / "corpus"
        shutil.copytree(corpus / "docs", copy / "docs")
        shutil.copytree(corpus / "kb", copy / "kb")
        index_dir = Path(tmp) / "index"

        def open_both() -> tuple[FolderCorpus, FolderKnowledgeBase]:
            docs = FolderCorpus(copy / "docs", "docs", index_dir, UrlRule(BASE_URL, STRIP))
            kb = FolderKnowledgeBase(copy / "kb", index_dir)
            docs.sync()
            kb.sync()
            return docs, kb

        t = time.perf_counter()
        open_both()
        cold = time.perf_counter() - t

        t = time.perf_counter()
        docs, kb = open_both()
        warm = time.perf_counter() - t

        page = copy / "docs" / "src" / "oss" / "langgraph" / "streaming.mdx"
        if not page.exists():
            page = next((copy / "docs").rglob("*.mdx"))
        page.write_text(page.read_text() + "\n\nA freshly added sentence about zyxwv tokens.\n")
        t = time.perf_counter()
        stats = docs.sync()
        changed = time.perf_counter() - t
        assert stats.updated == 1, stats
        assert docs.search("zyxwv", 3), "the changed page is not searchable"

        samples = []
        for _ in range(REPEATS):
            for q in questions:
                t = time.perf_counter()
                docs.search(q, 10)
                kb.search(q, 10)
                samples.append(time.perf_counter() - t)
    return {
        "cold_build_s": round(cold, 3),
        "warm_open_s": round(warm, 3),
        "one_changed_page_s": round(changed, 3),
        **p50_p95(samples),
        "peak_rss_mb": peak_rss_mb(),
    }


def _bm25_engine(corpus: Path) -> Callable[[str], None]:
    """rank-bm25 (Okapi) over the whole raw docs and KB pages; returns its search (top 10)."""
    import re

    from rank_bm25 import BM25Okapi

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    paths, tokens = [], []
    for sub in ("docs", "kb"):
        for p in sorted((corpus / sub).rglob("*")):
            if p.suffix in {".md", ".mdx", ".markdown"}:
                paths.append(p)
                tokens.append(words(p.read_text("utf-8", errors="replace")))
    index = BM25Okapi(tokens)

    def search(q: str) -> None:
        scores = index.get_scores(words(q))
        sorted(range(len(paths)), key=lambda i: -scores[i])[:10]

    return search


def bm25(corpus: Path, questions: list[str]) -> dict[str, Any]:
    """rank-bm25 over whole pages: build, then get_scores + top 10 per question."""
    t = time.perf_counter()
    search = _bm25_engine(corpus)
    build = time.perf_counter() - t
    samples = []
    for _ in range(REPEATS):
        for q in questions:
            t = time.perf_counter()
            search(q)
            samples.append(time.perf_counter() - t)
    return {"cold_build_s": round(build, 3), **p50_p95(samples), "peak_rss_mb": peak_rss_mb()}


def paired(corpus: Path, questions: list[str]) -> dict[str, Any]:
    """Both engines in one process, timed question by question in alternating order."""
    import logging

    logging.disable(logging.WARNING)
    from tools.kb import FolderKnowledgeBase
    from tools.sources.corpus import FolderCorpus, UrlRule

    bm25_search = _bm25_engine(corpus)

    with tempfile.TemporaryDirectory(prefix="bench-paired-") as tmp:
        docs = FolderCorpus(corpus / "docs", "docs", Path(tmp), UrlRule(BASE_URL, STRIP))
        kb = FolderKnowledgeBase(corpus / "kb", Path(tmp))
        docs.sync()
        kb.sync()

        def ours_search(q: str) -> None:
            docs.search(q, 10)
            kb.search(q, 10)

        times: dict[str, list[float]] = {"ours": [], "bm25": []}
        ratios = []
        for r in range(REPEATS):
            for i, q in enumerate(questions):
                pair = [("ours", ours_search), ("bm25", bm25_search)]
                if (r + i) % 2:
                    pair.reverse()
                took = {}
                for name, fn in pair:
                    t = time.perf_counter()
                    fn(q)
                    took[name] = time.perf_counter() - t
                    times[name].append(took[name])
                ratios.append(took["bm25"] / max(took["ours"], 1e-9))
    return {
        "ours": p50_p95(times["ours"]),
        "bm25": p50_p95(times["bm25"]),
        "speedup_p50": round(
            statistics.median(times["bm25"]) / max(statistics.median(times["ours"]), 1e-9), 1
        ),
        "median_per_question_speedup": round(statistics.median(ratios), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument(
        "--questions", type=Path, default=None, help="default: CORPUS/eval/dev.jsonl"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--side", choices=["ours", "bm25", "paired"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    qfile = args.questions or corpus / "eval" / "dev.jsonl"
    if args.side:
        fn = {"ours": ours, "bm25": bm25, "paired": paired}[args.side]
        print(json.dumps(fn(corpus, _questions(qfile))))
        return 0
    result: dict[str, Any] = {}
    for side in ("ours", "bm25", "paired"):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.search_speed",
                "--corpus",
                str(corpus),
                "--questions",
                str(qfile),
                "--side",
                side,
            ],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        result[side] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["speedup_p50_separate_runs"] = round(
        result["bm25"]["p50_ms"] / max(result["ours"]["p50_ms"], 1e-6), 1
    )
    result["speedup_p50"] = result["paired"]["speedup_p50"]
    if args.json:
        print(json.dumps(result))
    else:
        o, b = result["ours"], result["bm25"]
        print(f"{'':22}{'ours':>12}{'rank-bm25':>12}")
        for key in (
            "cold_build_s",
            "warm_open_s",
            "one_changed_page_s",
            "p50_ms",
            "p95_ms",
            "peak_rss_mb",
        ):
            print(f"{key:22}{o.get(key, '-')!s:>12}{b.get(key, '-')!s:>12}")
        pair = result["paired"]
        print(
            f"search p50, paired in one process: ours {pair['ours']['p50_ms']} ms,"
            f" rank-bm25 {pair['bm25']['p50_ms']} ms"
        )
        print(
            f"search p50 speed-up over rank-bm25: {result['speedup_p50']}x paired"
            f" (median per question {pair['median_per_question_speedup']}x),"
            f" {result['speedup_p50_separate_runs']}x from the separate runs above"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
