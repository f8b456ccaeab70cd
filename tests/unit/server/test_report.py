from __future__ import annotations

from pathlib import Path

import pytest

from server import report
from server.report import build_report, gap_topics, page_key, parse_since, render_html, render_text

NOW = 1_800_000_000.0
DAY = 86400.0


def _turn(i: int, **kw: object) -> dict[str, object]:
    base = {
        "question": f"question {i}",
        "language": "en",
        "graph": "docs_agent",
        "user": "alice",
        "thread_id": f"t{i}",
        "run_id": f"r{i}",
        "message_id": f"m{i}",
        "sources": ["docs/a.md#x"],
        "found": True,
        "removed": 0,
        "fixed": 0,
        "latency_s": 1.0,
        "model": "offline",
        "at": NOW - 3600,
    }
    return {**base, **kw}


def test_parse_since() -> None:
    assert (
        parse_since("7d") == 7 * DAY and parse_since("12h") == 43200 and parse_since("30m") == 1800
    )
    with pytest.raises(ValueError):
        parse_since("a week")


def test_page_keys_drop_hosts_anchors_extensions_and_skip_code_and_kb() -> None:
    assert page_key("https://docs.example.com/guide/streaming/#tokens") == "guide/streaming"
    assert page_key("docs/streaming.md#a") == "docs/streaming"
    assert page_key("docs/guide/index.md") == "docs/guide"
    assert page_key("graphs/docs_agent.py:10-20") is None
    assert page_key("KB errors/401") is None


def test_report_counts_the_period_unanswered_low_confidence_and_languages() -> None:
    turns = [
        _turn(1),
        _turn(2, found=False, sources=[], question="How do I rotate webhook secrets?"),
        _turn(3, found=False, sources=[], question="Rotate webhook signing keys", language="de"),
        _turn(4, removed=1),
        _turn(5, at=NOW - 9 * DAY),  # outside the period
    ]
    r = build_report(turns, [], since_s=7 * DAY, now=NOW, pages=["a", "b", "never/here"])
    assert r.turns == 4 and r.unanswered == 2 and r.low_confidence == 1
    assert r.languages == {"en": 3, "de": 1}
    assert r.most_cited == [("docs/a", 2)]
    assert r.never_cited == ["b", "never/here"]
    assert r.gaps[0][0] == "webhook" and len(r.gaps[0][1]) == 2


def test_votes_count_only_from_the_turns_owner_and_the_last_vote_wins_by_key() -> None:
    turns = [_turn(1), _turn(2)]
    votes = [
        {"message_id": "m1", "voter": "alice", "vote": "down", "comment": "missing the page"},
        {"message_id": "m2", "voter": "mallory", "vote": "down", "comment": "forged"},
        {"message_id": "m2", "voter": "alice", "vote": "up"},
        {"message_id": "gone", "voter": "alice", "vote": "up"},
    ]
    r = build_report(turns, votes, since_s=DAY, now=NOW)
    assert (r.up, r.down) == (1, 1) and r.feedback_ratio == 0.5
    assert [n["comment"] for n in r.negatives] == ["missing the page"]


def test_gap_topics_group_by_the_most_shared_content_word() -> None:
    groups = dict(
        gap_topics(["How to configure webhooks?", "webhooks retry policy", "dark mode toggle"])
    )
    assert groups["webhooks"] == ["How to configure webhooks?", "webhooks retry policy"]
    assert sum(len(v) for v in groups.values()) == 3


def test_views_are_self_contained_and_escape_user_text() -> None:
    turns = [_turn(1, question="<script>alert(1)</script>", found=False, sources=[])]
    votes = [
        {"message_id": "m1", "voter": "alice", "vote": "down", "comment": "<img src=x onerror=1>"}
    ]
    r = build_report(turns, votes, since_s=DAY, now=NOW)
    page = render_html(r)
    assert "<script>" not in page and "<img" not in page and "&lt;script&gt;" in page
    assert "<svg" in page and "src=" not in page.replace("&lt;img src=x", "")
    text = render_text(r)
    assert "1 questions" in text and "1 down" in text


def test_docs_pages_lists_a_folder(tmp_path: Path) -> None:
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "index.md").write_text("x")
    (tmp_path / "a.mdx").write_text("x")
    (tmp_path / "_partial.md").write_text("x")
    (tmp_path / "img.png").write_bytes(b"x")
    assert report.docs_pages(tmp_path) == ["a", "guide"]
    assert report.docs_pages(tmp_path / "missing") == []
