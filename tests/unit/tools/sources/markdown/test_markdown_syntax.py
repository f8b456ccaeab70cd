"""Markdown syntax read the way Python-Markdown and CommonMark read it (attr_list, code, links)."""

from __future__ import annotations

from tools.sources.generators.mkdocs.reader import parse_mkdocs
from tools.sources.hidden.strip import strip_hidden
from tools.sources.markdown.inline import parse_attr_list
from tools.sources.markdown.parse import parse_markdown


def _sections(text: str) -> list[tuple[str, str, tuple[str, ...], str]]:
    return [(s.heading, s.anchor, s.ids, s.text) for s in parse_mkdocs("p.md", text).sections]


def test_attr_list_ids_written_as_key_value_and_bare_attributes() -> None:
    text = (
        "# T\n\n"
        '### 9.7.6 <small>March 19, 2026</small> { id="9.7.6" }\n\na\n\n'
        "### Navigation path <small>Breadcrumbs</small> { id=navigation-path }\n\nb\n\n"
        "### Changes to `*.html` files { data-search-exclude }\n\nc\n\n"
        "### Changes to `*.html` files { data-search-exclude }\n\nd\n"
        "{ id='p1' }\n\n"
        "## X {#a #b}\n\n"
        "## Z {x} y}\n"
    )
    got = {(h, a) for h, a, _, _ in _sections(text)}
    assert ("9.7.6 March 19, 2026", "9.7.6") in got
    assert ("Navigation path Breadcrumbs", "navigation-path") in got
    assert ("Changes to `*.html` files", "changes-to-html-files") in got
    assert ("Changes to `*.html` files", "changes-to-html-files_1") in got
    assert ("X", "b") in got  # the last id wins, as in attr_list
    assert ("Z {x} y}", "z-x-y") in got  # a stray `}`: no attribute list
    assert any("p1" in ids for _, _, ids, _ in _sections(text))


def test_attr_list_grammar() -> None:
    assert parse_attr_list("#a .b c=d e=\"f g\" h='i' j") == [
        ("id", "a"),
        (".", "b"),
        ("c", "d"),
        ("e", "f g"),
        ("h", "i"),
        ("j", None),
    ]
    assert parse_attr_list("x} y") is None


def test_a_comment_in_code_is_code_and_one_in_prose_is_hidden() -> None:
    text = (
        "# T\n\n```html\n<!-- material/tags custom-id -->\n```\n\n"
        "Prose <!-- hidden --> and `<!-- shown -->`.\n"
    )
    body = parse_markdown("p.md", text).body
    assert "```html\n<!-- material/tags custom-id -->\n```" in body
    assert "hidden" not in body and "`<!-- shown -->`" in body


def test_a_placeholder_in_inline_code_is_kept() -> None:
    body = parse_markdown("p.mdx", 'Run `uv build <SRC>` now. <Tab title="A">x</Tab>\n').body
    assert "`uv build <SRC>`" in body and "**A** x" in body and "<Tab" not in body


def test_a_label_line_ending_a_paragraph_is_text_not_a_definition() -> None:
    text = (
        "Add the following CSS to an\n[additional style sheet]:\n\n```css\nx\n```\n\n"
        "[additional style sheet]: ../customization.md\n"
        "Para\n[b]: https://b.example\n\nuse [b]\n\n[//]: # (a comment)\n[c]: <>\n"
    )
    out = strip_hidden(text)
    assert "Add the following CSS to an\n[additional style sheet]:\n" in out
    assert "[additional style sheet]: ../customization.md" in out  # used: kept for the link
    assert "Para\n[b]: https://b.example\n" in out  # interrupts no paragraph: text
    assert "a comment" not in out and "[c]" not in out


def test_an_autolink_is_a_link_not_a_tag() -> None:
    text = "See <https://example.com/a?b=c> now, mail <foo@bar.example.com>. <span title='t'>y</span>\n"
    out = strip_hidden(text)
    assert "<https://example.com/a?b=c>" in out and "<foo@bar.example.com>" in out
    assert "<span>y</span>" in out  # a tag is still tidied


def test_entities_are_the_characters_the_site_shows_outside_code() -> None:
    text = (
        "# &lt;border&gt;\n\nthis&mdash;really &lt;div&gt; x&#8212;y `&amp;`\n\n```\n&amp;\n```\n"
    )
    section = parse_mkdocs("p.md", text).sections[0]
    assert (section.heading, section.anchor) == ("<border>", "border")
    assert section.text == "this—really <div> x—y `&amp;`\n\n```\n&amp;\n```"


def test_a_fence_indented_four_more_is_code_and_attributes_alone_name_no_language() -> None:
    text = (
        "# T\n\n````markdown\n```\ncode\n    ````\n!!! note\n````\n\n"
        "After <!-- hidden -->.\n\n"
        '``` title="x"\ny\n```\n'
    )
    page = parse_mkdocs("p.md", strip_hidden(text))
    blocks = [(c.language, c.code) for s in page.sections for c in s.code_blocks]
    assert blocks == [("markdown", "```\ncode\n    ````\n!!! note"), ("", "y")]
    assert "After ." in page.body and "hidden" not in page.body


def test_a_footnote_keeps_its_text() -> None:
    out = strip_hidden("Text[^1].\n\n[^1]: The data was collected.\n")
    assert "The data was collected." in out


def test_footnote_definitions_are_text_not_reference_definitions() -> None:
    text = "Text[^1] and [a][].\n\n[^1]: The data.\n\n[^2]:\n    Indented note.\n\n[a]: https://a.example\n"
    body = parse_mkdocs("p.md", strip_hidden(text)).body
    assert "Text[1] and [a](https://a.example)." in body
    assert "[1] The data." in body and "Indented note." in body and "[^" not in body


def test_a_reference_definition_may_put_its_url_on_the_next_line() -> None:
    text = (
        "# Page\n\nSee [foo], [bar] and [baz][].\n\n[foo]:\n/url/next\n\n"
        '[bar]:\n  <https://x.org/a> "Title"\n\n[unused]:\n  /gone\n\n'
        "[baz]:\n/b 'T'\n\n[list]:\n- item stays\n"
    )
    body = parse_mkdocs("p.md", strip_hidden(text)).sections[0].text
    assert body == (
        "See [foo](/url/next), [bar](https://x.org/a) and [baz](/b).\n\n[list]:\n- item stays"
    )


def test_a_heading_drops_emphasis_marks_but_its_code_spans_say_what_they_say() -> None:
    # The ids Python-Markdown's toc gives these headings (MkDocs 1.6, Markdown 3.x): a code span's
    # `__init__` and `<field_name>` are code, not bold or a tag; `_x_` and `*x*` are emphasis.
    text = (
        "# T\n\n"
        "### `AutoSchema.__init__()` kwargs\n\na\n\n"
        "#### Change to `validate_<field_name>`.\n\nb\n\n"
        "## ViewSet _Extra Actions_ available in the Browsable API\n\nc\n\n"
        "## An *emph*, mid*emph*word and `a` _b `c` d_\n\nd\n\n"
        "## snake_case_name, x_y_ z, \\_kept\\_ and a * b * c\n\ne\n"
    )
    got = [(h, a) for h, a, _, _ in _sections(text)][1:]
    assert got == [
        ("`AutoSchema.__init__()` kwargs", "autoschema__init__-kwargs"),
        ("Change to `validate_<field_name>`.", "change-to-validate_field_name"),
        (
            "ViewSet Extra Actions available in the Browsable API",
            "viewset-extra-actions-available-in-the-browsable-api",
        ),
        ("An emph, midemphword and `a` b `c` d", "an-emph-midemphword-and-a-b-c-d"),
        (
            "snake_case_name, x_y_ z, _kept_ and a * b * c",
            "snake_case_name-x_y_-z-_kept_-and-a-b-c",
        ),
    ]
    # github-slugger reads the code span's text too (Docusaurus: `validate_<field_name>`).
    mdx = parse_markdown("p.mdx", "# T\n\n## Change to `validate_<field_name>`\n", slug="github")
    assert mdx.sections[-1].anchor == "change-to-validate_field_name"


_INDENTED = (
    "# T\n\n"
    "**profile_detail.html**:\n\n"
    "    {% load rest_framework %}\n\n"
    "    <h1>Profile - {{ profile.name }}</h1>\n"
    '    <form method="POST">\n'
    "        {% csrf_token %}\n"
    "    </form>\n\n"
    "A lazy\n    line.\n\n"
    "- item\n\n    more of the item\n\n        item_code()\n\n"
    "[^1]: a note\n\n    more of the note\n\n"
    "Term\n\n:   !!! note\n\n        in the note\n\n"
    "<div>\n\n    raw HTML\n</div>\n\n"
    "\ttabbed()\n\n"
    "    ```python\n    fenced_in_code()\n    ```\n"
)


def test_an_indented_code_block_is_code_as_python_markdown_reads_it() -> None:
    # Python-Markdown 3.x (+ superfences, footnotes, def_list, admonition) renders exactly these
    # three <pre> blocks: an indented block after a blank line at the text's level, four more
    # columns under a list item, a tab as four; a lazy line, the item's, note's and definition's
    # own text and a raw HTML block's lines are no code. No line of code is markup to render.
    page = parse_mkdocs("p.md", _INDENTED)
    assert [b.code for s in page.sections for b in s.code_blocks] == [
        "{% load rest_framework %}\n\n<h1>Profile - {{ profile.name }}</h1>\n"
        '<form method="POST">\n    {% csrf_token %}\n</form>',
        "item_code()",
        "tabbed()\n\n```python\nfenced_in_code()\n```",
    ]
    body = page.body
    for text in ("A lazy\n    line.", "more of the item", "more of the note", "in the note"):
        assert text in body and f"```\n{text}" not in body
    assert "raw HTML" in body


def test_jinja_in_an_inline_code_span_is_code() -> None:
    # The built page shows a code span as written (mkdocs 1.6, no macros plugin); in prose the
    # reader drops a build hook's `{{ placeholder }}` and a macros plugin's `{% raw %}`.
    text = (
        "# T\n\nTo add links, use `{{ block.super }}`; the empty "
        "`{% block navbar %}{% endblock %}` keeps the style. {% raw %}Hi {{ name }}.\n"
    )
    body = parse_mkdocs("p.md", text).body
    assert "use `{{ block.super }}`;" in body
    assert "`{% block navbar %}{% endblock %}`" in body
    assert "{% raw %}" not in body and "{{ name }}" not in body
