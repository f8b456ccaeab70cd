"""Parse cost of the reStructuredText reader on a Sphinx folder, beside plain docutils, in one run.

    python -m bench.rst_parse [--docs ../shared/corpus-pytest/docs] [--repeats 3] [--json]

Ours: `SphinxSite.parse` (docutils parse with Sphinx's directives and roles, ids, Markdown out)
for every page Sphinx would build. Baseline: docutils' own `publish_doctree` of the same text
(the reference parser alone with its standard transforms, Sphinx markup left as errors): what
any reader built on docutils pays at least. Each side runs in its own child process (ours
registers directives in docutils' process-wide registry), rounds alternate (baseline, ours, ...)
so a machine shared with other work slows both alike. Per-page times are CPU seconds; the median
over rounds is kept per page; the report gives mean and median per page with their ratios, the
slowest pages, and the peak Python memory of parsing the largest page.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.harness import REPO_ROOT

BASELINE_SETTINGS = {
    "report_level": 5,
    "halt_level": 5,
    "warning_stream": False,
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "syntax_highlight": "none",
}


def pages(docs: Path) -> list[str]:
    """The pages Sphinx builds (the reader's own listing, so both sides parse the same files)."""
    from tools.sources.generators.sphinx.project import SphinxSite

    return SphinxSite(docs).source_files()


def child(side: str, docs: Path, rels: list[str]) -> dict[str, Any]:
    """One round of one side: CPU ms per page, and the largest page's peak memory."""
    logging.disable(logging.WARNING)
    texts = [(rel, (docs / rel).read_text(encoding="utf-8")) for rel in rels]
    if side == "ours":
        from tools.sources.generators.sphinx.project import SphinxSite

        site = SphinxSite(docs)

        def parse(rel: str, text: str) -> object:
            return site.parse(rel, text)
    else:
        from docutils.core import publish_doctree

        def parse(rel: str, text: str) -> object:
            return publish_doctree(text, settings_overrides=BASELINE_SETTINGS)

    times: dict[str, float] = {}
    for rel, text in texts:
        t0 = time.process_time()
        parse(rel, text)
        times[rel] = (time.process_time() - t0) * 1000
    largest, text = max(texts, key=lambda item: len(item[1]))
    tracemalloc.start()
    parse(largest, text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"ms": times, "largest": largest, "peak_mib": peak / 2**20}


def run(docs: Path, repeats: int) -> dict[str, Any]:
    rels = pages(docs)
    rounds: dict[str, list[dict[str, Any]]] = {"docutils": [], "ours": []}
    for _ in range(repeats):
        for side in ("docutils", "ours"):
            out = subprocess.run(
                [sys.executable, "-m", "bench.rst_parse", "--child", side, "--docs", str(docs)],
                cwd=REPO_ROOT,
                input=json.dumps(rels),
                capture_output=True,
                text=True,
                check=True,
            )
            rounds[side].append(json.loads(out.stdout))
    per_page = {
        side: {rel: statistics.median(r["ms"][rel] for r in runs) for rel in rels}
        for side, runs in rounds.items()
    }
    ours, base = per_page["ours"], per_page["docutils"]
    largest = rounds["ours"][0]["largest"]
    return {
        "docs": str(docs),
        "pages": len(rels),
        "bytes": sum((docs / rel).stat().st_size for rel in rels),
        "repeats": repeats,
        "ours_mean_ms": statistics.fmean(ours.values()),
        "ours_median_ms": statistics.median(ours.values()),
        "docutils_mean_ms": statistics.fmean(base.values()),
        "docutils_median_ms": statistics.median(base.values()),
        "ratio_mean": statistics.fmean(ours.values()) / statistics.fmean(base.values()),
        "ratio_median": statistics.median(ours.values()) / statistics.median(base.values()),
        "slowest_ms": dict(sorted(ours.items(), key=lambda kv: -kv[1])[:5]),
        "largest_page": largest,
        "largest_page_bytes": (docs / largest).stat().st_size,
        "largest_page_peak_mib_ours": max(r["peak_mib"] for r in rounds["ours"]),
        "largest_page_peak_mib_docutils": max(r["peak_mib"] for r in rounds["docutils"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--docs", type=Path, default=REPO_ROOT.parent / "shared/corpus-pytest/docs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=["ours", "docutils"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.docs, json.loads(sys.stdin.read()))))
        return
    if not (args.docs / "conf.py").is_file():
        sys.exit(f"no Sphinx folder (conf.py) at {args.docs}")
    r = run(args.docs, args.repeats)
    if args.json:
        print(json.dumps(r, indent=2))
        return
    print(f"{r['pages']} pages, {r['bytes'] / 1e6:.2f} MB, {r['repeats']} alternating rounds")
    print("                 mean ms/page  median ms/page")
    print(f"ours             {r['ours_mean_ms']:12.1f}  {r['ours_median_ms']:14.2f}")
    print(f"docutils alone   {r['docutils_mean_ms']:12.1f}  {r['docutils_median_ms']:14.2f}")
    print(f"ratio            {r['ratio_mean']:12.2f}  {r['ratio_median']:14.2f}")
    print("slowest (ours):", ", ".join(f"{k} {v:.0f} ms" for k, v in r["slowest_ms"].items()))
    print(
        f"largest page {r['largest_page']} ({r['largest_page_bytes'] / 1e6:.2f} MB): peak Python "
        f"memory while parsing {r['largest_page_peak_mib_ours']:.0f} MiB "
        f"(docutils alone {r['largest_page_peak_mib_docutils']:.0f} MiB)"
    )


if __name__ == "__main__":
    main()
