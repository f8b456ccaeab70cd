"""The answers report: what readers asked, what failed, and what they thought of the answers.

    python -m commands.report --since 7d --html report.html     (or: make report)
    python -m commands.report --transcript <message id>         (one turn's thread, in the terminal)

Reads the turn records and votes (server/report_access.py) through the server's store API with
an operator's token (`DOCS_AGENT_URL`, `DOCS_AGENT_TOKEN`, settings/client.py; the operator is in
`AUTH_OPERATORS`),
so it works on any engine that serves the API (`langgraph dev`, Aegra, LangGraph Platform).
Prints a text summary and writes a self-contained HTML page (inline SVG charts, no scripts, no
CDN): questions per day; answered, low-confidence and unanswered shares; model and engine failures
by kind, apart from the docs gaps; feedback; the top questions by topic; the docs gaps (questions
that found nothing) by topic; negative answers with their comments; the docs pages questions were
asked on and the clients they came from; most and never cited pages; languages; latency as
readers waited (first and last token from the run's creation) beside the in-graph time. Every
negative answer, gap and failure links to its transcript: the thread's questions and answers as
the turn records keep them, in a section of the same page (operators only, like the whole report).

A vote counts only when the voter owns the turn (the turn record names the owner, and users
cannot write turn records): a vote put on someone else's answer is ignored. A turn that ended on
a model or engine failure (`failure` in its record) is an outage, never a docs gap.

Text output is for a terminal: every control or invisible character a reader, a vote or a page
URL brought in (terminal escapes, OSC 52, bidi overrides, NUL) is printed as a visible escape.
Everything grows linearly with the turns (10,000 turns: bench/report_scale.py).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import heapq
import html
import re
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from server import report_access
from settings import current
from settings.sources import SourceSettings
from tools.docs import docs_source
from tools.sources.contract import ListsPages

PAGE_SIZE = 500
TOP = 15
TOPICS = 20  # topics shown in the top questions
QUESTIONS_PER_TOPIC = 5
GAP_TOPICS_SHOWN = 40
GAP_QUESTIONS_SHOWN = 8
NEGATIVES_SHOWN = 100
FAILURES_SHOWN = 30
CONTEXT_BEFORE, CONTEXT_AFTER = 2, 1  # turns of the thread shown around each linked turn
CONTEXT_ANSWER_CHARS = 1500  # answers of the other turns of a transcript are cut here
_SINCE_RE = re.compile(r"^(\d+(?:\.\d+)?)\s*([dhm])$")
_WORD_RE = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_PAGE_EXTS = (".md", ".mdx", ".rst", ".html", ".htm", ".txt")
_CODE_CITE_RE = re.compile(r":\d+(-\d+)?$")
NO_WORDS = "(no content words)"
FAILURE_LABELS = {
    "rate_limited": "rate limited by the model provider",
    "model_unavailable": "model unavailable",
    "stream_cut": "answer stream cut",
    "timeout": "model timed out",
    "refused": "refused by the provider (key, model or request)",
    "bad_reply": "unusable model reply",
    "engine": "engine failure",
}


def parse_since(text: str) -> float:
    """Seconds in a period like `7d`, `12h` or `30m`."""
    match = _SINCE_RE.match(text.strip().lower())
    if not match:
        raise ValueError(f"--since wants a period like 7d, 12h or 30m, not {text!r}")
    return float(match.group(1)) * {"d": 86400, "h": 3600, "m": 60}[match.group(2)]


def page_key(citation: str) -> str | None:
    """The page a citation names (no anchor, extension or host), None for code and KB cites."""
    if citation.startswith("KB ") or _CODE_CITE_RE.search(citation):
        return None
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]+", "", citation).split("#", 1)[0].split("?", 1)[0]
    path = path.strip("/")
    for ext in _PAGE_EXTS:
        if path.endswith(ext):
            path = path[: -len(ext)]
            break
    return re.sub(r"/index$", "", path) or None


def source_key(citation: str) -> str:
    """What a citation is about, for grouping: its page, its KB article, or its code file."""
    if citation.startswith("KB "):
        return citation
    if _CODE_CITE_RE.search(citation):
        return _CODE_CITE_RE.sub("", citation)
    return page_key(citation) or citation


# --- text safety ------------------------------------------------------------------------------

_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Control, format (bidi overrides, zero-width), line/paragraph separators, surrogates, private use.
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})
_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")


def _escape_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[ch]
    if unicodedata.category(ch) not in _INVISIBLE:
        return ch  # any visible letter or symbol, in any script
    code = ord(ch)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def visible(text: str) -> str:
    r"""`text` with every control or invisible character shown as an escape (`\x1b`, `\u202e`).

    The report prints what readers typed, what voters commented and the page URLs runs carried:
    raw, a terminal escape in any of them could retitle the terminal, clear it, write the
    clipboard (OSC 52), hide or reorder text. Only printable characters pass as they are.
    """
    return _NOT_PRINTABLE_ASCII.sub(_escape_char, text)


# --- grouping -----------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from tools.search.function_words import FUNCTION_WORDS
    from tools.text import STOPWORDS

    return frozenset(STOPWORDS).union(*FUNCTION_WORDS.values())


def content_words(text: str) -> frozenset[str]:
    """The content words of a question: letters only, 3+ long, no stopwords of any language."""
    stop = _stopwords()
    return frozenset(w for w in (m.lower() for m in _WORD_RE.findall(text)) if w not in stop)


def group_by_shared_word(questions: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Questions grouped by the content word most of them share (indices into `questions`).

    Greedy and explainable: the word in the most questions names the first group and takes every
    question containing it; repeat on the rest (ties: the alphabetically last word). Questions
    with no content word form one last group. Near-linear: one inverted index, and a max-heap of
    the words by how many ungrouped questions hold them, whose entries are refreshed lazily
    (counts only fall, so a stale entry is re-pushed when it surfaces): the work is the total
    number of words in the questions, times a heap's log — 10,000 questions in well under a second,
    where recounting every word for every group (the earlier way) was quadratic.
    """
    words = [content_words(q) for q in questions]
    postings: dict[str, list[int]] = defaultdict(list)
    for i, ws in enumerate(words):
        for w in ws:
            postings[w].append(i)
    count = {w: len(ids) for w, ids in postings.items()}
    # Heap entries (-count, rank, word): rank 0 is the alphabetically last word, so ties go to it,
    # and every comparison stays between integers.
    rank = {w: i for i, w in enumerate(sorted(postings, reverse=True))}
    heap = [(-n, rank[w], w) for w, n in count.items()]
    heapq.heapify(heap)
    grouped = [False] * len(questions)
    groups: list[tuple[str, list[int]]] = []
    while heap:
        negative, order, word = heapq.heappop(heap)
        current = count[word]
        if current == 0:
            continue
        if current != -negative:  # stale: some of its questions were grouped since
            heapq.heappush(heap, (-current, order, word))
            continue
        members = [i for i in postings[word] if not grouped[i]]
        for i in members:
            grouped[i] = True
            for w in words[i]:
                count[w] -= 1
        groups.append((word, members))
    wordless = [i for i, ws in enumerate(words) if not ws]
    if wordless:
        groups.append((NO_WORDS, wordless))
    return groups


def gap_topics(questions: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Questions that found nothing, grouped by the content word most of them share."""
    return [(w, [questions[i] for i in ids]) for w, ids in group_by_shared_word(questions)]


def question_key(question: str) -> str:
    """A question as counted among the top questions: case, spacing and end punctuation ignored."""
    return " ".join(question.lower().split()).rstrip(" ?!.。？！")


@dataclass
class TurnRef:
    """One turn as a list of the report shows it: enough to print it and link its transcript."""

    question: str
    message_id: str
    at: float
    asked_on: str | None = None
    detail: str = ""  # a vote's comment, a failure's kind


@dataclass
class Topic:
    """Questions about one thing: their count and the most asked of them (with one example turn)."""

    label: str
    count: int
    questions: list[tuple[str, int, TurnRef]]  # (question, times asked, an example)


def top_topics(
    turns: Sequence[Mapping[str, Any]], limit: int = TOPICS, per_topic: int = QUESTIONS_PER_TOPIC
) -> list[Topic]:
    """The questions of the period grouped by topic, largest first.

    The method knows no corpus: an answered question belongs to the source its answer cited
    first (a page without its anchor, a KB article, a code file) — questions answered from the
    same page are about the same thing, whatever their wording or language; a question whose
    answer cited nothing (a gap, a failure) joins the others by the content word most of them
    share (`group_by_shared_word`). Within a topic, questions that differ only in case, spacing
    or end punctuation are counted as one. Linear in the turns.
    """
    by_label: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    uncited: list[Mapping[str, Any]] = []
    for turn in turns:
        sources = [str(s) for s in turn.get("sources") or []]
        if sources:
            by_label[f"page: {source_key(sources[0])}"].append(turn)
        else:
            uncited.append(turn)
    for word, ids in group_by_shared_word([str(t.get("question") or "") for t in uncited]):
        by_label[f"uncited: {word}"].extend(uncited[i] for i in ids)
    topics = []
    for label, members in sorted(by_label.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:limit]:
        counted: Counter[str] = Counter()
        example: dict[str, Mapping[str, Any]] = {}
        for turn in members:
            key = question_key(str(turn.get("question") or ""))
            counted[key] += 1
            example.setdefault(key, turn)
        questions = [
            (str(example[key].get("question") or ""), n, _ref(example[key]))
            for key, n in counted.most_common(per_topic)
        ]
        topics.append(Topic(label, len(members), questions))
    return topics


def _ref(turn: Mapping[str, Any], detail: str = "") -> TurnRef:
    at = turn.get("at")
    asked_on = turn.get("asked_on")
    return TurnRef(
        question=str(turn.get("question") or ""),
        message_id=str(turn.get("message_id") or ""),
        at=float(at) if isinstance(at, int | float) else 0.0,
        asked_on=asked_on if isinstance(asked_on, str) else None,
        detail=detail,
    )


# --- the report -------------------------------------------------------------------------------


@dataclass
class Transcript:
    """A thread's recorded turns around the linked ones (operators only, like the report)."""

    thread_id: str
    user: str
    turns: list[Mapping[str, Any]]


@dataclass
class Report:
    """Everything the text and HTML views show, computed once."""

    since_s: float
    turns: int = 0
    per_day: dict[str, int] = field(default_factory=dict)
    unanswered: int = 0
    low_confidence: int = 0
    failures: int = 0
    failure_kinds: dict[str, int] = field(default_factory=dict)
    recent_failures: list[TurnRef] = field(default_factory=list)
    up: int = 0
    down: int = 0
    negatives: list[dict[str, Any]] = field(default_factory=list)
    most_cited: list[tuple[str, int]] = field(default_factory=list)
    never_cited: list[str] = field(default_factory=list)
    gaps: list[tuple[str, list[TurnRef]]] = field(default_factory=list)
    topics: list[Topic] = field(default_factory=list)
    asked_on: list[tuple[str, int]] = field(default_factory=list)
    clients: dict[str, int] = field(default_factory=dict)
    languages: dict[str, int] = field(default_factory=dict)
    graphs: dict[str, int] = field(default_factory=dict)
    models: dict[str, int] = field(default_factory=dict)
    median_latency_s: float | None = None
    first_token_s: tuple[float, float] | None = None  # (median, p90) as readers waited
    last_token_s: tuple[float, float] | None = None
    transcripts: dict[str, Transcript] = field(default_factory=dict)  # by thread id

    @property
    def feedback_ratio(self) -> float | None:
        """Share of votes that were up (None without votes)."""
        votes = self.up + self.down
        return self.up / votes if votes else None


def _median_p90(values: list[float]) -> tuple[float, float] | None:
    if not values:
        return None
    values.sort()
    return values[len(values) // 2], values[min(len(values) - 1, int(len(values) * 0.9))]


def _never_cited(pages: Iterable[str], cited: Iterable[str]) -> list[str]:
    """Pages no citation names, a page counting as cited when a cited key ends with `/<page>`."""
    suffixes: set[str] = set()
    for key in cited:
        suffixes.add(key)
        for i, ch in enumerate(key):
            if ch == "/":
                suffixes.add(key[i + 1 :])
    return sorted(p for p in set(pages) if p not in suffixes)


def _transcripts(
    linked: Iterable[str],
    by_id: Mapping[str, Mapping[str, Any]],
    by_thread: Mapping[str, list[int]],
    turns: Sequence[Mapping[str, Any]],
) -> dict[str, Transcript]:
    """One transcript per thread of the linked turns, with the turns around them.

    Each linked turn, two turns before it (what the reader had asked) and one after (whether they
    asked again).
    """
    wanted: dict[str, set[str]] = defaultdict(set)
    for message_id in linked:
        turn = by_id.get(message_id)
        if turn is not None:
            wanted[str(turn.get("thread_id") or "")].add(message_id)
    out = {}
    for thread, ids in wanted.items():
        members = sorted(
            (turns[i] for i in by_thread.get(thread, [])) if thread else (by_id[m] for m in ids),
            key=lambda t: t.get("at") or 0,
        )
        keep: set[int] = set()
        for i, turn in enumerate(members):
            if str(turn.get("message_id")) in ids:
                keep.update(range(max(0, i - CONTEXT_BEFORE), i + CONTEXT_AFTER + 1))
        shown = [members[i] for i in sorted(keep) if i < len(members)]
        out[thread or next(iter(ids))] = Transcript(
            thread, str(members[0].get("user") or ""), shown
        )
    return out


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
    kept: list[Mapping[str, Any]] = []
    by_message: dict[str, Mapping[str, Any]] = {}
    by_thread: dict[str, list[int]] = defaultdict(list)
    per_day: Counter[str] = Counter()
    cited: Counter[str] = Counter()
    languages: Counter[str] = Counter()
    graphs: Counter[str] = Counter()
    models: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    asked_on: Counter[str] = Counter()
    clients: Counter[str] = Counter()
    latencies: list[float] = []
    first_tokens: list[float] = []
    last_tokens: list[float] = []
    nothing: list[Mapping[str, Any]] = []
    failed: list[Mapping[str, Any]] = []
    for turn in turns:
        at = turn.get("at")
        if not isinstance(at, int | float) or at < start:
            continue
        report.turns += 1
        by_message[str(turn.get("message_id"))] = turn
        by_thread[str(turn.get("thread_id") or "")].append(len(kept))
        kept.append(turn)
        per_day[datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")] += 1
        failure = turn.get("failure")
        if isinstance(failure, Mapping) and failure.get("kind"):
            report.failures += 1
            kinds[str(failure["kind"])] += 1
            failed.append(turn)
        elif not turn.get("found"):
            report.unanswered += 1
            nothing.append(turn)
        elif turn.get("removed") or turn.get("fixed"):
            report.low_confidence += 1
        for source in turn.get("sources") or []:
            key = page_key(str(source))
            if key:
                cited[key] += 1
        languages[str(turn.get("language") or "?")] += 1
        graphs[str(turn.get("graph") or "?")] += 1
        models[str(turn.get("model") or "?")] += 1
        if isinstance(turn.get("asked_on"), str):
            asked_on[turn["asked_on"]] += 1
        clients[str(turn.get("client") or "api or other")] += 1
        for name, values in (
            ("latency_s", latencies),
            ("first_token_s", first_tokens),
            ("last_token_s", last_tokens),
        ):
            value = turn.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                values.append(float(value))
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
                    "message_id": str(voted.get("message_id") or ""),
                    "asked_on": voted.get("asked_on"),
                    "at": voted.get("at"),
                }
            )
    report.negatives.sort(key=lambda n: -(n["at"] or 0))
    report.per_day = dict(sorted(per_day.items()))
    report.most_cited = cited.most_common(TOP)
    report.never_cited = _never_cited(pages, cited)
    report.gaps = [
        (word, [_ref(nothing[i]) for i in ids])
        for word, ids in group_by_shared_word([str(t.get("question") or "") for t in nothing])
    ]
    report.failure_kinds = dict(kinds.most_common())
    failed.sort(key=lambda t: -(t.get("at") or 0))
    report.recent_failures = [
        _ref(t, str((t.get("failure") or {}).get("kind") or "")) for t in failed[:FAILURES_SHOWN]
    ]
    report.topics = top_topics(kept)
    report.asked_on = asked_on.most_common(TOP)
    report.clients = dict(clients.most_common())
    report.languages = dict(languages.most_common())
    report.graphs = dict(graphs.most_common())
    report.models = dict(models.most_common())
    if latencies:
        latencies.sort()
        report.median_latency_s = latencies[len(latencies) // 2]
    report.first_token_s = _median_p90(first_tokens)
    report.last_token_s = _median_p90(last_tokens)
    linked = [n["message_id"] for n in report.negatives[:NEGATIVES_SHOWN]]
    linked += [r.message_id for _, refs in report.gaps[:GAP_TOPICS_SHOWN] for r in refs[:GAP_QUESTIONS_SHOWN]]  # fmt: skip
    linked += [r.message_id for r in report.recent_failures]
    report.transcripts = _transcripts(linked, by_message, by_thread, kept)
    return report


def docs_pages(sources: SourceSettings | None = None) -> list[str]:
    """Page keys of the docs the index serves, for 'never cited'.

    Listed by the docs source the search tools use (tools/docs.py: the same generator rules,
    navigation, include/exclude globs and URLs), so a page counts here exactly when a question
    could cite it. Only the lexical index is brought up to date: no vectors are computed.
    """
    settings = replace(sources or SourceSettings.from_env(), embeddings="off")
    docs = docs_source(settings)
    if not isinstance(docs, ListsPages):
        return []
    return sorted({key for url in docs.page_urls() if (key := page_key(url))})


# --- views ----------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


def _seconds(pair: tuple[float, float] | None) -> str:
    return f"{pair[0]:.2f} s (p90 {pair[1]:.2f} s)" if pair else "–"


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M") if at else "?"


def render_text(r: Report) -> str:
    """The report as plain text for the terminal (control characters shown as escapes)."""
    days = r.since_s / 86400
    lines = [
        f"Answers report, last {days:g} day(s): {r.turns} questions",
        f"  unanswered (nothing found): {r.unanswered} ({_pct(r.unanswered, r.turns)}); "
        f"low confidence (citations fixed/removed): {r.low_confidence} ({_pct(r.low_confidence, r.turns)}); "
        f"model and engine failures: {r.failures} ({_pct(r.failures, r.turns)})",
        f"  feedback: {r.up} up, {r.down} down"
        + (f" ({100 * r.feedback_ratio:.0f}% positive)" if r.feedback_ratio is not None else ""),
        f"  readers waited: first token {_seconds(r.first_token_s)}, last token "
        f"{_seconds(r.last_token_s)}; in-graph median latency: "
        + (f"{r.median_latency_s:.2f} s" if r.median_latency_s is not None else "–"),
        "  languages: " + ", ".join(f"{k} {v}" for k, v in r.languages.items()),
        "  clients: " + ", ".join(f"{k} {v}" for k, v in r.clients.items()),
        "Questions per day: " + ", ".join(f"{d} {n}" for d, n in r.per_day.items()),
        "Model and engine failures (outages, not docs gaps), by kind:",
        *[f"  {n:5d}  {k} ({FAILURE_LABELS.get(k, k)})" for k, n in r.failure_kinds.items()],
    ]
    lines.extend(
        f"      - {_when(f.at)} [{f.detail}] {f.question[:100]}  (transcript: {f.message_id})"
        for f in r.recent_failures[:10]
    )
    lines.append(
        "Top questions by topic (the page the answer cited first; uncited: a shared word):"
    )
    for topic in r.topics:
        lines.append(f"  [{topic.label}] {topic.count}")
        lines.extend(f"      {n:4d}x {q[:110]}" for q, n, _ in topic.questions)
    lines.append("Docs gaps (questions that found nothing, by topic):")
    for word, refs in r.gaps[:30]:
        lines.append(f"  [{word}] {len(refs)}")
        lines.extend(f"      - {g.question[:110]}  (transcript: {g.message_id})" for g in refs[:5])
    lines.append(f"Negative answers ({len(r.negatives)}):")
    for n in r.negatives[:30]:
        lines.append(f"  - {str(n['question'])[:110]}  (transcript: {n['message_id']})")
        if n["comment"]:
            lines.append(f"      comment: {str(n['comment'])[:300]}")
        if n.get("asked_on"):
            lines.append(f"      asked on: {str(n['asked_on'])[:200]}")
    lines.extend(
        [
            "Pages questions were asked on:",
            *[f"  {n:5d}  {page[:200]}" for page, n in r.asked_on],
            "Most cited pages:",
            *[f"  {n:5d}  {p}" for p, n in r.most_cited],
            f"Never cited pages ({len(r.never_cited)}):",
            *[f"  {p}" for p in r.never_cited[:50]],
        ]
    )
    return "\n".join(visible(line) for line in lines)


def render_transcript_text(transcript: Transcript, focus: str = "") -> str:
    """One thread's recorded turns for the terminal (`--transcript`)."""
    lines = [f"Thread {transcript.thread_id} (user {transcript.user}):"]
    for turn in transcript.turns:
        marker = ">>" if str(turn.get("message_id")) == focus else "  "
        failure = turn.get("failure") or {}
        lines.append(f"{marker} {_when(float(turn.get('at') or 0))}  {turn.get('message_id')}")
        if turn.get("asked_on"):
            lines.append(f"   asked on: {turn['asked_on']}")
        lines.append(f"   Q: {turn.get('question') or ''}")
        kind = f" [failure: {failure.get('kind')}]" if failure.get("kind") else ""
        lines.append(f"   A{kind}: {turn.get('answer') or '(answer not recorded)'}")
    return "\n".join(visible(line) for line in lines)


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
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{_e(label[:32])}</text>'
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
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #eceff2;vertical-align:top}
.turn{border-left:3px solid #d8dde3;padding:.2rem .8rem;margin:.6rem 0}.turn:target,.turn.focus{border-color:#2357d9;background:#f3f6fd}
.answer{white-space:pre-wrap;margin:.2rem 0}.failure{color:#9a3412}a.t{font-size:.85em;margin-left:.4rem}"""


def _e(text: Any) -> str:
    """Text for HTML: invisible characters shown as escapes, then HTML-escaped."""
    return html.escape(visible(str(text)))


def anchor(message_id: str) -> str:
    """The HTML id of a turn in the transcripts section (any message id becomes a safe token)."""
    return "t-" + hashlib.sha256(message_id.encode()).hexdigest()[:16]


def _link(message_id: str, transcripts_ids: set[str]) -> str:
    if message_id not in transcripts_ids:
        return ""
    return f'<a class=t href="#{anchor(message_id)}">transcript</a>'


def _page_link(url: str | None) -> str:
    """A page a question was asked on: a link when it is an http(s) URL, else plain text."""
    if not url:
        return ""
    if re.match(r"^https?://[^\s\"'<>]+$", url):
        return f'<a href="{html.escape(url, quote=True)}" rel="noreferrer noopener">{_e(url[:120])}</a>'
    return _e(url[:120])


def _transcript_html(t: Transcript, focus: set[str]) -> str:
    rows = []
    for turn in t.turns:
        message_id = str(turn.get("message_id") or "")
        linked = message_id in focus
        answer = str(turn.get("answer") or "")
        if not linked and len(answer) > CONTEXT_ANSWER_CHARS:
            answer = answer[:CONTEXT_ANSWER_CHARS] + " …"
        failure = (turn.get("failure") or {}).get("kind")
        asked = (
            f"<div class=muted>asked on {_page_link(turn.get('asked_on'))}</div>"
            if turn.get("asked_on")
            else ""
        )
        rows.append(
            f'<div class="turn{" focus" if linked else ""}" id="{anchor(message_id)}">'
            f"<div class=muted>{_e(_when(float(turn.get('at') or 0)))}"
            f"{' · <span class=failure>failure: ' + _e(failure) + '</span>' if failure else ''}</div>"
            f"{asked}<div><b>Q:</b> {_e(turn.get('question') or '')}</div>"
            f"<div class=answer><b>A:</b> {_e(answer) or '<span class=muted>(answer not recorded)</span>'}</div></div>"
        )
    return f"<h3>Thread {_e(t.thread_id)} <span class=muted>({_e(t.user)})</span></h3>" + "".join(
        rows
    )


def render_html(r: Report, title: str = "Answers report") -> str:
    """The report as one self-contained HTML page (inline CSS and SVG, nothing loaded)."""
    ratio = f"{100 * r.feedback_ratio:.0f}%" if r.feedback_ratio is not None else "–"
    cards = [
        ("questions", str(r.turns)),
        ("unanswered", _pct(r.unanswered, r.turns)),
        ("low confidence", _pct(r.low_confidence, r.turns)),
        ("model/engine failures", _pct(r.failures, r.turns)),
        ("positive feedback", ratio),
        ("votes", str(r.up + r.down)),
        ("first token (median)", f"{r.first_token_s[0]:.2f} s" if r.first_token_s else "–"),
        ("last token (median)", f"{r.last_token_s[0]:.2f} s" if r.last_token_s else "–"),
        (
            "in-graph latency (median)",
            f"{r.median_latency_s:.2f} s" if r.median_latency_s is not None else "–",
        ),
    ]
    linked = {str(turn.get("message_id")) for t in r.transcripts.values() for turn in t.turns}
    failure_rows = "".join(
        f"<tr><td>{_e(k)}</td><td>{_e(FAILURE_LABELS.get(k, k))}</td><td>{n}</td></tr>"
        for k, n in r.failure_kinds.items()
    )
    recent_failure_rows = "".join(
        f"<tr><td class=muted>{_e(_when(f.at))}</td><td>{_e(f.detail)}</td>"
        f"<td>{_e(f.question[:160])}{_link(f.message_id, linked)}</td></tr>"
        for f in r.recent_failures
    )
    topic_rows = "".join(
        f"<tr><td><b>{_e(t.label)}</b> ({t.count})</td><td>"
        + "<br>".join(
            f"{n}× {_e(q[:160])}{_link(ref.message_id, linked)}" for q, n, ref in t.questions
        )
        + "</td></tr>"
        for t in r.topics
    )
    gap_rows = "".join(
        f"<tr><td><b>{_e(topic)}</b> ({len(refs)})</td><td>"
        + "<br>".join(
            f"{_e(g.question[:160])}{_link(g.message_id, linked)}"
            for g in refs[:GAP_QUESTIONS_SHOWN]
        )
        + (
            f"<br><span class=muted>and {len(refs) - GAP_QUESTIONS_SHOWN} more</span>"
            if len(refs) > GAP_QUESTIONS_SHOWN
            else ""
        )
        + "</td></tr>"
        for topic, refs in r.gaps[:GAP_TOPICS_SHOWN]
    )
    neg_rows = "".join(
        f"<tr><td>{_e(str(n['question'])[:200])}{_link(n['message_id'], linked)}</td>"
        f"<td>{_e(str(n['comment'])) or '<span class=muted>no comment</span>'}</td>"
        f"<td class=muted>{_page_link(n.get('asked_on'))}</td></tr>"
        for n in r.negatives[:NEGATIVES_SHOWN]
    )
    asked_rows = "".join(
        f"<tr><td>{_page_link(page)}</td><td>{n}</td></tr>" for page, n in r.asked_on
    )
    focus = linked & (
        {n["message_id"] for n in r.negatives}
        | {g.message_id for _, refs in r.gaps for g in refs}
        | {f.message_id for f in r.recent_failures}
    )
    transcripts = "".join(_transcript_html(t, focus) for t in r.transcripts.values())
    share = [
        ("answered", float(r.turns - r.unanswered - r.low_confidence - r.failures)),
        ("low confidence", float(r.low_confidence)),
        ("unanswered", float(r.unanswered)),
        ("failures", float(r.failures)),
    ]
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>{_e(title)}</title><style>{_CSS}</style></head><body>
<h1>{_e(title)}</h1><p class=muted>Last {r.since_s / 86400:g} day(s), generated {generated}. Readers' wait counts from the run's creation to the answer's first and last token.</p>
<div class=cards>{"".join(f"<div class=card><b>{_e(v)}</b>{_e(k)}</div>" for k, v in cards)}</div>
<h2>Questions per day</h2>{_columns(r.per_day)}
<h2>Answered, low confidence, unanswered, failed</h2>{_bars(share)}
<h2>Model and engine failures: outages, not docs gaps</h2>
{"<table><tr><th>kind</th><th>what happened</th><th>turns</th></tr>" + failure_rows + "</table>" if failure_rows else "<p class=muted>No model or engine failures.</p>"}
{"<h3>Latest failures</h3><table>" + recent_failure_rows + "</table>" if recent_failure_rows else ""}
<h2>Feedback</h2>{_bars([("up", float(r.up)), ("down", float(r.down))])}
<h2>Top questions by topic</h2><p class=muted>A topic is the page an answer cited first; questions whose answer cited nothing are grouped by the content word most of them share.</p>
{"<table>" + topic_rows + "</table>" if topic_rows else "<p class=muted>No questions in this period.</p>"}
<h2>Docs gaps: questions that found nothing, by topic</h2>
{"<table>" + gap_rows + "</table>" if gap_rows else "<p class=muted>Every question found something.</p>"}
<h2>Negative answers and their comments</h2>
{"<table><tr><th>question</th><th>comment</th><th>asked on</th></tr>" + neg_rows + "</table>" if neg_rows else "<p class=muted>No negative votes.</p>"}
<h2>Pages questions were asked on</h2>
{"<table>" + asked_rows + "</table>" if asked_rows else "<p class=muted>No question came with its page.</p>"}
<h2>Clients</h2>{_bars([(k, float(v)) for k, v in r.clients.items()])}
<h2>Most cited pages</h2>{_bars([(p, float(n)) for p, n in r.most_cited])}
<h2>Never cited pages ({len(r.never_cited)})</h2>
<p>{", ".join(_e(p) for p in r.never_cited[:200]) or "<span class=muted>none</span>"}</p>
<h2>Languages</h2>{_bars([(k, float(v)) for k, v in r.languages.items()])}
<h2>Graphs and models</h2>{_bars([(k, float(v)) for k, v in {**r.graphs, **r.models}.items()])}
<h2 id=transcripts>Transcripts</h2><p class=muted>The threads of the negative answers, gaps and failures above, as the turn records keep them (operators only).</p>
{transcripts or "<p class=muted>Nothing to show.</p>"}
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


def transcript_of(turns: Sequence[Mapping[str, Any]], message_id: str) -> Transcript | None:
    """The transcript around one turn (`--transcript`), None when no record has that id."""
    by_id = {str(t.get("message_id")): t for t in turns}
    by_thread: dict[str, list[int]] = defaultdict(list)
    for i, t in enumerate(turns):
        by_thread[str(t.get("thread_id") or "")].append(i)
    found = _transcripts([message_id], by_id, by_thread, turns)
    return next(iter(found.values()), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the report for a period and optionally write the HTML page."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--since", default="7d", help="period: 7d, 24h, 90m (default 7d)")
    parser.add_argument("--html", type=Path, help="also write the report as an HTML page here")
    client = current().client
    parser.add_argument("--url", default=client.url, help="the server (DOCS_AGENT_URL)")
    parser.add_argument(
        "--token",
        default=client.token or None,
        help="an operator's bearer token (DOCS_AGENT_TOKEN)",
    )
    parser.add_argument(
        "--docs-dir",
        type=Path,
        help="docs folder whose pages count for 'never cited' (default: the configured docs)",
    )
    parser.add_argument(
        "--transcript", metavar="MESSAGE_ID", help="print the thread of one turn and exit"
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
        print(visible(f"cannot read the report from {args.url}: {exc}{hint}"), file=sys.stderr)
        return 1
    if args.transcript:
        transcript = transcript_of(turns, args.transcript)
        if transcript is None:
            print(visible(f"no recorded turn {args.transcript!r}"), file=sys.stderr)
            return 1
        print(render_transcript_text(transcript, args.transcript))
        return 0
    sources = SourceSettings.from_env()
    if args.docs_dir is not None:
        sources = replace(sources, docs_dir=args.docs_dir.resolve(), llms_txt_url="")
    report = build_report(turns, votes, since_s=since_s, pages=docs_pages(sources))
    print(render_text(report))
    if args.html:
        args.html.write_text(render_html(report), encoding="utf-8")
        print(f"wrote {args.html}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
