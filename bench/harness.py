"""What every bench shares: where the checkout is, timing, baselines in the same run, tables.

Every bench is a module of this package, run from the repository root as `python -m bench.<name>`
(so the project's packages import as they do for the server; no bench edits `sys.path`), and
imports only the project, this package and testing/ (the servers and fakes the tests use too),
never a test module. Corpora are described by bench/corpora.py (`resolve`, `load`).

The rules the benches follow (the developers' guide): report medians and ratios against a
baseline measured in the same run, on the same machine, alternating rounds where a shared
machine could slow one side; never a wall-time threshold. The helpers here keep those numbers
computed one way everywhere.
"""

from __future__ import annotations

import importlib.util
import math
import resource
import statistics
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]


# --- timing ---------------------------------------------------------------------------------------


def nearest_rank(values: Sequence[float], q: float) -> float:
    """The `q` quantile by nearest rank (index `round(q * (n - 1))` of the sorted values)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def pct_ms(values: Sequence[float], q: float) -> float:
    """`nearest_rank` of seconds, in milliseconds; NaN when there are no values."""
    if not values:
        return float("nan")
    return 1000 * nearest_rank(values, q)


def p50_p95(samples: Sequence[float], scale: float = 1000.0, digits: int = 3) -> dict[str, float]:
    """`{"p50_ms", "p95_ms"}`: the median and the nearest-rank 95th percentile, times `scale`.

    `scale` 1000 turns seconds into milliseconds (1 when the samples are milliseconds already);
    no samples give zeros.
    """
    if not samples:
        return {"p50_ms": 0.0, "p95_ms": 0.0}
    return {
        "p50_ms": round(statistics.median(samples) * scale, digits),
        "p95_ms": round(nearest_rank(samples, 0.95) * scale, digits),
    }


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports KB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def ratio(value: float, baseline: float, digits: int = 2) -> float:
    """`value / baseline`, NaN when the baseline is zero or missing."""
    if not baseline or math.isnan(baseline):
        return float("nan")
    return round(value / baseline, digits)


# --- baselines in the same run --------------------------------------------------------------------


def file_at(rev: str, *paths: str) -> tuple[str, str]:
    """(path, text) of the first of `paths` that exists at git revision `rev` of this checkout.

    Several paths because a module may have moved between the baseline and this revision (the
    report was `server/report.py` before `commands/report.py`).
    """
    for path in paths:
        shown = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=REPO_ROOT, capture_output=True, text=True
        )
        if shown.returncode == 0:
            return path, shown.stdout
    raise SystemExit(f"none of {', '.join(paths)} exists at {rev}")


def load_module_file(path: Path, name: str) -> ModuleType:
    """A module from a file under its own name, beside this revision's (a baseline's copy)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def first_existing(root: Path, *paths: str) -> Path:
    """The first of `paths` (relative to `root`, another checkout) that exists there."""
    for path in paths:
        if (root / path).exists():
            return root / path
    raise SystemExit(f"none of {', '.join(paths)} exists in {root}")


def module_name(path: str) -> str:
    """`commands/report.py` → `commands.report`."""
    return path.removesuffix(".py").replace("/", ".")


# --- tables ---------------------------------------------------------------------------------------


def markdown_table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A Markdown table: the header, the separator, one line per row (cells as `str`)."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
