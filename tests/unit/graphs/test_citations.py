"""The citation checker on good, reversed, out-of-range and invented citations (repo's own sources)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.citations import CitationChecker, extract_citations
from settings.sources import SourceSettings
from tests.conftest import REPO_ROOT
from tools import Sources, load_sources

REPO = REPO_ROOT


@pytest.fixture
def checker(index_dir: Path) -> CitationChecker:
    settings = SourceSettings.from_env(
        {"DOCS_AGENT_INDEX_DIR": str(index_dir), "DOCS_AGENT_CODE_ROOTS": "docs-agent=."}
    )
    sources: Sources = load_sources(settings)
    return CitationChecker(sources)


def _lines(rel: str) -> int:
    return len((REPO / rel).read_text().splitlines())


def test_valid_citations_pass_unchanged(checker: CitationChecker) -> None:
    kb_id = (
        next(p for p in (REPO / "kb").rglob("*.md"))
        .relative_to(REPO / "kb")
        .with_suffix("")
        .as_posix()
    )
    text = f"See docs/streaming.md and KB {kb_id}; code `docs-agent/graphs/citations.py:1-5`."
    out, report = checker.check(text)
    assert out == text
    assert (report.checked, report.valid, report.fixed, report.removed) == (3, 3, 0, 0)


def test_reversed_range_is_swapped(checker: CitationChecker) -> None:
    out, report = checker.check("Defined at `docs-agent/graphs/citations.py:20-10`.")
    assert "docs-agent/graphs/citations.py:10-20" in out
    assert report.fixed == 1 and report.removed == 0
    assert report.details[0]["reason"] == "reversed range swapped"


def test_end_past_file_is_clamped_and_start_past_file_removed(checker: CitationChecker) -> None:
    total = _lines("graphs/citations.py")
    out, report = checker.check(
        f"A `docs-agent/graphs/citations.py:{total - 2}-{total + 50}` and\n- `docs-agent/graphs/citations.py:{total + 10}-{total + 20}`\n"
    )
    assert f"docs-agent/graphs/citations.py:{total - 2}-{total}" in out
    assert f"{total + 10}" not in out
    assert report.fixed == 1 and report.removed == 1 and report.invalid == 2


def test_invented_citations_are_removed(checker: CitationChecker) -> None:
    text = (
        "Answer text.\n"
        "1. docs/no-such-page.md\n"
        "2. KB errors/no-such-article\n"
        "3. See [the guide](https://example.invalid/nowhere) for more.\n"
        "4. `docs-agent/graphs/nope.py:1-3`\n"
        "5. docs/streaming.md\n"
    )
    out, report = checker.check(text)
    assert report.removed == 4 and report.valid == 1
    assert "no-such" not in out and "example.invalid" not in out and "nope.py" not in out
    assert "See the guide for more." in out  # a link's text survives its removal
    assert "docs/streaming.md" in out and "Answer text." in out
    assert "2." not in out  # an emptied list item disappears


def test_code_fences_untouched_by_tidying(checker: CitationChecker) -> None:
    text = "```python\nf()\n```\nsee `docs-agent/graphs/nope.py:1-2`"
    out, _ = checker.check(text)
    assert out.startswith("```python\nf()\n```")


def test_extract_citations_kinds() -> None:
    found = extract_citations(
        "KB faq/x — https://d.example/a and langgraph/pregel/main.py:3373-3279 docs/a.md"
    )
    assert found["kb"] == ["faq/x"]
    assert found["urls"] == ["https://d.example/a"]
    assert found["code"] == ["langgraph/pregel/main.py:3373-3279"]
    assert found["doc_paths"] == ["docs/a.md"]


def test_urls_inside_code_blocks_are_not_citations(checker: CitationChecker) -> None:
    text = "Example:\n```python\nclient = get_client(url='https://example.invalid/x')\n```\nSee docs/streaming.md"
    out, report = checker.check(text)
    assert out == text and report.checked == 1 and report.valid == 1


def test_kb_id_ending_in_dash() -> None:
    assert extract_citations("KB faq/odd-id- — see")["kb"] == ["faq/odd-id-"]


def test_url_in_inline_code_is_not_a_citation(checker: CitationChecker) -> None:
    text = "Open `http://127.0.0.1:8123/docs` and https://example.invalid/x"
    out, report = checker.check(text)
    assert "`http://127.0.0.1:8123/docs`" in out and "example.invalid" not in out
    assert report.checked == 1 and report.removed == 1


def test_quoted_source_text_is_not_taken_for_citations(checker: CitationChecker) -> None:
    answer = (
        "**Install › Keys** — docs/install.md\n"
        "> Find your key at https://platform.example.invalid/account/api-keys.\n"
        "See https://docs.example.invalid/made-up for more."
    )
    text, report = checker.check(answer)
    assert "> Find your key at https://platform.example.invalid/account/api-keys." in text
    assert "made-up" not in text and report.removed == 1
    assert extract_citations(answer)["urls"] == ["https://docs.example.invalid/made-up"]


def test_what_the_turn_read_verifies_without_a_backend_lookup(checker: CitationChecker) -> None:
    from langchain_core.messages import ToolMessage

    from graphs.citations import read_sources

    read = read_sources(
        [
            ToolMessage(
                "(page)",
                tool_call_id="1",
                name="get_doc_page",
                artifact={"url": "https://x.invalid/p"},
            ),
            ToolMessage(
                "(code)",
                tool_call_id="2",
                name="read_code_file",
                artifact={"file": "other/src/mod.py", "start": 1, "end": 5, "total": 40},
            ),
            ToolMessage(
                "(err)",
                tool_call_id="3",
                name="get_doc_page",
                status="error",
                artifact={"url": "https://y.invalid"},
            ),
        ]
    )
    assert read.pages == {"https://x.invalid/p"} and read.files == {"other/src/mod.py": 40}
    text = "See https://x.invalid/p#intro and `other/src/mod.py:30-50`; not https://y.invalid."
    out, report = checker.check(text, read)
    assert "https://x.invalid/p#intro" in out and "other/src/mod.py:30-40" in out
    assert "y.invalid" not in out
    assert (report.valid, report.fixed, report.removed) == (1, 1, 1)
    # Without the turn's reads the same page and file are unknown to the backends.
    _, alone = checker.check(text)
    assert alone.removed == 3


def test_words_after_kb_in_a_title_are_not_citations() -> None:
    from graphs.citations import extract_citations

    text = "**Docs, KB and code sources › Setup** — docs/sources.md\nSee KB faq/retention and KB 360012."
    assert extract_citations(text)["kb"] == ["faq/retention", "360012"]


def test_a_cited_anchor_must_be_a_section_of_the_page(index_dir: Path) -> None:
    """The MkDocs fixture: explicit ids and extra ids are sections; an invented anchor is dropped."""
    site = REPO / "tests" / "fixtures" / "sites" / "mkdocs" / "docs"
    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(site),
            "DOCS_AGENT_KB_DIR": "",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
            "DOCS_AGENT_CODE_ROOTS": "",
        }
    )
    checker = CitationChecker(load_sources(settings))
    page = "https://docs.example.org/concepts/models/"
    text = (
        f"See [usage]({page}#basic-model-usage), {page}#model-methods and "
        f"[the validators]({page}#check-it-check-it)."
    )
    out, report = checker.check(text)
    assert out == (
        f"See [usage]({page}#basic-model-usage), {page}#model-methods and [the validators]({page})."
    )
    assert (report.checked, report.valid, report.fixed, report.removed) == (3, 2, 1, 0)


@pytest.mark.parametrize(
    "quoted",
    [
        # A fence indented under a numbered step (the shape real models write most).
        '1. Connect:\n\n   ```python\n   client = get_client(url="http://127.0.0.1:8123/nowhere")\n   ```\n2. Ask.\n',
        '~~~python\nget_client(url="http://127.0.0.1:8123/nowhere")\n~~~\n',
        "````md\n```\nhttp://127.0.0.1:8123/nowhere\n```\n````\n",
        "Indented code:\n\n    curl http://127.0.0.1:8123/nowhere\n\nDone.\n",
        "> A quote names http://127.0.0.1:8123/nowhere\n> on two lines.\n",
    ],
)
def test_code_blocks_and_quotes_are_quoted_text_wherever_they_sit(
    checker: CitationChecker, quoted: str
) -> None:
    out, report = checker.check(quoted + "\nAnd a made-up page https://nowhere.example/x cited.\n")
    assert "http://127.0.0.1:8123/nowhere" in out  # a value in code, never judged
    assert "https://nowhere.example/x" not in out  # the prose citation still is
    assert report.removed == 1
