"""Offline answers and follow-ups over a site of each format: the site's URLs, no markup anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphs.context import Context
from graphs.docs_agent import build_docs_agent
from tests.unit.tools.sources.markup import leftovers
from tools import load_sources
from tools.settings import SourceSettings

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
URL_RE = re.compile(r"https?://[^\s)\]>`'\"]+")


@pytest.mark.parametrize(
    ("folder", "question", "page_url"),
    [
        (
            "sites/mkdocs/docs",
            "How are models validated, is the id coerced?",
            "https://docs.example.org/concepts/models/",
        ),
        (
            "sites/docusaurus/docs",
            "How do I install the client and open a session?",
            "https://example.dev/docs/getting-started",
        ),
        (
            "sphinx_site",
            "How do I skip a test function?",
            "https://docs.example.org/en/stable/how-to/skipping.html",
        ),
    ],
)
def test_offline_answers_cite_the_real_site_and_carry_no_markup(
    folder: str, question: str, page_url: str, index_dir: Path
) -> None:
    settings = SourceSettings.from_env(
        {
            "DOCS_AGENT_DOCS_DIR": str(FIXTURES / folder),
            "DOCS_AGENT_KB_DIR": "",
            "DOCS_AGENT_CODE_ROOTS": "",
            "DOCS_AGENT_INDEX_DIR": str(index_dir),
            "DOCS_AGENT_EMBEDDINGS": "off",
        }
    )
    sources = load_sources(settings)
    graph = build_docs_agent(sources=sources)
    out = graph.invoke(
        {"messages": [{"role": "user", "content": question}]}, context=Context(model="offline")
    )
    answer = out["messages"][-1]
    text = str(answer.content)
    cited = [u.rstrip(".,;:") for u in URL_RE.findall(text)]
    assert cited and cited[0].split("#")[0] == page_url, text[:800]
    for url in cited:  # every anchor cited is one the page serves
        page = sources.docs.find(url)
        anchor = url.partition("#")[2]
        assert page is not None and (
            not anchor or any(anchor in s.anchors for s in page.sections)
        ), url
    assert leftovers(text) == []
    suggests = answer.additional_kwargs.get("suggests") or []
    assert suggests
    for s in suggests:
        assert s["prompt"].endswith("?") and leftovers(s["prompt"] + "\n" + s["label"]) == []
