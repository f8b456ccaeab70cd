"""Snippet prose: what a search hit shows of its section, flat and readable."""

from __future__ import annotations

from tools.search.snippets import snippet, snippet_prose

TABLE = """| Data | Where |
|------|:-----:|
| Threads and checkpoints | Postgres |
| Run queue | Redis |

With `make dev` everything is in memory.
"""


def test_a_table_reads_as_its_cells_not_its_pipes() -> None:
    prose = snippet_prose(TABLE)
    assert prose == (
        "Data — Where; Threads and checkpoints — Postgres; Run queue — Redis; "
        "With `make dev` everything is in memory."
    )
    assert "|" not in snippet(prose, ["redis"], width=40)


def test_code_blocks_and_indented_code_are_left_out() -> None:
    text = "Intro line.\n```python\nx = 1 | 2\n```\n    indented = 3\nOutro | not a table."
    assert snippet_prose(text) == "Intro line. Outro | not a table."
