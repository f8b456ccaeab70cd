"""bench/answers.py reads an answer's citations and matches them to the expected pages."""

from __future__ import annotations

from bench.answers import cites_expected, expected_keys, page_citations

FAQ = "https://docs.langchain.com/langsmith/faq"
STREAMING = "https://docs.langchain.com/oss/python/langgraph/streaming"


def test_a_section_of_an_expected_page_counts_but_another_faq_entry_does_not() -> None:
    expected = expected_keys(
        {
            "expected_paths": ["docs/src/oss/langgraph/streaming.mdx", "kb/faq/oss-llms.mdx"],
            "expected_urls": [STREAMING, f"{FAQ}#oss-llms"],
        }
    )
    answer = (
        f"See [streaming]({STREAMING}#stream-subgraphs), the [FAQ]({FAQ}),"
        f" [another entry]({FAQ}#pricing), [this one]({FAQ}#oss-llms) and KB faq/oss-llms.\n"
        f"> quoted text links [elsewhere]({FAQ}#quoted)\n"
    )
    cited = page_citations(answer)
    assert cited == [
        f"{STREAMING}#stream-subgraphs",
        FAQ,
        f"{FAQ}#pricing",
        f"{FAQ}#oss-llms",
        "kb/faq/oss-llms",
    ]
    assert [cites_expected(ref, expected) for ref in cited] == [True, False, False, True, True]


def test_a_url_written_as_code_is_content_not_a_citation() -> None:
    """A finding that quotes `https://…/studio/?baseUrl=…` cites its article, not that address."""
    answer = (
        "- Studio › Symptom: You open `https://smith.langchain.com/studio/?baseUrl=http://127.0.0.1:8123`"
        " and it fails. — KB troubleshooting/studio-cannot-connect\n"
        "- See `docs/studio.md` and [the guide](https://docs.example.com/studio)."
    )
    assert page_citations(answer) == [
        "kb/troubleshooting/studio-cannot-connect",
        "docs/studio",
        "https://docs.example.com/studio",
    ]


def test_another_entry_of_a_shared_page_is_no_expected_page_in_any_spelling() -> None:
    from bench.answers import score

    q = {"expected_paths": ["kb/faq/oss-llms.mdx"], "expected_urls": [f"{FAQ}#oss-llms"]}
    other = score(q, {"answer": f"See [the FAQ]({FAQ}#pricing)."})
    assert (other["any"], other["loose_any"], other["url_form_miss"]) == (False, False, False)
    slashed = score(q, {"answer": f"See [the FAQ]({FAQ}/#oss-llms)."})
    assert (slashed["any"], slashed["loose_any"], slashed["url_form_miss"]) == (False, True, True)
