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
