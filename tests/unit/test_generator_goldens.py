"""The generator goldens (tests/fixtures/generators) are well-formed and agree with their built pages.

The goldens are the ground truth the generator readers are tested against, so a golden that
names a page, anchor or block the kept build does not have would make those tests lie. This
file never builds anything: ``build_goldens.py`` does that on a developer's machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.generators.htmltree import HEADING_TAGS, Node, normalize, parse

GOLDENS = Path(__file__).resolve().parents[1] / "fixtures" / "generators"
FIXTURES = sorted(p.parent for p in GOLDENS.glob("*/*/expected.json"))
GENERATORS = {"vitepress", "starlight", "mdbook", "gitbook", "hugo", "quarto", "antora"}
PAGE_KEYS = {"source", "built", "url", "locale", "title", "h1", "headings"}


def _load(fixture: Path) -> dict[str, Any]:
    golden: dict[str, Any] = json.loads((fixture / "expected.json").read_text())
    return golden


def _ids(doc: Node) -> set[str]:
    return {node.id for node in doc.iter() if node.id}


@pytest.fixture(params=FIXTURES, ids=lambda p: p.relative_to(GOLDENS).as_posix())
def fixture(request: pytest.FixtureRequest) -> Path:
    return Path(request.param)


def test_every_generator_has_a_golden() -> None:
    assert {p.parent.name for p in FIXTURES} == GENERATORS


def test_golden_is_well_formed(fixture: Path) -> None:
    golden = _load(fixture)
    assert golden["schema"] == 1
    assert golden["generator"] == fixture.parent.name
    assert golden["generator_version"]
    assert golden["provenance"] in {"built", "rules-derived"}
    if golden["provenance"] == "rules-derived":
        assert golden["derived_from"], "a rules-derived golden says which rules it follows"
    for key in ("name", "modelled_on", "licence", "text"):
        assert golden["project"][key]
    assert (fixture / "NOTICE").is_file(), "each excerpt names its project, licence and origin"
    source = fixture / "source"
    pages = golden["pages"]
    assert pages
    assert len({p["source"] for p in pages}) == len(pages)
    assert len({p["url"] for p in pages}) == len(pages)
    for page in pages:
        assert set(page) == PAGE_KEYS, page["source"]
        assert (source / page["source"]).is_file(), page["source"]
        assert page["url"].startswith("/")
        assert page["locale"] == "" or page["locale"] in golden["site"]["locales"]
        ids = [h["id"] for h in page["headings"] if h["id"]]
        assert len(ids) == len(set(ids)), f"{page['source']}: anchors repeat"
        for heading in page["headings"]:
            assert heading["level"] in range(1, 7) or heading.get("tag") == "dt"
            assert isinstance(heading["text"], str)
    page_sources = {p["source"] for p in pages}
    for entry in golden["not_pages"]:
        assert entry["reason"]
        if entry["source"] is not None:
            assert (source / entry["source"]).is_file(), entry["source"]
            assert entry["source"] not in page_sources
    anchors = {p["source"]: {h["id"] for h in p["headings"]} | {""} for p in pages}
    for item in golden["blocks"] + golden["snippets"] + golden["rendered"]:
        assert item["page"] in anchors, item
        assert item["section"] is None or item["section"] in anchors[item["page"]], item
    for block in golden["blocks"]:
        assert block["kind"] and isinstance(block["text"], str)
    for snippet in golden["snippets"]:
        assert snippet["directive"]
        if snippet["file"] is not None:
            assert (source / snippet["file"]).is_file(), snippet["file"]


def _page_text(doc: Node) -> str:
    """What the page shows, with the labels icons carry in their title (Antora's font icons)."""
    titles = " ".join(n.attrs["title"] for n in doc.iter() if n.tag == "i" and "title" in n.attrs)
    return doc.text() + " " + titles


def test_built_pages_carry_every_golden_fact(fixture: Path) -> None:
    golden = _load(fixture)
    built = fixture / "built"
    if golden["provenance"] == "rules-derived":
        assert all(page["built"] is None or not built.exists() for page in golden["pages"])
        pytest.skip("rules-derived: no build of this generator could run here")
    docs: dict[str, Node] = {}
    for page in golden["pages"]:
        html_file = built / page["built"]
        assert html_file.is_file(), page["built"]
        html = html_file.read_text()
        assert "<script" not in html, f"{page['built']}: the kept page is trimmed of scripts"
        doc = parse(html)
        docs[page["source"]] = doc
        ids = _ids(doc)
        title = doc.find(lambda n: n.tag == "title")
        assert (title.text() if title else None) == page["title"]
        for heading in page["headings"]:
            if heading["id"]:
                assert heading["id"] in ids, f"{page['built']}: no #{heading['id']}"
        headings_text = " ".join(n.text() for n in doc.iter() if n.tag in HEADING_TAGS)
        for heading in page["headings"]:
            assert normalize(heading["text"]).split(" ")[0] in headings_text, heading
    for generated in golden["generated"]:
        if generated.get("kept"):
            assert (built / generated["html"]).is_file(), generated["html"]
    for block in golden["blocks"]:
        text = _page_text(docs[block["page"]])
        for label in block.get("labels", []):
            assert label in text, (block["kind"], label)
        if block.get("title"):
            assert block["title"] in text, block
        for piece in block["text"].split(" | "):
            label, _, body = piece.partition(": ")
            piece_text = body if label in block.get("labels", []) else piece
            assert piece_text in text, (block["page"], block["kind"], piece_text)
    for snippet in golden["snippets"]:
        if snippet["text"]:
            text = _page_text(docs[snippet["page"]])
            assert snippet["text"][:40] in text, snippet
    for rendered in golden["rendered"]:
        assert rendered["source_text"] not in rendered["text"]
        assert rendered["text"] in _page_text(docs[rendered["page"]]), rendered


def test_kept_built_pages_are_small() -> None:
    """The committed builds stay excerpts: no page over 64 KiB, all together under 1.5 MiB."""
    sizes = [p.stat().st_size for p in GOLDENS.glob("*/*/built/**/*.html")]
    assert sizes
    assert max(sizes) < 64 * 1024
    assert sum(sizes) < 1536 * 1024
