from __future__ import annotations

from pathlib import Path

import pytest

from commands import report
from commands.report import (
    build_report,
    gap_topics,
    page_key,
    parse_since,
    render_html,
    render_text,
)
from settings.sources import SourceSettings
from tools.docs import docs_source
from tools.sources.corpus import FolderCorpus

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


def test_docs_pages_are_the_pages_the_index_serves(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "index.md").write_text("# Guide\n")
    (docs / "a.mdx").write_text("# A\n")
    (docs / "snippets").mkdir()
    (docs / "snippets" / "part.mdx").write_text("a part of pages, not a page\n")
    (docs / "img.png").write_bytes(b"x")
    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(docs),
            "DOCS_AGENT_DOCS_BASE_URL": "https://docs.example.com/",
            "DOCS_AGENT_INDEX_DIR": str(tmp_path / "index"),
            "DOCS_AGENT_EMBEDDINGS": "off",
        }
    )
    assert report.docs_pages(settings) == ["a", "guide"]
    # The same source the search tools use: its pages are exactly what the report lists.
    source = docs_source(settings)
    assert isinstance(source, FolderCorpus)
    assert report.docs_pages(settings) == sorted(
        {key for url in source.page_urls() if (key := page_key(url))}
    )
    # Its navigation rules count too: an mkdocs `nav` that leaves a page out leaves it out here.
    (docs / "a.md").write_text("# A\n")
    (docs / "a.mdx").unlink()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav:\n  - a.md\n")
    assert report.docs_pages(settings) == ["a"]
    missing = SourceSettings.from_env({"DOCS_AGENT_DOCS_DIR": str(tmp_path / "missing")})
    assert report.docs_pages(missing) == []


# --- failures apart from gaps, topics, transcripts, asked_on, latency, terminal safety ----------

FAILED = {"kind": "rate_limited", "retry_after_s": 30}


def test_failures_are_listed_apart_and_never_as_docs_gaps() -> None:
    turns = [
        _turn(1, found=False, sources=[], question="How do I rotate webhook secrets?"),
        _turn(2, found=False, sources=[], question="webhook retries", failure=FAILED),
        _turn(3, found=False, sources=[], question="webhook signing", failure=FAILED),
        _turn(4, found=False, sources=[], question="webhook cut", failure={"kind": "stream_cut"}),
        _turn(5),
    ]
    r = build_report(turns, [], since_s=DAY, now=NOW)
    assert r.turns == 5 and r.unanswered == 1 and r.failures == 3
    assert r.failure_kinds == {"rate_limited": 2, "stream_cut": 1}
    gap_questions = [g.question for _, refs in r.gaps for g in refs]
    assert gap_questions == ["How do I rotate webhook secrets?"]
    text = render_text(r)
    gaps = text.split("Docs gaps")[1].split("Negative answers")[0]
    failures = text.split("Model and engine failures")[1].split("Top questions")[0]
    assert "webhook retries" not in gaps and "webhook cut" not in gaps
    assert "2  rate_limited" in failures and "1  stream_cut" in failures
    assert "webhook retries" in failures and "(transcript: m2)" in failures
    page = render_html(r)
    assert "Model and engine failures" in page and "rate limited by the model provider" in page


def _reference_greedy(questions: list[str]) -> list[tuple[str, list[int]]]:
    """The earlier, quadratic grouping (recount every word for every group), for comparison."""
    from collections import Counter

    words = [report.content_words(q) for q in questions]
    left = {i for i, w in enumerate(words) if w}
    groups = []
    while left:
        counts = Counter(w for i in left for w in words[i])
        word, _ = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        members = sorted(i for i in left if word in words[i])
        groups.append((word, members))
        left -= set(members)
    return groups


def test_the_near_linear_grouping_groups_exactly_as_the_greedy_one() -> None:
    import random

    rng = random.Random(3)
    vocab = [f"term{i}" for i in range(60)] + ["webhook", "stream", "deploy"]
    questions = [
        "How do I " + " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 5)))
        for _ in range(400)
    ] + ["how is it?", "?"]
    groups = report.group_by_shared_word(questions)
    assert groups[:-1] == _reference_greedy(questions)
    assert groups[-1] == (report.NO_WORDS, [400, 401])
    assert sorted(i for _, ids in groups for i in ids) == list(range(402))


def test_top_questions_are_grouped_by_the_page_cited_first_then_by_a_shared_word() -> None:
    turns = [
        _turn(1, question="How do I stream tokens?", sources=["https://d.io/guide/stream#a"]),
        _turn(2, question="how do i  stream tokens", sources=["https://d.io/guide/stream#b"]),
        _turn(3, question="Wie streame ich Tokens?", sources=["https://d.io/guide/stream", "x.md"]),
        _turn(4, question="Rotate keys?", sources=["KB auth/rotate"]),
        _turn(5, question="dark mode toggle", found=False, sources=[]),
        _turn(6, question="dark mode colors", found=False, sources=[]),
        _turn(7, question="webhook down", sources=[], failure=FAILED),
    ]
    topics = {t.label: t for t in build_report(turns, [], since_s=DAY, now=NOW).topics}
    stream = topics["page: guide/stream"]
    assert stream.count == 3
    assert [(q, n) for q, n, _ in stream.questions][0] == ("How do I stream tokens?", 2)
    assert topics["page: KB auth/rotate"].count == 1
    assert topics["uncited: mode"].count == 2  # "dark" and "mode" tie: the last word names it
    assert topics["uncited: webhook"].count == 1
    assert list(topics)[0] == "page: guide/stream"  # largest first


def test_negatives_gaps_and_failures_link_to_their_thread_transcripts() -> None:
    turns = [
        _turn(1, thread_id="t", question="first question", answer="first answer", at=NOW - 50),
        _turn(
            2,
            thread_id="t",
            question="no docs on this",
            found=False,
            sources=[],
            answer="I found nothing.",
            at=NOW - 40,
        ),  # fmt: skip
        _turn(3, thread_id="t", question="third", answer="A" * 3000, at=NOW - 30),
        _turn(4, thread_id="u", user="bob", question="bad answer", answer="wrong", at=NOW - 20),
        _turn(
            5,
            thread_id="v",
            question="failed",
            failure=FAILED,
            at=NOW - 10,
            answer="The AI model is busy right now.",
        ),  # fmt: skip
    ]
    votes = [{"message_id": "m4", "voter": "bob", "vote": "down", "comment": "wrong"}]
    r = build_report(turns, votes, since_s=DAY, now=NOW)
    assert set(r.transcripts) == {"t", "u", "v"}
    assert [t["message_id"] for t in r.transcripts["t"].turns] == ["m1", "m2", "m3"]
    page = render_html(r)
    for message_id in ("m2", "m4", "m5"):
        anchor = report.anchor(message_id)
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page
    assert "first answer" in page and "I found nothing." in page and "A" * 1500 + " …" in page
    assert "A" * 1501 not in page  # a context turn's answer is cut
    text = render_text(r)
    assert "(transcript: m2)" in text and "(transcript: m4)" in text
    one = report.transcript_of(turns, "m2")
    assert one is not None
    printed = report.render_transcript_text(one, "m2")
    assert ">> " in printed and "Q: no docs on this" in printed and "A: I found nothing." in printed
    assert report.transcript_of(turns, "missing") is None


def test_the_page_a_question_was_asked_on_and_the_client() -> None:
    turns = [
        _turn(1, asked_on="https://docs.example.com/guide/install/", client="widget"),
        _turn(2, asked_on="https://docs.example.com/guide/install/", client="widget"),
        _turn(3, asked_on="javascript:alert(1)", client="page"),
        _turn(4),
    ]
    r = build_report(turns, [], since_s=DAY, now=NOW)
    assert r.asked_on[0] == ("https://docs.example.com/guide/install/", 2)
    assert r.clients == {"widget": 2, "page": 1, "api or other": 1}
    page = render_html(r)
    assert 'href="https://docs.example.com/guide/install/"' in page
    assert 'href="javascript' not in page and "javascript:alert(1)" in page  # shown, not linked


def test_latency_as_readers_waited_beside_the_in_graph_time() -> None:
    turns = [
        _turn(i, latency_s=0.3, first_token_s=1.0 + i / 10, last_token_s=2.0 + i / 10)
        for i in range(10)
    ]
    turns.append(_turn(99, latency_s=0.3))  # an old record without reader times
    r = build_report(turns, [], since_s=DAY, now=NOW)
    assert r.median_latency_s == 0.3
    assert r.first_token_s == (1.5, 1.9) and r.last_token_s == (2.5, 2.9)
    text = render_text(r)
    assert "first token 1.50 s (p90 1.90 s)" in text and "in-graph median latency: 0.30 s" in text


HOSTILE = [
    "\x1b]0;pwned title\x07",  # terminal title
    "\x1b[2J\x1b[H",  # clear screen
    "\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\x07",  # OSC 52: write the clipboard
    "\x1b[8mhidden\x1b[0m",  # conceal
    "line\rspoofed",  # overwrite the line
    "\u202eevil\u202c",  # right-to-left override
    "\x9b31m",  # C1 CSI
    "\x00nul\u2028sep\u200bzw",
]


def test_the_text_report_prints_no_control_characters() -> None:
    import unicodedata

    turns = [
        _turn(i, question=f"q{i} {h}", found=False, sources=[], asked_on=h, language=h, model=h)
        for i, h in enumerate(HOSTILE)
    ]
    turns.append(_turn(50, question="failed " + HOSTILE[0], failure=FAILED))
    votes = [
        {"message_id": f"m{i}", "voter": "alice", "vote": "down", "comment": h}
        for i, h in enumerate(HOSTILE)
    ]
    r = build_report(turns, votes, since_s=DAY, now=NOW)
    outputs = [render_text(r)]
    outputs += [report.render_transcript_text(t, "m0") for t in r.transcripts.values()]
    for out in outputs:
        bad = [c for c in out if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
        assert bad == [], bad
    text = outputs[0]
    assert "\\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07" in text and "\\u202eevil" in text
    assert "line\\rspoofed" in text and "\\x00nul\\u2028sep\\u200bzw" in text
    # Visible text in any script passes as it is.
    assert (
        report.visible("Wie streame ich Tokens? 日本語 — ok")
        == "Wie streame ich Tokens? 日本語 — ok"
    )
    html_page = render_html(r)
    assert "\x1b" not in html_page and "\u202e" not in html_page
