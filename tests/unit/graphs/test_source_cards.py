"""Source cards: each citation of an answer as `{ref, kind, title, section, url}` (contract C2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from graphs.docs_agent import build_docs_agent
from graphs.source_cards import (
    code_url,
    heading_trail,
    kb_article_url,
    parse_ref,
    resolve_ref,
    source_cards,
    written_refs,
)
from settings.sources import SourceSettings
from tests.conftest import REPO_ROOT
from tests.fixtures.fake_chat import ScriptedChatModel
from tools import Sources, load_sources


def _sources(index_dir: Path, **env: str) -> Sources:
    return load_sources(
        SourceSettings.from_env(
            {
                "DOCS_AGENT_INDEX_DIR": str(index_dir),
                "DOCS_AGENT_CODE_ROOTS": "docs-agent=.",
                "DOCS_AGENT_EMBEDDINGS": "off",
                **env,
            }
        )
    )


def _nested_section(sources: Sources) -> tuple[str, str, list[str]]:
    """A level-3 section of one of the repo's docs pages: (page URL, its anchor, its trail)."""
    for path in sorted((REPO_ROOT / "docs").glob("*.md")):
        doc = sources.docs.get(path.name)
        parent = ""
        for sec in doc.sections:
            if sec.level == 2:
                parent = sec.heading
            elif sec.level == 3 and parent and sec.anchor:
                return doc.url, sec.anchor, [parent, sec.heading]
    raise AssertionError("no level-3 section in docs/")


def test_refs_are_read_as_written_in_order_once_and_never_from_quotes() -> None:
    text = (
        "See docs/web.md#who-is-talking and `docs-agent/server/guest.py:10-20`, then KB faq/x.\n"
        "> quoted https://quoted.example.com/page is source text\n"
        "```\nhttps://in-a-fence.example.com docs/fenced.md\n```\n"
        "Example value `http://127.0.0.1:8123` is no citation; https://docs.example.com/a#b.\n"
        "Again docs/web.md#who-is-talking, and docs/web.md:3-4 is a code range."
    )
    assert written_refs(text) == [
        "docs/web.md#who-is-talking",
        "docs-agent/server/guest.py:10-20",
        "KB faq/x",
        "https://docs.example.com/a#b",
        "docs/web.md:3-4",
    ]


def test_parse_ref_kinds_and_refusals() -> None:
    code = parse_ref("docs-agent/server/guest.py:20-10")
    assert code is not None and (code.kind, code.target, code.start, code.end) == (
        "code",
        "docs-agent/server/guest.py",
        10,
        20,
    )
    kb = parse_ref("KB errors/401-unauthorized")
    assert kb is not None and (kb.kind, kb.target) == ("kb", "errors/401-unauthorized")
    page = parse_ref("https://docs.example.com/guide/x#anchor")
    assert page is not None and (page.kind, page.target, page.anchor) == (
        "page",
        "https://docs.example.com/guide/x",
        "anchor",
    )
    for junk in ("", "javascript:alert(1)", "../../etc/passwd", "docs/x.md\n#a", "KB", "x" * 3000):
        assert parse_ref(junk) is None, junk


def test_doc_card_without_a_site_names_title_and_section_and_has_no_url(index_dir: Path) -> None:
    sources = _sources(index_dir)
    page, anchor, trail = _nested_section(sources)
    card = resolve_ref(f"{page}#{anchor}", sources).card
    assert card == {
        "ref": f"{page}#{anchor}",
        "kind": "doc",
        "title": sources.docs.find(page).title,
        "section": trail,
        "url": None,
    }
    # An anchor the page does not have opens the page: no section, still a card.
    assert resolve_ref(f"{page}#no-such-section", sources).card["section"] == []
    assert resolve_ref("docs/no-such-page.md", sources) is None


def test_doc_card_with_a_site_opens_the_exact_section(index_dir: Path) -> None:
    sources = _sources(index_dir, DOCS_AGENT_DOCS_BASE_URL="https://docs.example.com/product")
    url, anchor, trail = _nested_section(sources)
    assert url.startswith("https://docs.example.com/product")
    card = resolve_ref(f"{url}#{anchor}", sources).card
    assert card["url"] == f"{url}#{anchor}" and card["section"] == trail and card["kind"] == "doc"


def test_kb_cards_use_the_articles_address_else_the_configured_help_center(
    index_dir: Path,
) -> None:
    plain = resolve_ref("KB errors/401-unauthorized", _sources(index_dir)).card
    assert plain["kind"] == "kb" and plain["url"] is None and "401" in plain["title"]
    # The article's path as the answer also writes it is the same article.
    path = resolve_ref("kb/errors/401-unauthorized.md", _sources(index_dir)).card
    assert path["kind"] == "kb" and path["title"] == plain["title"]
    hc = _sources(index_dir, DOCS_AGENT_KB_BASE_URL="https://help.example.com/articles/{id}")
    assert (
        resolve_ref("KB errors/401-unauthorized", hc).card["url"]
        == "https://help.example.com/articles/errors/401-unauthorized"
    )
    assert kb_article_url("https://help.example.com/hc/", "360 1") == (
        "https://help.example.com/hc/360%201"
    )
    assert resolve_ref("KB errors/no-such-article", hc) is None


def test_code_cards_link_to_the_configured_repository_in_its_host_style(index_dir: Path) -> None:
    plain = resolve_ref("docs-agent/server/guest.py:10-20", _sources(index_dir)).card
    assert plain == {
        "ref": "docs-agent/server/guest.py:10-20",
        "kind": "code",
        "title": "docs-agent/server/guest.py",
        "section": [],
        "url": None,
    }
    github = _sources(
        index_dir, DOCS_AGENT_CODE_URLS="docs-agent=https://github.com/org/repo/blob/main"
    )
    # A path relative to the root (no label) is the same file, linked under its root.
    assert (
        resolve_ref("server/guest.py:10-20", github).card["url"]
        == "https://github.com/org/repo/blob/main/server/guest.py#L10-L20"
    )
    assert code_url("https://gitlab.com/g/r/-/blob/main", "a b.py", 3, 7) == (
        "https://gitlab.com/g/r/-/blob/main/a%20b.py#L3-7"
    )
    assert code_url("https://bitbucket.org/t/r/src/main", "x.py", 5, 5) == (
        "https://bitbucket.org/t/r/src/main/x.py#lines-5"
    )
    assert code_url("https://code.example.com/r?f={path}&l={start}-{end}", "x.py", 1, 2) == (
        "https://code.example.com/r?f=x.py&l=1-2"
    )


def test_code_refs_are_confined_like_the_code_tools(index_dir: Path) -> None:
    sources = _sources(index_dir)
    for ref in (
        "docs-agent/.env.example:1-2",  # hidden file
        "docs-agent/../../etc/passwd.txt:1",  # outside the root
        "docs-agent/no/such/file.py:1-2",
    ):
        assert resolve_ref(ref, sources) is None, ref


def test_settings_refuse_addresses_a_browser_cannot_open() -> None:
    with pytest.raises(ValueError, match="DOCS_AGENT_KB_BASE_URL"):
        SourceSettings.from_env({"DOCS_AGENT_KB_BASE_URL": "javascript:alert(1)"})
    with pytest.raises(ValueError, match="label=URL"):
        SourceSettings.from_env({"DOCS_AGENT_CODE_URLS": "https://github.com/org/repo"})
    settings = SourceSettings.from_env(
        {"DOCS_AGENT_CODE_URLS": "a=https://github.com/o/a/blob/main, b=https://gitlab.com/o/b"}
    )
    assert settings.code_urls == (
        ("a", "https://github.com/o/a/blob/main"),
        ("b", "https://gitlab.com/o/b"),
    )


def test_heading_trail_walks_up_the_levels() -> None:
    from tools.sources.records import Section

    secs = [
        Section("Title", 0, "", ""),
        Section("Setup", 2, "", "setup"),
        Section("Linux", 3, "", "linux"),
        Section("Other", 2, "", "other"),
        Section("Deep", 4, "", "deep", ids=("deep-alias",)),
    ]
    assert heading_trail(secs, "linux", "Title") == ["Setup", "Linux"]
    assert heading_trail(secs, "deep-alias", "Title") == ["Other", "Deep"]
    assert heading_trail(secs, "", "Title") == [] and heading_trail(secs, "none") == []


def test_a_help_center_article_cited_by_its_address_is_a_kb_card(index_dir: Path) -> None:
    read = ToolMessage(
        "...",
        tool_call_id="t1",
        name="get_article_content",
        artifact=[{"id": "360", "title": "Reset keys", "url": "https://help.example.com/a/360"}],
    )
    cards = source_cards("See https://help.example.com/a/360.", _sources(index_dir), [read])
    assert cards == [
        {
            "ref": "https://help.example.com/a/360",
            "kind": "kb",
            "title": "Reset keys",
            "section": [],
            "url": "https://help.example.com/a/360",
        }
    ]


async def test_the_citation_check_writes_a_card_per_citation_on_the_answer(
    index_dir: Path, fake_model: Callable[..., ScriptedChatModel]
) -> None:
    sources = _sources(index_dir)
    page, anchor, trail = _nested_section(sources)
    fake_model(
        [
            AIMessage(
                f"Read {page}#{anchor}, KB errors/401-unauthorized and "
                "`docs-agent/server/guest.py:1-5`; not docs/made-up.md."
            ),
            AIMessage(
                json.dumps({"suggests": [{"label": "More", "prompt": "More?", "position": 0}]})
            ),
        ]
    )
    agent = build_docs_agent(tools=[], sources=sources)
    out = await agent.ainvoke({"messages": [HumanMessage("How do guests work?")]})
    answer = out["messages"][-1]
    cards = answer.additional_kwargs["sources"]
    assert [c["ref"] for c in cards] == [
        f"{page}#{anchor}",
        "KB errors/401-unauthorized",
        "docs-agent/server/guest.py:1-5",
    ]
    assert [c["kind"] for c in cards] == ["doc", "kb", "code"] and cards[0]["section"] == trail
    assert "made-up" not in answer.text  # removed by the check: no card either
    assert "suggests" in answer.additional_kwargs  # the suggestions step keeps the cards beside
