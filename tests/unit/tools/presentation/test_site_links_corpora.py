"""Every link in every section the docs tools show, on each real corpus in ../shared, is a URL of
the real site or the web: absolute `http(s)`/`mailto`, a page the MANIFEST lists (with an anchor
its page serves, where one of its sections has that id), or what a root-relative link means on
the site. Skipped, with the reason, when a corpus is absent.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from bench import corpora
from bench.retrieval import open_sources
from tools.presentation.render import render_document_parts
from tools.presentation.site_links import page_links, source_links

SHARED = Path(__file__).resolve().parents[4] / ".." / "shared"
# A Markdown link or image (outside code, which is cut out first): its destination.
_LINK_RE = re.compile(
    r"!?\[(?:`(?:[^`\n\]]|\](?!\())*`|[^\[\]\n`]|`)*\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)?)"
    r"(?:\s+\"[^\"\n]*\")?\)"
)
_CODE_RE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)
_ROOT_RELATIVE_RE = re.compile(r"\]\((/[^/][^)\s#]*|/)(?:#[^)\s]*)?[)\s]")


def shown_links(source: Any, limit: int = 10**9) -> tuple[Counter[str], list[str]]:
    """Counts of the links in every page as the read tool shows it, and the ones that break a rule."""
    pages = source_links(source)
    docs = {key: source.get(key) for key in source.index.keys()}
    served = {d.url: {a for s in d.sections for a in s.anchors} for d in docs.values()}
    counts: Counter[str] = Counter()
    bad: list[str] = []
    for key, doc in docs.items():
        written = "\n".join(s.text for s in doc.sections)
        counts["written"] += len(_LINK_RE.findall(_CODE_RE.sub(" ", written)))
        root_relative = {
            urljoin(doc.url, m.group(1)).rstrip("/") for m in _ROOT_RELATIVE_RE.finditer(written)
        }
        _, shown = render_document_parts(doc, limit=limit, links=page_links(doc.url, key, pages))
        for section in shown:
            for url in _LINK_RE.findall(_CODE_RE.sub(" ", section["text"])):
                counts["shown"] += 1
                base, _, fragment = url.partition("#")
                if not url.startswith(("http://", "https://", "mailto:")):
                    bad.append(f"{key}: not absolute: {url}")
                elif base in served:
                    counts["site page"] += 1
                    if fragment:
                        anchors = served[base]
                        counts["with anchor"] += 1
                        if fragment in anchors:
                            counts["anchor served"] += 1
                        elif fragment.lower() in {a.lower() for a in anchors}:
                            bad.append(f"{key}: anchor not the served form: {url}")
                        else:
                            counts["anchor kept as written"] += 1
                elif base.rstrip("/") in root_relative:
                    counts["root-relative, no page"] += 1
                else:
                    counts["external"] += 1
    return counts, bad


def corpus(name: str) -> corpora.Corpus:
    desc = corpora.resolve(name)
    if not (desc.docs_dir / "MANIFEST.jsonl").is_file():
        pytest.skip(f"reference corpus not found at {desc.folder}")
    return desc


@pytest.mark.parametrize("name", ["langchain", "pydantic", "pytest"])
def test_every_shown_link_is_a_url_of_the_site_or_the_web(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    desc = corpus(name)
    docs, kb = open_sources(desc, tmp_path)
    manifest = {row.get("url") or row.get("source_url") for row in desc.manifest()}
    # Every page the index holds is cited at the URL the manifest gives it (tested with the
    # profiles); so a link to an indexed page is a link to a MANIFEST URL.
    assert {d.url for d in map(docs.get, docs.index.keys()) if d} <= manifest
    counts, bad = shown_links(docs)
    if kb is not None and getattr(kb, "index", None) is not None:
        kb_counts, kb_bad = shown_links(kb)
        counts.update({f"kb {k}": v for k, v in kb_counts.items()})
        bad += kb_bad
    with capsys.disabled():
        print(f"\n{name}: {dict(counts)}")
    assert bad == [], "\n".join(bad)
    assert counts["site page"] > 0


def test_a_cut_page_shows_the_same_sections_with_and_without_link_rewriting(
    tmp_path: Path,
) -> None:
    # Which sections a capped page shows is decided on the text as written: the rewriting
    # changes links, never what the model (and the offline quotes) get to read.
    desc = corpus("pydantic")
    docs, _ = open_sources(desc, tmp_path)
    pages = source_links(docs)
    for key in docs.index.keys():
        doc = docs.get(key)
        plain = [s["heading"] for s in render_document_parts(doc)[1]]
        linked = render_document_parts(doc, links=page_links(doc.url, key, pages))[1]
        assert [s["heading"] for s in linked] == plain, key
