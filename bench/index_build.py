"""Cold build of the docs+KB index at scale, beside a baseline implementation, in the same run.

    python -m bench.index_build --corpus pytest [--multiplier 8] [--baseline REV] [--repeats 3] [--json]

`--corpus` is a name in bench/corpora.toml or a folder (bench/corpora.py). The corpus is linked
into a scratch folder (hard links; the corpus itself is never written), its docs repeated
`--multiplier` times (sub-folders `c1/`, `c2/`, ...; the KB once), then each implementation builds a fresh index of it in its own child
process: this working tree's and, with `--baseline`, the one at a git revision (extracted with
`git archive`). Runs alternate (baseline, ours, baseline, ours, ...) so that a machine shared
with other work slows both alike; the medians are reported with their ratio.

Per run: cold build seconds (docs + KB sync), CPU seconds of the whole run (all processes), peak RSS of the building process, peak RSS of the
whole process tree (the building process plus any index workers, sampled every 50 ms), search
p50 over the questions on the built index (docs + KB search, as the agent's two tools do), the
seconds to re-index after one page changes, the cold build per indexed page (wall and CPU:
on a shared machine the CPU figure is the one that holds), and a digest of the first question's ranking (the
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
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.corpora import Corpus, resolve

ROOT = Path(__file__).resolve().parents[1]
SEARCH_REPEATS = 3
# The project's own packages: in a side's child process they must come from that side's tree.
PROJECT_PACKAGES = ("tools", "graphs", "settings", "server", "commands", "testing")


def scaled_corpus(corpus: Path, multiplier: int, into: Path) -> Path:
    """The corpus with its docs repeated `multiplier` times (hard links, so no copy of the bytes).

    Once, the docs keep their place (the generator's config beside them still applies); the
    folder's own files (`mkdocs.yml`, ...) are linked too.
    """
    out = into / f"corpus-x{multiplier}"
    out.mkdir(parents=True)
    for item in corpus.iterdir():
        if item.is_file():
            _link(str(item), str(out / item.name))
    for i in range(1, multiplier + 1):
        target = out / "docs" if multiplier == 1 else out / "docs" / f"c{i}"
        shutil.copytree(corpus / "docs", target, copy_function=_link)
    if (corpus / "kb").is_dir():
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


def open_sources(env: dict[str, str]) -> tuple[Any, Any]:
    """In the child: docs and KB as that tree's server opens them from its settings."""
    from tools.settings import SourceSettings

    settings = SourceSettings.from_env(env)
    try:
        from tools.docs import docs_source
        from tools.kb import kb_backend
    except ImportError:  # a baseline from before the tools were split by domain
        from tools.corpus import FolderCorpus, UrlRule

        from tools.kb import FolderKnowledgeBase

        rule = UrlRule(settings.docs_base_url, settings.docs_strip_prefixes)
        assert settings.docs_dir and settings.kb_dir
        return (
            FolderCorpus(settings.docs_dir, "docs", settings.index_dir, rule),
            FolderKnowledgeBase(settings.kb_dir, settings.index_dir),
        )
    return docs_source(settings), kb_backend(settings)


def use_tree(tree: Path) -> None:
    """Import the project from `tree` from now on, whatever this bench imported before.

    The bench itself (and `bench.corpora`, which reads site profiles) imported this checkout's
    `tools`; left in `sys.modules`, the baseline's child would measure this checkout again
    (it did: a baseline "indexed" pages only this checkout's readers know).
    """
    sys.path.insert(0, str(tree))
    for name in list(sys.modules):
        if name.split(".", 1)[0] in PROJECT_PACKAGES:
            del sys.modules[name]


def build_once(env: dict[str, str], questions: list[str]) -> dict[str, Any]:
    """In the child: build, search, change one page and sync again (the tree is on sys.path)."""
    import logging

    logging.disable(logging.WARNING)
    docs, kb = open_sources(env)
    sources = [s for s in (docs, kb) if s is not None]
    cpu = _cpu_s()
    t = time.perf_counter()
    for source in sources:
        source.sync()
    build = time.perf_counter() - t
    build_cpu = _cpu_s() - cpu
    peak_build = _peak_rss_mb()
    pages = len(docs.index) if docs is not None else 0

    samples = []
    for _ in range(SEARCH_REPEATS):
        for q in questions:
            t = time.perf_counter()
            for source in sources:
                source.search(q, 10)
            samples.append(time.perf_counter() - t)
    first = (
        [(h.key, round(h.score, 9)) for h in docs.search(questions[0], 10)]
        if questions and docs is not None
        else []
    )
    result: dict[str, Any] = {
        "docs_pages_indexed": pages,
        "cold_build_s": round(build, 2),
        "cold_ms_per_page": round(1000 * build / pages, 3) if pages else None,
        # CPU of the build (this process and its waited-for workers) per page: what a page
        # costs, however many other jobs share the machine and stretch the wall time.
        "cold_cpu_ms_per_page": round(1000 * build_cpu / pages, 3) if pages else None,
        "peak_rss_mb": round(peak_build, 1),
        "search_p50_ms": round(statistics.median(samples) * 1000, 3) if samples else None,
        "one_changed_page_s": None,
        "ranking_digest": hashlib.sha1(json.dumps(first).encode()).hexdigest()[:12],
    }
    if pages:
        result["one_changed_page_s"] = round(_change_one_page(docs), 3)
    return result


def _peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: its own, while `ru_maxrss` carries over the
    peak of the process that started it, a large one when a bench runs this from its own)."""
    with open("/proc/self/status") as f:
        return next((int(line.split()[1]) / 1024 for line in f if line.startswith("VmHWM:")), 0.0)


def _cpu_s() -> float:
    """User + system CPU seconds of this process and of its children that have been waited for."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _change_one_page(docs: Any) -> float:
    """Seconds to re-index after one indexed page gains a sentence (the page is restored)."""
    rel = docs.rel_path(sorted(docs.index.keys())[0])
    page = docs.root / rel
    text = page.read_bytes()
    try:
        # A new file, not the linked one: the other copies keep their text.
        page.unlink()
        page.write_bytes(text + b"\n\nA freshly added sentence about zyxwv tokens.\n")
        t = time.perf_counter()
        stats = docs.sync()
        changed = time.perf_counter() - t
    finally:
        page.unlink()
        page.write_bytes(text)
    assert stats.updated == 1, stats
    return changed


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


def run_side(tree: Path, corpus: Corpus, questions: Path) -> dict[str, Any]:
    """One cold build by the implementation in `tree`, in a child process; its tree RSS sampled."""
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.index_build",
                "--side",
                str(tree),
                "--env",
                json.dumps(corpus.env(Path(tmp))),
                "--questions",
                str(questions),
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,  # this bench's own module; `use_tree` then puts `tree` first
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
        elif value is None:
            out[key] = None
        else:
            out[key] = sorted({r[key] for r in runs})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", help="a name in bench/corpora.toml or a corpus folder")
    parser.add_argument("--questions", type=Path, help="default: the corpus's eval/dev.jsonl")
    parser.add_argument("--multiplier", type=int, default=1)
    parser.add_argument("--baseline", help="git revision of the implementation to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--side", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--env", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:  # the child: the implementation under test comes first on the path
        use_tree(args.side)
        qs = [json.loads(x)["question"] for x in args.questions.read_text().splitlines() if x]
        print(json.dumps(build_once(json.loads(args.env), qs)))
        return 0
    if not args.corpus:
        parser.error("--corpus is required")
    result = build_report(
        resolve(args.corpus), args.questions, args.multiplier, args.baseline, args.repeats
    )
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))
    return 0


def build_report(
    corpus: Corpus,
    questions: Path | None = None,
    multiplier: int = 1,
    baseline: str | None = None,
    repeats: int = 3,
) -> dict[str, Any]:
    """The figures of the module docstring for one corpus: medians per side, and their ratios."""
    qfile = (questions or corpus.questions or Path(os.devnull)).resolve()
    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as tmp:
        work = Path(tmp)
        # Always a linked copy: the run changes one page, and the corpus itself stays untouched.
        scaled = scaled_corpus(corpus.folder, multiplier, work)
        strip = corpus.strip_prefixes if multiplier == 1 else ()
        desc = replace(
            corpus,
            folder=scaled,
            docs_dir=scaled / "docs",
            kb_dir=scaled / "kb" if corpus.kb_dir else None,
            strip_prefixes=strip,
        )
        sides = {"ours": ROOT}
        if baseline:
            sides = {"baseline": baseline_tree(baseline, work), "ours": ROOT}
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
        for r in range(repeats):
            for name, tree in sides.items():
                runs[name].append(run_side(tree, desc, qfile))
                print(f"{corpus.name} run {r + 1} {name}: {runs[name][-1]}", file=sys.stderr)
    result: dict[str, Any] = {
        "corpus": corpus.name,
        "multiplier": multiplier,
        "repeats": repeats,
        "baseline": baseline,
        **{name: _medians(r) for name, r in runs.items()},
    }
    if baseline:
        b, o = result["baseline"], result["ours"]
        result["ratios_ours_over_baseline"] = {
            key: round(o[key] / b[key], 2)
            for key in ("cold_build_s", "cpu_s", "peak_rss_mb", "peak_tree_rss_mb", "search_p50_ms")
            if b.get(key) and o.get(key) is not None
        }
    return result


if __name__ == "__main__":
    raise SystemExit(main())
