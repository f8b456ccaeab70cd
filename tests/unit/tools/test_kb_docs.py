"""Docs and KB tools over folder, llms.txt and help-center backends (HTTP faked with MockTransport)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tools.docs import create_docs_tools
from tools.kb import FolderKnowledgeBase, create_kb_tools
from tools.sources.corpus import FolderCorpus, UrlRule
from tools.sources.live.fetch import SourceUnavailable
from tools.sources.live.help_center import HelpCenterKnowledgeBase, html_to_markdown
from tools.sources.live.llms_txt import LlmsTxtCorpus, cache_path_for, parse_llms_txt


@pytest.fixture
def docs_tools(tmp_path: Path, index_dir: Path) -> dict:
    root = tmp_path / "docs"
    root.mkdir()
    long = "\n\n".join(f"## Part {i}\n\n" + ("filler words here. " * 200) for i in range(12))
    (root / "big.md").write_text("---\ntitle: Big page\n---\n\nIntro about quokkas.\n\n" + long)
    (root / "small.md").write_text("# Small\n\n## Setup\n\nInstall the quokka package.\n")
    corpus = FolderCorpus(root, "docs", index_dir, UrlRule("https://d.example"))
    return {t.name: t for t in create_docs_tools(corpus)}


def call(tool, **args):
    return tool.invoke({"feedback_to_user": "", **args})


def test_search_docs_lists_title_url_section_snippet(docs_tools: dict) -> None:
    out = call(docs_tools["search_docs"], query="install quokka package", limit=10**6)
    assert "Small — https://d.example/small#setup" in out and "Section: Setup" in out
    assert "Install the quokka package." in out
    assert "empty" in call(docs_tools["search_docs"], query="   ")
    assert "No pages found" in call(docs_tools["search_docs"], query="zzzzqqq")


def test_get_doc_page_whole_section_cut_and_unknown(docs_tools: dict) -> None:
    page = call(docs_tools["get_doc_page"], url_or_path="https://d.example/big")
    assert page.startswith("# Big page\nSource: https://d.example/big")
    assert "Sections left out:" in page and "Part 11" in page.split("Sections left out:")[1]
    section = call(docs_tools["get_doc_page"], url_or_path="big.md", section="Part 11")
    assert "## Part 11" in section and "## Part 10" not in section
    assert "No section 'Nope'" in call(
        docs_tools["get_doc_page"], url_or_path="big.md", section="Nope"
    )
    assert "No page '../../etc/passwd'" in call(
        docs_tools["get_doc_page"], url_or_path="../../etc/passwd"
    )


@pytest.fixture
def kb_tools(tmp_path: Path, index_dir: Path) -> dict:
    root = tmp_path / "kb"
    for rel, title in [
        ("errors/a.mdx", "Recursion limit"),
        ("errors/b.mdx", "Timeout"),
        ("faq/c.mdx", "Recursion FAQ"),
    ]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(
            f"---\ntitle: {title}\nsource_url: https://kb.example/{rel}\n---\n\n---\ntitle: inner\n---\n\n{title} body about recursion.\n"
        )
    return {t.name: t for t in create_kb_tools(FolderKnowledgeBase(root, index_dir))}


def test_kb_two_steps(kb_tools: dict) -> None:
    out = call(kb_tools["search_support_articles"], query="recursion", limit=500)
    assert "errors/a — Recursion limit [errors]" in out and "faq/c — Recursion FAQ [faq]" in out
    assert "body about" not in out  # titles only, never bodies
    only = call(kb_tools["search_support_articles"], query="recursion", collections="faq")
    assert "faq/c" in only and "errors/a" not in only
    assert "Unknown collection(s): nope" in call(
        kb_tools["search_support_articles"], query="x", collections="nope"
    )
    read = call(kb_tools["get_article_content"], article_ids=["errors/a", "missing/x"])
    assert "## Article errors/a" in read and "Source: https://kb.example/errors/a.mdx" in read
    assert "Unknown article id(s): missing/x" in read
    many = call(
        kb_tools["get_article_content"],
        article_ids=["errors/a", "errors/b", "faq/c", "d", "e", "f", "g"],
    )
    assert "Only the first 5 of 7 ids were read" in many and "f, g" in many
    assert "No article ids" in call(kb_tools["get_article_content"], article_ids=[])


def test_llms_txt_parsing_and_cache_paths() -> None:
    text = "# T\n- [A](/a.md): x\n- [B](https://s.example/b/)\n- [A again](/a.md)\n- [Mail](mailto:x@y)\n"
    assert parse_llms_txt(text, "https://s.example/llms.txt") == [
        ("A", "https://s.example/a.md"),
        ("B", "https://s.example/b/"),
    ]
    assert cache_path_for("https://s.example/docs/a.md") == "docs/a.md"
    assert cache_path_for("https://s.example/docs/b") == "docs/b.md"
    assert cache_path_for("https://s.example/") is None
    assert ".." not in (cache_path_for("https://s.example/a/%2e%2e/b") or "")


def test_llms_txt_corpus_with_fake_transport(index_dir: Path) -> None:
    seen: list[tuple[str, str | None]] = []
    pages = {
        "/llms.txt": "- [Stream](/docs/stream.md)\n",
        "/docs/stream.md": "# Streaming\n\n## Tokens\n\nstream_mode messages.\n",
    }

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.path, request.headers.get("if-none-match")))
        if request.headers.get("if-none-match") == '"v1"':
            return httpx.Response(304)
        body = pages.get(request.url.path)
        return (
            httpx.Response(200, text=body, headers={"ETag": '"v1"'})
            if body
            else httpx.Response(404)
        )

    client = httpx.Client(transport=httpx.MockTransport(handler))
    corpus = LlmsTxtCorpus("https://s.example/llms.txt", index_dir, client=client)
    hit = corpus.search("stream mode", 3)[0]
    assert (hit.url, hit.section) == ("https://s.example/docs/stream", "Tokens")
    assert corpus.fetch() == {"fetched": 0, "unchanged": 1, "failed": 0, "removed": 0}
    assert ("/docs/stream.md", '"v1"') in seen


def test_help_center_with_fake_transport() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.headers["authorization"] == "Bearer t"
        path = request.url.path
        if path.endswith("sections.json"):
            return httpx.Response(200, json={"sections": [{"id": 7, "name": "Errors"}]})
        if path.endswith("search.json"):
            assert request.url.params["query"] == "limit"
            return httpx.Response(
                200,
                json={
                    "results": [
                        {
                            "id": 1,
                            "title": "Limit",
                            "section_id": 7,
                            "html_url": "https://h/1",
                            "snippet": "<em>limit</em> hit",
                        }
                    ]
                },
            )
        if path.endswith("/1.json"):
            return httpx.Response(
                200,
                json={
                    "article": {
                        "id": 1,
                        "title": "Limit",
                        "section_id": 7,
                        "body": "<h2>Fix</h2><p>Raise it.</p>",
                    }
                },
            )
        if path.endswith("/2.json"):
            return httpx.Response(500)
        return httpx.Response(200, content=b"not json")

    kb = HelpCenterKnowledgeBase(
        "https://h.example", "t", client=httpx.Client(transport=httpx.MockTransport(handler))
    )
    hits = kb.search("limit", 5)
    assert [(h.key, h.collection, h.snippet) for h in hits] == [("1", "Errors", "limit hit")]
    doc = kb.get("1")
    assert (
        doc
        and [s.heading for s in doc.sections] == ["Limit", "Fix"]
        and doc.sections[1].text == "Raise it."
    )
    assert kb.get("a/../b") is None
    with pytest.raises(SourceUnavailable, match="500"):  # a failure is not an unknown id
        kb.get("2")
    with pytest.raises(SourceUnavailable, match="malformed JSON"):
        kb.get("3")


def test_html_to_markdown() -> None:
    html = "<h1>T</h1><p>Use <code>x_y</code> and <a href='https://e/x'>docs</a>.</p><ol><li>one</li><li>two</li></ol><pre>a = 1\n  b</pre><style>p{}</style>"
    md = html_to_markdown(html)
    assert md.startswith("# T") and "`x_y`" in md and "[docs](https://e/x)" in md
    assert "1. one" in md and "```\na = 1\n  b\n```" in md and "p{}" not in md
    assert html_to_markdown("") == "" and "text" in html_to_markdown("<p>text<b>unclosed")
    assert json.dumps(html_to_markdown("&lt;tag&gt; &amp;")) == json.dumps("<tag> &")


def test_folder_corpus_skips_hidden_pages_and_links_out(tmp_path: Path, index_dir: Path) -> None:
    """Every user reads every indexed page, so only the folder's own visible pages are indexed."""
    root = tmp_path / "docs"
    root.mkdir()
    outside = tmp_path / "private.md"
    outside.write_text("# Private\n\nsecret-canary-4471 lives here.\n")
    (root / "guide.md").write_text("# Guide\n\nThe public guide mentions secret-canary handling.\n")
    (root / ".draft.md").write_text("# Draft\n\nsecret-canary-4471 draft.\n")
    (root / "linked.md").symlink_to(outside)
    (root / "alias.md").symlink_to(root / "guide.md")  # a link that stays inside is fine
    corpus = FolderCorpus(root, "docs", index_dir, UrlRule("https://d.example"))
    tools = {t.name: t for t in create_docs_tools(corpus)}
    found = call(tools["search_docs"], query="secret canary lives draft private", limit=10)
    assert "4471" not in found and "Private" not in found and "Draft" not in found
    assert "Guide" in found
    for ref in ("linked.md", ".draft.md", "linked", str(outside)):
        assert "secret-canary-4471" not in call(tools["get_doc_page"], url_or_path=ref)
    assert "public guide" in call(tools["get_doc_page"], url_or_path="guide.md")


def _artifact(tool, **args):
    """The ToolMessage a tool call returns: the text the model reads and the artifact beside it."""
    call_ = {
        "name": tool.name,
        "args": {"feedback_to_user": "", **args},
        "id": "c1",
        "type": "tool_call",
    }
    return tool.invoke(call_)


def test_get_doc_page_returns_the_sections_it_shows_as_an_artifact(docs_tools: dict) -> None:
    msg = _artifact(docs_tools["get_doc_page"], url_or_path="https://d.example/big")
    art = msg.artifact
    assert art["url"] == "https://d.example/big" and art["title"] == "Big page"
    shown = art["sections"]
    assert shown[0] == {"heading": "", "level": 0, "anchor": "", "text": "Intro about quokkas."}
    for s in shown[1:]:
        assert f"## {s['heading']}" in msg.content and s["anchor"] == s["heading"].lower().replace(
            " ", "-"
        )
        assert s["text"][:200] in msg.content
    # Sections the page cut left out are not in the artifact either.
    assert len(shown) < 13 and "Sections left out" in msg.content
    left_out = msg.content.rsplit("Sections left out: ", 1)[1]
    assert all(s["heading"] not in left_out.split("; ") for s in shown[1:])
    one = _artifact(
        docs_tools["get_doc_page"], url_or_path="https://d.example/small", section="Setup"
    )
    assert [s["heading"] for s in one.artifact["sections"]] == ["Setup"]
    missing = _artifact(
        docs_tools["get_doc_page"], url_or_path="https://d.example/small", section="Nope"
    )
    assert missing.artifact["sections"] == [] and "No section 'Nope'" in missing.content


def test_get_article_content_returns_each_articles_sections(
    tmp_path: Path, index_dir: Path
) -> None:
    root = tmp_path / "kb"
    (root / "errors").mkdir(parents=True)
    (root / "errors" / "port.md").write_text(
        "# Port busy\n\n## Fix\n\nStop the other server first.\n"
    )
    tools = {t.name: t for t in create_kb_tools(FolderKnowledgeBase(root, index_dir))}
    msg = _artifact(tools["get_article_content"], article_ids=["errors/port", "nope"])
    [article] = msg.artifact
    assert article["id"] == "errors/port" and article["title"] == "Port busy"
    assert {
        "heading": "Fix",
        "level": 2,
        "anchor": "fix",
        "text": "Stop the other server first.",
    } in article["sections"]
    assert "Unknown article id(s): nope." in msg.content
