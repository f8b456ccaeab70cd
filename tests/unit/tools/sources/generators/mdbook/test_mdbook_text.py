"""mdBook's text rules, each as mdBook 0.5 applies it: directives, line ranges, hidden lines, ids.

The expected values follow mdBook's source (links.rs, take_lines.rs, hide_lines.rs, utils.rs,
tree.rs) and its own rendering tests (tests/testsuite: header_links, hidelines,
definition_lists), with text written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.sources.generators.mdbook.code import hide_code_lines
from tools.sources.generators.mdbook.ids import mdbook_id
from tools.sources.generators.mdbook.links import (
    MAX_DEPTH,
    IncludeFiles,
    LineRange,
    expand_links,
    parse_range_or_anchor,
    take_anchored_lines,
    take_lines,
    take_rustdoc_anchored_lines,
    take_rustdoc_lines,
)
from tools.sources.generators.mdbook.structure import chapter_structure

FILE = "one\ntwo\nthree\nfour\nfive\n"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (None, LineRange(0, None)),
        ("", LineRange(0, None)),
        ("2", LineRange(1, 2)),
        ("2:4", LineRange(1, 4)),
        (":3", LineRange(0, 3)),
        ("2:", LineRange(1, None)),
        ("main", "main"),
    ],
)
def test_range_or_anchor(spec: str | None, expected: LineRange | str) -> None:
    assert parse_range_or_anchor(spec) == expected


def test_line_ranges_are_one_based_and_inclusive() -> None:
    assert take_lines(FILE, LineRange(1, 4)) == "two\nthree\nfour"
    assert take_lines(FILE, LineRange(3, None)) == "four\nfive"
    assert take_lines(FILE, LineRange(0, 2)) == "one\ntwo"
    assert take_lines(FILE, LineRange(4, 2)) == ""  # an end before the start: nothing
    assert take_lines(FILE, LineRange(0, 100)) == FILE.rstrip("\n")


ANCHORED = """// ANCHOR: all
use std::io;
// ANCHOR: body
fn run() {}
// ANCHOR_END: body
// ANCHOR_END: all
"""


def test_anchors_take_their_lines_without_any_marker() -> None:
    assert take_anchored_lines(ANCHORED, "body") == "fn run() {}"
    assert take_anchored_lines(ANCHORED, "all") == "use std::io;\nfn run() {}"
    assert take_anchored_lines(ANCHORED, "missing") == ""


def test_rustdoc_includes_keep_the_rest_behind_a_hash() -> None:
    assert take_rustdoc_anchored_lines(ANCHORED, "body") == "# use std::io;\nfn run() {}"
    assert take_rustdoc_lines(FILE, LineRange(1, 2)) == "# one\ntwo\n# three\n# four\n# five"


def _book(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_directives_escapes_titles_and_nesting(tmp_path: Path) -> None:
    book = _book(
        tmp_path,
        {
            "src/part.md": "Part with {{#include code/x.rs:2}}",
            "src/code/x.rs": "first\nsecond\n",
            "src/code/play.rs": "fn main() {}",
        },
    )
    chapter = (
        "{{#title Custom}}\n"
        "{{#include part.md}}\n"
        r"Shown as written: \{{#include part.md}}" + "\n"
        "{{#playground code/play.rs editable}}\n"
        "{{#unknown thing}} stays"
    )
    out = expand_links(chapter, book / "src", IncludeFiles(book))
    assert out.title == "Custom"
    assert out.problems == []
    assert out.text == (
        "\nPart with second\n"
        "Shown as written: {{#include part.md}}\n"
        "```rust,editable\nfn main() {}\n```\n"  # the included text's last line break goes
        "{{#unknown thing}} stays"
    )


def test_included_lines_keep_the_directives_indentation(tmp_path: Path) -> None:
    book = _book(tmp_path, {"src/x.txt": "a\nb\n"})
    out = expand_links("- item\n\n  {{#include x.txt}}\n", book / "src", IncludeFiles(book))
    assert out.text == "- item\n\n  a\n  b\n"


def test_includes_stay_inside_the_repository(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("outside the checkout")
    book = _book(tmp_path / "repo", {"src/.env": "KEY=1", "notes.txt": "inside"})
    text = "{{#include ../../secret.txt}} {{#include .env}} {{#include ../notes.txt}}"
    out = expand_links(text, book / "src", IncludeFiles(book))
    assert out.text == "  inside"
    assert len(out.problems) == 2
    assert all("no such file" in p for p in out.problems)


def test_a_cycle_stops_at_mdbooks_depth(tmp_path: Path) -> None:
    book = _book(tmp_path, {"src/loop.md": "round\n{{#include loop.md}}"})
    out = expand_links("{{#include loop.md}}", book / "src", IncludeFiles(book))
    assert out.text.count("round") == MAX_DEPTH
    assert any("levels deep" in p for p in out.problems)


def test_hidden_code_lines_are_left_out() -> None:
    body = (
        "```rust,ignore\n#![allow(x)]\n#\n#hidden();\n# hidden();\n## shown();\n#[derive]\nrun();\n```\n"
        "```python\n~hidden()\nshown()\n```\n"
        "```python,hidelines=!!\n!!hidden()\nshown()\n```\n"
        "> ```rust\n> # use x;\n> y();\n> ```\n"
    )
    out = hide_code_lines(body, {"python": "~"})
    assert out == (
        "```rust,ignore\n#![allow(x)]\n#hidden();\n# shown();\n#[derive]\nrun();\n```\n"
        "```python\nshown()\n```\n"
        "```python,hidelines=!!\nshown()\n```\n"
        "> ```rust\n> y();\n> ```\n"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Foo^bar", "foobar"),
        ("`--passes`: add more passes", "--passes-add-more-passes"),
        ("Hï Über", "hï-über"),
        ("中文標題 CJK title", "中文標題-cjk-title"),
        ("!.():", "section"),
        ("", "section"),
        ("a & b", "a--b"),
    ],
)
def test_mdbook_id(text: str, expected: str) -> None:
    assert mdbook_id(text) == expected


def _ids(body: str) -> list[tuple[str, str]]:
    structure = chapter_structure(body, mdbook_id)
    heads = [
        line.rsplit("{#", 1)[1][:-1]
        for line in structure.text.split("\n")
        if line.startswith("#") and "{#" in line
    ]
    extra = [(where, i) for where, ids in structure.extra_ids.items() for i in ids]
    return [("h", h) for h in heads] + extra


def test_heading_ids_count_as_mdbook_counts() -> None:
    body = (
        "# Ids\n\n## Same\n## Same\n## Same 1\n\n###\n\n### !!\n\n"
        "## Explicit {#same}\n\n## Same\n\n## A -- dash `--flag`\n\n"
        "Setext\n------\n\n```\n## not a heading\n```\n"
    )
    assert _ids(body) == [
        ("h", "ids"),
        ("h", "same"),
        ("h", "same-1"),
        ("h", "same-1-1"),  # "Same 1" finds `same-1` taken
        ("h", "section-1"),  # `### !!`: the empty `###` above took `section`
        ("h", "same"),  # explicit: kept, not counted
        ("h", "same-2"),
        ("h", "a--dash---flag"),  # `--` is an en dash outside code
        ("h", "setext"),
        ("same-1-1", "section"),  # the empty heading's id, in the section it sits in
    ]


def test_definition_terms_take_ids_in_the_same_count() -> None:
    body = (
        "# Terms\n\napple\n:   red fruit\n:   a company\n\n"
        "apple\n: again\n\nloose\n\n:   blank line between\n\n"
        "level one\n: l1\n    level two\n    : l2\n"
    )
    structure = chapter_structure(body, mdbook_id)
    assert structure.extra_ids == {
        "terms": ["apple", "apple-1", "loose", "level-one", "l1-level-two"]
    }
    assert "**apple**\nred fruit\na company" in structure.text


def test_admonitions_show_their_title() -> None:
    structure = chapter_structure("> [!WARNING]\n> Careful.\n", mdbook_id)
    assert structure.text == "> **Warning**\n> Careful.\n"
    off = chapter_structure("> [!WARNING]\n> Careful.\n", mdbook_id, admonitions=False)
    assert "[!WARNING]" in off.text


def test_included_text_is_cleaned_as_page_text(tmp_path: Path) -> None:
    """What a reader never sees goes from an included fragment; in a code block it is code."""
    book = _book(
        tmp_path,
        {"src/part.md": "Shown.<!-- unseen note -->\n<div hidden>Unseen text</div>\n"},
    )
    prose = expand_links("{{#include part.md}}", book / "src", IncludeFiles(book))
    assert "Shown." in prose.text
    assert "unseen" not in prose.text.lower()
    code = expand_links("```md\n{{#include part.md}}\n```", book / "src", IncludeFiles(book))
    assert "<!-- unseen note -->" in code.text
