"""Text helpers shared by the search, code and answer layers."""

from __future__ import annotations

from tools.text import inline_code_spans


def test_inline_code_spans_pair_like_markdown() -> None:
    """A one-character span does not shift the pairing; fenced blocks are not inline spans."""
    row = "| `DOCS_AGENT_NUM_SUGGESTIONS` | `3` | Suggestions per answer. `0` disables them. |"
    assert inline_code_spans(row) == ["DOCS_AGENT_NUM_SUGGESTIONS", "3", "0"]
    text = "Run `make dev`.\n```python\nx = `not a span`\n```\nThen `interrupt(value)`."
    assert inline_code_spans(text) == ["make dev", "interrupt(value)"]
    assert inline_code_spans("`" + "x" * 81 + "` and `ok`") == ["ok"]


def test_bold_around_a_code_span_is_stripped_and_code_is_kept() -> None:
    """Bold that wraps a span (`**\\`x\\` is off**`) is prose emphasis; bold inside code stays."""
    from tools.text import strip_bold

    assert strip_bold("**`langgraph dev` does not enforce TTLs**: see") == (
        "`langgraph dev` does not enforce TTLs: see"
    )
    assert (
        strip_bold("`**kept**` and **gone** in `__init__.py`")
        == "`**kept**` and gone in `__init__.py`"
    )
    assert strip_bold("```\n**in a fence**\n```\n**out**") == "```\n**in a fence**\n```\nout"
    assert strip_bold("a \x00 **b** `**c**`") == "a \x00 b `**c**`"
