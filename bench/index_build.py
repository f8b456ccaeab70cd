"""Cold build of the docs+KB index at scale, beside a baseline implementation, in the same run.

    python bench/index_build.py --corpus ../shared/corpus --multiplier 8 --baseline REV [--repeats 3] [--json]

The docs of the corpus are repeated `--multiplier` times (hard links into sub-folders `c1/`,
`c2/`, ...; the KB once; the corpus itself is never written), then each implementation builds a fresh index of it in its own child
process: this working tree's and, with `--baseline`, the one at a git revision (extracted with
`git archive`). Runs alternate (baseline, ours, baseline, ours, ...) so that a machine shared
with other work slows both alike; the medians are reported with their ratio.

Per run: cold build seconds (docs + KB sync), CPU seconds of the whole run (all processes), peak RSS of the building process, peak RSS of the
whole process tree (the building process plus any index workers, sampled every 50 ms), search
p50 over the questions on the built index (docs + KB search, as the agent's two tools do), the
seconds to re-index after one page changes, and a digest of the first question's ranking (the
same digest on both sides means the same pages in the same order with the same scores).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASE_URL = "https://docs.langchain.com/oss/python"
STRIP = ("src/oss/python/", "src/oss/")
SEARCH_REPEATS = 3


def scaled_corpus(corpus: Path, multiplier: int, into: Path) -> Path:
    """The corpus with its docs repeated `multiplier` times (hard links, so no copy of the bytes)."""
    out = into / f"corpus-x{multiplier}"
    for i in range(1, multiplier + 1):
        shutil.copytree(corpus / "docs", out / "docs" / f"c{i}", copy_function=_link)
    shutil.copytree(corpus / "kb", out / "kb", copy_function=_link)
    return out


def _link(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system: copy instead
        shutil.copy2(src, dst)


def baseline_tree(rev: str, into: Path) -> Path:
    """The repository's files at `rev`, extracted into a folder."""
    out = into / "baseline"
    out.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def build_once(corpus: Path, questions: list[str], index_dir: Path) -> dict[str, Any]:
    """In the child: build, search, change one page and sync again (the tree is on sys.path)."""
    import logging
    import resource

    logging.disable(logging.WARNING)
    from tools.kb import FolderKnowledgeBase

    try:
        from tools.sources.corpus import FolderCorpus, UrlRule
    except ImportError:  # a baseline from before tools/ was split into packages
        from tools.corpus import FolderCorpus, UrlRule  # type: ignore[no-redef]

    docs = FolderCorpus(corpus / "docs", "docs", index_dir, UrlRule(BASE_URL, STRIP))
    kb = FolderKnowledgeBase(corpus / "kb", index_dir)
    t = time.perf_counter()
    docs.sync()
    kb.sync()
    build = time.perf_counter() - t
    peak_build = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    samples = []
    for _ in range(SEARCH_REPEATS):
        for q in questions:
            t = time.perf_counter()
            docs.search(q, 10)
            kb.search(q, 10)
            samples.append(time.perf_counter() - t)
    first = [(h.key, round(h.score, 9)) for h in docs.search(questions[0], 10)] if questions else []

    page = next(iter(sorted((corpus / "docs").rglob("*.mdx"))))
    text = page.read_text()
    try:
        # A new file, not the linked one: the other copies keep their text.
        page.unlink()
        page.write_text(text + "\n\nA freshly added sentence about zyxwv tokens.\n")
        t = time.perf_counter()
        stats = docs.sync()
        changed = time.perf_counter() - t
    finally:
        page.write_text(text)
    assert stats.updated == 1, stats
    return {
        "cold_build_s": round(build, 2),
        "peak_rss_mb": round(peak_build, 1),
        "search_p50_ms": round(statistics.median(samples) * 1000, 3),
        "one_changed_page_s": round(changed, 3),
        "ranking_digest": hashlib.sha1(json.dumps(first).encode()).hexdigest()[:12],
    }


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc (0 where unreadable)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


def run_side(tree: Path, corpus: Path, questions: Path) -> dict[str, Any]:
    """One cold build by the implementation in `tree`, in a child process; its tree RSS sampled."""
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--side",
                str(tree),
                "--corpus",
                str(corpus),
                "--questions",
                str(questions),
                "--index-dir",
                tmp,
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=tree,
        )
        peak = 0
        while True:
            peak = max(peak, _tree_rss_kb(proc.pid))
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.05)
        out = proc.stdout.read() if proc.stdout else ""
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"build in {tree} failed ({proc.returncode})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["peak_tree_rss_mb"] = round(peak / 1024, 1)
    # CPU of the whole run (the process and its waited-for workers): what the build costs
    # the machine, whatever else shares it.
    result["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 1)
    return result


def _medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in runs[0].items():
        if isinstance(value, int | float):
            out[key] = round(statistics.median(r[key] for r in runs), 3)
        else:
            out[key] = sorted({r[key] for r in runs})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--questions", type=Path, help="default: CORPUS/eval/dev.jsonl")
    parser.add_argument("--multiplier", type=int, default=1)
    parser.add_argument("--baseline", help="git revision of the implementation to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--side", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--index-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    qfile = (args.questions or corpus / "eval" / "dev.jsonl").resolve()
    if args.side:  # the child: the implementation under test comes first on the path
        sys.path.insert(0, str(args.side))
        questions = [json.loads(x)["question"] for x in qfile.read_text().splitlines() if x]
        print(json.dumps(build_once(corpus, questions, args.index_dir)))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        work = Path(tmp)
        # Always a linked copy: the run changes one page, and the corpus itself stays untouched.
        scaled = scaled_corpus(corpus, args.multiplier, work)
        pages = sum(1 for p in (scaled / "docs").rglob("*") if p.suffix in {".md", ".mdx"})
        sides = {"ours": ROOT}
        if args.baseline:
            sides = {"baseline": baseline_tree(args.baseline, work), "ours": ROOT}
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
        for r in range(args.repeats):
            for name, tree in sides.items():
                runs[name].append(run_side(tree, scaled, qfile))
                print(f"run {r + 1} {name}: {runs[name][-1]}", file=sys.stderr)
    result: dict[str, Any] = {
        "multiplier": args.multiplier,
        "docs_pages": pages,
        "repeats": args.repeats,
        "baseline": args.baseline,
        **{name: _medians(r) for name, r in runs.items()},
    }
    if args.baseline:
        b, o = result["baseline"], result["ours"]
        result["ratios_ours_over_baseline"] = {
            key: round(o[key] / b[key], 2)
            for key in ("cold_build_s", "cpu_s", "peak_rss_mb", "peak_tree_rss_mb", "search_p50_ms")
            if b.get(key)
        }
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
