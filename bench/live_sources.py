"""GETs an llms.txt site costs, this revision beside a baseline revision, on one loopback site.

    .venv/bin/python -m bench.live_sources                       # 5,000 pages, baseline `main`
    .venv/bin/python -m bench.live_sources --pages 1000 --baseline REV

The site is testing/live_site.py (pages with ETags, 304 to a matching If-None-Match).
For each revision, in its own cache folder: a cold first sync; a restart on the warm cache (the
GETs, how many were conditional, how many came back 304); a restart on the warm cache where a
question arrives during the warm-up's fetch (the baseline fetched everything twice); and the
cached pages left after `llms.txt` turns into an HTML maintenance page. One JSON object out.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.harness import file_at, load_module_file
from testing.live_site import LiveSite, serve
from tools.sources.live import llms_txt as docs_http


def baseline_module(rev: str, folder: Path) -> ModuleType:
    """The llms.txt source module as it was at `rev`, importable beside this revision's.

    It lives in `tools/sources/live/llms_txt.py`, before the layout change in
    `tools/sources/docs_http.py`; its imports must still resolve in this revision.
    """
    _, source = file_at(rev, "tools/sources/live/llms_txt.py", "tools/sources/docs_http.py")
    path = folder / "docs_http_baseline.py"
    path.write_text(source)
    return load_module_file(path, "docs_http_baseline")


def measure(module: ModuleType, site: LiveSite, base: str, cache: Path) -> dict[str, Any]:
    """The four scenarios for one implementation of `LlmsTxtCorpus`."""
    url = f"{base}/llms.txt"
    out: dict[str, Any] = {}

    def corpus() -> Any:
        return module.LlmsTxtCorpus(url, cache)

    site.requests.clear()
    start = time.perf_counter()
    corpus().sync()
    out["cold_gets"] = len(site.requests)
    out["cold_s"] = round(time.perf_counter() - start, 2)

    site.requests.clear()
    corpus().sync()
    out["warm_restart_gets"] = len(site.requests)
    out["warm_restart_conditional"] = sum(1 for _, inm in site.requests if inm)

    site.requests.clear()
    server = corpus()
    warm = threading.Thread(target=server.ensure_synced)
    warm.start()
    while not site.requests:
        time.sleep(0.005)
    question = threading.Thread(target=lambda: server.search("component42 setting", 3))
    question.start()
    warm.join()
    question.join()
    out["warm_up_with_question_gets"] = len(site.requests)

    good = site.files["/llms.txt"]
    site.put("/llms.txt", "<!doctype html><html><body>Maintenance</body></html>", "text/html")
    try:
        corpus().sync()
    finally:
        site.files["/llms.txt"] = good
    out["pages_kept_after_maintenance_page"] = sum(1 for _ in (cache.glob("llms-*/pages/**/*.md")))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--baseline", default="main", help="git revision to compare with")
    args = parser.parse_args()
    site = LiveSite(pages=args.pages)
    results: dict[str, Any] = {"pages": args.pages, "baseline": args.baseline}
    with tempfile.TemporaryDirectory() as tmp, serve(site) as base:
        folder = Path(tmp)
        old = baseline_module(args.baseline, folder)
        results["baseline_rev"] = measure(old, site, base, folder / "baseline")
        results["this_rev"] = measure(docs_http, site, base, folder / "this")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
