"""The answers report: what readers asked, what failed, and what they thought of the answers.

    python -m server.report --since 7d --html report.html     (or: make report)

Reads the turn records and votes (server/report_access.py) through the server's store API with
an operator's token (`DOCS_AGENT_URL`, `DOCS_AGENT_TOKEN`; the operator is in `AUTH_OPERATORS`),
so it works on any engine that serves the API (`langgraph dev`, Aegra, LangGraph Platform).
Prints a text summary and writes a self-contained HTML page (inline SVG charts, no scripts, no
CDN): questions per day, share unanswered or low-confidence, feedback ratio, negative answers
with their comments, most and never cited pages, questions that found nothing grouped by topic
(the docs gaps), languages.

A vote counts only when the voter owns the turn (the turn record names the owner, and users
cannot write turn records): a vote put on someone else's answer is ignored.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from server import report_access

PAGE_SIZE = 500
TOP = 15
_SINCE_RE = re.compile(r"^(\d+(?:\.\d+)?)\s*([dhm])$")
_WORD_RE = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_PAGE_EXTS = (".md", ".mdx", ".rst", ".html", ".htm", ".txt")


def parse_since(text: str) -> float:
    """Seconds in a period like `7d`, `12h` or `30m`."""
    match = _SINCE_RE.match(text.strip().lower())
    if not match:
        raise ValueError(f"--since wants a period like 7d, 12h or 30m, not {text!r}")
    return float(match.group(1)) * {"d": 86400, "h": 3600, "m": 60}[match.group(2)]


def page_key(citation: str) -> str | None:
    """The page a citation names (no anchor, extension or host), None for code and KB cites."""
    if citation.startswith("KB ") or re.search(r":\d+(-\d+)?$", citation):
        return None
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]+", "", citation).split("#", 1)[0].split("?", 1)[0]
    path = path.strip("/")
    for ext in _PAGE_EXTS:
        if path.endswith(ext):
            path = path[: -len(ext)]
            break
    return re.sub(r"/index$", "", path) or None


def _stopwords() -> frozenset[str]:
    from tools.search.function_words import FUNCTION_WORDS
    from tools.text import STOPWORDS

    return frozenset(STOPWORDS).union(*FUNCTION_WORDS.values())


def gap_topics(questions: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Questions that found nothing, grouped by the content word most of them share.

    Greedy and explainable: the word in the most of these questions names the first group and
    takes every question containing it; repeat on the rest. A question sharing no word with
    another stays in a group of its own, named by its first content word.
    """
    stop = _stopwords()
    words = [
        {w for w in (m.lower() for m in _WORD_RE.findall(q)) if w not in stop} for q in questions
    ]
    left = set(range(len(questions)))
    groups: list[tuple[str, list[str]]] = []
    while left:
        counts = Counter(w for i in left for w in words[i])
        if not counts:
            groups.append(("(no content words)", [questions[i] for i in sorted(left)]))
            break
        word, _ = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        members = sorted(i for i in left if word in words[i])
        groups.append((word, [questions[i] for i in members]))
        left -= set(members)
        for i in [i for i in left if not words[i]]:
            groups.append(("(no content words)", [questions[i]]))
            left.discard(i)
    return groups


@dataclass
class Report:
    """Everything the text and HTML views show, computed once."""

    since_s: float
    turns: int = 0
    per_day: dict[str, int] = field(default_factory=dict)
    unanswered: int = 0
    low_confidence: int = 0
    up: int = 0
    down: int = 0
    negatives: list[dict[str, Any]] = field(default_factory=list)
    most_cited: list[tuple[str, int]] = field(default_factory=list)
    never_cited: list[str] = field(default_factory=list)
    gaps: list[tuple[str, list[str]]] = field(default_factory=list)
    languages: dict[str, int] = field(default_factory=dict)
    graphs: dict[str, int] = field(default_factory=dict)
    models: dict[str, int] = field(default_factory=dict)
    median_latency_s: float | None = None

    @property
    def feedback_ratio(self) -> float | None:
        """Share of votes that were up (None without votes)."""
        votes = self.up + self.down
        return self.up / votes if votes else None


def build_report(
    turns: Iterable[Mapping[str, Any]],
    votes: Iterable[Mapping[str, Any]],
    *,
    since_s: float,
    now: float | None = None,
    pages: Iterable[str] = (),
) -> Report:
    """Aggregate turn records and votes of the last `since_s` seconds; `pages` are all page keys."""
    now = time.time() if now is None else now
    start = now - since_s
    report = Report(since_s=since_s)
    by_message: dict[str, Mapping[str, Any]] = {}
    per_day: Counter[str] = Counter()
    cited: Counter[str] = Counter()
    languages: Counter[str] = Counter()
    graphs: Counter[str] = Counter()
    models: Counter[str] = Counter()
    latencies: list[float] = []
    nothing: list[str] = []
    for turn in turns:
        at = turn.get("at")
        if not isinstance(at, int | float) or at < start:
            continue
        report.turns += 1
        by_message[str(turn.get("message_id"))] = turn
        per_day[datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")] += 1
        if not turn.get("found"):
            report.unanswered += 1
            nothing.append(str(turn.get("question") or ""))
        elif turn.get("removed") or turn.get("fixed"):
            report.low_confidence += 1
        for source in turn.get("sources") or []:
            key = page_key(str(source))
            if key:
                cited[key] += 1
        languages[str(turn.get("language") or "?")] += 1
        graphs[str(turn.get("graph") or "?")] += 1
        models[str(turn.get("model") or "?")] += 1
        if isinstance(turn.get("latency_s"), int | float):
            latencies.append(float(turn["latency_s"]))
    for vote in votes:
        voted = by_message.get(str(vote.get("message_id")))
        if voted is None or vote.get("voter") != voted.get("user"):
            continue  # outside the period, or a vote on someone else's answer
        if vote.get("vote") == "up":
            report.up += 1
        elif vote.get("vote") == "down":
            report.down += 1
            report.negatives.append(
                {
                    "question": voted.get("question", ""),
                    "comment": str(vote.get("comment") or "")[: report_access.COMMENT_LIMIT],
                    "thread_id": voted.get("thread_id", ""),
                    "at": voted.get("at"),
                }
            )
    report.negatives.sort(key=lambda n: -(n["at"] or 0))
    report.per_day = dict(sorted(per_day.items()))
    report.most_cited = cited.most_common(TOP)
    cited_keys = set(cited)
    report.never_cited = sorted(
        p for p in set(pages) if not any(c == p or c.endswith("/" + p) for c in cited_keys)
    )
    report.gaps = gap_topics(nothing)
    report.languages = dict(languages.most_common())
    report.graphs = dict(graphs.most_common())
    report.models = dict(models.most_common())
    if latencies:
        latencies.sort()
        report.median_latency_s = latencies[len(latencies) // 2]
    return report


def docs_pages(folder: Path) -> list[str]:
    """Page keys of a docs folder (relative path without extension), for 'never cited'."""
    if not folder.is_dir():
        return []
    keys = []
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix in _PAGE_EXTS and not path.name.startswith("_"):
            key = page_key(str(path.relative_to(folder)))
            if key:
                keys.append(key)
    return sorted(set(keys))


# --- views ----------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


def render_text(r: Report) -> str:
    """The report as plain text for the terminal."""
    days = r.since_s / 86400
    lines = [
        f"Answers report, last {days:g} day(s): {r.turns} questions",
        f"  unanswered (nothing found): {r.unanswered} ({_pct(r.unanswered, r.turns)}); "
        f"low confidence (citations fixed/removed): {r.low_confidence} ({_pct(r.low_confidence, r.turns)})",
        f"  feedback: {r.up} up, {r.down} down"
        + (f" ({100 * r.feedback_ratio:.0f}% positive)" if r.feedback_ratio is not None else ""),
        "  median latency: "
        + (f"{r.median_latency_s:.2f} s" if r.median_latency_s is not None else "–"),
        "  languages: " + ", ".join(f"{k} {v}" for k, v in r.languages.items()),
        "Questions per day: " + ", ".join(f"{d} {n}" for d, n in r.per_day.items()),
        "Most cited pages:",
        *[f"  {n:5d}  {p}" for p, n in r.most_cited],
        f"Never cited pages ({len(r.never_cited)}):",
        *[f"  {p}" for p in r.never_cited[:50]],
        "Docs gaps (questions that found nothing, by topic):",
    ]
    for topic, qs in r.gaps[:30]:
        lines.append(f"  [{topic}] {len(qs)}")
        lines.extend(f"      - {q[:120]}" for q in qs[:5])
    lines.append(f"Negative answers ({len(r.negatives)}):")
    for n in r.negatives[:30]:
        lines.append(f"  - {str(n['question'])[:120]}")
        if n["comment"]:
            lines.append(f"      comment: {str(n['comment'])[:300]}")
    return "\n".join(lines)


def _bars(items: Sequence[tuple[str, float]], width: int = 640, bar_h: int = 18) -> str:
    """A horizontal bar chart as inline SVG (labels left, values right)."""
    if not items:
        return "<p class=muted>No data.</p>"
    top = max(v for _, v in items) or 1
    label_w, value_w = 200, 60
    h = bar_h * len(items) + 4
    rows = []
    for i, (label, value) in enumerate(items):
        y = i * bar_h + 2
        w = (width - label_w - value_w) * value / top
        rows.append(
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{html.escape(label[:32])}</text>'
            f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{bar_h - 5}" rx="2"/>'
            f'<text x="{label_w + w + 4:.1f}" y="{y + 13}">{value:g}</text>'
        )
    return (
        f'<svg viewBox="0 0 {width} {h}" width="100%" role="img" class="chart">'
        + "".join(rows)
        + "</svg>"
    )


def _columns(per_day: Mapping[str, int], width: int = 640, height: int = 160) -> str:
    """Questions per day as an inline SVG column chart."""
    if not per_day:
        return "<p class=muted>No questions in this period.</p>"
    days = list(per_day.items())
    top = max(per_day.values()) or 1
    col = min(width / len(days), 60.0)
    parts = []
    for i, (day, n) in enumerate(days):
        h = (height - 44) * n / top  # room above the tallest column for its count
        x = i * col
        parts.append(
            f'<rect x="{x + col * 0.15:.1f}" y="{height - 20 - h:.1f}" width="{col * 0.7:.1f}" height="{h:.1f}" rx="2"><title>{day}: {n}</title></rect>'
        )
        if len(days) <= 14 or i % max(1, len(days) // 10) == 0:
            parts.append(
                f'<text x="{x + col / 2:.1f}" y="{height - 5}" text-anchor="middle">{day[5:]}</text>'
            )
        parts.append(
            f'<text x="{x + col / 2:.1f}" y="{height - 24 - h:.1f}" text-anchor="middle">{n}</text>'
        )
    return f'<svg viewBox="0 0 {width} {height}" width="100%" role="img" class="chart">{"".join(parts)}</svg>'


_CSS = """body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #d8dde3}
.cards{display:flex;flex-wrap:wrap;gap:1rem}.card{background:#f7f8fa;border-radius:8px;padding:.7rem 1rem;min-width:9rem}
.card b{display:block;font-size:1.6rem}.muted{color:#5b6470}.chart text{font-size:12px;fill:#1b1f24}.chart rect{fill:#2357d9}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #eceff2;vertical-align:top}"""


def render_html(r: Report, title: str = "Answers report") -> str:
    """The report as one self-contained HTML page (inline CSS and SVG, nothing loaded)."""
    e = html.escape
    ratio = f"{100 * r.feedback_ratio:.0f}%" if r.feedback_ratio is not None else "–"
    cards = [
        ("questions", str(r.turns)),
        ("unanswered", _pct(r.unanswered, r.turns)),
        ("low confidence", _pct(r.low_confidence, r.turns)),
        ("positive feedback", ratio),
        ("votes", str(r.up + r.down)),
        (
            "median latency",
            f"{r.median_latency_s:.2f} s" if r.median_latency_s is not None else "–",
        ),
    ]
    gap_rows = "".join(
        f"<tr><td><b>{e(topic)}</b> ({len(qs)})</td><td>{'<br>'.join(e(q[:160]) for q in qs[:8])}</td></tr>"
        for topic, qs in r.gaps[:40]
    )
    neg_rows = "".join(
        f"<tr><td>{e(str(n['question'])[:200])}</td><td>{e(str(n['comment'])) or '<span class=muted>no comment</span>'}</td>"
        f"<td class=muted>{e(str(n['thread_id']))}</td></tr>"
        for n in r.negatives[:100]
    )
    share = [
        ("answered", float(r.turns - r.unanswered - r.low_confidence)),
        ("low confidence", float(r.low_confidence)),
        ("unanswered", float(r.unanswered)),
    ]
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{e(title)}</title><style>{_CSS}</style></head><body>
<h1>{e(title)}</h1><p class=muted>Last {r.since_s / 86400:g} day(s), generated {generated}.</p>
<div class=cards>{"".join(f"<div class=card><b>{e(v)}</b>{e(k)}</div>" for k, v in cards)}</div>
<h2>Questions per day</h2>{_columns(r.per_day)}
<h2>Answered, low confidence, unanswered</h2>{_bars(share)}
<h2>Feedback</h2>{_bars([("up", float(r.up)), ("down", float(r.down))])}
<h2>Docs gaps: questions that found nothing, by topic</h2>
{"<table>" + gap_rows + "</table>" if gap_rows else "<p class=muted>Every question found something.</p>"}
<h2>Negative answers and their comments</h2>
{"<table><tr><th>question</th><th>comment</th><th>thread</th></tr>" + neg_rows + "</table>" if neg_rows else "<p class=muted>No negative votes.</p>"}
<h2>Most cited pages</h2>{_bars([(p, float(n)) for p, n in r.most_cited])}
<h2>Never cited pages ({len(r.never_cited)})</h2>
<p>{", ".join(e(p) for p in r.never_cited[:200]) or "<span class=muted>none</span>"}</p>
<h2>Languages</h2>{_bars([(k, float(v)) for k, v in r.languages.items()])}
<h2>Graphs and models</h2>{_bars([(k, float(v)) for k, v in {**r.graphs, **r.models}.items()])}
</body></html>
"""


# --- reading the store ----------------------------------------------------------------------


async def fetch_items(client: Any, namespace: Sequence[str]) -> list[dict[str, Any]]:
    """Every item value under `namespace` through the store API, page by page."""
    values: list[dict[str, Any]] = []
    offset = 0
    while True:
        page = await client.store.search_items(list(namespace), limit=PAGE_SIZE, offset=offset)
        items = page.get("items") or []
        values.extend(dict(i["value"]) for i in items if isinstance(i.get("value"), dict))
        if len(items) < PAGE_SIZE:
            return values
        offset += len(items)


async def _load(url: str, token: str | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from langgraph_sdk import get_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    client = get_client(url=url, headers=headers)
    turns = await fetch_items(client, report_access.TURNS)
    votes = await fetch_items(client, report_access.FEEDBACK)
    return turns, votes


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the report for a period and optionally write the HTML page."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--since", default="7d", help="period: 7d, 24h, 90m (default 7d)")
    parser.add_argument("--html", type=Path, help="also write the report as an HTML page here")
    parser.add_argument("--url", default=os.environ.get("DOCS_AGENT_URL", "http://127.0.0.1:8123"))
    parser.add_argument(
        "--token", default=os.environ.get("DOCS_AGENT_TOKEN"), help="an operator's bearer token"
    )
    parser.add_argument(
        "--docs-dir",
        type=Path,
        default=Path(os.environ.get("DOCS_AGENT_DOCS_DIR") or "docs"),
        help="docs folder whose pages count for 'never cited' (default DOCS_AGENT_DOCS_DIR or docs)",
    )
    args = parser.parse_args(argv)
    try:
        since_s = parse_since(args.since)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        turns, votes = asyncio.run(_load(args.url, args.token))
    except Exception as exc:  # noqa: BLE001 — one clear line instead of a traceback
        status = getattr(getattr(exc, "response", None), "status_code", None)
        hint = " (the report needs an operator's token: AUTH_OPERATORS)" if status == 403 else ""
        print(f"cannot read the report from {args.url}: {exc}{hint}", file=sys.stderr)
        return 1
    report = build_report(turns, votes, since_s=since_s, pages=docs_pages(args.docs_dir))
    print(render_text(report))
    if args.html:
        args.html.write_text(render_html(report), encoding="utf-8")
        print(f"wrote {args.html}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
