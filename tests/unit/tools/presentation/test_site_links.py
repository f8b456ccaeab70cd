"""Links inside shown page text are the real site's URLs (tools/presentation/site_links.py).

Per format: MkDocs relative `.md` links with anchors, Sphinx relative `.html#id`, Mintlify
root-relative paths; then what resolves to nothing, external and hostile links, images, and
code left as written. The page table is the real one (`IndexLinks` over `page_suffixes`, as the
link prior matches links); only the index under it is a fake, and one test goes through the
docs tools over a real folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.docs import create_docs_tools
from tools.presentation.site_links import IndexLinks, page_links, resolve_links, resolve_snippet
from tools.sources.corpus import FolderCorpus, UrlRule


class FakeIndex:
    """Pages by key: (URL, anchors). What `IndexLinks` reads of a search index."""

    def __init__(self, pages: dict[str, tuple[str, tuple[str, ...]]]) -> None:
        self.pages = pages
        self.version = 1

    def keys(self) -> list[str]:
        return sorted(self.pages)

    def link_version(self) -> int:
        return self.version

    def address(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        return self.pages.get(key)


MKDOCS = IndexLinks(
    FakeIndex(
        {
            "index.md": ("https://docs.example.dev/latest/", ()),
            "concepts/models.md": (
                "https://docs.example.dev/latest/concepts/models/",
                ("models", "basic-model-usage", "rebuilding-model-schema"),
            ),
            "concepts/types.md": (
                "https://docs.example.dev/latest/concepts/types/",
                ("types", "custom-types"),
            ),
            "api/base_model.md": ("https://docs.example.dev/latest/api/base_model/", ()),
        }
    )
)
SPHINX = IndexLinks(
    FakeIndex(
        {
            "how-to/fixtures.rst": (
                "https://docs.example.org/en/stable/how-to/fixtures.html",
                ("how-to-use-fixtures", "fixtures", "requesting-fixtures"),
            ),
            "reference/exit-codes.rst": (
                "https://docs.example.org/en/stable/reference/exit-codes.html",
                ("exit-codes",),
            ),
            "getting-started.rst": ("https://docs.example.org/en/stable/getting-started.html", ()),
        }
    )
)
MINTLIFY = IndexLinks(
    FakeIndex(
        {
            "src/oss/langgraph/streaming.mdx": (
                "https://docs.example.com/oss/python/langgraph/streaming",
                ("stream-modes", "supported-stream-modes"),
            ),
            "src/oss/langgraph/overview.mdx": (
                "https://docs.example.com/oss/python/langgraph/overview",
                (),
            ),
        }
    )
)
MODELS_URL = "https://docs.example.dev/latest/concepts/models/"
FIXTURES_URL = "https://docs.example.org/en/stable/how-to/fixtures.html"
OVERVIEW_URL = "https://docs.example.com/oss/python/langgraph/overview"


def mkdocs(text: str) -> str:
    return resolve_links(text, MODELS_URL, "concepts/models.md", MKDOCS)


def test_mkdocs_relative_md_links_become_the_pages_served_urls_with_their_anchors() -> None:
    text = (
        "See [types](types.md), [custom types](types.md#custom-types), "
        "[the API](../api/base_model.md) and [models](./models.md)."
    )
    assert mkdocs(text) == (
        "See [types](https://docs.example.dev/latest/concepts/types/), "
        "[custom types](https://docs.example.dev/latest/concepts/types/#custom-types), "
        "[the API](https://docs.example.dev/latest/api/base_model/) and "
        "[models](https://docs.example.dev/latest/concepts/models/)."
    )
    # The root index has no path words to match by (as for the link prior): its text only.
    assert mkdocs("[home](../index.md)") == "home"


def test_a_fragment_is_mapped_to_the_anchor_the_target_page_serves() -> None:
    # Written as the heading's words or in another case: the page serves the slug.
    assert mkdocs("[x](types.md#Custom-Types) [y](#Basic%20model%20usage)") == (
        "[x](https://docs.example.dev/latest/concepts/types/#custom-types) "
        "[y](https://docs.example.dev/latest/concepts/models/#basic-model-usage)"
    )
    # Unknown to the page (an id the index does not hold, such as an API object's): as written.
    assert mkdocs("[m](../api/base_model.md#pkg.BaseModel.model_dump)") == (
        "[m](https://docs.example.dev/latest/api/base_model/#pkg.BaseModel.model_dump)"
    )


def test_sphinx_relative_html_links_and_same_page_ids() -> None:
    text = (
        "Exit with [codes](../reference/exit-codes.html#exit-codes); "
        "[request them](#requesting-fixtures); [start](../getting-started.html)."
    )
    got = resolve_links(text, FIXTURES_URL, "how-to/fixtures.rst", SPHINX)
    assert got == (
        "Exit with [codes](https://docs.example.org/en/stable/reference/exit-codes.html#exit-codes); "
        "[request them](https://docs.example.org/en/stable/how-to/fixtures.html#requesting-fixtures); "
        "[start](https://docs.example.org/en/stable/getting-started.html)."
    )


def test_mintlify_root_relative_links_resolve_to_pages_or_against_the_site() -> None:
    text = (
        "[Streaming](/oss/python/langgraph/streaming#stream-modes), "
        "[tracing](/langsmith/home), ![diagram](/images/graph.png)"
    )
    got = resolve_links(text, OVERVIEW_URL, "src/oss/langgraph/overview.mdx", MINTLIFY)
    assert got == (
        "[Streaming](https://docs.example.com/oss/python/langgraph/streaming#stream-modes), "
        "[tracing](https://docs.example.com/langsmith/home), "
        "![diagram](https://docs.example.com/images/graph.png)"
    )


def test_links_that_name_no_page_keep_their_text_only() -> None:
    text = "Read [the guide](missing.md#x), [a file](../../scripts/run.py) and ![shot](img/a.png)."
    assert mkdocs(text) == "Read the guide, a file and shot."


def test_without_a_page_table_only_the_safe_rules_apply() -> None:
    text = "[a](/x/y) [b](../c.md) [c](#top) [d](https://e.example/f)"
    assert resolve_links(text, OVERVIEW_URL) == (
        "[a](https://docs.example.com/x/y) b "
        "[c](https://docs.example.com/oss/python/langgraph/overview#top) "
        "[d](https://e.example/f)"
    )
    # A page with no web URL (a repo-relative path): no link can be made absolute.
    assert resolve_links(text, "docs/guide.md") == "a b c [d](https://e.example/f)"


def test_external_links_stay() -> None:
    text = "[site](https://other.example/a?b=1#c) [mail](mailto:team@example.com) [p](http://x.example)"
    assert mkdocs(text) == text


@pytest.mark.parametrize(
    "dest",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java&#115;cript:alert(1)",
        "%6Aavascript:alert(1)",
        "javascript&colon;alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:x",
        "//evil.example/x",
        "///evil.example",
        "https:/evil.example",
        "https:\\\\evil.example",
        "https://@evil",
        "file:///etc/passwd",
    ],
)
def test_hostile_links_lose_the_link_and_keep_their_text(dest: str) -> None:
    assert mkdocs(f"click [here]({dest}) now") == "click here now"
    assert resolve_links(f"[here]({dest})", OVERVIEW_URL) == "here"


def test_hostile_autolinks_lose_their_brackets_and_safe_ones_stay() -> None:
    assert mkdocs("<javascript:alert(1)> <https://ok.example/a>") == (
        "javascript:alert(1) <https://ok.example/a>"
    )


def test_a_kept_url_cannot_break_out_of_its_markdown_link() -> None:
    got = resolve_links('[x](</a b> "t") [y](</c"onclick=x>)', OVERVIEW_URL)
    assert got == "[x](https://docs.example.com/a%20b) [y](https://docs.example.com/c%22onclick=x)"
    got = resolve_links("[x](/a(b)c)", OVERVIEW_URL)
    assert got == "[x](https://docs.example.com/a%28b%29c)"


def test_code_fences_and_spans_are_left_as_written() -> None:
    text = (
        "Use `[types](types.md)` or ``x [a](b.md) y``.\n\n"
        "```python\nModel[int](data=1)  # [types](types.md)\n```\n\n"
        "~~~\n[types](types.md)\n~~~\n"
        "but [types](types.md) here, and [`cfg['x']`](types.md#custom-types)."
    )
    assert mkdocs(text) == (
        "Use `[types](types.md)` or ``x [a](b.md) y``.\n\n"
        "```python\nModel[int](data=1)  # [types](types.md)\n```\n\n"
        "~~~\n[types](types.md)\n~~~\n"
        "but [types](https://docs.example.dev/latest/concepts/types/) here, and "
        "[`cfg['x']`](https://docs.example.dev/latest/concepts/types/#custom-types)."
    )


def test_two_code_spans_on_a_line_do_not_swallow_the_link_between_them() -> None:
    text = "with @[`add_messages`] [reducer](types.md#custom-types), like [`Models`](#models)."
    assert mkdocs(text) == (
        "with @[`add_messages`] [reducer](https://docs.example.dev/latest/concepts/types/#custom-types), "
        "like [`Models`](https://docs.example.dev/latest/concepts/models/#models)."
    )


def test_a_fence_closes_only_on_a_bare_fence_line() -> None:
    text = "```bash\n## x\n```python\ncode [a](types.md)\n```\nSee [types](types.md)."
    assert mkdocs(text) == (
        "```bash\n## x\n```python\ncode [a](types.md)\n```\n"
        "See [types](https://docs.example.dev/latest/concepts/types/)."
    )


def test_an_unclosed_backtick_does_not_hide_the_next_paragraphs_links() -> None:
    text = "A lone ` backtick.\n\nThen [types](types.md) and a closing ` later."
    assert "(https://docs.example.dev/latest/concepts/types/)" in mkdocs(text)


def test_a_linked_image_resolves_inside_and_out() -> None:
    got = mkdocs("[![badge](https://img.example/b.svg)](types.md) [![logo](logo.png)](types.md)")
    assert got == (
        "[![badge](https://img.example/b.svg)](https://docs.example.dev/latest/concepts/types/) "
        "[logo](https://docs.example.dev/latest/concepts/types/)"
    )


def test_resolving_twice_changes_nothing() -> None:
    text = "[t](types.md#custom-types) [u](/oss/x) [v](nothing.md) [w](javascript:x)"
    once = mkdocs(text)
    assert mkdocs(once) == once
    assert resolve_links(once, MODELS_URL) == once


def test_a_snippet_window_that_cut_a_link_shows_its_text() -> None:
    start = resolve_snippet("…pes](types.md) and more", MODELS_URL, "concepts/models.md", MKDOCS)
    assert start == "…pes and more"
    end = resolve_snippet("see the [custom types](types.md#cus…", MODELS_URL)
    assert end == "see the custom types…"


def test_an_offline_quote_cut_inside_a_link_shows_its_text() -> None:
    from graphs.offline.answer import clip

    text = "Read the [custom types](https://docs.example.dev/latest/concepts/types/#custom-types) page."
    assert clip(text, 40) == "Read the custom types …"
    assert clip(text, 300) == text


def test_the_page_table_follows_the_index() -> None:
    index = FakeIndex({"a.md": ("https://s.example/a/", ())})
    links = IndexLinks(index)
    assert page_links("https://s.example/a/", "a.md", links)("[b](b.md)") == "b"
    index.pages["b.md"] = ("https://s.example/b/", ())
    assert page_links("https://s.example/a/", "a.md", links)("[b](b.md)") == "b"  # same version
    index.version = 2
    assert page_links("https://s.example/a/", "a.md", links)("[b](b.md)") == (
        "[b](https://s.example/b/)"
    )


def test_docs_tools_show_site_urls_in_pages_snippets_and_artifacts(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "docs" / "concepts").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: S\nsite_url: https://s.example/\n")
    (root / "docs" / "index.md").write_text("# Home\n\nWelcome.\n")
    (root / "docs" / "concepts" / "types.md").write_text(
        "# Types\n\n## Custom types\n\nCustom types are declared with annotations here.\n"
    )
    (root / "docs" / "concepts" / "models.md").write_text(
        "# Models\n\nModels hold validated fields; see [custom types](types.md#custom-types) "
        "and [home](../index.md) for validated fields.\n"
    )
    corpus = FolderCorpus(root, "docs", tmp_path / "index", UrlRule("https://s.example/"))
    corpus.sync()
    search, read = create_docs_tools(corpus)
    found = search.invoke(
        {
            "type": "tool_call",
            "id": "1",
            "name": "search_docs",
            "args": {"query": "validated fields custom types", "feedback_to_user": ""},
        }
    )
    assert "types.md" not in found.content
    assert all("types.md" not in hit["snippet"] for hit in found.artifact)
    page = read.invoke(
        {
            "type": "tool_call",
            "id": "2",
            "name": "get_doc_page",
            "args": {"url_or_path": "https://s.example/concepts/models/", "feedback_to_user": ""},
        }
    )
    want = "[custom types](https://s.example/concepts/types/#custom-types)"
    assert want in page.content
    assert "[home](https://s.example/)" in page.content  # the root index page is the site root
    assert any(want in s["text"] for s in page.artifact["sections"])


def test_llms_txt_pages_link_to_each_others_urls(tmp_path: Path) -> None:
    from tests.unit.tools.sources.live.test_live_docs import BASE, FakeSite, corpus_for

    site = FakeSite(pages=2)
    site.put(
        "/docs/p0.md",
        "# Page 0\n\n## Topic\n\nWidget0 configuration, see [page 1](p1.md#topic), "
        "[again](/docs/p1.md), [elsewhere](/blog/post) and [gone](missing.md).\n",
    )
    corpus = corpus_for(site, tmp_path)
    corpus.sync()
    _, read = create_docs_tools(corpus)
    page = read.invoke(
        {
            "type": "tool_call",
            "id": "1",
            "name": "get_doc_page",
            "args": {"url_or_path": f"{BASE}/docs/p0", "feedback_to_user": ""},
        }
    )
    assert (
        f"see [page 1]({BASE}/docs/p1#topic), [again]({BASE}/docs/p1), "
        f"[elsewhere]({BASE}/blog/post) and gone." in page.content
    )
