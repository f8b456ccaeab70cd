"""MDX loader on the shapes real Mintlify pages have, and URL rules."""

from __future__ import annotations

import pytest

from tools.sources.corpus import UrlRule, plain_site
from tools.sources.markdown.frontmatter import read_frontmatters
from tools.sources.markdown.parse import parse_markdown

PAGE = """---
title: Streaming
description: "Stream outputs"
---
import { Foo } from "/snippets/foo.mdx";
export const x = 1;

Intro with <Tooltip tip="hi">a tooltip</Tooltip>.

<Note>
Use `stream_mode`.
</Note>

## Stream tokens

:::python
Python only text.
:::
:::js
JS only text.
:::

```python
# not a heading
graph.stream(x)
```

<Accordion title="More details">
Hidden detail.
</Accordion>

### Deeper
Deep text.
"""


def test_frontmatter_headings_code_jsx_imports_and_language() -> None:
    page = parse_markdown("a/streaming.mdx", PAGE, "python")
    assert page.title == "Streaming" and page.description == "Stream outputs"
    assert [(s.heading, s.level) for s in page.sections] == [
        ("Streaming", 0),
        ("Stream tokens", 2),
        ("Deeper", 3),
    ]
    body = page.body
    assert "import" not in body and "export const" not in body
    assert "a tooltip" in body and "<Tooltip" not in body and "Use `stream_mode`." in body
    assert "Python only text." in body and "JS only text." not in body
    assert "```python\n# not a heading\ngraph.stream(x)\n```" in body
    assert "More details" in body and "Hidden detail." in body
    assert page.sections[1].anchor == "stream-tokens"


def test_js_language_keeps_js_blocks() -> None:
    body = parse_markdown("p.mdx", PAGE, "js").body
    assert "JS only text." in body and "Python only text." not in body


def test_two_frontmatter_blocks_first_wins() -> None:
    meta, body = read_frontmatters(
        "---\ntitle: Outer\nkind: faq\n---\n\n---\ntitle: Inner\nsidebar: x\n---\n\nText\n"
    )
    assert (
        meta["title"] == "Outer" and meta["sidebar"] == "x" and meta["original"]["title"] == "Inner"
    )
    assert body.strip() == "Text"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "---\n",
        "---\ntitle: [broken\n---\nbody",
        "```python\nunclosed fence",
        "<Tabs><Tab>",
        "\x00\x01 binary-ish",
        "# \n##\n###",
    ],
)
def test_malformed_input_never_raises(text: str) -> None:
    page = parse_markdown("x/odd-page.mdx", text)
    assert page.title


def test_title_falls_back_to_h1_then_file_name() -> None:
    assert parse_markdown("a/b.md", "# Hello\n\ntext").title == "Hello"
    assert parse_markdown("a/file-name.md", "just text").title == "file-name"


def test_url_rules() -> None:
    # A URL rule is applied through the plain-Markdown site it makes (KB folders, plain docs).
    rule = plain_site(
        UrlRule("https://docs.example.com/oss/python/", ("src/oss/python/", "src/oss/"))
    )
    assert (
        rule.url_for("src/oss/langgraph/streaming.mdx")
        == "https://docs.example.com/oss/python/langgraph/streaming"
    )
    assert (
        rule.url_for("src/oss/python/migrate/v1.mdx")
        == "https://docs.example.com/oss/python/migrate/v1"
    )
    assert (
        rule.url_for("src/oss/langgraph/index.mdx")
        == "https://docs.example.com/oss/python/langgraph"
    )
    assert rule.url_for("src/oss/index.mdx") == "https://docs.example.com/oss/python"
    assert plain_site(UrlRule(path_prefix="docs/")).url_for("install.md") == "docs/install.md"
